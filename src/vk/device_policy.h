// Device policy of the GPU solver: what it chooses per device where the options leave it open
// (items per invocation, colour batching, 64-bit memory access, colour runs), and the checks of
// the options against the device's limits. Each choice says what it measured.
#pragma once

#include <cstdint>
#include <string>

#include "vk/context.h"
#include "vk/gpu_solver_options.h"
#include "vk/solver_resources.h"

namespace cloth::vk::detail::policy {

std::uint32_t chooseItems(const Context& ctx, std::uint32_t requested);
bool chooseTogether(const Context& ctx, ColorBatching batching);
bool chooseWide(const Context& ctx, MemoryAccess access);
std::uint32_t chooseRunItems(const Context& ctx, const GpuSolverOptions& o);
std::uint32_t chooseRunWorkgroup(const Context& ctx, const GpuSolverOptions& o);
std::uint32_t minGroupsFor(std::uint32_t items);
// cloth::Error unless `wg` is a power of two within the device's limits, and the device allows
// the solver's storage buffers per shader.
void checkWorkgroupSize(const Context& ctx, std::uint32_t wg,
                        const std::string& what = "workgroup size");
// The most storage buffers any one of the solver's pipeline layouts binds.
std::uint32_t storageBuffersPerPipeline();

}  // namespace cloth::vk::detail::policy

namespace cloth::vk::detail {

// The dispatch policy of one solver: the choices above made once for its device and options,
// and the workgroup counts and specialisations they give.
struct DispatchPolicy {
    DispatchPolicy(const Context& ctx, const GpuSolverOptions& o);

    std::uint32_t wg = 64;
    std::uint32_t items = 1;          // most items per invocation
    std::uint32_t minGroups = 1;      // fewest workgroups per dispatch (when there are enough items)
    bool together = true;             // both constraint types of a colour in one dispatch
    std::uint32_t togetherBelow = 0;  // ... or only for colours of fewer items than this
    std::uint32_t runItems = 0;       // colour runs: colours of at most this many items
    std::uint32_t runWg = 0;          // ... solved by a workgroup of this size
    bool wide = false;                // 64-bit memory accesses in the shaders
    std::uint32_t fault = 0;          // FAULT_* (GpuSolverOptions::Fault): clothcheck --inject

    // Workgroups for n items: one item per invocation, fewer invocations (up to `items` each)
    // on CPU devices while at least `minGroups` workgroups remain.
    std::uint32_t groupsFor(std::uint64_t n) const;
    Spec spec(std::uint32_t variant = 0, std::uint32_t lambda = 0) const {
        return {variant, lambda, items > 1, fault};
    }
};

}  // namespace cloth::vk::detail
