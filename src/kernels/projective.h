// Projective dynamics (Bouaziz, Martin, Liu, Kavan, Pauly 2014; docs/models.md "Projective
// dynamics"): the local step's projections and the terms' energies, shared by C++ and GLSL.
//
// A step of h minimises g(x) = |M^1/2 (x - s)|^2 / (2 h^2) + sum_c E_c(x) over the positions x,
// s = x_n + h v_n + h^2 g the inertial prediction, every term quadratic in x once its projection
// p_c is fixed: E_c(x, p) = (w_c / 2) |A_c x - p_c|^2 with min over p_c in the term's set. The
// local step takes p_c = argmin (each term alone), the global step solves the linear system
// (M / h^2 + sum_c w_c A_c^T A_c) x = M s / h^2 + sum_c w_c A_c^T p_c. Neither raises g, so
// each iteration lowers it (tested).
//
// Triangle strain. Rest material coordinates give D_m (2x2) and B = D_m^-1; F = D_s B (3x2,
// columns f_u = sum_i bu_i x_i and f_v = sum_i bv_i x_i as in constraint/stvk.h). The term is
//   E = (A / 2) |(F - R) L|^2,  L = diag(sqrt(k_u), sqrt(k_v)),  R with orthonormal columns,
// k_u, k_v the membrane moduli along the weft and the warp (N/m), A the rest area. For a small
// strain eps, F = R (I + eps) and E / A = (k_u eps_uu^2 + k_v eps_vv^2 + (k_u + k_v) eps_uv^2) / 2:
// a stretch along the weft costs k_u, along the warp k_v, with no coupling (Poisson 0), so a bar
// along either axis stretches as one of modulus k (tested against the StVK bar). The projection:
// |(F - R) L|^2 = |F L|^2 - 2 tr(R^T F K) + tr(K) with K = L L^T, as R^T R = I; so R maximises
// tr(R^T F K), the polar factor of M = F K = [k_u f_u, k_v f_v]: R = M (M^T M)^-1/2, with the 2x2
// square root in closed form (sqrt(S) = (S + sqrt(det S) I) / sqrt(tr S + 2 sqrt(det S))).
//
// Bending (isometric stencils, constraint/iso_bending.h): per interior edge C = sum_i K_i x_i,
// E = (w / 2) |C - p|^2 with p = rho C / |C|, rho = |C| at rest (0 on a flat rest state: then
// p = 0 and the term is Bergou's quadratic energy).
//
// Fixed angles (a crease held at a signed dihedral target theta_0, in place of the edge's bend):
// the same stencil and form, with p the stencil vector of the hinge folded to its target, carried
// by the current hinge's frame: e^ along the edge, n^ = the bisector of the two unit face normals,
// t^ = e^ x n^, and p = a n^ + b t^. a and b are C* = sum K_i X_i(theta_0) in that frame, computed
// at load from the rest hinge laid flat and folded to theta_0 (prep/projective.cpp). For a flat
// stencil C* = 2 |e| sin(theta_0 / 2) n^ exactly (C*'s parts along e^ and t^ vanish), so b is
// rounding and a carries the fold's side. p turns with the hinge (rotation-equivariant) and
// equals C at the target fold; no trigonometry at run time. Unlike a bend's, this p is not the
// closest point of a fixed set, so PD's descent guarantee does not cover these terms.
#ifndef CLOTH_KERNELS_PROJECTIVE_H
#define CLOTH_KERNELS_PROJECTIVE_H

#include "kernels/common.h"

CLOTH_NAMESPACE_BEGIN

struct PdTriangle {
    uint v0, v1, v2;
    float area;        // rest area A, m^2
    vec4 invRest;      // B = D_m^-1 column-major (B00, B10, B01, B11), 1/m
    vec4 stiffness;    // x: k_u (weft), y: k_v (warp), N/m; zw unused
};
CLOTH_CHECK_SIZE(PdTriangle, 48)

// PdBend::kind.
const uint PD_TERM_BEND = 0u;
// A seam pair's term (prep/projective.h): C = x_v0 - x_v1, k = (1, -1, 0, 0), v2 = v0 and
// v3 = v1 (their weights 0), rho 0.
const uint PD_TERM_SEAM = 1u;
// A fixed angle: restNorm = a, restTangent = b (above).
const uint PD_TERM_FIXED_ANGLE = 2u;

struct PdBend {
    uint v0, v1, v2, v3;  // as IsoBendingConstraint: edge v0 -> v1, v2 and v3 opposite
    vec4 k;               // the stencil's weights
    float weight;         // w, N/m (the term is (w/2)|C - p|^2 with C in m)
    // A bend: rho = |sum K_i X_i| at rest, m. A fixed angle: a, C*'s part along n^ (signed), m.
    float restNorm;
    uint kind;            // PD_TERM_BEND, PD_TERM_SEAM or PD_TERM_FIXED_ANGLE
    float restTangent;    // a fixed angle: b, C*'s part along t^, m; 0 otherwise
};
CLOTH_CHECK_SIZE(PdBend, 48)
CLOTH_CHECK_OFFSET(PdBend, kind, 40)

// The weights of f_u and f_v on the triangle's three vertices.
CLOTH_FN vec3 pdWeightsU(vec4 b) {
    return vec3(-b.x - b.y, b.x, b.y);
}
CLOTH_FN vec3 pdWeightsV(vec4 b) {
    return vec3(-b.z - b.w, b.z, b.w);
}

