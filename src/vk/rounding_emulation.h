// A device that rounds differently, emulated on any device (lavapipe included): the GPU solver's
// float divisions and square roots made off by a few ULP, as the Vulkan specification allows
// ("Precision and Operation of SPIR-V Instructions": OpFDiv 2.5 ULP, inversesqrt 2 ULP, sqrt
// inherited from 1/inversesqrt, length, distance and normalize from sqrt and division). Asked for
// by ContextOptions::emulatedRoundingSeed; it lets a CPU driver that rounds as the CPU reference
// does exercise the comparisons made with a tolerance (clothcheck), never the bit-exact ones.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace cloth::vk {

// The module with the result of every OpFDiv and GLSL.std.450 Sqrt, InverseSqrt, Length, Distance
// and Normalize on 32-bit floats (scalars and vectors, each component) moved by an integer number
// of ULP in [-2, 2] ([-1, 1] for InverseSqrt, whose bound is 2 ULP in all): the result's bits,
// read as an unsigned integer, plus an offset hashed from those bits, `seed` and the
// instruction's place in the module. The same inputs give the same outputs on every run and
// device. Zeros, the subnormals and the largest finite values within the largest offset of zero
// and of infinity, infinities and NaNs are left as they are: a result never changes sign or
// class. The seed is used as given (0 included); a module rewritten twice is perturbed twice.
// Throws cloth::Error for words that are not a SPIR-V module.
std::vector<std::uint32_t> withEmulatedRounding(std::span<const std::uint32_t> words,
                                                std::uint32_t seed);

}  // namespace cloth::vk
