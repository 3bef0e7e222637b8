// Projective dynamics with a Jacobi global step (docs/models.md "Projective dynamics"; Wang 2015),
// shared by the CPU reference (cpu/pd_jacobi.cpp) and shaders/pd_jacobi.comp.
//
// The global system A x = b, A = M / h^2 + sum_c w_c A_c^T A_c, b = M s / h^2 + sum_c w_c A_c^T p_c
// (kernels/projective.h), has one row per vertex (the same for x, y and z). A term c touches its
// corners j with weights a_cj (a triangle: f_u = sum_j bu_j x_j with w = A k_u, f_v likewise with
// A k_v; a bend: C = sum_j K_j x_j with w), so the row of corner i holds
//   b_i - sum_{j != i} A_ij x_j
//       = m_i s_i / h^2 + sum_{c at i} w_c a_ci (p_c - sum_{j != i} a_cj x_j),
//   A_ii = m_i / h^2 + sum_{c at i} w_c a_ci^2.
// A Jacobi sweep moves every free vertex to x^_i = (b_i - sum_{j != i} A_ij x_j^k) / A_ii from the
// same iterate x^k (pins keep their place, and their positions enter their neighbours' sums as
// the known x_j). Then Chebyshev's blend (kernels/jacobi.h jacobiCombine, as Wang 2015):
// x^(k+1) = omega_(k+1) (gamma (x^ - x^k) + x^k - x^(k-1)) + x^(k-1). Each vertex adds its terms in
// a fixed order (CSR: its triangles, then its bends, in term order), so every thread count and
// every backend gives the same bits.
#ifndef CLOTH_KERNELS_PD_JACOBI_H
#define CLOTH_KERNELS_PD_JACOBI_H

#include "kernels/collider.h"
#include "kernels/common.h"
#include "kernels/jacobi.h"
#include "kernels/projective.h"

CLOTH_NAMESPACE_BEGIN

// Per vertex: m / h^2 (0 for a pin) and A_ii (1 for a pin), rounded once on the host; carried:
// 1 for a vertex that a hard attachment carries (it stays at its prediction, the target, like a
// pin that moves: inertia 0, diagonal 1); attachment: a compliant attachment's weight w = 1 /
// compliance (its term (w/2) |x_i - t|^2 adds w to A_ii, and is included in diagonal), else 0.
struct PdJacobiVertex {
    float inertia;
    float diagonal;
    uint carried;
    float attachment;
};
CLOTH_CHECK_SIZE(PdJacobiVertex, 16)

// The inertial prediction s = x + h v + h^2 g of a free vertex (w > 0); a pin keeps x.
CLOTH_FN vec4 pdPredict(vec4 x, vec4 v, vec3 g, float h) {
    if (x.w <= 0.0f) return x;
    return vec4(vec3(x) + h * vec3(v) + (h * h) * g, x.w);
}

// The sweep in residual form, which is the same x^_i: x^_i = x_i + r_i / A_ii with r_i = b_i -
// (A x)_i = m_i (s_i - x_i) / h^2 + sum_{c at i} w_c a_ci (p_c - sum_j a_cj x_j). Each term's sum
// is taken over differences, sum_j a_cj (x_j - x_i) + (sum_j a_cj) x_i (the weights of a triangle's
// f_u and of a bending stencil add up to 0), so its rounding scales with the cloth's edges, not
// with how far the cloth is from the origin (measured: a free fall at y = 1.5 m drifted 2.8e-4 m
// in 60 steps with plain sums over x_j, 5e-5 m with these).

// Corner c's share w_c a_ci (p_c - sum_j a_cj x_j) of a strain term at x0, x1, x2, its projection
// (r_u, r_v) from the local step.
CLOTH_FN vec3 pdTriangleJacobiTerm(vec3 x0, vec3 x1, vec3 x2, uint c, vec4 invRest, vec4 stiffness,
                                   float area, vec3 ru, vec3 rv) {
    vec3 bu = pdWeightsU(invRest);
    vec3 bv = pdWeightsV(invRest);
    vec3 xi = c == 0u ? x0 : (c == 1u ? x1 : x2);
    vec3 d0 = x0 - xi;
    vec3 d1 = x1 - xi;
    vec3 d2 = x2 - xi;
    vec3 fu = d0 * bu.x + d1 * bu.y + d2 * bu.z + xi * (bu.x + bu.y + bu.z);
    vec3 fv = d0 * bv.x + d1 * bv.y + d2 * bv.z + xi * (bv.x + bv.y + bv.z);
    float au = c == 0u ? bu.x : (c == 1u ? bu.y : bu.z);
    float av = c == 0u ? bv.x : (c == 1u ? bv.y : bv.z);
    return (ru - fu) * (area * stiffness.x * au) + (rv - fv) * (area * stiffness.y * av);
}

// The same for a bending term (C = sum_j K_j x_j, projection p).
CLOTH_FN vec3 pdBendJacobiTerm(vec3 x0, vec3 x1, vec3 x2, vec3 x3, uint c, vec4 k, float weight,
                               vec3 p) {
    vec3 xi = c == 0u ? x0 : (c == 1u ? x1 : (c == 2u ? x2 : x3));
    vec3 cx = (x0 - xi) * k.x + (x1 - xi) * k.y + (x2 - xi) * k.z + (x3 - xi) * k.w +
              xi * (k.x + k.y + k.z + k.w);
    float a = c == 0u ? k.x : (c == 1u ? k.y : (c == 2u ? k.z : k.w));
    return (p - cx) * (weight * a);
}

// A compliant attachment's share w (t - x_i) of its vertex's residual (t: the target at the step's
// end), added after the vertex's triangles and bends.
CLOTH_FN vec3 pdAttachmentJacobiTerm(vec3 target, vec3 x, float weight) {
    return (target - x) * weight;
}

// The start of a vertex's residual: m (s - x) / h^2.
CLOTH_FN vec3 pdJacobiInertia(vec4 s, vec4 x, PdJacobiVertex jv) {
    return (vec3(s) - vec3(x)) * jv.inertia;
}

// x^(k+1) of one vertex from its residual r (pdJacobiInertia plus its terms, in CSR order), its
// current and previous iterates: x^ = x^k + r / A_ii, then Chebyshev's blend. A pin (w <= 0)
// and a carried vertex stay; w is kept.
CLOTH_FN vec4 pdJacobiVertex(vec4 current, vec4 previous, vec3 residual, PdJacobiVertex jv,
                             float omega, float gamma) {
    if (current.w <= 0.0f || jv.carried != 0u) return current;
    vec4 hat = current + vec4(residual / jv.diagonal, 0.0f);
    vec4 next = jacobiCombine(hat, current, previous, omega, gamma);
    return vec4(vec3(next), current.w);
}

// After the step (cpu/post_step.h, shaders/pd_jacobi.comp): the velocity (y - x) / h of a vertex
// moved from `start` to y (colliders included), restitution when in contact, then the material's
// linear damping v *= max(0, 1 - c h).
CLOTH_FN vec3 implicitVelocity(vec3 y, vec3 start, float h, bool contact, CLOTH_IN(ContactState) s,
                               float damping) {
    vec3 vel = (y - start) / h;
    if (contact) vel = restituteVelocity(vel, s);
    return vel * max(0.0f, 1.0f - damping * h);
}

CLOTH_NAMESPACE_END

#endif
