// The maths every constraint type shares (src/kernels/constraint/*.h): multiplier updates,
// the portable atan2, point distance. Compiled by C++ and GLSL (see common.h).
//
// XPBD (Macklin et al. 2016): for a constraint C with gradients g_i and inverse masses w_i,
//   alpha~ = compliance / dt^2
//   dLambda = (-C - alpha~ lambda) / (sum_i w_i |g_i|^2 + alpha~),   dx_i = w_i g_i dLambda.
// PBD (Mueller et al. 2006): dLambda = -k' C / sum_i w_i |g_i|^2 with k' = 1 - (1 - k)^(1/n).
#ifndef CLOTH_KERNELS_SOLVE_COMMON_H
#define CLOTH_KERNELS_SOLVE_COMMON_H

#include "kernels/common.h"
#include "kernels/types.h"

CLOTH_NAMESPACE_BEGIN

const float CLOTH_PI = 3.14159265358979f;
// A triangle counts as degenerate when its height is below 1e-5 of the shared edge length.
const float BEND_DEGENERATE = 1e-10f;
const float LENGTH_EPSILON = 1e-12f;

CLOTH_FN float startLambda(float lambda, SolveParams s) {
    return (s.firstIteration != 0u) ? 0.0f : lambda;
}

// Lagrange multiplier increment of one projection (XPBD) or the scaled PBD step.
CLOTH_FN float deltaLambda(float C, float wGrad2, float param, float lambda, SolveParams s) {
    if (s.mode == MODE_PBD) return -C * param / wGrad2;
    float alphaTilde = param * s.invDt2;
    return (-C - alphaTilde * lambda) / (wGrad2 + alphaTilde);
}

// atan2 by the Abramowitz & Stegun 4.4.49 polynomial (|error| <= 2e-8 in exact arithmetic,
// about 3e-7 rad in float, like libm's atan2f). Used instead of atan() so that the CPU and every
// GPU compute the same angle: Vulkan lets a driver's atan be off by up to 4096 ulp, and libm's
// atan2f costs about 115 instructions. atan2(0, 0) = 0.
CLOTH_FN float clothAtan2(float y, float x) {
    float ax = abs(x);
    float ay = abs(y);
    float mx = max(ax, ay);
    if (mx == 0.0f) return 0.0f;
    float a = min(ax, ay) / mx;
    float s = a * a;
    float r = -0.0040540580f;
    r = r * s + 0.0218612288f;
    r = r * s - 0.0559098861f;
    r = r * s + 0.0964200441f;
    r = r * s - 0.1390853351f;
    r = r * s + 0.1994653599f;
    r = r * s - 0.3332985605f;
    r = (r * s + 0.9999993329f) * a;
    if (ay > ax) r = 1.57079637f - r;
    if (x < 0.0f) r = 3.14159274f - r;
    if (y < 0.0f) r = -r;
    return r;
}

// Distance between two points: value and gradient (with respect to x0; x1's is its negative)
// in one pass. False when the points coincide.
CLOTH_FN bool distanceEval(vec3 x0, vec3 x1, float restLength, CLOTH_OUT(float) C,
                           CLOTH_OUT(vec3) g0) {
    vec3 d = x0 - x1;
    float len2 = dot(d, d);
    C = 0.0f;
    g0 = vec3(0.0f);
    if (len2 <= LENGTH_EPSILON) return false;
    float len = sqrt(len2);
    C = len - restLength;
    g0 = d * (1.0f / len);
    return true;
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_SOLVE_COMMON_H
