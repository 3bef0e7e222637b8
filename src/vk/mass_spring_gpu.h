// The mass-spring model on Vulkan (docs/models.md): shaders/mass_spring.comp over the CPU
// reference's springs, incidence and steps (prep/springs.h), one invocation per vertex: the same
// bits as cpu/mass_spring.cpp. A frame is one command buffer (per step: forces, moves, tethers,
// with a barrier after each), submitted and waited for; positions are read back for rendering.
#pragma once

#include <memory>

#include "prep/prepared.h"
#include "sim/solver.h"
#include "vk/gpu_solver.h"

namespace cloth::vk {

// Throws cloth::Error as cpu/mass_spring.h's makeMassSpringSolver does for what the model does
// not run, and for a scene that is not of model mass_spring.
std::unique_ptr<Solver> makeGpuMassSpringSolver(SharedCloth prepared,
                                                const GpuSolverOptions& options);
// The same from a copy of `prepared` (a caller that keeps and changes its own: tests).
inline std::unique_ptr<Solver> makeGpuMassSpringSolver(const PreparedCloth& prepared,
                                                       const GpuSolverOptions& options) {
    return makeGpuMassSpringSolver(shareCopy(prepared), options);
}

}  // namespace cloth::vk
