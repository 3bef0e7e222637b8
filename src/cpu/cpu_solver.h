// The CPU reference solver: the same stages over the same PreparedCloth batches as the Vulkan
// solver, colours in sequence, each colour's constraints in parallel on a thread team sized to
// the cloth (a small cloth runs on one thread: its stages are too short to share).
// Results are bit-identical for any thread count: within a colour no two constraints share a
// vertex, and every reduction is summed over fixed chunks in a fixed order.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

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
// count or kernels this CPU lacks. A scene of model mass_spring gets that model's solver
// (cpu/mass_spring.h; threads and kernels then do not apply).
std::unique_ptr<Solver> makeCpuSolver(const PreparedCloth& prepared, int threads,
                                      std::optional<BatchIsa> kernels = std::nullopt,
                                      std::uint32_t workPerThread = kCpuWorkPerThread);

}  // namespace cloth
