// 4x4 depth-aware blur of the half-resolution occlusion: averages one full period of the SSAO
// rotation pattern without bleeding across depth edges.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/render_types.h"
#include "render_frame.glsl"

layout(set = 0, binding = RBIND_TEX0) uniform sampler2D aoTex;  // half resolution, raw
layout(set = 0, binding = RBIND_TEX0 + 1) uniform sampler2D depthTex;

layout(location = 0) in vec2 inUv;
layout(location = 0) out float outAo;

float viewZ(ivec2 texel, vec2 size) {
    vec2 uv = (vec2(texel) + 0.5) / size;
    return viewPosition(uv, texture(depthTex, uv).r).z;
}

void main() {
    vec2 size = vec2(textureSize(aoTex, 0));
    ivec2 centre = ivec2(inUv * size);
    float z0 = viewZ(centre, size);
    float sum = 0.0, weights = 0.0;
    for (int y = -2; y < 2; ++y)
        for (int x = -2; x < 2; ++x) {
            ivec2 t = clamp(centre + ivec2(x, y), ivec2(0), ivec2(size) - 1);
            float dz = abs(viewZ(t, size) - z0);
            float w = 1.0 / (1.0 + dz / (0.01 * abs(z0) + 1e-4));
            sum += w * texelFetch(aoTex, t, 0).r;
            weights += w;
        }
    outAo = sum / weights;
}
