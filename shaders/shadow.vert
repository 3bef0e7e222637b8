// Cloth depth from the light (shadow map); no fragment shader.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/render_types.h"
#include "render_frame.glsl"
#include "geometry.glsl"

void main() {
    gl_Position = frame.lightViewProj * vec4(positions[gl_VertexIndex].xyz, 1.0);
}
