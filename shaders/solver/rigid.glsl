// Mueller's rigid-motion-preserving damping, step 2: one workgroup per cloth segment adds the
// segment's per-chunk partial sums and stores the rigid motion the damping keeps.
#include "buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(push_constant, std430) uniform Push { CountPush pc; };

#include "reduce.glsl"

void main() {
    uint s = gl_WorkGroupID.x;
    ClothSegment seg = segments[s];
    if (seg.rigidDamping <= 0.0) return;  // uniform across the workgroup
    uvec2 range = segmentChunks[s];
    RigidSums acc = rigidSumsZero();
    for (uint c = gl_LocalInvocationID.x; c < range.y; c += gl_WorkGroupSize.x)
        acc = rigidSumsCombine(acc, rigidPartials[range.x + c]);
    acc = workgroupSum(acc);
    if (gl_LocalInvocationID.x == 0u)
        rigidMotions[s] = rigidMotionFromSums(acc, vec3(loadPosition(seg.vertexBegin)), seg.rigidDamping);
}
