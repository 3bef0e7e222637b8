// Kinematic attachments (one per vertex), after the colours of an iteration. STRIDED as in
// colors.comp.
#include "buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_LAMBDA) const uint LAMBDA = 0u;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { AttachPush pc; };

void attach(uint i) {
    Attachment a = attachments[i];
    vec3 target = vec3(a.anchor) + motionOffset(motions[a.motion], clock[pc.substep].end);
    vec4 p = loadPosition(a.vertex);
    float lambda = (LAMBDA & LAMBDA_LOAD) != 0u ? lambdaAttach[i] : 0.0;
    projectAttachment(p, target, a.param, lambda, pc.solve);
    if ((LAMBDA & LAMBDA_STORE) != 0u) lambdaAttach[i] = lambda;
    storePosition(a.vertex, p);
}

void main() {
    if (STRIDED) {
        uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
        for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) attach(i);
    } else if (gl_GlobalInvocationID.x < pc.count) {
        attach(gl_GlobalInvocationID.x);
    }
}
