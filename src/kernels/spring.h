// Provot's springs (mass-spring model, docs/models.md): the spring between vertices a and b of
// rest length L and stiffness k stores E = k (l - L)^2 / 2 at length l = |x_a - x_b|, so the force
// on a is -dE/dx_a = -k (l - L) (x_a - x_b) / l and the force on b its opposite: a stretched
// spring pulls its ends together. (003 §2.1 prints the direction the other way round; the sign
// here follows from the energy and is checked against finite differences in the tests.)
// Shared by C++ and GLSL.
#ifndef CLOTH_KERNELS_SPRING_H
#define CLOTH_KERNELS_SPRING_H

#include "kernels/common.h"
#include "kernels/collider.h"
#include "kernels/wind.h"
#include "kernels/constraint/bending.h"

CLOTH_NAMESPACE_BEGIN

struct Spring {
    uint a, b;
    float rest;       // m
    float stiffness;  // N/m
};
CLOTH_CHECK_SIZE(Spring, 16)

// The force on the end at xa of a spring to xb (0 for coincident ends: no direction).
CLOTH_FN vec3 springForce(vec3 xa, vec3 xb, float rest, float stiffness) {
    vec3 d = xa - xb;
    float l = sqrt(dot(d, d));
    if (!(l > 0.0f)) return vec3(0.0f);
    return d * (-stiffness * (l - rest) / l);
}

// An attachment (kernels/types.h) of compliance a > 0 is a spring of rest length 0 and stiffness
// 1/a to its moving target: the force (target - x) / a, taken at the step's start.
CLOTH_FN vec3 springAttachmentForce(vec3 x, vec3 target, float compliance) {
    return (target - x) / compliance;
}

// Where attachment a (its motion m) holds its vertex at time t: the mass-spring, PD and FEM
// models' target.
CLOTH_FN vec3 attachmentTarget(CLOTH_IN(Attachment) a, CLOTH_IN(Motion) m, float t) {
    return vec3(a.anchor) + motionOffset(m, t);
}

// A hard attachment (compliance 0) carries its vertex: to the target at the step's end, at the
// target's velocity over the step; Verlet's previous position is where the vertex was.
CLOTH_FN void springFollowTarget(CLOTH_INOUT(vec4) x, CLOTH_INOUT(vec4) previous,
                                 CLOTH_OUT(vec4) v, vec3 target0, vec3 target1, float h) {
    previous = x;
    x = vec4(target1, x.w);
    v = vec4((target1 - target0) / h, 0.0f);
}

// One step of h seconds of a free vertex (w = inverse mass > 0) under the springs' force f,
// gravity g and damping c (force -m c v); docs/models.md. Forward Euler: x and v from the old state.
CLOTH_FN void springExplicitStep(CLOTH_INOUT(vec4) x, CLOTH_INOUT(vec4) v, vec3 f, vec3 g, float c,
                                 float h) {
    vec3 vel = vec3(v);
    vec3 a = f * x.w + g - c * vel;
    x += vec4(h * vel, 0.0f);
    v = vec4(vel + h * a, 0.0f);
}

// Symplectic Euler: v first, then x from the new v.
CLOTH_FN void springSymplecticStep(CLOTH_INOUT(vec4) x, CLOTH_INOUT(vec4) v, vec3 f, vec3 g,
                                   float c, float h) {
    vec3 vel = vec3(v);
    vec3 next = vel + h * (f * x.w + g - c * vel);
    v = vec4(next, 0.0f);
    x += vec4(h * next, 0.0f);
}

// Position Verlet: x' = x + (1 - c h)(x - x_prev) + h^2 (f / m + g); v = (x' - x) / h.
CLOTH_FN void springVerletStep(CLOTH_INOUT(vec4) x, CLOTH_INOUT(vec4) previous, CLOTH_OUT(vec4) v,
                               vec3 f, vec3 g, float c, float h) {
    vec3 now = vec3(x);
    vec3 next = now + (1.0f - c * h) * (now - vec3(previous)) + (h * h) * (f * x.w + g);
    previous = x;
    x = vec4(next, x.w);
    v = vec4((next - now) / h, 0.0f);
}

