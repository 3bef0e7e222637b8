// Rigid colliders' depth from the light (shadow map); no fragment shader.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/render_types.h"
#include "render_frame.glsl"
#include "geometry.glsl"

void main() {
    mat4 model = colliderInstances[gl_InstanceIndex].model;
    gl_Position = frame.lightViewProj * (model * vec4(colliderVertices[gl_VertexIndex].position.xyz, 1.0));
}
