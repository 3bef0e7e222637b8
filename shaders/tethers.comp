// Long-range attachments: at most one per vertex; anchors are never moved by a tether.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "constraints.h"
#include "solver_io.h"
#include "solver_buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(push_constant, std430) uniform Push { CountPush pc; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    Tether t = tethers[i];
    vec4 p = positions[t.vertex];
    projectTether(p, vec3(positions[t.anchor]), t.maxLength);
    positions[t.vertex] = p;
}
