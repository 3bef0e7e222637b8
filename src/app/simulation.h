// Loading a scene for clothsim: resolve, apply command-line overrides, prepare, create the
// backend; and the headless run loop with the exports (app/exporters.h) and statistics.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "app/backend.h"
#include "app/options.h"
#include "core/scene.h"
#include "prep/prepared.h"
#include "sim/solver.h"

namespace cloth {

struct Simulation {
    Scene scene;
    // One block, shared with the solver; replaced in place (the exporters read it) once the
    // solver is gone.
    std::shared_ptr<PreparedCloth> prepared = std::make_shared<PreparedCloth>();
    Backend backend;  // the GPU's context when the solver runs there
    BackendRequest request;
    std::unique_ptr<Solver> solver;
};

// Sewing's stage 2 after a frame (app/sewing_step.h): when seam pairs merged, replaces
// sim.prepared and re-creates sim.solver from it; returns how many pairs merged.
std::uint32_t sewAfterFrame(Simulation& sim, std::ostream& notices);

// `progress`: where the preparation of a large scene reports its stages (app/progress.h's
// PreparationProgress: a standard stream, in its progress mode); null: nowhere.
Simulation loadSimulation(const Options& options, std::ostream& notices,
                          std::ostream* progress = nullptr);

// Throws cloth::Error when a position is NaN or infinite (the simulation diverged).
void checkFinite(const std::vector<glm::vec4>& positions, std::uint32_t count, int frame);

constexpr int kDefaultHeadlessFrames = 300;

// Runs the scene without a window; prints a summary on `out`. Returns the exit code.
int runHeadless(const Options& options, std::ostream& out, std::ostream& notices);

}  // namespace cloth
