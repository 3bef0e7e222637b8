// Device policy of the GPU solver: what it chooses per device where the options leave it open
// (items per invocation, colour batching, 64-bit memory access, colour runs), and the checks of
// the options against the device's limits. Each choice says what it measured.
#pragma once

#include <cstdint>
#include <string>

#include "vk/context.h"
#include "vk/gpu_solver.h"

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
