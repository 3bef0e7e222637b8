// Projective dynamics with the Jacobi global step on Vulkan (docs/models.md "Projective
// dynamics"): shaders/pd_jacobi.comp over the CPU reference's terms and layout (prep/pd_jacobi.h),
// one invocation per term for the local step and per vertex for the sweep, tethers and finish:
// the same bits as cpu/pd_jacobi.cpp with cpu/post_step.cpp. A frame is one command buffer,
// submitted and waited for; positions are read back for rendering.
#pragma once

#include <memory>

#include "prep/prepared.h"
#include "sim/solver.h"
#include "vk/gpu_solver.h"

namespace cloth::vk {

// Throws cloth::Error for what the model does not run (prep/projective.h), for the direct (gs)
// scheme, whose LDLT global step runs on the CPU only, and for a scene not of model pd.
std::unique_ptr<Solver> makeGpuProjectiveSolver(SharedCloth prepared,
                                                const GpuSolverOptions& options);
// The same from a copy of `prepared` (a caller that keeps and changes its own: tests).
inline std::unique_ptr<Solver> makeGpuProjectiveSolver(const PreparedCloth& prepared,
                                                       const GpuSolverOptions& options) {
    return makeGpuProjectiveSolver(shareCopy(prepared), options);
}

}  // namespace cloth::vk
