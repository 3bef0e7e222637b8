// Evaluates the shared maths on the device for tests/vk/test_shared_maths.cpp: the same inputs
// through the same code must give the same bits as the CPU build of constraints.h.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/constraints.h"
#include "kernels/constraint/iso_bending.h"
#include "kernels/constraint/stvk.h"
#include "kernels/wind.h"

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
    if (pc.function == 3u) {
        BendingConstraint c;
        c.restAngle = 0.1;
        c.param = 1e-3;
        vec4 p0 = vec4(vec3(x), 1.0), p1 = vec4(vec3(y), 1.0), p2 = vec4(vec3(z), 2.0), p3 = vec4(vec3(u), 0.5);
        float lambda = 0.0;
        projectBending(p0, p1, p2, p3, c, lambda, sp);
        return vec4(vec3(p2), lambda);
    }
    if (pc.function == 4u || pc.function == 5u) {
        // Triangle a few units across, material a tenth of a unit, small lambda.
        StvkConstraint c;
        c.v0 = 0u;
        c.v1 = 1u;
        c.v2 = 2u;
        c.pbdStiffness = 1.0;
        c.invRest = vec4(9.0, -1.5, 2.0, 11.0) + 0.05 * u;
        c.complianceDiag = vec4(0.3, 0.2, 40.0, 0.0);
        c.complianceOff = vec4(-0.05, 0.0, 0.0, 0.0);
        vec4 p0 = vec4(0.1 * vec3(x), 1.5), p1 = vec4(0.1 * vec3(y), 0.7), p2 = vec4(0.1 * vec3(z), 2.0);
        vec4 lambda = vec4(1e-3 * vec3(u), 0.0);
        projectStvk(p0, p1, p2, c, lambda, sp);
        return pc.function == 4u ? vec4(vec3(p0), lambda.x) : vec4(vec3(p2), lambda.z);
    }
    if (pc.function == 6u) {
        IsoBendingConstraint c;
        c.v0 = 0u;
        c.v1 = 1u;
        c.v2 = 2u;
        c.v3 = 3u;
        c.k = vec4(-1.2, -0.9, 1.0, 1.1) + 0.01 * vec4(u.x, u.y, -u.x, -u.y);
        c.compliance = 2e-4;
        c.pbdStiffness = 1.0;
        c.pad0 = 0u;
        c.pad1 = 0u;
        vec4 p0 = vec4(vec3(x), 1.0), p1 = vec4(vec3(y), 0.0), p2 = vec4(vec3(z), 2.0), p3 = vec4(vec3(u), 0.5);
        vec4 lambda = vec4(0.01, -0.02, 0.03, 0.0);
        projectIsoBending(p0, p1, p2, p3, c, lambda, sp);
        return vec4(vec3(p3), lambda.y);
    }
    // Unit normal by sqrt and division: a driver's normalize() may use inversesqrt.
    vec3 normal = vec3(y) / sqrt(dot(vec3(y), vec3(y)));
    return vec4(windForce(vec3(x), normal, 0.01 * abs(z.x), 1.2, 0.5, 0.3), 0.0);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.count) outputs[i] = evaluate(i);
}
