// SPIR-V of the project's shaders, compiled at build time and embedded (cmake/Shaders.cmake).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace cloth::shaders {

// One embedded shader: its file name (e.g. "vertices.comp") and its SPIR-V words.
struct Embedded {
    std::string_view name;
    std::span<const std::uint32_t> words;
};

// The SPIR-V words of shaders/<name> (e.g. "vertices.comp"), or of a kernel of a shader library
// the program links besides (the tests' kernels); throws cloth::Error if unknown.
std::span<const std::uint32_t> spirv(std::string_view name);

namespace detail {
std::span<const Embedded> builtIn();           // shaders/ (generated)
bool add(std::span<const Embedded> table);     // another library's table (generated callers)
}  // namespace detail

}  // namespace cloth::shaders
