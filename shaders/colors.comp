// One colour of the constraint graph: its distance constraints then its bending constraints,
// one invocation each. No two constraints of a colour share a vertex, so there are no races.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "constraints.h"
#include "solver_io.h"
#include "solver_buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(push_constant, std430) uniform Push { ColorPush pc; };

void solveDistance(uint k) {
    DistanceConstraint c = distances[k];
    vec4 p0 = positions[c.v0];
    vec4 p1 = positions[c.v1];
    float lambda = pc.solve.firstIteration != 0u ? 0.0 : lambdaDistance[k];
    projectDistance(p0, p1, c, lambda, pc.solve);
    positions[c.v0] = p0;
    positions[c.v1] = p1;
    if (pc.storeLambda != 0u) lambdaDistance[k] = lambda;
}

void solveBending(uint k) {
    BendingConstraint c = bendings[k];
    vec4 p0 = positions[c.v0];
    vec4 p1 = positions[c.v1];
    vec4 p2 = positions[c.v2];
    vec4 p3 = positions[c.v3];
    float lambda = pc.solve.firstIteration != 0u ? 0.0 : lambdaBending[k];
    projectBending(p0, p1, p2, p3, c, lambda, pc.solve);
    positions[c.v0] = p0;
    positions[c.v1] = p1;
    positions[c.v2] = p2;
    positions[c.v3] = p3;
    if (pc.storeLambda != 0u) lambdaBending[k] = lambda;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.distanceCount) {
        solveDistance(pc.distanceBegin + i);
    } else if (i - pc.distanceCount < pc.bendingCount) {
        solveBending(pc.bendingBegin + (i - pc.distanceCount));
    }
}
