// The renderer's per-frame uniform block (set 0, binding RBIND_FRAME) and shared helpers.
#ifndef CLOTH_RENDER_FRAME_GLSL
#define CLOTH_RENDER_FRAME_GLSL

layout(std140, set = 0, binding = RBIND_FRAME) uniform FrameBlock { FrameUniforms frame; };

// View-space position of a pixel from its depth (uv in [0, 1], top-left origin).
vec3 viewPosition(vec2 uv, float depth) {
    vec4 p = frame.invProj * vec4(2.0 * uv - 1.0, depth, 1.0);
    return p.xyz / p.w;
}

vec3 worldPosition(vec2 uv, float depth) {
    vec4 p = frame.invViewProj * vec4(2.0 * uv - 1.0, depth, 1.0);
    return p.xyz / p.w;
}

#endif
