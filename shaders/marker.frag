#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/render_types.h"

layout(location = 0) in vec3 inNormal;
layout(location = 1) flat in uint inKind;
layout(location = 0) out vec4 outNormal;
layout(location = 1) out vec4 outAlbedo;

void main() {
    vec3 colour = inKind == MARKER_PIN         ? vec3(0.95, 0.75, 0.05)
                  : inKind == MARKER_KINEMATIC ? vec3(0.1, 0.85, 0.3)
                                               : vec3(0.95, 0.95, 0.95);
    outNormal = vec4(normalize(inNormal), float(MATERIAL_MARKER));
    outAlbedo = vec4(colour, 1.0);
}
