// Mueller's rigid-motion-preserving damping, step 1: per run of up to RIGID_SUM_CHUNK vertices
// of a damped segment, the sums of m r, m v, m (r x v), ... relative to the segment's first
// vertex, added one vertex after the other (the CPU reference's order). STRIDED as in
// colors.comp.
#include "buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { CountPush pc; };

void chunkSums(uint c) {
    VertexChunk chunk = sumChunks[c];
    ClothSegment seg = segments[chunk.segment];
    RigidSums s = rigidSumsZero();
    if (seg.rigidDamping > 0.0) {
        vec3 ref = vec3(loadPosition(seg.vertexBegin));
        for (uint i = chunk.begin; i < chunk.begin + chunk.count; ++i) {
            vec4 p = loadPosition(i);
            if (p.w > 0.0) s = rigidSumsAdd(s, vec3(p) - ref, vec3(loadVelocity(i)), 1.0 / p.w);
        }
    }
    rigidPartials[c] = s;
}

void main() {
    if (STRIDED) {
        uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
        for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) chunkSums(i);
    } else if (gl_GlobalInvocationID.x < pc.count) {
        chunkSums(gl_GlobalInvocationID.x);
    }
}
