// Two-sided cloth: the front (the side the solver's normals point to) and the back get their own
// colour, each cloth its own pair (ClothLook); the normal is flipped on the back. With
// OPTION_PATTERN, a woven check from the texture coordinates.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/render_types.h"
#include "render_frame.glsl"

layout(std430, set = 0, binding = RBIND_CLOTH_LOOKS) readonly buffer Looks { ClothLook looks[]; };

layout(location = 0) in vec3 inNormal;
layout(location = 1) in vec2 inUv;
layout(location = 2) flat in uint inCloth;
layout(location = 0) out vec4 outNormal;  // view-space normal, w = material
layout(location = 1) out vec4 outAlbedo;

// Gingham: bands along u and v, darker where they cross; a fine thread line between squares.
float pattern(vec2 uv) {
    vec2 cell = uv * frame.clothPattern.y;
    vec2 f = fract(cell);
    vec2 band = step(0.5, f);
    float weave = 0.5 * (band.x + band.y);
    vec2 d = abs(f - 0.5);
    float thread = smoothstep(0.46, 0.5, max(d.x, d.y));
    return mix(1.0, 0.7, weave) * mix(1.0, 0.85, thread);
}

void main() {
    vec3 n = normalize(inNormal);
    ClothLook look = looks[inCloth];
    vec3 albedo = gl_FrontFacing ? look.front.rgb : look.back.rgb;
    if (!gl_FrontFacing) n = -n;
    if ((frame.options.z & OPTION_PATTERN) != 0u)
        albedo *= mix(1.0, pattern(inUv), frame.clothPattern.x);
    outNormal = vec4(n, float(MATERIAL_CLOTH));
    outAlbedo = vec4(albedo, 1.0);
}
