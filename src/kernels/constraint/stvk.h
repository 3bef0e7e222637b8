// Continuum membrane stretch: orthotropic Saint Venant-Kirchhoff (StVK) per triangle, as one
// 3-component XPBD constraint (Anon. 2023 §4.2; the gradient on the rest shape, derived anew: the source's (49) is printed wrong).
//
// Kinematics. Each triangle has rest material coordinates u_i (metres) on axes u = weft,
// v = warp. D_m = [u1 - u0, u2 - u0] (2x2), D_s = [x1 - x0, x2 - x0] (3x2), F = D_s D_m^-1 (3x2)
// with columns f_u, f_v. Writing D_m^-1 = B, f_u = sum_i bu_i x_i, f_v = sum_i bv_i x_i with
//   bu = (-B00 - B10, B00, B10),  bv = (-B01 - B11, B01, B11).
// Green strain E = (F^T F - I) / 2 in Voigt form with ENGINEERING shear (our choice):
//   C = eps = (E_uu, E_vv, gamma) = ((f_u.f_u - 1) / 2, (f_v.f_v - 1) / 2, f_u.f_v).
// With gamma = 2 E_uv the plane-stress law is S = Cm eps with Cm33 = G and no factor 2 anywhere.
// Gradients (rows of J, one 3-vector per vertex):
//   dE_uu/dx_i = bu_i f_u,  dE_vv/dx_i = bv_i f_v,  dgamma/dx_i = bu_i f_v + bv_i f_u.
// Summed against the stress this is A0 P D_m^-T (P = F S), the rest-shape form derived above.
// C is invariant under rigid motion (F^T F is) and zero at rest (F^T F = I).
//
// Energy and compliance. psi = eps^T Cm eps / 2 is the StVK membrane energy per rest area
// (Cm in N/m), so choosing alpha = (A0 Cm)^-1 gives C^T alpha^-1 C / 2 = A0 psi exactly: XPBD
// then integrates the physical membrane with Ex, Ey, nu, G in N/m. alpha is stored already
// inverted (6 floats of a symmetric 3x3, units 1/J), built by cloth::makeStvk.
//
// Solve. dLambda = -(J W J^T + alpha~)^-1 (C + alpha~ lambda), alpha~ = alpha / dt^2, then
// x_i += w_i J_i^T dLambda: the 3x3 block of the triangle solved exactly (written out by
// cofactors, no inverse(): its formulas differ between glm and drivers).
// PBD mode: a block projection scaled by pbdStiffness k' in [0, 1]:
//   dLambda = -k' (J W J^T)^-1 C  (k' = 1 projects onto eps = 0 to first order).
// Degenerate systems (collapsed triangle with no compliance, all vertices pinned, NaN) are
// skipped: no position changes, lambda keeps its start value.
#ifndef CLOTH_KERNELS_CONSTRAINT_STVK_H
#define CLOTH_KERNELS_CONSTRAINT_STVK_H

#include "kernels/common.h"
#include "kernels/types.h"

CLOTH_NAMESPACE_BEGIN

// The 3x3 system is skipped when det < STVK_DEGENERATE * (product of its diagonal): for a
// symmetric positive definite matrix that ratio is in (0, 1] and measures its conditioning.
const float STVK_DEGENERATE = 1e-6f;

struct StvkConstraint {
    uint v0;
    uint v1;
    uint v2;
    float pbdStiffness;   // PBD only: k' per iteration, in [0, 1]
    vec4 invRest;         // D_m^-1 column-major: (B00, B10, B01, B11), 1/m
    vec4 complianceDiag;  // (A0 Cm)^-1 diagonal: (a_uu, a_vv, a_gg), w unused; 1/J
    vec4 complianceOff;   // off-diagonal: (a_uv, a_ug, a_vg), w unused; 1/J
};
CLOTH_CHECK_SIZE(StvkConstraint, 64)
CLOTH_CHECK_OFFSET(StvkConstraint, invRest, 16)
CLOTH_CHECK_OFFSET(StvkConstraint, complianceOff, 48)

