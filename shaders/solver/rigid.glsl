// Mueller's rigid-motion-preserving damping, step 2: per damped cloth segment, its runs' sums
// added in order and the rigid motion the damping keeps. STRIDED as in colors.comp.
#include "buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { CountPush pc; };

void segmentMotion(uint s) {
    ClothSegment seg = segments[s];
    if (seg.rigidDamping <= 0.0) return;
    uvec2 range = segmentSumChunks[s];
    RigidSums total = rigidSumsZero();
    for (uint c = range.x; c < range.x + range.y; ++c)
        total = rigidSumsCombine(total, rigidPartials[c]);
    rigidMotions[s] =
        rigidMotionFromSums(total, vec3(loadPosition(seg.vertexBegin)), seg.rigidDamping);
}

void main() {
    if (STRIDED) {
        uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
        for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) segmentMotion(i);
    } else if (gl_GlobalInvocationID.x < pc.count) {
        segmentMotion(gl_GlobalInvocationID.x);
    }
}
