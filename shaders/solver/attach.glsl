// Kinematic attachments (one per vertex) and the mouse grab, after the colours of an iteration.
// STRIDED as in colors.comp.
#include "buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_LAMBDA) const uint LAMBDA = 0u;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { AttachPush pc; };

// The grab is a hard attachment (param 0) with its own multiplier after the attachments.
void grab(inout vec4 p) {
    float lambda = (LAMBDA & LAMBDA_LOAD) != 0u ? lambdaAttach[pc.count] : 0.0;
    projectAttachment(p, vec3(pc.grabTarget), 0.0, lambda, pc.solve);
    if ((LAMBDA & LAMBDA_STORE) != 0u) lambdaAttach[pc.count] = lambda;
}

void attach(uint i) {
    Attachment a = attachments[i];
    vec3 target = vec3(a.anchor) + motionOffset(motions[a.motion], pc.solve.time);
    vec4 p = loadPosition(a.vertex);
    float lambda = (LAMBDA & LAMBDA_LOAD) != 0u ? lambdaAttach[i] : 0.0;
    projectAttachment(p, target, a.param, lambda, pc.solve);
    if ((LAMBDA & LAMBDA_STORE) != 0u) lambdaAttach[i] = lambda;
    if (pc.grabMode == GRAB_WITH_ATTACHMENT && i == pc.grabAttachment) grab(p);
    storePosition(a.vertex, p);
}

void attachOrGrab(uint i) {
    if (i < pc.count) {
        attach(i);
    } else {
        vec4 p = loadPosition(pc.grabVertex);
        grab(p);
        storePosition(pc.grabVertex, p);
    }
}

void main() {
    if (STRIDED) {
        uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
        for (uint i = gl_GlobalInvocationID.x; i < pc.count + (pc.grabMode == GRAB_ALONE ? 1u : 0u); i += stride) attachOrGrab(i);
    } else if (gl_GlobalInvocationID.x < pc.count + (pc.grabMode == GRAB_ALONE ? 1u : 0u)) {
        attachOrGrab(gl_GlobalInvocationID.x);
    }
}
