// The CPU reference's solvers, made in one place (issue 47): XPBD and PBD (cpu/cpu_solver.h),
// mass-spring (cpu/mass_spring.h), projective dynamics (cpu/projective.h) and the implicit FEM
// (cpu/fem.h), chosen by the prepared scene's model.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "cpu/batch_kernels.h"
#include "cpu/cpu_info.h"  // cpuModelName, defaultThreadCount
#include "cpu/team.h"
#include "prep/prepared.h"
#include "sim/solver.h"

namespace cloth {

// threads >= 1: the most threads a frame runs on (cpuTeamSize picks how many it does; any
// number gives the same bits). kernels: how each colour's batch is solved (default:
// bestBatchIsa()); every choice gives the same bits. workPerThread: 0 runs every frame on all
// the threads (the tests of thread-count determinism). Throws cloth::Error for an impossible
// count or kernels this CPU lacks. A scene of another model gets that model's solver (kernels
// then do not apply; workPerThread 0 still runs every frame on all the threads).
std::unique_ptr<Solver> makeCpuSolver(SharedCloth prepared, int threads,
                                      std::optional<BatchIsa> kernels = std::nullopt,
                                      std::uint32_t workPerThread = kCpuWorkPerThread);
// The same from a copy of `prepared` (a caller that keeps and changes its own: tests).
inline std::unique_ptr<Solver> makeCpuSolver(const PreparedCloth& prepared, int threads,
                                             std::optional<BatchIsa> kernels = std::nullopt,
                                             std::uint32_t workPerThread = kCpuWorkPerThread) {
    return makeCpuSolver(shareCopy(prepared), threads, kernels, workPerThread);
}

}  // namespace cloth
