#include "cpu/backend.h"

#include <string>

#include "core/error.h"
#include "cpu/cpu_solver.h"
#include "cpu/fem.h"
#include "cpu/mass_spring.h"
#include "cpu/projective.h"
#include "prep/model_checks.h"

namespace cloth {

std::unique_ptr<Solver> makeCpuSolver(SharedCloth prepared, int threads,
                                      std::optional<BatchIsa> kernels, std::uint32_t workPerThread) {
    if (threads < 1 || threads > 1024)
        throw Error("--threads must be between 1 and 1024, got " + std::to_string(threads));
    refuseWhatTheModelLacks(*prepared, SolverBackend::Cpu);
    if (prepared->sim.model == ClothModel::MassSpring)  // workPerThread 0: every thread (tests)
        return makeMassSpringSolver(std::move(prepared), threads,
                                    workPerThread == 0 ? 0u : kVerticesPerSpringThread);
    if (prepared->sim.model == ClothModel::Fem)
        return makeFemSolver(std::move(prepared), threads,
                             workPerThread == 0 ? 0u : kVerticesPerFemThread);
    if (prepared->sim.model == ClothModel::Projective)
        return makeProjectiveSolver(std::move(prepared), threads,
                                    workPerThread == 0 ? 0u : kVerticesPerPdThread);
    const BatchIsa isa = kernels.value_or(bestBatchIsa());
    if (!batchIsaAvailable(isa))
        throw Error(std::string("CPU kernels '") + batchIsaName(isa) +
                    "' are not available on this CPU (" + cpuModelName() + ")");
    return makeXpbdCpuSolver(std::move(prepared), threads, isa, workPerThread);
}

}  // namespace cloth
