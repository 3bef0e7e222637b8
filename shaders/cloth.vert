// Cloth into the G-buffer: positions and normals straight from the solver's buffers, indexed by
// the triangle list (gl_VertexIndex is the vertex's index in PreparedCloth order). Each cloth is
// drawn with its index in the scene as the instance index, passed on for its colours.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/render_types.h"
#include "render_frame.glsl"
#include "geometry.glsl"

layout(location = 0) out vec3 outNormal;  // view space
layout(location = 1) out vec2 outUv;
layout(location = 2) flat out uint outCloth;

void main() {
    vec3 p = positions[gl_VertexIndex].xyz;
    gl_Position = frame.viewProj * vec4(p, 1.0);
    outNormal = mat3(frame.view) * normals[gl_VertexIndex].xyz;
    outUv = uvs[gl_VertexIndex];
    outCloth = uint(gl_InstanceIndex);
}
