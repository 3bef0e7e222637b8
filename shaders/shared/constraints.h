// Constraint maths shared by the CPU reference solver and the GLSL compute shaders.
// Everything here is written once; the CPU tests therefore check the very code the GPU runs.
//
// XPBD (Macklin et al. 2016): for a constraint C with gradients g_i and inverse masses w_i,
//   alpha~ = compliance / dt^2
//   dLambda = (-C - alpha~ lambda) / (sum_i w_i |g_i|^2 + alpha~),   dx_i = w_i g_i dLambda.
// PBD (Mueller et al. 2006): dLambda = -k' C / sum_i w_i |g_i|^2 with k' = 1 - (1 - k)^(1/n).
#ifndef CLOTH_SHARED_CONSTRAINTS_H
#define CLOTH_SHARED_CONSTRAINTS_H

#include "common.h"
#include "types.h"

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

// ---- distance (stretch and shear) -------------------------------------------------------------

// Value and gradient (with respect to x0; x1's is its negative) in one pass. False when the
// points coincide.
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

// ---- dihedral bending ---------------------------------------------------------------------------
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

// ---- kinematic attachments and tethers ----------------------------------------------------------

// sin and cos by Cody-Waite reduction to [-pi/4, pi/4] and the Cephes sinf/cosf polynomials
// (|error| about 1e-7 for |a| up to 1e4). Used instead of sin()/cos() for the same reason as
// clothAtan2: a driver's sin/cos may differ from libm by many ulp (lavapipe's do), and the
// kinematic targets of `swirl` then drift apart on the two backends (measured: 1.5e-4 of the
// cloth's size after 240 frames with the built-ins, 0 with these).
CLOTH_FN vec2 clothSinCos(float a) {
    float k = floor(a * 0.636619772f + 0.5f);  // nearest multiple of pi/2
    float r = (a - k * 1.5703125f) - k * 4.83826794897e-4f;
    float r2 = r * r;
    float s = ((-1.9515295891e-4f * r2 + 8.3321608736e-3f) * r2 - 1.6666654611e-1f) * r2 * r + r;
    float c = ((2.443315711809948e-5f * r2 - 1.388731625493765e-3f) * r2 +
               4.166664568298827e-2f) * r2 * r2 - 0.5f * r2 + 1.0f;
    int q = int(k) & 3;
    if (q == 0) return vec2(s, c);
    if (q == 1) return vec2(c, -s);
    if (q == 2) return vec2(-s, -c);
    return vec2(-c, s);
}

CLOTH_FN vec3 motionOffset(Motion m, float t) {
    if (m.type == MOTION_CIRCLE) {
        vec2 now = clothSinCos(m.angularSpeed * t + m.phase);  // (sin, cos)
        vec2 start = clothSinCos(m.phase);
        return m.radius * ((now.y - start.y) * vec3(m.u) + (now.x - start.x) * vec3(m.v));
    }
    if (m.type == MOTION_LINEAR) return t * vec3(m.u);
    return vec3(0.0f);
}

// C = |x - target|; pulls the vertex onto its (moving) target.
CLOTH_FN void projectAttachment(CLOTH_INOUT(vec4) p, vec3 target, float param,
                                CLOTH_INOUT(float) lambda, SolveParams s) {
    float C;
    vec3 n;
    if (p.w <= 0.0f || !distanceEval(vec3(p), target, 0.0f, C, n)) return;
    float lam = startLambda(lambda, s);
    float dl = deltaLambda(C, p.w, param, lam, s);
    lambda = lam + dl;
    p += vec4((p.w * dl) * n, 0.0f);
}

// Unilateral and rigid: C = |x - anchor| - maxLength <= 0. The anchor is never moved.
CLOTH_FN void projectTether(CLOTH_INOUT(vec4) p, vec3 anchor, float maxLength) {
    vec3 d = vec3(p) - anchor;
    float len2 = dot(d, d);
    if (p.w <= 0.0f || len2 <= maxLength * maxLength) return;
    float len = sqrt(len2);
    p -= vec4(d * ((len - maxLength) / len), 0.0f);
}

// ---- integration ------------------------------------------------------------------------------

// Symplectic Euler prediction: v += g dt, x += v dt. Pinned vertices (w = 0) do not move.
// `predicted` keeps the predicted position for substepVelocity.
CLOTH_FN void predictVertex(CLOTH_INOUT(vec4) pos, CLOTH_INOUT(vec4) vel, CLOTH_OUT(vec4) predicted,
                            vec3 gravity, float dt) {
    if (pos.w > 0.0f) {
        vel += vec4(gravity * dt, 0.0f);
        pos += vec4(vec3(vel) * dt, 0.0f);
    }
    predicted = pos;
}

// The XPBD velocity v = (x - x_old) / dt, computed as v_pred + (x - x_pred) / dt (the same
// value, since x_pred = x_old + v_pred dt). In float the second form is exact for a vertex no
// constraint moved: the first loses ulp(|x|) / dt per substep, a systematic drift of about
// 4e-5 m/s per substep at |x| ~ 2 m. Then the global linear damping factor.
CLOTH_FN vec3 substepVelocity(vec3 x, vec3 predicted, vec3 predictedVelocity, float invDt,
                              float dampingFactor) {
    return (predictedVelocity + (x - predicted) * invDt) * dampingFactor;
}

