// The maths of the solver's stages, shared by the CPU reference solver and the GLSL compute
// shaders: every constraint type (constraint_types.h), attachments, tethers, integration,
// damping, phantom averaging, normals. Written once; the CPU tests check the very code the GPU
// runs.
#ifndef CLOTH_KERNELS_CONSTRAINTS_H
#define CLOTH_KERNELS_CONSTRAINTS_H

#include "kernels/solve_common.h"
#include "kernels/constraint_types.h"

CLOTH_NAMESPACE_BEGIN

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
    if (m.type == MOTION_OSCILLATE) {
        float now = clothSinCos(m.angularSpeed * t + m.phase).x;
        float start = clothSinCos(m.phase).x;
        return (now - start) * vec3(m.u);
    }
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

#endif  // CLOTH_KERNELS_CONSTRAINTS_H

// ---- phantom averaging, written once for every backend ------------------------------------------
// Needs position access (CLOTH_LOAD / CLOTH_STORE) and the group's member list: C++ passes it,
// shaders read their phantomMembers buffer.
#if defined(CLOTH_HAS_POSITIONS) && !defined(CLOTH_KERNELS_PHANTOM_AVERAGE)
#define CLOTH_KERNELS_PHANTOM_AVERAGE
#ifdef __cplusplus
#define CLOTH_PHANTOM_MEMBERS const std::uint32_t *phantomMembers,
#else
#define CLOTH_PHANTOM_MEMBERS
#endif
CLOTH_NAMESPACE_BEGIN

// Moves every member of group g to the group's mean (phantomMeanAdd / phantomMean), or to a
// pinned member's position; each keeps its own inverse mass.
CLOTH_SOLVE_FN void averagePhantomGroup(CLOTH_POSITIONS CLOTH_PHANTOM_MEMBERS PhantomGroup g) {
    vec4 acc = vec4(0.0f);
    bool pinned = false;
    vec3 pinnedAt = vec3(0.0f);
    for (uint k = 0u; k < g.count; ++k) {
        vec4 p = CLOTH_LOAD(phantomMembers[g.first + k]);
        if (p.w > 0.0f) {
            acc = phantomMeanAdd(acc, p);
        } else {
            pinned = true;
            pinnedAt = vec3(p);
        }
    }
    vec3 x = pinned ? pinnedAt : phantomMean(acc);
    for (uint k = 0u; k < g.count; ++k) {
        uint v = phantomMembers[g.first + k];
        CLOTH_STORE(v, vec4(x, CLOTH_LOAD(v).w));
    }
}

CLOTH_NAMESPACE_END
#endif
