// Phantom averaging: each group's members move to their mass-weighted mean (or to a pinned
// member's position), keeping their own inverse masses. Groups share no vertex.
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
    PhantomGroup g = phantomGroups[i];
    vec4 acc = vec4(0.0);
    bool pinned = false;
    vec3 pinnedAt = vec3(0.0);
    for (uint k = 0u; k < g.count; ++k) {
        vec4 p = positions[phantomMembers[g.first + k]];
        if (p.w > 0.0) {
            acc = phantomMeanAdd(acc, p);
        } else {
            pinned = true;
            pinnedAt = vec3(p);
        }
    }
    vec3 x = pinned ? pinnedAt : phantomMean(acc);
    for (uint k = 0u; k < g.count; ++k) {
        uint v = phantomMembers[g.first + k];
        positions[v] = vec4(x, positions[v].w);
    }
}
