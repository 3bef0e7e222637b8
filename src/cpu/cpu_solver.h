// The CPU reference solver: the same stages over the same PreparedCloth batches as the Vulkan
// solver, colours in sequence, each colour's constraints in parallel on a thread team sized to
// the cloth (a small cloth runs on one thread: its stages are too short to share).
// Results are bit-identical for any thread count: within a colour no two constraints share a
// vertex, and every reduction is summed over fixed chunks in a fixed order.
#pragma once

#include <cstdint>
#include <memory>

#include "cpu/batch_kernels.h"
#include "cpu/team.h"
#include "prep/prepared.h"
#include "sim/solver.h"

namespace cloth {

// The XPBD and PBD solver (cpu/backend.h's makeCpuSolver chooses it by the scene's model and
// checks its arguments): threads >= 1, kernels available on this CPU.
std::unique_ptr<Solver> makeXpbdCpuSolver(SharedCloth prepared, int threads,
                                          BatchIsa kernels, std::uint32_t workPerThread);
// The same from a copy of `prepared` (a caller that keeps and changes its own: tests).
inline std::unique_ptr<Solver> makeXpbdCpuSolver(const PreparedCloth& prepared, int threads,
                                                 BatchIsa kernels, std::uint32_t workPerThread) {
    return makeXpbdCpuSolver(shareCopy(prepared), threads, kernels, workPerThread);
}

}  // namespace cloth
