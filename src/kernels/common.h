// Glue that lets one header compile as both C++20 (with glm) and GLSL 4.50.
//
// Rules for code in src/kernels/:
//  - std430 buffers hold only scalars, uint, vec4 (never vec3: its alignment differs).
//  - No swizzles (glm needs a macro for them); write vec3(v) instead of v.xyz.
//  - Functions are marked CLOTH_FN; out-parameters use CLOTH_OUT(T) / CLOTH_INOUT(T); large
//    structs read only use CLOTH_IN(T) (a const reference in C++, no copy).
//  - Every struct gets CLOTH_CHECK_SIZE (no trailing semicolon: GLSL rejects an empty one)
//    so the C++ side pins the layout the shader sees.
#ifndef CLOTH_KERNELS_COMMON_H
#define CLOTH_KERNELS_COMMON_H

#ifdef __cplusplus

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>

#define CLOTH_NAMESPACE_BEGIN \
    namespace cloth::gpu {    \
    using namespace glm;      \
    using uint = std::uint32_t;
#define CLOTH_NAMESPACE_END }
#define CLOTH_FN inline
#define CLOTH_OUT(T) T&
#define CLOTH_INOUT(T) T&
#define CLOTH_IN(T) const T&
#define CLOTH_CHECK_SIZE(T, bytes) \
    static_assert(sizeof(T) == (bytes), #T " size must match the GLSL std430 layout");
#define CLOTH_CHECK_OFFSET(T, member, bytes) \
    static_assert(offsetof(T, member) == (bytes), #T "::" #member " offset must match GLSL");

// A constraint type's per-item solve (<name>Solve in src/kernels/constraint/) reads and
// writes vertex positions through CLOTH_LOAD / CLOTH_STORE. In C++ it is a template over how:
// a plain array (glm::vec4*, the scalar path) or a SIMD block's lane (src/cpu/batch_kernels.cpp),
// each with clothLoad/clothStore overloads. Shaders define loadPosition/storePosition first.
#define CLOTH_HAS_POSITIONS 1
#define CLOTH_SOLVE_FN template <class Positions> inline
#define CLOTH_POSITIONS Positions &positions,
#define CLOTH_LOAD(v) clothLoad(positions, (v))
#define CLOTH_STORE(v, x) clothStore(positions, (v), (x))
namespace cloth::gpu {
inline glm::vec4 clothLoad(glm::vec4* const& p, std::uint32_t v) { return p[v]; }
inline void clothStore(glm::vec4* const& p, std::uint32_t v, const glm::vec4& x) { p[v] = x; }
}  // namespace cloth::gpu

#else  // GLSL

#define CLOTH_NAMESPACE_BEGIN
#define CLOTH_NAMESPACE_END
#define CLOTH_FN
#define CLOTH_OUT(T) out T
#define CLOTH_INOUT(T) inout T
#define CLOTH_IN(T) T
#define CLOTH_CHECK_SIZE(T, bytes)
#define CLOTH_CHECK_OFFSET(T, member, bytes)

#define CLOTH_SOLVE_FN
#define CLOTH_POSITIONS
#define CLOTH_LOAD(v) loadPosition(v)
#define CLOTH_STORE(v, x) storePosition((v), (x))

#endif

CLOTH_NAMESPACE_BEGIN

// Squared lengths at or below this (m^2: lengths up to 1e-15 m) count as zero on every backend.
// A vector whose components are below about 1e-19 has products below the smallest normal float
// (1.2e-38): the CPU reference flushes those subnormals to zero (src/cpu/float_env.h), lavapipe
// keeps them (docs/backends.md#subnormal-floats), and a test `len2 > 0` then takes different
// branches (measured: ground friction on a cloth lying flat, 1e-19 m apart after 3 frames).
const float TINY_LENGTH2 = 1e-30f;

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_COMMON_H
