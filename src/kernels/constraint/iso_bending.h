// Isometric bending (Bergou, Wardetzky, Harmon, Zorin, Grinspun 2006) for a flat rest state,
// as a linear 3-vector XPBD constraint per interior edge (Anon. 2023 §4.4, with our own scale).
//
// Stencil: edge x0 -> x1, x2 opposite in triangle T1 = (x0, x1, x2), x3 opposite in
// T2 = (x1, x0, x3). With a0, a1 the angles of T1 at x0, x1 and b0, b1 those of T2:
//   K = (-(cot a1 + cot b1), -(cot a0 + cot b0), cot a0 + cot a1, cot b0 + cot b1),
//   C = sum_i K_i x_i.
// Derivation: in T1 the foot of the height from x2 splits the edge in lengths h cot a0 and
// h cot a1, so (cot a0 + cot a1) x2 - cot a1 x0 - cot a0 x1 = |e| m1, m1 the unit vector in T1's
// plane, perpendicular to e, towards x2; likewise T2 gives |e| m2. Hence C = |e| (m1 + m2):
// zero for ANY flat stencil (m2 = -m1), |C| = 2 |e| sin(theta / 2) ~ |e| theta for a fold
// theta, unchanged by rigid motion (K fixed at rest, sum K_i = 0). K is computed once from the
// rest shape (cloth::makeIsoBending): the energy is quadratic and the gradient constant,
// dC/dx_i = K_i I, so J W J^T = (sum_i w_i K_i^2) I and the three components are independent
// scalar XPBD updates sharing one denominator.
//
// Scale. E = (D s / 2) |C|^2 with s = 1 / (A1 + A2) (rest areas), D the bending stiffness in
// N m. On the simulator's grids (right triangles, quads split by one diagonal) wrapped on a
// cylinder of radius R with the axis along a grid line, the quads stay planar: only the hinges
// along the axis fold, each by theta = b / R (b the spacing around the cylinder), with
// |e| = a (axial spacing) and A1 + A2 = a b. Energy per hinge D a^2 theta^2 / (2 a b) over the
// hinge's share a b of the area: D / (2 R^2) per unit area, the plate energy (D / 2) kappa^2.
// (Bergou's 3 / (A1 + A2) is 3x that on such a grid; on an equilateral mesh 2 / (A1 + A2)
// would match. The discrete energy depends on the mesh; tests pin it on the grid.)
// Twist (z = x y) has a zero Laplacian and costs nothing here; only stretch resists it. On grids
// whose diagonals all run one way the stencils couple bending to twist, so a bent strip also
// twists unless its stretch constraints are stiff (tests use a mirrored grid).
// Compliance per component: C^T C / (2 alpha) = E gives alpha = (A1 + A2) / D (m/N).
// PBD mode: dLambda = -k' C / sum w K^2 with k' = pbdStiffness.
#ifndef CLOTH_KERNELS_CONSTRAINT_ISO_BENDING_H
#define CLOTH_KERNELS_CONSTRAINT_ISO_BENDING_H

#include "kernels/common.h"
#include "kernels/types.h"

CLOTH_NAMESPACE_BEGIN

struct IsoBendingConstraint {
    uint v0;  // shared edge v0 -> v1
    uint v1;
    uint v2;             // opposite vertex of (v0, v1, v2)
    uint v3;             // opposite vertex of (v1, v0, v3)
    vec4 k;              // cotangent weights K of v0..v3 (sum 0)
    float compliance;    // XPBD: (A1 + A2) / D, m/N, per component of C
    float pbdStiffness;  // PBD: k' per iteration, in [0, 1]
    uint pad0;
    uint pad1;
};
CLOTH_CHECK_SIZE(IsoBendingConstraint, 48)
CLOTH_CHECK_OFFSET(IsoBendingConstraint, k, 16)
CLOTH_CHECK_OFFSET(IsoBendingConstraint, compliance, 32)

// C = sum_i K_i x_i; its gradient with respect to x_i is K_i times the identity.
CLOTH_FN vec3 isoBendingEval(vec3 x0, vec3 x1, vec3 x2, vec3 x3, vec4 k) {
    return x0 * k.x + x1 * k.y + x2 * k.z + x3 * k.w;
}

