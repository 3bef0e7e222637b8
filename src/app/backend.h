// Chooses and creates the solver backend for clothsim, clothbench and clothcheck.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "prep/prepared.h"
#include "sim/solver.h"

namespace cloth {

struct BackendRequest {
    std::string backend = "auto";  // cpu | gpu | auto
    std::optional<int> threads;    // CPU threads (default: all hardware threads)
    std::optional<int> device;     // Vulkan device index
    bool validate = false;         // Vulkan validation layer
};

// Creates the requested backend. "auto" prefers the GPU and falls back to the CPU with a one-line
// notice on `notices`. Throws cloth::Error when an explicitly requested backend is unavailable.
std::unique_ptr<Solver> createSolver(const BackendRequest& request, const PreparedCloth& prepared,
                                     std::ostream& notices);

}  // namespace cloth
