// Phantom averaging, and the mouse grab before it: each group's members move to their
// mass-weighted mean (or to a pinned member's position), keeping their own inverse masses.
// Groups share no vertex. STRIDED as in colors.comp.
#include "buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { PhantomPush pc; };

// A hard attachment to the grab target; its multiplier plays no part (alpha~ = 0).
void grab(uint v) {
    vec4 p = loadPosition(v);
    float lambda = 0.0;
    projectAttachment(p, vec3(pc.grabTarget), 0.0, lambda, pc.solve);
    storePosition(v, p);
}

void averageGroup(uint i) {
    PhantomGroup g = phantomGroups[i];
    if (pc.grabMode == GRAB_WITH_GROUP && i == pc.grabGroup) {
        for (uint k = 0u; k < g.count; ++k) grab(phantomMembers[g.first + k]);
    }
    averagePhantomGroup(g);
}

void groupOrGrab(uint i) {
    if (i < pc.count)
        averageGroup(i);
    else
        grab(pc.grabVertex);
}

void main() {
    uint n = pc.count + (pc.grabMode == GRAB_ALONE ? 1u : 0u);
    if (STRIDED) {
        uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
        for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) groupOrGrab(i);
    } else if (gl_GlobalInvocationID.x < n) {
        groupOrGrab(gl_GlobalInvocationID.x);
    }
}
