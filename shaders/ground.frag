// A soft checkerboard floor (anti-aliased by its screen-space derivative), in the plane's frame.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/render_types.h"
#include "render_frame.glsl"

layout(location = 0) in vec2 inLocal;
layout(location = 1) flat in vec3 inNormal;
layout(location = 0) out vec4 outNormal;
layout(location = 1) out vec4 outAlbedo;

void main() {
    vec2 q = inLocal / frame.groundColor.w;
    vec2 w = fwidth(q) + 1e-4;
    // Box-filtered checker: the integral of the square wave over the pixel footprint.
    vec2 i = 2.0 * (abs(fract((q - 0.5 * w) * 0.5) - 0.5) - abs(fract((q + 0.5 * w) * 0.5) - 0.5)) / w;
    float checker = 0.5 - 0.5 * i.x * i.y;
    vec3 albedo = frame.groundColor.rgb * mix(0.82, 1.0, checker);
    outNormal = vec4(mat3(frame.view) * inNormal, float(MATERIAL_GROUND));
    outAlbedo = vec4(albedo, 1.0);
}