// Strain C = (E_uu, E_vv, gamma) and its gradients: column k of gi is dC_k/dx_i.
CLOTH_FN void stvkEval(vec3 x0, vec3 x1, vec3 x2, vec4 invRest, CLOTH_OUT(vec3) C,
                       CLOTH_OUT(mat3) g0, CLOTH_OUT(mat3) g1, CLOTH_OUT(mat3) g2) {
    vec3 e1 = x1 - x0;
    vec3 e2 = x2 - x0;
    vec3 fu = e1 * invRest.x + e2 * invRest.y;
    vec3 fv = e1 * invRest.z + e2 * invRest.w;
    C = vec3(0.5f * (dot(fu, fu) - 1.0f), 0.5f * (dot(fv, fv) - 1.0f), dot(fu, fv));
    float bu0 = -(invRest.x + invRest.y);
    float bv0 = -(invRest.z + invRest.w);
    g0 = mat3(bu0 * fu, bv0 * fv, bu0 * fv + bv0 * fu);
    g1 = mat3(invRest.x * fu, invRest.z * fv, invRest.x * fv + invRest.z * fu);
    g2 = mat3(invRest.y * fu, invRest.w * fv, invRest.y * fv + invRest.w * fu);
}

// Solves M x = r for symmetric M = [[d.x, o.x, o.y], [o.x, d.y, o.z], [o.y, o.z, d.z]] by
// cofactors, after scaling M by 3 / trace (keeps the products in float range). False, x = 0,
// when M is not clearly positive definite.
CLOTH_FN bool stvkSolveSym3(vec3 d, vec3 o, vec3 r, CLOTH_OUT(vec3) x) {
    x = vec3(0.0f);
    float trace = d.x + d.y + d.z;
    if (!(trace > 0.0f)) return false;
    float m = 3.0f / trace;
    vec3 sd = d * m;
    vec3 so = o * m;
    float c00 = sd.y * sd.z - so.z * so.z;
    float c01 = so.y * so.z - so.x * sd.z;
    float c02 = so.x * so.z - so.y * sd.y;
    float c11 = sd.x * sd.z - so.y * so.y;
    float c12 = so.x * so.y - sd.x * so.z;
    float c22 = sd.x * sd.y - so.x * so.x;
    float det = sd.x * c00 + so.x * c01 + so.y * c02;
    if (!(det > STVK_DEGENERATE * (sd.x * sd.y * sd.z))) return false;
    float inv = m / det;
    x = vec3((c00 * r.x + c01 * r.y + c02 * r.z) * inv, (c01 * r.x + c11 * r.y + c12 * r.z) * inv,
             (c02 * r.x + c12 * r.y + c22 * r.z) * inv);
    return true;
}

CLOTH_FN vec3 stvkMove(mat3 g, vec3 dl) {
    return g[0] * dl.x + g[1] * dl.y + g[2] * dl.z;
}

