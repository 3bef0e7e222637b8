// Evaluates the shared maths on the device for tests/vk/test_shared_maths.cpp: the same inputs
// through the same code must give the same bits as the CPU build of constraints.h.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "constraints.h"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { vec4 inputs[]; };
layout(std430, binding = 1) writeonly buffer Out { vec4 outputs[]; };
layout(push_constant) uniform Push {
    uint function;
    uint count;
} pc;

vec4 evaluate(uint i) {
    vec4 x = inputs[i];
    vec4 y = inputs[(i + 1u) % pc.count];
    SolveParams sp;
    sp.invDt2 = 3600.0;
    sp.mode = MODE_XPBD;
    sp.firstIteration = 0u;
    sp.time = 0.0;
    if (pc.function == 0u) return vec4(clothSinCos(x.x), clothSinCos(x.y));
    if (pc.function == 1u) return vec4(clothAtan2(x.x, x.y), clothAtan2(x.z, x.w), 0.0, 0.0);
    if (pc.function == 2u) {
        DistanceConstraint c;
        c.v0 = 0u;
        c.v1 = 1u;
        c.restLength = abs(x.w);
        c.param = 1e-6;
        vec4 p0 = vec4(vec3(x), 2.0);
        vec4 p1 = vec4(vec3(y), 0.5);
        float lambda = 0.01;
        projectDistance(p0, p1, c, lambda, sp);
        return vec4(vec3(p0), lambda);
    }
    vec4 z = inputs[(i + 2u) % pc.count];
    vec4 u = inputs[(i + 3u) % pc.count];
    BendingConstraint c;
    c.restAngle = 0.1;
    c.param = 1e-3;
    vec4 p0 = vec4(vec3(x), 1.0), p1 = vec4(vec3(y), 1.0), p2 = vec4(vec3(z), 2.0), p3 = vec4(vec3(u), 0.5);
    float lambda = 0.0;
    projectBending(p0, p1, p2, p3, c, lambda, sp);
    return vec4(vec3(p2), lambda);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.count) outputs[i] = evaluate(i);
}
