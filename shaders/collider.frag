// Rigid colliders: one pale wood albedo with a faint checker fixed in the collider's frame, so a
// turning collider shows that it turns. Two-sided (a view from inside a mesh stays shaded).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/render_types.h"
#include "render_frame.glsl"

layout(location = 0) in vec3 inNormal;
layout(location = 1) in vec3 inLocal;
layout(location = 0) out vec4 outNormal;  // view-space normal, w = material
layout(location = 1) out vec4 outAlbedo;

void main() {
    vec3 n = normalize(inNormal);
    if (!gl_FrontFacing) n = -n;
    // Box-filtered 3D checker (as the ground's), cells half the ground's squares.
    vec3 q = inLocal * (2.0 / frame.groundColor.w);
    vec3 w = fwidth(q) + 1e-4;
    vec3 i = 2.0 * (abs(fract((q - 0.5 * w) * 0.5) - 0.5) - abs(fract((q + 0.5 * w) * 0.5) - 0.5)) / w;
    float checker = 0.5 - 0.5 * i.x * i.y * i.z;
    vec3 albedo = frame.colliders.rgb * mix(1.0 - frame.colliders.w, 1.0, checker);
    outNormal = vec4(n, float(MATERIAL_COLLIDER));
    outAlbedo = vec4(albedo, 1.0);
}
