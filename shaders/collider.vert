// A rigid collider into the G-buffer: its mesh (in its own frame) placed by its instance's model
// matrix, the collider's pose at this frame's simulated time (rigid, so it turns normals too).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/render_types.h"
#include "render_frame.glsl"
#include "geometry.glsl"

layout(location = 0) out vec3 outNormal;  // view space
layout(location = 1) out vec3 outLocal;   // collider frame, for its pattern

void main() {
    ColliderVertex v = colliderVertices[gl_VertexIndex];
    mat4 model = colliderInstances[gl_InstanceIndex].model;
    gl_Position = frame.viewProj * (model * vec4(v.position.xyz, 1.0));
    outNormal = mat3(frame.view) * (mat3(model) * v.normal.xyz);
    outLocal = v.position.xyz;
}