// One projection of the triangle; lambda.xyz holds its three multipliers (w unused, kept 0).
CLOTH_FN void projectStvk(CLOTH_INOUT(vec4) p0, CLOTH_INOUT(vec4) p1, CLOTH_INOUT(vec4) p2,
                          StvkConstraint c, CLOTH_INOUT(vec4) lambda, SolveParams s) {
    vec3 lam = (s.firstIteration != 0u) ? vec3(0.0f) : vec3(lambda);
    lambda = vec4(lam, 0.0f);
    if (!(p0.w + p1.w + p2.w > 0.0f)) return;
    vec3 C;
    mat3 g0, g1, g2;
    stvkEval(vec3(p0), vec3(p1), vec3(p2), c.invRest, C, g0, g1, g2);
    // J W J^T: entry (k, l) = sum_i w_i (dC_k/dx_i . dC_l/dx_i).
    vec3 d = vec3(p0.w * dot(g0[0], g0[0]) + p1.w * dot(g1[0], g1[0]) + p2.w * dot(g2[0], g2[0]),
                  p0.w * dot(g0[1], g0[1]) + p1.w * dot(g1[1], g1[1]) + p2.w * dot(g2[1], g2[1]),
                  p0.w * dot(g0[2], g0[2]) + p1.w * dot(g1[2], g1[2]) + p2.w * dot(g2[2], g2[2]));
    vec3 o = vec3(p0.w * dot(g0[0], g0[1]) + p1.w * dot(g1[0], g1[1]) + p2.w * dot(g2[0], g2[1]),
                  p0.w * dot(g0[0], g0[2]) + p1.w * dot(g1[0], g1[2]) + p2.w * dot(g2[0], g2[2]),
                  p0.w * dot(g0[1], g0[2]) + p1.w * dot(g1[1], g1[2]) + p2.w * dot(g2[1], g2[2]));
    vec3 r;
    if (s.mode == MODE_PBD) {
        r = -c.pbdStiffness * C;
    } else {
        vec3 ad = vec3(c.complianceDiag) * s.invDt2;
        vec3 ao = vec3(c.complianceOff) * s.invDt2;
        d += ad;
        o += ao;
        // alpha~ lambda with alpha~ = [[ad.x, ao.x, ao.y], [ao.x, ad.y, ao.z], [ao.y, ao.z, ad.z]]
        vec3 al = vec3(ad.x * lam.x + ao.x * lam.y + ao.y * lam.z,
                       ao.x * lam.x + ad.y * lam.y + ao.z * lam.z,
                       ao.y * lam.x + ao.z * lam.y + ad.z * lam.z);
        r = -(C + al);
    }
    vec3 dl;
    if (!stvkSolveSym3(d, o, r, dl)) return;
    lambda = vec4(lam + dl, 0.0f);
    p0 += vec4(p0.w * stvkMove(g0, dl), 0.0f);
    p1 += vec4(p1.w * stvkMove(g1, dl), 0.0f);
    p2 += vec4(p2.w * stvkMove(g2, dl), 0.0f);
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_CONSTRAINT_STVK_H

#if defined(CLOTH_HAS_POSITIONS) && !defined(CLOTH_CONSTRAINT_STVK_SOLVE)
#define CLOTH_CONSTRAINT_STVK_SOLVE
CLOTH_NAMESPACE_BEGIN

// One item (constraint_types.h): gather, project, scatter (v0 first).
CLOTH_SOLVE_FN void stvkSolve(CLOTH_POSITIONS StvkConstraint c, CLOTH_INOUT(vec4) lambda,
                              SolveParams s) {
    vec4 p0 = CLOTH_LOAD(c.v0);
    vec4 p1 = CLOTH_LOAD(c.v1);
    vec4 p2 = CLOTH_LOAD(c.v2);
    projectStvk(p0, p1, p2, c, lambda, s);
    CLOTH_STORE(c.v0, p0);
    CLOTH_STORE(c.v1, p1);
    CLOTH_STORE(c.v2, p2);
}

#ifdef CLOTH_WIDE_ACCESS
// Four 16-byte quarters: v0, v1, v2, pbdStiffness; invRest; complianceDiag; complianceOff.
StvkConstraint stvkLoadWide(uint k) {
    uvec4 a = wordsOf(stvkWords[4u * k]);
    StvkConstraint c;
    c.v0 = a.x;
    c.v1 = a.y;
    c.v2 = a.z;
    c.pbdStiffness = uintBitsToFloat(a.w);
    c.invRest = vec4Of(stvkWords[4u * k + 1u]);
    c.complianceDiag = vec4Of(stvkWords[4u * k + 2u]);
    c.complianceOff = vec4Of(stvkWords[4u * k + 3u]);
    return c;
}
#endif

CLOTH_NAMESPACE_END
#endif
