// Glue that lets one header compile as both C++20 (with glm) and GLSL 4.50.
//
// Rules for code in shaders/shared/:
//  - std430 buffers hold only scalars, uint, vec4 (never vec3: its alignment differs).
//  - No swizzles (glm needs a macro for them); write vec3(v) instead of v.xyz.
//  - Functions are marked CLOTH_FN; out-parameters use CLOTH_OUT(T) / CLOTH_INOUT(T).
//  - Every struct gets CLOTH_CHECK_SIZE (no trailing semicolon: GLSL rejects an empty one)
//    so the C++ side pins the layout the shader sees.
#ifndef CLOTH_SHARED_COMMON_H
#define CLOTH_SHARED_COMMON_H

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
#define CLOTH_CHECK_SIZE(T, bytes) \
    static_assert(sizeof(T) == (bytes), #T " size must match the GLSL std430 layout");
#define CLOTH_CHECK_OFFSET(T, member, bytes) \
    static_assert(offsetof(T, member) == (bytes), #T "::" #member " offset must match GLSL");

#else  // GLSL

#define CLOTH_NAMESPACE_BEGIN
#define CLOTH_NAMESPACE_END
#define CLOTH_FN
#define CLOTH_OUT(T) out T
#define CLOTH_INOUT(T) inout T
#define CLOTH_CHECK_SIZE(T, bytes)
#define CLOTH_CHECK_OFFSET(T, member, bytes)

#endif

#endif  // CLOTH_SHARED_COMMON_H
