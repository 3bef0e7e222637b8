// Kinematic attachments (one per vertex) and the mouse grab, after the colours of an iteration.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "constraints.h"
#include "solver_io.h"
#include "solver_buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(push_constant, std430) uniform Push { AttachPush pc; };

// The grab is a hard attachment (param 0) with its own multiplier after the attachments.
void grab(inout vec4 p) {
    float lambda = pc.solve.firstIteration != 0u ? 0.0 : lambdaAttach[pc.count];
    projectAttachment(p, vec3(pc.grabTarget), 0.0, lambda, pc.solve);
    if (pc.storeLambda != 0u) lambdaAttach[pc.count] = lambda;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.count) {
        Attachment a = attachments[i];
        vec3 target = vec3(a.anchor) + motionOffset(motions[a.motion], pc.solve.time);
        vec4 p = positions[a.vertex];
        float lambda = pc.solve.firstIteration != 0u ? 0.0 : lambdaAttach[i];
        projectAttachment(p, target, a.param, lambda, pc.solve);
        if (pc.storeLambda != 0u) lambdaAttach[i] = lambda;
        if (pc.grabMode == GRAB_WITH_ATTACHMENT && i == pc.grabAttachment) grab(p);
        positions[a.vertex] = p;
    } else if (i == pc.count && pc.grabMode == GRAB_ALONE) {
        vec4 p = positions[pc.grabVertex];
        grab(p);
        positions[pc.grabVertex] = p;
    }
}
