// Constraint type "distance" (stretch and shear): C = |x0 - x1| - restLength.
// One file per constraint type: its item, its maths and its per-item solve, compiled by C++
// (CPU reference, scalar and SIMD blocks) and GLSL; listed in constraint_types.h.
//
// Included twice by shaders (see constraint_types.h): the item and maths first, then, once the
// shader has defined how positions are loaded and stored (CLOTH_HAS_POSITIONS), the solve.
#ifndef CLOTH_CONSTRAINT_DISTANCE_H
#define CLOTH_CONSTRAINT_DISTANCE_H

#include "kernels/solve_common.h"

CLOTH_NAMESPACE_BEGIN

// Vertex indices first: every item's first words are its vertices (constraint_types.h).
struct DistanceConstraint {
    uint v0;
    uint v1;
    float restLength;
    float param;  // XPBD: compliance (m/N). PBD: per-iteration stiffness k' in [0,1].
};
CLOTH_CHECK_SIZE(DistanceConstraint, 16)
CLOTH_CHECK_OFFSET(DistanceConstraint, v1, 4)

CLOTH_FN void projectDistance(CLOTH_INOUT(vec4) p0, CLOTH_INOUT(vec4) p1, DistanceConstraint c,
                              CLOTH_INOUT(float) lambda, SolveParams s) {
    float wSum = p0.w + p1.w;
    float C;
    vec3 n;
    if (wSum <= 0.0f || !distanceEval(vec3(p0), vec3(p1), c.restLength, C, n)) return;
    float lam = startLambda(lambda, s);
    float dl = deltaLambda(C, wSum, c.param, lam, s);
    lambda = lam + dl;
    p0 += vec4((p0.w * dl) * n, 0.0f);
    p1 -= vec4((p1.w * dl) * n, 0.0f);
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_CONSTRAINT_DISTANCE_H

#if defined(CLOTH_HAS_POSITIONS) && !defined(CLOTH_CONSTRAINT_DISTANCE_SOLVE)
#define CLOTH_CONSTRAINT_DISTANCE_SOLVE
CLOTH_NAMESPACE_BEGIN

// One item: gather its vertices, project, scatter them back (v0 first), as every backend does.
CLOTH_SOLVE_FN void distanceSolve(CLOTH_POSITIONS DistanceConstraint c, CLOTH_INOUT(float) lambda,
                                  SolveParams s) {
    vec4 p0 = CLOTH_LOAD(c.v0);
    vec4 p1 = CLOTH_LOAD(c.v1);
    projectDistance(p0, p1, c, lambda, s);
    CLOTH_STORE(c.v0, p0);
    CLOTH_STORE(c.v1, p1);
}

#ifdef CLOTH_WIDE_ACCESS
// The item as 64-bit words (shaders/solver/buffers.glsl).
DistanceConstraint distanceLoadWide(uint k) {
    uvec4 w = wordsOf(distanceWords[k]);
    DistanceConstraint c;
    c.v0 = w.x;
    c.v1 = w.y;
    c.restLength = uintBitsToFloat(w.z);
    c.param = uintBitsToFloat(w.w);
    return c;
}
#endif

CLOTH_NAMESPACE_END
#endif
