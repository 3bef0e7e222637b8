// The ground: one square of side 2 * ground.y at height ground.x, centred under the scene.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "render_types.h"
#include "render_frame.glsl"

layout(location = 0) out vec3 outWorld;

const vec2 kCorners[6] = vec2[](vec2(-1, -1), vec2(-1, 1), vec2(1, 1),
                                vec2(-1, -1), vec2(1, 1), vec2(1, -1));

void main() {
    vec2 c = kCorners[gl_VertexIndex];
    vec3 p = vec3(frame.ground.z + c.x * frame.ground.y, frame.ground.x,
                  frame.ground.w + c.y * frame.ground.y);
    outWorld = p;
    gl_Position = frame.viewProj * vec4(p, 1.0);
}
