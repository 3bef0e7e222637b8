// Constraint type "bending": the dihedral angle over an interior edge.
// One file per constraint type (see constraint/distance.h and constraint_types.h).
#ifndef CLOTH_CONSTRAINT_BENDING_H
#define CLOTH_CONSTRAINT_BENDING_H

#include "kernels/solve_common.h"

CLOTH_NAMESPACE_BEGIN

// Dihedral bending over the shared edge (v0, v1); v2 and v3 are the opposite vertices of the
// triangles (v0, v1, v2) and (v1, v0, v3). C = signed dihedral angle - restAngle.
struct BendingConstraint {
    uint v0;
    uint v1;
    uint v2;
    uint v3;
    float restAngle;
    float param;  // XPBD: compliance (1/(N m)). PBD: k'.
    uint pad0;
    uint pad1;
};
CLOTH_CHECK_SIZE(BendingConstraint, 32)
CLOTH_CHECK_OFFSET(BendingConstraint, v3, 12)

// Shared edge x0 -> x1; triangle A = (x0, x1, x2), triangle B = (x1, x0, x3). The angle is the
// signed angle between the triangle normals, atan2 of (n1 x n2).e and n1.n2: zero when flat,
// positive when the cloth folds one way. Unlike acos(n1.n2) its gradient stays finite when the
// triangles are flat (acos has 1/sqrt(1 - d^2) there); only degenerate triangles are skipped.

CLOTH_FN float bendingAngle(vec3 x0, vec3 x1, vec3 x2, vec3 x3) {
    vec3 e = x1 - x0;
    vec3 n1 = cross(x2 - x0, x2 - x1);
    vec3 n2 = cross(x3 - x1, x3 - x0);
    return clothAtan2(dot(cross(n1, n2), e), dot(n1, n2) * length(e));
}

// Wraps an angle difference into (-pi, pi].
CLOTH_FN float wrapAngle(float a) {
    if (a > CLOTH_PI) a -= 2.0f * CLOTH_PI;
    if (a <= -CLOTH_PI) a += 2.0f * CLOTH_PI;
    return a;
}

// Angle and its gradients (Bridson et al. 2003 bending modes). False if a triangle is degenerate.
CLOTH_FN bool bendingEval(vec3 x0, vec3 x1, vec3 x2, vec3 x3, CLOTH_OUT(float) angle,
                          CLOTH_OUT(vec3) g0, CLOTH_OUT(vec3) g1, CLOTH_OUT(vec3) g2,
                          CLOTH_OUT(vec3) g3) {
    vec3 e = x1 - x0;
    vec3 a0 = x2 - x0;
    vec3 b1 = x3 - x1;
    vec3 n1 = cross(a0, x2 - x1);
    vec3 n2 = cross(b1, x3 - x0);
    float e2 = dot(e, e);
    float n1l2 = dot(n1, n1);
    float n2l2 = dot(n2, n2);
    angle = 0.0f;
    g0 = vec3(0.0f);
    g1 = vec3(0.0f);
    g2 = vec3(0.0f);
    g3 = vec3(0.0f);
    float limit = BEND_DEGENERATE * e2 * e2;
    if (e2 <= LENGTH_EPSILON || n1l2 <= limit || n2l2 <= limit) return false;
    float el = sqrt(e2);
    float invEl = 1.0f / el;
    angle = clothAtan2(dot(cross(n1, n2), e), dot(n1, n2) * el);
    vec3 a = n1 * (1.0f / n1l2);
    vec3 b = n2 * (1.0f / n2l2);
    // Projections of the opposite vertices on the edge: (x2 - x0).e, and (x2 - x1).e = that - e.e.
    float pa0 = dot(a0, e);
    float pb1 = dot(b1, e);
    g2 = -el * a;
    g3 = -el * b;
    g0 = ((e2 - pa0) * invEl) * a - (pb1 * invEl) * b;
    g1 = (pa0 * invEl) * a + ((pb1 + e2) * invEl) * b;
    return true;
}

CLOTH_FN void projectBending(CLOTH_INOUT(vec4) p0, CLOTH_INOUT(vec4) p1, CLOTH_INOUT(vec4) p2,
                             CLOTH_INOUT(vec4) p3, BendingConstraint c, CLOTH_INOUT(float) lambda,
                             SolveParams s) {
    float angle;
    vec3 g0, g1, g2, g3;
    if (!bendingEval(vec3(p0), vec3(p1), vec3(p2), vec3(p3), angle, g0, g1, g2, g3)) return;
    float wGrad2 = p0.w * dot(g0, g0) + p1.w * dot(g1, g1) + p2.w * dot(g2, g2) +
                   p3.w * dot(g3, g3);
    if (wGrad2 <= LENGTH_EPSILON) return;
    float C = wrapAngle(angle - c.restAngle);
    float lam = startLambda(lambda, s);
    float dl = deltaLambda(C, wGrad2, c.param, lam, s);
    lambda = lam + dl;
    p0 += vec4((p0.w * dl) * g0, 0.0f);
    p1 += vec4((p1.w * dl) * g1, 0.0f);
    p2 += vec4((p2.w * dl) * g2, 0.0f);
    p3 += vec4((p3.w * dl) * g3, 0.0f);
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_CONSTRAINT_BENDING_H

#if defined(CLOTH_HAS_POSITIONS) && !defined(CLOTH_CONSTRAINT_BENDING_SOLVE)
#define CLOTH_CONSTRAINT_BENDING_SOLVE
CLOTH_NAMESPACE_BEGIN

CLOTH_SOLVE_FN void bendingSolve(CLOTH_POSITIONS BendingConstraint c, CLOTH_INOUT(float) lambda,
                                 SolveParams s) {
    vec4 p0 = CLOTH_LOAD(c.v0);
    vec4 p1 = CLOTH_LOAD(c.v1);
    vec4 p2 = CLOTH_LOAD(c.v2);
    vec4 p3 = CLOTH_LOAD(c.v3);
    projectBending(p0, p1, p2, p3, c, lambda, s);
    CLOTH_STORE(c.v0, p0);
    CLOTH_STORE(c.v1, p1);
    CLOTH_STORE(c.v2, p2);
    CLOTH_STORE(c.v3, p3);
}

#ifdef CLOTH_WIDE_ACCESS
// Two 16-byte halves: v0..v3, then restAngle and param (the padding is not read).
BendingConstraint bendingLoadWide(uint k) {
    uvec4 v = wordsOf(bendingWords[2u * k]);
    uvec2 w = unpackUint2x32(bendingWords[2u * k + 1u].x);
    BendingConstraint c;
    c.v0 = v.x;
    c.v1 = v.y;
    c.v2 = v.z;
    c.v3 = v.w;
    c.restAngle = uintBitsToFloat(w.x);
    c.param = uintBitsToFloat(w.y);
    c.pad0 = 0u;
    c.pad1 = 0u;
    return c;
}
#endif

CLOTH_NAMESPACE_END
#endif
