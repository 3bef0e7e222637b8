// SPIR-V of the project's shaders, compiled at build time and embedded (cmake/Shaders.cmake).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace cloth::shaders {

// The SPIR-V words of shaders/<name> (e.g. "predict.comp"); throws cloth::Error if unknown.
std::span<const std::uint32_t> spirv(std::string_view name);

}  // namespace cloth::shaders