// Bending energy of the stencil, (D s / 2) |C|^2 = |C|^2 / (2 compliance).
CLOTH_FN float isoBendingEnergy(vec3 x0, vec3 x1, vec3 x2, vec3 x3, IsoBendingConstraint c) {
    vec3 C = isoBendingEval(x0, x1, x2, x3, c.k);
    return 0.5f * dot(C, C) / c.compliance;
}

// One projection; lambda.xyz holds the three multipliers (w unused, kept 0).
CLOTH_FN void projectIsoBending(CLOTH_INOUT(vec4) p0, CLOTH_INOUT(vec4) p1, CLOTH_INOUT(vec4) p2,
                                CLOTH_INOUT(vec4) p3, IsoBendingConstraint c,
                                CLOTH_INOUT(vec4) lambda, SolveParams s) {
    vec3 lam = (s.firstIteration != 0u) ? vec3(0.0f) : vec3(lambda);
    lambda = vec4(lam, 0.0f);
    vec4 k = c.k;
    float wK2 = p0.w * k.x * k.x + p1.w * k.y * k.y + p2.w * k.z * k.z + p3.w * k.w * k.w;
    if (!(wK2 > 0.0f)) return;
    vec3 C = isoBendingEval(vec3(p0), vec3(p1), vec3(p2), vec3(p3), k);
    vec3 dl;
    if (s.mode == MODE_PBD) {
        dl = C * (-c.pbdStiffness / wK2);
    } else {
        float alphaTilde = c.compliance * s.invDt2;
        dl = (-C - alphaTilde * lam) / (wK2 + alphaTilde);
    }
    lambda = vec4(lam + dl, 0.0f);
    p0 += vec4((p0.w * k.x) * dl, 0.0f);
    p1 += vec4((p1.w * k.y) * dl, 0.0f);
    p2 += vec4((p2.w * k.z) * dl, 0.0f);
    p3 += vec4((p3.w * k.w) * dl, 0.0f);
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_CONSTRAINT_ISO_BENDING_H

#if defined(CLOTH_HAS_POSITIONS) && !defined(CLOTH_CONSTRAINT_ISO_BENDING_SOLVE)
#define CLOTH_CONSTRAINT_ISO_BENDING_SOLVE
CLOTH_NAMESPACE_BEGIN

// One item (constraint_types.h): gather, project, scatter (v0 first).
CLOTH_SOLVE_FN void isoBendingSolve(CLOTH_POSITIONS IsoBendingConstraint c,
                                    CLOTH_INOUT(vec4) lambda, SolveParams s) {
    vec4 p0 = CLOTH_LOAD(c.v0);
    vec4 p1 = CLOTH_LOAD(c.v1);
    vec4 p2 = CLOTH_LOAD(c.v2);
    vec4 p3 = CLOTH_LOAD(c.v3);
    projectIsoBending(p0, p1, p2, p3, c, lambda, s);
    CLOTH_STORE(c.v0, p0);
    CLOTH_STORE(c.v1, p1);
    CLOTH_STORE(c.v2, p2);
    CLOTH_STORE(c.v3, p3);
}

#ifdef CLOTH_WIDE_ACCESS
// Three 16-byte thirds: v0..v3; k; compliance, pbdStiffness (the padding is not read).
IsoBendingConstraint isoBendingLoadWide(uint k) {
    uvec4 v = wordsOf(isoBendingWords[3u * k]);
    uvec2 w = unpackUint2x32(isoBendingWords[3u * k + 2u].x);
    IsoBendingConstraint c;
    c.v0 = v.x;
    c.v1 = v.y;
    c.v2 = v.z;
    c.v3 = v.w;
    c.k = vec4Of(isoBendingWords[3u * k + 1u]);
    c.compliance = uintBitsToFloat(w.x);
    c.pbdStiffness = uintBitsToFloat(w.y);
    c.pad0 = 0u;
    c.pad1 = 0u;
    return c;
}
#endif

CLOTH_NAMESPACE_END
#endif