// ---- Mueller's damping that keeps rigid motion (PBD 2006, section 3.5) -----------------------

CLOTH_FN RigidSums rigidSumsZero() {
    RigidSums s;
    s.massMoment = vec4(0.0f);
    s.momentum = vec4(0.0f);
    s.angular = vec4(0.0f);
    s.rrDiag = vec4(0.0f);
    s.rrOff = vec4(0.0f);
    return s;
}

// Adds one vertex of mass m at offset r from the reference point, moving with velocity v.
CLOTH_FN RigidSums rigidSumsAdd(RigidSums s, vec3 r, vec3 v, float m) {
    s.massMoment += vec4(m * r, m);
    s.momentum += vec4(m * v, m * dot(r, r));
    s.angular += vec4(m * cross(r, v), 0.0f);
    s.rrDiag += vec4(m * r.x * r.x, m * r.y * r.y, m * r.z * r.z, 0.0f);
    s.rrOff += vec4(m * r.x * r.y, m * r.x * r.z, m * r.y * r.z, 0.0f);
    return s;
}

CLOTH_FN RigidSums rigidSumsCombine(RigidSums a, RigidSums b) {
    a.massMoment += b.massMoment;
    a.momentum += b.momentum;
    a.angular += b.angular;
    a.rrDiag += b.rrDiag;
    a.rrOff += b.rrOff;
    return a;
}

// Centre of mass, its velocity and the angular velocity omega = I^-1 L of the summed vertices.
CLOTH_FN RigidMotion rigidMotionFromSums(RigidSums s, vec3 reference, float k) {
    RigidMotion rm;
    rm.center = vec4(reference, 0.0f);
    rm.linear = vec4(0.0f);
    rm.angular = vec4(0.0f);
    float M = s.massMoment.w;
    if (M <= 0.0f) return rm;
    vec3 c = vec3(s.massMoment) / M;
    vec3 vcm = vec3(s.momentum) / M;
    vec3 L = vec3(s.angular) - M * cross(c, vcm);
    float rr = s.momentum.w - M * dot(c, c);
    // Inertia about the centre of mass: sum m (r.r I - r r^T), shifted from the reference point.
    float xx = s.rrDiag.x - M * c.x * c.x;
    float yy = s.rrDiag.y - M * c.y * c.y;
    float zz = s.rrDiag.z - M * c.z * c.z;
    float xy = s.rrOff.x - M * c.x * c.y;
    float xz = s.rrOff.y - M * c.x * c.z;
    float yz = s.rrOff.z - M * c.y * c.z;
    // omega = I^-1 L by cofactors of the symmetric I, written out rather than with inverse()
    // and determinant(), whose formulas differ between glm and each driver.
    float a = rr - xx, b = -xy, cc = -xz, d = rr - yy, e = -yz, f = rr - zz;
    float c00 = d * f - e * e;
    float c01 = cc * e - b * f;
    float c02 = b * e - cc * d;
    float c11 = a * f - cc * cc;
    float c12 = b * cc - a * e;
    float c22 = a * d - b * b;
    float det = a * c00 + b * c01 + cc * c02;
    float scale = rr * rr * rr;
    vec3 omega = vec3(0.0f);
    if (scale > 0.0f && abs(det) > 1e-6f * scale) {
        float inv = 1.0f / det;
        omega = vec3((c00 * L.x + c01 * L.y + c02 * L.z) * inv,
                     (c01 * L.x + c11 * L.y + c12 * L.z) * inv,
                     (c02 * L.x + c12 * L.y + c22 * L.z) * inv);
    }
    rm.center = vec4(reference + c, 0.0f);
    rm.linear = vec4(vcm, 0.0f);
    rm.angular = vec4(omega, k);
    return rm;
}

// v + k (v_rigid(x) - v): removes a share k of the velocity that is not rigid motion.
CLOTH_FN vec3 rigidDampedVelocity(vec3 x, vec3 v, RigidMotion rm) {
    vec3 rigid = vec3(rm.linear) + cross(vec3(rm.angular), x - vec3(rm.center));
    return v + rm.angular.w * (rigid - v);
}

// ---- phantom vertices ---------------------------------------------------------------------------
// A phantom group's members (the original vertex and its copies) move to their mass-weighted
// mean sum(x / w) / sum(1 / w) over the members with w > 0; if a member is pinned (w == 0) the
// group takes the pinned member's position instead (the last one, should there be several).
// Accumulate with phantomMeanAdd from vec4(0), then read the mean with phantomMean.
CLOTH_FN vec4 phantomMeanAdd(vec4 acc, vec4 member) {
    return acc + vec4(vec3(member) / member.w, 1.0f / member.w);
}

CLOTH_FN vec3 phantomMean(vec4 acc) {
    return vec3(acc) / acc.w;
}

// Area-weighted (unnormalised) triangle normal, summed per vertex for shading.
CLOTH_FN vec3 triangleNormal(vec3 a, vec3 b, vec3 c) {
    return cross(b - a, c - a);
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_SHARED_CONSTRAINTS_H
