#include "vk/backend.h"

#include "vk/gpu_solver.h"
#include "vk/mass_spring_gpu.h"
#include "vk/pd_jacobi_gpu.h"
#include "prep/model_checks.h"

namespace cloth::vk {

std::unique_ptr<Solver> makeGpuSolver(SharedCloth prepared,
                                      const GpuSolverOptions& options) {
    refuseWhatTheModelLacks(*prepared, SolverBackend::Gpu);
    if (prepared->sim.model == ClothModel::MassSpring)
        return makeGpuMassSpringSolver(std::move(prepared), options);
    if (prepared->sim.model == ClothModel::Projective)
        return makeGpuProjectiveSolver(std::move(prepared), options);
    return std::make_unique<GpuSolver>(*prepared, options);  // (uploads it: keeps nothing)
}

std::unique_ptr<Solver> makeGpuSolver(const PreparedCloth& prepared,
                                      const GpuSolverOptions& options) {
    if (prepared.sim.model == ClothModel::MassSpring || prepared.sim.model == ClothModel::Projective)
        return makeGpuSolver(shareCopy(prepared), options);
    refuseWhatTheModelLacks(prepared, SolverBackend::Gpu);
    return std::make_unique<GpuSolver>(prepared, options);
}

}  // namespace cloth::vk
