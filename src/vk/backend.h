// The Vulkan solvers, made in one place (issue 47): XPBD and PBD (vk/gpu_solver.h), mass-spring
// (vk/mass_spring_gpu.h) and projective dynamics' Jacobi iteration (vk/pd_jacobi_gpu.h), chosen by
// the prepared scene's model; the implicit FEM runs on the CPU reference only.
#pragma once

#include <memory>

#include "prep/prepared.h"
#include "sim/solver.h"
#include "vk/gpu_solver_options.h"

namespace cloth::vk {

// Throws cloth::Error for a model the GPU does not run, or a device it cannot use.
std::unique_ptr<Solver> makeGpuSolver(SharedCloth prepared,
                                      const GpuSolverOptions& options = {});
// The same from the caller's own `prepared` (tests): XPBD's solver uploads it and keeps nothing;
// the other models' solvers get a copy.
std::unique_ptr<Solver> makeGpuSolver(const PreparedCloth& prepared,
                                      const GpuSolverOptions& options = {});

}  // namespace cloth::vk
