// Long-range attachments: at most one per vertex; anchors are never moved by a tether.
// STRIDED as in colors.comp.
#include "buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { CountPush pc; };

void tether(uint i) {
    Tether t = tethers[i];
    vec4 p = loadPosition(t.vertex);
    projectTether(p, vec3(loadPosition(t.anchor)), t.maxLength);
    storePosition(t.vertex, p);
}

void main() {
    if (STRIDED) {
        uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
        for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) tether(i);
    } else if (gl_GlobalInvocationID.x < pc.count) {
        tether(gl_GlobalInvocationID.x);
    }
}