// R's columns (r_u, r_v) for the triangle at x0, x1, x2: the polar factor of [k_u f_u, k_v f_v].
// A collapsed triangle (rank below 2) gets Gram-Schmidt on what is left, and an arbitrary
// perpendicular where nothing is.
CLOTH_FN void pdProjectTriangle(vec3 x0, vec3 x1, vec3 x2, vec4 invRest, vec4 stiffness,
                                CLOTH_OUT(vec3) ru, CLOTH_OUT(vec3) rv) {
    vec3 bu = pdWeightsU(invRest);
    vec3 bv = pdWeightsV(invRest);
    vec3 mu = (x0 * bu.x + x1 * bu.y + x2 * bu.z) * stiffness.x;
    vec3 mv = (x0 * bv.x + x1 * bv.y + x2 * bv.z) * stiffness.y;
    float a = dot(mu, mu);
    float b = dot(mu, mv);
    float c = dot(mv, mv);
    float det = a * c - b * b;
    if (det > 1e-12f * (a + c) * (a + c)) {
        float s = sqrt(det);
        float t = sqrt(a + c + 2.0f * s);
        float inv = 1.0f / (s * t);
        // (sqrt S)^-1 = [[c + s, -b], [-b, a + s]] / (s t)
        ru = (mu * (c + s) - mv * b) * inv;
        rv = (mv * (a + s) - mu * b) * inv;
        return;
    }
    // Rank below 2: the longer column's direction, and the other's part perpendicular to it
    // (or any perpendicular).
    bool uFirst = a >= c;
    vec3 first = uFirst ? mu : mv;
    vec3 second = uFirst ? mv : mu;
    float lf = sqrt(max(a, c));
    vec3 e1 = lf > 0.0f ? first * (1.0f / lf) : vec3(1.0f, 0.0f, 0.0f);
    vec3 w = second - e1 * dot(second, e1);
    float lw = sqrt(dot(w, w));
    vec3 e2;
    if (lw > 1e-6f * lf) {
        e2 = w * (1.0f / lw);
    } else {
        vec3 q = abs(e1.x) < 0.9f ? vec3(1.0f, 0.0f, 0.0f) : vec3(0.0f, 1.0f, 0.0f);
        e2 = normalize(q - e1 * dot(q, e1));
    }
    ru = uFirst ? e1 : e2;
    rv = uFirst ? e2 : e1;
}

// The term's energy (A / 2) (k_u |f_u - r_u|^2 + k_v |f_v - r_v|^2) at its projection r.
CLOTH_FN float pdTriangleEnergy(vec3 x0, vec3 x1, vec3 x2, vec4 invRest, vec4 stiffness, float area,
                                vec3 ru, vec3 rv) {
    vec3 bu = pdWeightsU(invRest);
    vec3 bv = pdWeightsV(invRest);
    vec3 du = x0 * bu.x + x1 * bu.y + x2 * bu.z - ru;
    vec3 dv = x0 * bv.x + x1 * bv.y + x2 * bv.z - rv;
    return 0.5f * area * (stiffness.x * dot(du, du) + stiffness.y * dot(dv, dv));
}

// A fixed angle's projection p = a n^ + b t^ in the hinge's current frame (above). Where the
// frame is undefined (an edge or a face of no length, or the faces folded flat onto each other)
// p = C: the term pulls nowhere for this iteration. Only sqrt and division (no normalize), so
// C++ and GLSL give the same bits.
CLOTH_FN vec3 pdProjectFixedAngle(vec3 x0, vec3 x1, vec3 x2, vec3 x3, vec4 k, float a, float b) {
    vec3 c = x0 * k.x + x1 * k.y + x2 * k.z + x3 * k.w;
    vec3 e = x1 - x0;
    vec3 n1 = cross(x2 - x0, x2 - x1);
    vec3 n2 = cross(x3 - x1, x3 - x0);
    float le = sqrt(dot(e, e));
    float l1 = sqrt(dot(n1, n1));
    float l2 = sqrt(dot(n2, n2));
    if (!(le > 0.0f) || !(l1 > 0.0f) || !(l2 > 0.0f)) return c;
    vec3 m = n1 * (1.0f / l1) + n2 * (1.0f / l2);
    float lm = sqrt(dot(m, m));
    if (!(lm > 1e-6f)) return c;
    vec3 n = m * (1.0f / lm);
    vec3 t = cross(e * (1.0f / le), n);
    return n * a + t * b;
}

// A term's projection: a bend's p = rho C / |C| (0 when rho is 0 or C vanishes; a seam's rho is
// 0), a fixed angle's pdProjectFixedAngle.
CLOTH_FN vec3 pdProjectBend(vec3 x0, vec3 x1, vec3 x2, vec3 x3, PdBend b) {
    if (b.kind == PD_TERM_FIXED_ANGLE)
        return pdProjectFixedAngle(x0, x1, x2, x3, b.k, b.restNorm, b.restTangent);
    vec3 c = x0 * b.k.x + x1 * b.k.y + x2 * b.k.z + x3 * b.k.w;
    float l = sqrt(dot(c, c));
    if (!(b.restNorm > 0.0f) || !(l > 0.0f)) return vec3(0.0f);
    return c * (b.restNorm / l);
}

CLOTH_NAMESPACE_END

#endif
