// Phantom averaging: each group's members move to their mass-weighted mean (or to a pinned
// member's position), keeping their own inverse masses. Groups share no vertex. STRIDED as in
// colors.comp.
#include "buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { CountPush pc; };

void averageGroup(uint i) {
    PhantomGroup g = phantomGroups[i];
    vec4 acc = vec4(0.0);
    bool pinned = false;
    vec3 pinnedAt = vec3(0.0);
    for (uint k = 0u; k < g.count; ++k) {
        vec4 p = loadPosition(phantomMembers[g.first + k]);
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
        storePosition(v, vec4(x, loadPosition(v).w));
    }
}

void main() {
    if (STRIDED) {
        uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
        for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) averageGroup(i);
    } else if (gl_GlobalInvocationID.x < pc.count) {
        averageGroup(gl_GlobalInvocationID.x);
    }
}
