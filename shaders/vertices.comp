// Per-vertex passes over the chunk table (one workgroup per chunk of one cloth segment). The
// stages it runs are a specialization constant (VERTEX_* in solver_io.h), so one source gives
// the fused passes: predict; velocity+predict; velocity+partial sums; damp+predict; ...
#version 450
#extension GL_GOOGLE_include_directive : require
#include "constraints.h"
#include "solver_io.h"
#include "solver_buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_VERTEX_STAGES) const uint STAGES = VERTEX_PREDICT;
layout(push_constant, std430) uniform Push { VertexPush pc; };

#include "solver_reduce.glsl"

void main() {
    VertexChunk chunk = chunks[gl_WorkGroupID.x];
    bool live = gl_LocalInvocationID.x < chunk.count;
    uint v = chunk.begin + gl_LocalInvocationID.x;
    ClothSegment seg = segments[chunk.segment];
    vec4 p = live ? positions[v] : vec4(0.0);
    vec4 vel = live ? velocities[v] : vec4(0.0);  // the predicted velocity during a substep
    if ((STAGES & VERTEX_VELOCITY) != 0u && live) {
        float damping = max(0.0, 1.0 - seg.linearDamping * pc.dt);
        vel = vec4(substepVelocity(vec3(p), vec3(predicted[v]), vec3(vel), pc.invDt, damping), 0.0);
    }
    if ((STAGES & VERTEX_PARTIALS) != 0u) {
        RigidSums s = rigidSumsZero();
        if (live && p.w > 0.0) {
            vec3 r = vec3(p) - vec3(positions[seg.vertexBegin]);
            s = rigidSumsAdd(s, r, vec3(vel), 1.0 / p.w);
        }
        s = workgroupSum(s);
        if (gl_LocalInvocationID.x == 0u) rigidPartials[gl_WorkGroupID.x] = s;
    }
    if (!live) return;
    if ((STAGES & VERTEX_DAMP) != 0u && seg.rigidDamping > 0.0 && p.w > 0.0)
        vel = vec4(rigidDampedVelocity(vec3(p), vec3(vel), rigidMotions[chunk.segment]), 0.0);
    if ((STAGES & VERTEX_PREDICT) != 0u) {
        vec4 pred;
        predictVertex(p, vel, pred, vec3(pc.gravity), pc.dt);
        predicted[v] = pred;
        positions[v] = p;
    }
    velocities[v] = vel;
}
