// Subnormal floats flushed to zero on the device, as the CPU reference flushes them
// (src/cpu/float_env.h): SPIR-V float controls (core in Vulkan 1.2), asked for where the device
// offers shaderDenormFlushToZeroFloat32 (DeviceInfo::denormFlushToZero32). lavapipe does not.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace cloth::vk {

// The module with `OpCapability DenormFlushToZero` and `OpExecutionMode <entry> DenormFlushToZero
// 32` for every entry point (SPIR-V 1.4+, where SPV_KHR_float_controls is core). Unchanged if it
// already flushes. Throws cloth::Error for words that are not a SPIR-V module.
std::vector<std::uint32_t> withDenormFlushToZero(std::span<const std::uint32_t> words);

}  // namespace cloth::vk
