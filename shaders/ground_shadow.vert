// Plane colliders' depth from the light (shadow map): a plane seen from below shades what lies
// above it. No fragment shader.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/render_types.h"
#include "render_frame.glsl"
#include "geometry.glsl"
#include "ground_quad.glsl"

void main() {
    mat4 model = colliderInstances[gl_InstanceIndex].model;
    gl_Position = frame.lightViewProj * (model * vec4(groundCorner(gl_VertexIndex, model), 1.0));
}
