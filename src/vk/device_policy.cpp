#include "vk/device_policy.h"

#include <algorithm>
#include <bit>
#include <thread>

#include "core/error.h"
#include "kernels/solver_io.h"

namespace cloth::vk::detail::policy {

// Items per invocation: 1 unless asked. On lavapipe a loop in a shader runs its body once more
// with no lane active, which costs more than the invocations it saves (measured with callgrind).
std::uint32_t chooseItems(const Context&, std::uint32_t requested) {
    return requested > 0 ? requested : 1u;
}

bool chooseTogether(const Context& ctx, ColorBatching batching) {
    if (batching != ColorBatching::Auto) return batching == ColorBatching::BothTypes;
    return ctx.info().type != VK_PHYSICAL_DEVICE_TYPE_CPU;
}

bool chooseWide(const Context& ctx, MemoryAccess access) {
    bool can = ctx.features().shaderInt64 == VK_TRUE;
    if (access == MemoryAccess::Wide && !can)
        throw Error("64-bit memory access asked for, but " + ctx.info().name +
                    " has no shaderInt64");
    if (access != MemoryAccess::Auto) return access == MemoryAccess::Wide;
    return can && ctx.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU;
}

std::uint32_t chooseRunItems(const Context& ctx, const GpuSolverOptions& o) {
    if (o.colorRunItems) return *o.colorRunItems;
    return ctx.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU ? kCpuDeviceColorRunItems
                                                          : o.workgroupSize;
}

// A run's workgroup: on CPU devices 64 invocations whatever the other kernels use (llvmpipe
// steps through every group of 8 invocations at each barrier, so wide workgroups make small
// colours dear: at 32x32, 0.36 ms per substep with 64 against 0.54 with 256); on GPUs the
// workgroup size of the other kernels.
std::uint32_t chooseRunWorkgroup(const Context& ctx, const GpuSolverOptions& o) {
    if (o.colorRunWorkgroupSize) return o.colorRunWorkgroupSize;
    return ctx.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU ? kCpuDeviceColorRunWorkgroupSize
                                                          : o.workgroupSize;
}

// Workgroups a CPU device needs to keep its threads busy (GPUs get one item per invocation).
std::uint32_t minGroupsFor(std::uint32_t items) {
    return items > 1 ? 4u * std::max(1u, std::thread::hardware_concurrency()) : 1u;
}


void checkWorkgroupSize(const Context& ctx, std::uint32_t wg, const std::string& what) {
    const auto& lim = ctx.limits();
    if (wg == 0 || !std::has_single_bit(wg))
        throw Error(what + " " + std::to_string(wg) + " is not a power of two");
    if (wg > lim.maxComputeWorkGroupSize[0] || wg > lim.maxComputeWorkGroupInvocations)
        throw Error(what + " " + std::to_string(wg) + " exceeds the limits of " +
                    ctx.info().name + " (" + std::to_string(lim.maxComputeWorkGroupSize[0]) +
                    " invocations)");
    const std::uint32_t needed = storageBuffersPerPipeline();
    if (lim.maxPerStageDescriptorStorageBuffers < needed)
        throw Error(
            ctx.info().name + " allows " + std::to_string(lim.maxPerStageDescriptorStorageBuffers) +
            " storage buffers per shader; the solver needs " + std::to_string(needed));
}

// The most storage buffers one of the solver's pipeline layouts holds (solver_io.h): the
// largest of state + vertex (vertex kernels), state + constraints (colour kernels) and
// state + vertex + collisions (the contact kernel).
std::uint32_t storageBuffersPerPipeline() {
    std::uint32_t perSet[SET_COUNT] = {};
    for (int b = 0; b < BINDING_COUNT; ++b) ++perSet[bindingSet(b)];
    const std::uint32_t vertex = perSet[SET_STATE] + perSet[SET_VERTEX];
    return std::max({vertex, perSet[SET_STATE] + perSet[SET_CONSTRAINTS],
                     vertex + perSet[SET_COLLISIONS]});
}

}  // namespace cloth::vk::detail::policy

namespace cloth::vk::detail {

DispatchPolicy::DispatchPolicy(const Context& ctx, const GpuSolverOptions& o)
    : wg(o.workgroupSize),
      items(policy::chooseItems(ctx, o.itemsPerInvocation)),
      minGroups(policy::minGroupsFor(items)),
      together(policy::chooseTogether(ctx, o.colorBatching)),
      togetherBelow(o.colorBatching == ColorBatching::Auto ? o.smallColorItems : 0),
      runItems(policy::chooseRunItems(ctx, o)),
      runWg(policy::chooseRunWorkgroup(ctx, o)),
      wide(policy::chooseWide(ctx, o.memoryAccess)),
      fault(o.fault == GpuSolverOptions::Fault::GradientSign  ? gpu::FAULT_GRADIENT_SIGN
            : o.fault == GpuSolverOptions::Fault::DropContact ? gpu::FAULT_DROP_CONTACT
                                                              : 0u) {}

std::uint32_t DispatchPolicy::groupsFor(std::uint64_t n) const {
    const std::uint64_t one = (n + wg - 1) / wg;
    const std::uint64_t perGroup = std::uint64_t(wg) * items;
    const std::uint64_t packed = (n + perGroup - 1) / perGroup;
    return static_cast<std::uint32_t>(std::min(one, std::max<std::uint64_t>(packed, minGroups)));
}

}  // namespace cloth::vk::detail