// Time-corrected Verlet over steps of varying length (docs/models.md): the step before this one
// was hPrev long, so the velocity at the midpoint of that step is (x - x_prev) / hPrev. Over the
// hMean = (h + hPrev) / 2 between the two midpoints it is damped and accelerated, and carries x
// over h: x' = x + (1 - c hMean)(x - x_prev) h / hPrev + h hMean (f / m + g); v = (x' - x) / h.
// ratio = h / hPrev and hMean are the host's floats, so both backends round them alike. It is
// exact for a constant acceleration, and with hPrev = h it is springVerletStep, bit for bit.
CLOTH_FN void springTimeCorrectedVerletStep(CLOTH_INOUT(vec4) x, CLOTH_INOUT(vec4) previous,
                                            CLOTH_OUT(vec4) v, vec3 f, vec3 g, float c, float h,
                                            float hMean, float ratio) {
    vec3 now = vec3(x);
    vec3 next = now + (1.0f - c * hMean) * ((now - vec3(previous)) * ratio) +
                (h * hMean) * (f * x.w + g);
    previous = x;
    x = vec4(next, x.w);
    v = vec4((next - now) / h, 0.0f);
}

// Contacts with the analytic colliders (plane, sphere, capsule, box), after each step: the vertex,
// moved from `start` by the step of h seconds, is projected out of collider c (at pose p1 at the
// step's end, p0 at its start) with collider.h's response, friction over the step included. s
// starts each step fresh at the start position (contactStateAt), so the normal correction N that
// bounds friction is what this step's contacts pushed: on a plane under gravity alone that is
// g cos(theta) h^2, and the tangential move removed up to mu N gives Coulomb's laws
// (docs/models.md).
CLOTH_FN void springContact(CLOTH_IN(Collider) c, CLOTH_IN(ColliderPose) p1,
                            CLOTH_IN(ColliderPose) p0, CLOTH_INOUT(vec4) x, vec3 vStep,
                            float thickness, float h, float bounceBelow,
                            CLOTH_INOUT(ContactState) s) {
    vec3 g;
    float d = colliderShapeDistance(c, poseToLocal(p1, vec3(x)), g);
    if (d >= thickness) return;
    respondToContact(c, p1, p0, x, poseDirection(p1, g), thickness - d, vStep, h, bounceBelow,
                     s);
}

// The velocity after the step's contacts: the step's velocity plus what the contacts moved the
// vertex by (over h), then restitution (collider.h).
CLOTH_FN vec3 springContactVelocity(vec3 vStep, vec3 moved, float h, CLOTH_IN(ContactState) s) {
    return restituteVelocity(vStep + moved * (1.0f / h), s);
}

// The wind (kernels/wind.h) once per substep, before its steps, as XPBD applies it: the vertex's
// velocity change over the substep from its normal (the area-weighted sum of its triangles'
// normals, `normalSum`) and its area share. Verlet keeps its velocity in its previous position,
// which moves back by dv times the step h.
CLOTH_FN vec3 springWind(vec3 v, float invMass, vec3 normalSum, float area, WindParams p) {
    return windVelocityChange(v, invMass, windNormal(normalSum), area, p);
}

// The integrators' codes (push constants; core/scene.h Integrator in this order).
const uint SPRING_EXPLICIT = 0u;
const uint SPRING_SYMPLECTIC = 1u;
const uint SPRING_VERLET = 2u;
const uint SPRING_ADAPTIVE_VERLET = 3u;

// A fixed angle under the explicit and linearised models (mass_spring, fem; prep/springs.h): the
// energy (w/2) wrap(theta - theta_0)^2 of the hinge's signed dihedral angle (bendingEval, XPBD's
// angle and its exact gradients), so the force on the stencil's vertex `corner` (0 to 3) is
// -w wrap(theta - theta_0) grad_corner theta; none on a degenerate hinge. A conservative force:
// holding a target vector in the hinge's frame instead (PD's term) is circulatory, and flutters
// under an explicit step at any step length.
CLOTH_FN vec3 angleSpringForce(vec3 x0, vec3 x1, vec3 x2, vec3 x3, float target, float w,
                               uint corner) {
    float angle;
    vec3 g0, g1, g2, g3;
    if (!bendingEval(x0, x1, x2, x3, angle, g0, g1, g2, g3)) return vec3(0.0f);
    vec3 g = corner == 0u ? g0 : (corner == 1u ? g1 : (corner == 2u ? g2 : g3));
    return g * (-w * wrapAngle(angle - target));
}

CLOTH_NAMESPACE_END

#endif
