// What each cloth model runs on each backend: one table (model_support.cpp), checked before a
// scene is prepared (app/simulation.cpp, with what the scene says) and again by every solver's
// factory and by the viewer's scene switch (with what preparation made, phantoms included), with
// one message format: "model M on the B: F is not built for it; R" (docs/models.md, the table below the models).
#pragma once

#include <optional>
#include <string>

#include "core/scene.h"

namespace cloth {

enum class SolverBackend { Cpu, Gpu };
const char* solverBackendName(SolverBackend b);  // "CPU reference" | "GPU"

// What a run asks of its model: from the scene's settings (phantoms: whether the prepared cloth
// has phantom vertices; before preparation, false: whether it gets any depends on the mesh).
struct ModelFeatures {
    ClothModel model = ClothModel::Xpbd;
    SolverMode mode = SolverMode::Xpbd;
    IterationScheme scheme = IterationScheme::GaussSeidel;
    bool selfCollision = false;
    bool sequentialSelfOrder = false;  // self_collision.order "sequential"
    bool phantoms = false;
};
ModelFeatures modelFeatures(const SimSettings& sim, bool phantoms = false);

// The first thing `backend` does not run for these features, as one message; nothing when it
// runs them all.
std::optional<std::string> unsupported(const ModelFeatures& f, SolverBackend backend);
// The same, thrown as cloth::Error.
void requireSupported(const ModelFeatures& f, SolverBackend backend);

}  // namespace cloth
