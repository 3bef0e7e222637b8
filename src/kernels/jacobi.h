// Jacobi and Chebyshev-accelerated Jacobi iterations (SimSettings::iteration), shared by the CPU
// reference and the GLSL kernel (shaders/solver/jacobi.glsl).
//
// One iteration has two passes:
//  1. Every constraint item, all types at once, solves its own projection from the same
//     positions q^k. A vertex in n_i items counts n_i times heavier in each of them (mass
//     splitting: its inverse mass w_i becomes n_i w_i, `scale`), and each item writes the move
//     it wants for each of its vertices, d_ic = the solve's output minus its input, into its own
//     slot of a delta array. Its multiplier becomes lambda^ = lambda^k + dLambda.
//  2. Every vertex adds its slots in a fixed order (JacobiVertex: a CSR list, built at load
//     time in type, item and vertex order) and moves to
//         q^_i = q_i^k + (1 / n_i) sum_c d_ic        (= q_i^k + w_i sum_c grad_i C_c dLambda_c)
//     then relaxed and accelerated:
//         q^(k+1) = omega (gamma (q^ - q^k) + q^k - q^(k-1)) + q^(k-1)
//     (Cheng 2023 Alg. 2.2 line 16; omega = 1 gives the relaxed Jacobi step q^k + gamma (q^ - q^k)).
//     The multipliers take the same update (line 17), so that the positions keep moving by
//     M^-1 grad C^T times the multipliers' change: the fixed point, C + alpha~ lambda = 0 for
//     every constraint, is Gauss-Seidel's.
// Nothing is summed by atomics: every backend adds the same numbers in the same order.
#ifndef CLOTH_KERNELS_JACOBI_H
#define CLOTH_KERNELS_JACOBI_H

#include "kernels/common.h"
#include "kernels/types.h"

CLOTH_NAMESPACE_BEGIN

// Per vertex (phantoms included): its delta slots sources[begin, end), n_i = end - begin as a
// float (`scale`, the inverse-mass factor of the local solves) and 1 / n_i (`invScale`, 0 for a
// vertex in no constraint), rounded once on the host so that every backend multiplies by the
// same float.
struct JacobiVertex {
    uint begin;
    uint end;
    float scale;
    float invScale;
};
CLOTH_CHECK_SIZE(JacobiVertex, 16)

// jacobi.comp: pass 1 over the items [0, count) of the types in SPEC_VARIANT's mask (one type
// per dispatch: the items of type I start at delta slot deltaBase and previous-multiplier slot
// lambdaBase), or pass 2 (JACOBI_APPLY) over vertices [0, count).
const uint JACOBI_APPLY = 65536u;
struct JacobiPush {
    SolveParams solve;
    uint count;
    uint deltaBase;
    uint lambdaBase;
    uint pad0;
    float omega;  // Chebyshev weight of this iteration (1: plain relaxed Jacobi)
    float gamma;  // relaxation
    uint pad1;
    uint pad2;
};
CLOTH_CHECK_SIZE(JacobiPush, 48)

// x^(k+1) from the Jacobi result `hat`, the current iterate and the previous one.
CLOTH_FN vec4 jacobiCombine(vec4 hat, vec4 current, vec4 previous, float omega, float gamma) {
    if (omega == 1.0f) return current + gamma * (hat - current);
    return omega * (gamma * (hat - current) + current - previous) + previous;
}
CLOTH_FN float jacobiCombine(float hat, float current, float previous, float omega, float gamma) {
    if (omega == 1.0f) return current + gamma * (hat - current);
    return omega * (gamma * (hat - current) + current - previous) + previous;
}

// Pass 2 for one vertex, from the sum of its deltas (added in source order from vec3(0)).
// Pinned vertices (w = 0) stay where they are; w is kept.
CLOTH_FN vec4 jacobiVertexPosition(vec4 current, vec4 previous, vec3 deltaSum, JacobiVertex jv,
                                   float omega, float gamma) {
    if (current.w <= 0.0f) return current;
    vec4 hat = current + vec4(deltaSum * jv.invScale, 0.0f);
    vec4 next = jacobiCombine(hat, current, previous, omega, gamma);
    return vec4(vec3(next), current.w);
}

// The move an item's solve asked of one of its vertices.
CLOTH_FN vec4 jacobiDelta(vec4 after, vec4 before) {
    return vec4(vec3(after) - vec3(before), 0.0f);
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_JACOBI_H
