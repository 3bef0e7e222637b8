// The mass-spring model's load-time data (docs/models.md): Provot's springs over every cloth, and
// the step its explicit integrators can take (from the highest natural frequency at rest).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/scene.h"
#include "prep/prepared.h"

namespace cloth {

// Springs of every cloth, cloth after cloth (clothBegin[i]: cloth i's first vertex in p). A grid
// cloth gets Provot's 12 per particle: structural to its 4 neighbours, shear to its 4 diagonal
// ones, flexion to the 4 two apart; a mesh cloth structural springs on its edges and flexion
// springs between the far corners of each edge's two triangles. Rest lengths from the cloth's
// rest state (prep/rest_shape.h: the starting positions, or the pattern for rest_shape "uv");
// stiffness per family from sim.massSpring, or 1 / the cloth's stretch compliance. Then one
// spring of rest length 0 per seam pair (prep/sewing.h seamStiffness; a hard seam takes the
// stiffest spring's stiffness), which a merge removes.
// Throws cloth::Error where a stiffness cannot be had (a rigid material and no stiffness given).
void buildSprings(const Scene& scene, const std::vector<std::uint32_t>& clothBegin,
                  PreparedCloth& p);

// sqrt of the largest eigenvalue of M^-1 K at rest (K: the springs' stiffness matrix at their
// rest lengths, k d d^T along each spring's direction now, or k I for a spring of rest length 0
// (a seam's), over the free vertices, with 1/compliance on the diagonal of a vertex that a
// compliant attachment holds): by power iteration on M^-1/2 K M^-1/2 from a fixed
// start, `iterations` products (its Rayleigh quotient approaches the eigenvalue from below).
double springOmegaMax(const PreparedCloth& p, int iterations = 400);

// The longest stable step of an integrator for a mode of angular frequency omega under air
// damping c (force -m c v): symplectic Euler and Verlet, (sqrt(c^2 + 4 omega^2) - c) / omega^2
// (2 / omega undamped); forward Euler c / omega^2 (0 undamped: unstable at any step).
double stableStep(Integrator integrator, double omega, double damping);

// How a substep is split: `steps` equal steps of `step` seconds, the most stability allows
// (`limit`, with a margin of 10% below it) or the settings' fixed step. Throws cloth::Error for a
// fixed step past the limit, forward Euler without damping, or more than 10^6 steps per frame.
// Damping: mass_spring.air_damping plus each material's damping.
// adaptive_verlet takes steps of `step` (the settings' step, or the longest whose pattern is
// stable) and ends the substep with the remainder: one step of it when it is at least half a step,
// else the last two steps share a step and the remainder equally (`tailSteps` steps of `tail`).
// A remainder within 10^-6 of the substep (a float step's rounding) makes equal steps.
// A pattern of unequal steps is less stable than equal steps (docs/models.md): the plan scans the
// modes up to omegaMax and takes or accepts only a pattern under which none grows.
struct SpringPlan {
    double omegaMax = 0.0;  // rad/s
    double limit = 0.0;     // s: equal steps' limit
    double step = 0.0;      // s
    std::uint32_t steps = 1;
    double substep = 0.0;        // s
    std::uint32_t tailSteps = 0;  // adaptive_verlet: the last steps, of `tail` s
    double tail = 0.0;
    double growth = 0.0;  // 1/s: the fastest-growing mode's rate under the pattern (<= 1e-3)
};
SpringPlan planSpringSteps(const PreparedCloth& p);

// Step k's length (s) and, for the time-corrected Verlet, the mean of it and the step before
// (the substep's last one for k = 0: the pattern repeats) and its ratio to that step, as floats
// that both backends use.
struct SpringStepSize {
    float h, hMean, ratio;
};
SpringStepSize springStepSize(const SpringPlan& plan, std::uint32_t k);
// The length of the step that ends a substep (Verlet's previous positions start one such step back).
inline float springLastStep(const SpringPlan& plan) {
    return springStepSize(plan, plan.steps - 1).h;
}

// The largest growth rate (1/s, ln |eigenvalue| per second) of a mode of angular frequency
// omega in (0, omegaMax], on `modes` equally spaced ones, under time-corrected Verlet with the
// step pattern `lengths` repeated and damping c: the period map's spectral radius.
double springPatternGrowth(const std::vector<double>& lengths, double omegaMax, double damping,
                           int modes);
// The substep's step lengths under the plan.
std::vector<double> springStepLengths(const SpringPlan& plan);
// adaptive_verlet's split of a substep of `substep` s into steps of at most `longest` s (the
// plan's rule, without its stability search).
std::vector<double> springSplitWithRemainder(double substep, double longest);

// Each vertex's springs (CSR: offsets per vertex, size vertices + 1; spring indices in spring
// order): the order in which both backends sum a vertex's forces.
struct SpringIncidence {
    std::vector<std::uint32_t> offsets, springs;
};
SpringIncidence springIncidence(const std::vector<gpu::Spring>& springs, std::uint32_t vertices);
// The fixed angles (p's FixedAngleConstraint items) as angle springs (PreparedCloth::angleSprings):
// param = w = 1 / compliance, or for a hard one hardStiffness |e|^2 (the stiffness of a spring
// across the hinge, as |e| theta is the wing's move at the edge's length).
std::vector<gpu::FixedAngleConstraint> angleSprings(const PreparedCloth& p, double hardStiffness);
// An angle spring's Hessian w (g g^T + (theta - theta_0) grad^2 theta) is bounded by about
// (1 + |theta - theta_0|) w |g|^2, and a fold far from its target moves its wings by whole
// multiples of their width per step unless the step resolves the angle's own oscillation finely
// (measured: a 60-degree crease released flat exploded counting 1 + pi, and held its target at
// 36, as at 144):
// springOmegaMax counts each as kAngleSpringShare w g g^T, so that the steps resolve it at
// h omega <= 0.3.
inline constexpr double kAngleSpringShare = 36.0;
// Each vertex's corners of the angle springs: offsets per vertex, then spring * 4 + corner in
// spring order.
SpringIncidence stencilIncidence(const std::vector<gpu::FixedAngleConstraint>& terms,
                                 std::uint32_t vertices);
// The same for four-vertex terms of PD's bends' form (the FEM's bends).
SpringIncidence stencilIncidence(const std::vector<gpu::PdBend>& terms, std::uint32_t vertices);

// Unit normals of the original vertices [begin, end) at positions x: the area-weighted normals
// of their triangles summed in PreparedCloth's CSR order (as the XPBD solvers sum them), for the
// mass-spring solvers of both backends.
void vertexNormals(const PreparedCloth& p, const std::vector<glm::vec4>& x,
                   std::vector<glm::vec4>& out, std::uint32_t begin, std::uint32_t end);
// The area-weighted sum of vertex v's triangles' normals at x, in that order (the wind's normal).
glm::vec3 vertexNormalSum(const PreparedCloth& p, const std::vector<glm::vec4>& x, std::uint32_t v);

// Each original vertex's damping in 1/s (force -m c v): mass_spring.air_damping plus its
// material's damping.
std::vector<float> springDamping(const PreparedCloth& p);

// Each original vertex's thickness (m): its cloth's, how far from a collider it is kept.
std::vector<float> springThickness(const PreparedCloth& p);

// The simulated time (s) at the start of step k of substep `sub` of the frame that starts at
// frameStart, as both backends compute it (the colliders' poses of the step).
inline float springStepTime(double frameStart, const SpringPlan& plan, int sub, std::uint32_t k) {
    if (plan.tailSteps == 0)
        return static_cast<float>(frameStart +
                                  double(std::uint64_t(sub) * plan.steps + k) * plan.step);
    const std::uint32_t full = plan.steps - plan.tailSteps;
    const double within = k <= full ? double(k) * plan.step
                                    : double(full) * plan.step + double(k - full) * plan.tail;
    return static_cast<float>(frameStart + double(sub) * plan.substep + within);
}

// Contacts slower than this (m/s) get no restitution: what gravity adds in two steps (as
// sim/schedule.h restitutionThreshold does for XPBD's substeps).
inline float springBounceBelow(const SimSettings& sim, const SpringPlan& plan) {
    return 2.0f * glm::length(sim.gravity) * static_cast<float>(plan.step);
}

// Verlet and adaptive_verlet keep the previous positions (and carry the velocity in them).
inline bool springKeepsPrevious(Integrator i) {
    return i == Integrator::Verlet || i == Integrator::AdaptiveVerlet;
}

// Verlet's positions one step of h back from x at velocities v: x - h v (w kept).
std::vector<glm::vec4> springPrevious(const std::vector<glm::vec4>& x,
                                      const std::vector<glm::vec4>& v, float h);

// Per original vertex, the index of its attachment in p.attachments, or kNoSpringAttachment.
// Throws cloth::Error for a vertex with two attachments (the model runs one per vertex).
inline constexpr std::uint32_t kNoSpringAttachment = 0xffffffffu;
std::vector<std::uint32_t> springAttachmentOf(const PreparedCloth& p);

}  // namespace cloth
