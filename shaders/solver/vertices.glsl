// Per-vertex passes over the chunk table (one workgroup per chunk of one cloth segment; with
// STRIDED a chunk may hold several vertices per invocation, the workgroup size apart). The
// stages it runs are a specialization constant (VERTEX_* in solver_io.h), so one source gives
// the fused passes: predict; velocity+predict; damp+predict; ...
#include "buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_VARIANT) const uint STAGES = VERTEX_PREDICT;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { VertexPush pc; };

// One vertex: velocity, damping, prediction as STAGES asks.
void vertexStages(uint v, ClothSegment seg, uint segment) {
    vec4 p = loadPosition(v);
    vec4 vel = loadVelocity(v);  // the predicted velocity during a substep
    if ((STAGES & VERTEX_VELOCITY) != 0u) {
        float damping = max(0.0, 1.0 - seg.linearDamping * pc.dt);
        vel = vec4(substepVelocity(vec3(p), vec3(loadPredicted(v)), vec3(vel), pc.invDt, damping), 0.0);
    }
    if ((STAGES & VERTEX_DAMP) != 0u && seg.rigidDamping > 0.0 && p.w > 0.0)
        vel = vec4(rigidDampedVelocity(vec3(p), vec3(vel), rigidMotions[segment]), 0.0);
    if ((STAGES & VERTEX_PREDICT) != 0u) {
        vec4 pred;
        predictVertex(p, vel, pred, vec3(pc.gravity), pc.dt);
        storePredicted(v, pred);
        storePosition(v, p);
    }
    storeVelocity(v, vel);
}

void main() {
    VertexChunk chunk = chunks[gl_WorkGroupID.x];
    ClothSegment seg = segments[chunk.segment];
    if (STRIDED) {
        for (uint k = gl_LocalInvocationID.x; k < chunk.count; k += gl_WorkGroupSize.x)
            vertexStages(chunk.begin + k, seg, chunk.segment);
    } else if (gl_LocalInvocationID.x < chunk.count) {
        vertexStages(chunk.begin + gl_LocalInvocationID.x, seg, chunk.segment);
    }
}
