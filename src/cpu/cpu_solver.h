// The CPU reference solver: the same stages over the same PreparedCloth batches as the Vulkan
// solver, colours in sequence, each colour's constraints in parallel on a fixed thread team.
// Results are bit-identical for any thread count: within a colour no two constraints share a
// vertex, and every reduction is summed over fixed chunks in a fixed order.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "cpu/batch_kernels.h"
#include "prep/prepared.h"
#include "sim/solver.h"

namespace cloth {

// threads >= 1. kernels: how each colour's batch is solved (default: bestBatchIsa()); every
// choice gives the same bits. Throws cloth::Error for an impossible count or kernels this CPU
// lacks.
std::unique_ptr<Solver> makeCpuSolver(const PreparedCloth& prepared, int threads,
                                      std::optional<BatchIsa> kernels = std::nullopt);

// "model name" of the first processor in /proc/cpuinfo, or "unknown CPU".
std::string cpuModelName();

// Threads used when the user asks for none in particular: the hardware concurrency (>= 1).
int defaultThreadCount();

}  // namespace cloth
