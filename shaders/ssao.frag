// Screen-space ambient occlusion at half resolution: samples in the normal's hemisphere around
// each pixel's view-space position, compared against the depth buffer with a range check.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/render_types.h"
#include "render_frame.glsl"

layout(set = 0, binding = RBIND_TEX0) uniform sampler2D depthTex;
layout(set = 0, binding = RBIND_TEX0 + 1) uniform sampler2D normalTex;

layout(location = 0) in vec2 inUv;
layout(location = 0) out float outAo;

const float kPi = 3.14159265;
const uint kMaxSamples = 32u;

// A fixed hemisphere kernel (z up), denser near the centre: spherical Fibonacci directions with
// lengths growing quadratically.
vec3 kernel(uint i, uint count) {
    float f = (float(i) + 0.5) / float(count);
    float z = sqrt(1.0 - f);              // cosine-weighted elevation
    float r = sqrt(max(0.0, 1.0 - z * z));
    float phi = float(i) * 2.39996323;    // golden angle
    float scale = mix(0.15, 1.0, f * f);
    return scale * vec3(r * cos(phi), r * sin(phi), z);
}

void main() {
    float depth = texture(depthTex, inUv).r;
    vec4 nm = texture(normalTex, inUv);
    if (depth >= 1.0 || nm.w < 0.5) {
        outAo = 1.0;
        return;
    }
    vec3 p = viewPosition(inUv, depth);
    vec3 n = normalize(nm.xyz);
    // A 4x4 pattern of rotations about the normal (removed again by the 4x4 blur).
    ivec2 pix = ivec2(gl_FragCoord.xy) & 3;
    const float kOrder[16] = float[](0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5);
    float angle = (kOrder[pix.y * 4 + pix.x] + 0.5) / 16.0 * 2.0 * kPi;
    vec3 helper = abs(n.z) < 0.9 ? vec3(0, 0, 1) : vec3(1, 0, 0);
    vec3 t0 = normalize(cross(helper, n));
    vec3 b0 = cross(n, t0);
    vec3 t = cos(angle) * t0 + sin(angle) * b0;
    vec3 b = cross(n, t);

    float radius = frame.ssao.x;
    float bias = frame.ssao.y;
    uint count = min(uint(frame.ssao.w), kMaxSamples);
    float occlusion = 0.0;
    for (uint i = 0u; i < count; ++i) {
        vec3 k = kernel(i, count);
        vec3 s = p + radius * (k.x * t + k.y * b + k.z * n);
        vec4 c = frame.proj * vec4(s, 1.0);
        vec2 suv = 0.5 * c.xy / c.w + 0.5;
        if (any(lessThan(suv, vec2(0.0))) || any(greaterThan(suv, vec2(1.0)))) continue;
        float sceneZ = viewPosition(suv, texture(depthTex, suv).r).z;
        float range = smoothstep(0.0, 1.0, radius / max(abs(p.z - sceneZ), 1e-4));
        occlusion += (sceneZ >= s.z + bias ? 1.0 : 0.0) * range;
    }
    outAo = clamp(1.0 - frame.ssao.z * occlusion / float(max(count, 1u)), 0.0, 1.0);
}
