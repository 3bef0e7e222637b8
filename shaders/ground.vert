// The ground: a square (ground_quad.glsl) of the automatic ground or of a plane collider.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/render_types.h"
#include "render_frame.glsl"
#include "geometry.glsl"
#include "ground_quad.glsl"

layout(location = 0) out vec2 outLocal;  // the plane's own x, z: its checker moves with it
layout(location = 1) flat out vec3 outNormal;  // world space

void main() {
    mat4 model = colliderInstances[gl_InstanceIndex].model;
    vec3 local = groundCorner(gl_VertexIndex, model);
    outLocal = local.xz;
    outNormal = mat3(model)[1];
    gl_Position = frame.viewProj * (model * vec4(local, 1.0));
}
