// Aerodynamic force on a cloth vertex (Trendafilov 2021 §2.1, with an erratum of the source corrected: the lift uses
// the RELATIVE wind). v_r = v_wind - v_particle, n the vertex's unit normal, A its area share
// (a third of the adjacent triangles' areas), rho the air density, cos t = v_r.n / |v_r|.
//
// Trendafilov 2021 prints F = rho A / 2 [(C_D - C_L)(v_r.n) v_r + C_L |v_r|^2 n], which regroups as
//   drag  C_D (v_r.n) v_r                  and   lift  C_L (|v_r|^2 n - (v_r.n) v_r).
// Both flip with the sign of n, which on a two-sided cloth is arbitrary: drag would then blow
// against the wind, and Trendafilov 2021's lift is largest (|v_r|^2 sin t) for wind along the cloth, where a
// flat plate has none. We use the orientation-free forms
//   drag  F_d = rho A C_D / 2 |v_r.n| v_r
//         (dynamic pressure rho |v_r|^2 / 2 on the frontal area A |cos t|, along the wind);
//   lift  F_l = rho A C_L / 2 (v_r.n) (|v_r| n - (v_r.n) v_r / |v_r|)
//         (perpendicular to v_r in the plane of n and v_r, magnitude
//         rho A C_L |v_r|^2 |cos t| sin t / 2: zero for v_r || n and for v_r _|_ n).
// The lift points to the side the plate deflects the air away from: wind from below a
// horizontal plate at a small angle lifts it. Both are continuous; at v_r = 0 the force is 0.
#ifndef CLOTH_KERNELS_WIND_H
#define CLOTH_KERNELS_WIND_H

#include "kernels/common.h"

CLOTH_NAMESPACE_BEGIN

// Documented defaults: air at 20 degrees C and the coefficients of Trendafilov 2021's wind
// experiment 2.3.
const float WIND_AIR_DENSITY = 1.2f;  // kg/m^3
const float WIND_DEFAULT_CD = 0.106f;
const float WIND_DEFAULT_CL = 0.2f;

CLOTH_FN vec3 windForce(vec3 vRel, vec3 n, float area, float rho, float cd, float cl) {
    float speed2 = dot(vRel, vRel);
    if (!(speed2 > 0.0f)) return vec3(0.0f);
    float speed = sqrt(speed2);
    float vn = dot(vRel, n);
    vec3 drag = (cd * abs(vn)) * vRel;
    vec3 lift = (cl * vn) * (speed * n - (vn / speed) * vRel);
    return (0.5f * rho * area) * (drag + lift);
}

// ---- in the solver (Step::Wind, before each substep's prediction) -----------------------------

// Per vertex, phantom copies included: the original vertex whose normal it takes, and its area
// share (a third of the rest area of the triangles around it, split between phantom copies as
// the mass is, so that every copy gets the unsplit vertex's acceleration).
struct WindVertex {
    uint normalVertex;
    float area;  // m^2
};
CLOTH_CHECK_SIZE(WindVertex, 8)

// The wind of one substep: the same for every vertex.
struct WindParams {
    vec4 velocity;     // xyz: the wind velocity of this substep, gusts included (m/s)
    float dt;          // substep length (s)
    float airDensity;  // kg/m^3
    float drag;        // C_D
    float lift;        // C_L
};
CLOTH_CHECK_SIZE(WindParams, 32)

// The unit normal of an area-weighted sum of triangle normals; zero when the sum is (no force).
CLOTH_FN vec3 windNormal(vec3 sum) {
    float len2 = dot(sum, sum);
    if (!(len2 > 0.0f)) return vec3(0.0f);
    return sum * (1.0f / sqrt(len2));
}

// The velocity change w F dt of a vertex with inverse mass w, velocity v and unit normal n over
// one substep (explicit), limited so that the vertex does not overtake the wind along the
// relative wind: drag on a very light vertex (w area rho C_D |v_r| dt / 2 > 1) would otherwise
// overshoot and grow. Vertices without mass do not move.
CLOTH_FN vec3 windVelocityChange(vec3 v, float invMass, vec3 n, float area, WindParams p) {
    if (!(invMass > 0.0f)) return vec3(0.0f);
    vec3 vRel = vec3(p.velocity) - v;
    vec3 dv = (invMass * p.dt) * windForce(vRel, n, area, p.airDensity, p.drag, p.lift);
    float along = dot(dv, vRel);
    float limit = dot(vRel, vRel);
    if (along > limit) dv = dv * (limit / along);
    return dv;
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_WIND_H
