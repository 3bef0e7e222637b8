// Self-collision's motion argument (docs/collisions.md, "Detection on demand and the guarantee"),
// written once for C++ and GLSL: when a detection is needed, which pairs it keeps as candidates,
// and how far the solve may carry each vertex between detections.
//  1. Per-vertex bounds (selfFreshVertexBound): a detection at a substep's start gives each
//     vertex its own bound b_v, and keeps as candidates the owned primitive pairs within reach
//     (their distance to keep plus the margin) plus their corners' bounds. Until a configuration
//     (a substep's starts, or its predictions) leaves the bounds, every pair that is no candidate
//     stays more than reach apart in it and along the straight path from start to prediction.
//  2. Separating planes (selfApproach, selfPairBudgets): every substep, each candidate that may
//     be a contact and each rest pair gets the direction n between its closest points at the
//     start and a budget: how far each corner may deviate from its reference (its prediction,
//     or its start in a substep where some pair's predicted paths come too close) towards the
//     other primitive. After every iteration each vertex's deviation is cut to its budgets
//     (selfPlaneShare): the pair's approach along n stays below its distance less a floor (a
//     hundredth of its distance to keep: SELF_PLANE_FLOOR), so the plane keeps separating them,
//     along the straight path from start to end too, and no pair comes so close that rounding
//     decides its direction. No vertex passes through a triangle and no edge through an edge,
//     however the solve moved them.
//  3. The cap: every deviation is also cut to gamma reach, so a pair that is no candidate (or a
//     candidate that cannot be a contact in this substep, selfCandidateSkipped), more than reach
//     apart in the allowed configurations, stays more than (1 - 2 gamma) reach > 0 apart.
// A pair that touches at the start (distance 0) has no plane: the contacts' solve holds it.
#ifndef CLOTH_KERNELS_SELF_MOTION_H
#define CLOTH_KERNELS_SELF_MOTION_H

#include "kernels/common.h"
#include "kernels/mesh_distance.h"

CLOTH_NAMESPACE_BEGIN

const float SELF_BOUND_GAMMA = 0.4f;  // gamma < 1/2: what a pair's two sides may each take
// A fresh bound covers the vertex's step in the detection's substep, with 1/16 to spare for
// rounding. Twice or four times that (so that a vertex that keeps its speed stays inside for
// the next substeps too) cost 1.3 times as much on self_collision.json (more candidates per
// detection, and nearly as many detections) and saved a third on the folded 128^2 cloth
// (docs/collisions.md).
const float SELF_MOTION_COVER = 1.0625f;
// The budgets of a candidate that cannot be a contact in this substep: no plane.
const float SELF_NO_BOUND = 1e30f;

CLOTH_FN float selfLargest(vec3 v) { return max(v.x, max(v.y, v.z)); }

// What rounding can take from a box's gap: a few units in the last place of the largest
// coordinate, for each of the differences a gap is made of.
CLOTH_FN float selfSlack(vec3 far) { return 16.0f * 1.1920929e-7f * selfLargest(far); }

// The translation the check takes from an interval [lo, hi] of them (per axis): its middle.
CLOTH_FN vec3 selfTranslation(vec3 lo, vec3 hi) { return 0.5f * (lo + hi); }

// Per-vertex bounds. A detection gives each vertex v its own bound b_v
// (selfFreshVertexBound): its step's largest coordinate (the move it makes in the detection's
// substep), with 1/16 to spare for rounding, at least `least`. Until the next detection a
// configuration (the substep's starts, or its predictions) is allowed while some translation
// t, one for all vertices, keeps every vertex's displacement since the detection within b_v of
// t along every axis: a cloth that moves as a whole, however fast, needs no detection. Per axis
// the translations that do so form [max_v (disp_v - b_v), min_v (disp_v + b_v)]; the
// configuration is allowed while that is not empty, and t is its middle. A primitive moves no
// farther than its farthest corner, so a primitive pair whose boxes at the detection were more
// than reach + b_p + b_q apart along an axis (b_p the largest of p's corners') stays more than
// reach apart along it, and one whose primitives were more than reach + sqrt(3) (b_p + b_q)
// apart stays more than reach apart (a move of at most b along every axis is at most sqrt(3) b
// long); the straight path from start to prediction blends two allowed configurations with the
// blend of their translations, so it is allowed too. At the detection's own substep the
// starts' displacements are 0 and the predictions' are the steps: both allowed with t = 0.
CLOTH_FN float selfFreshVertexBound(vec3 step, float least) {
    return max(least, SELF_MOTION_COVER * selfLargest(abs(step)));
}

// Are both positions finite?
CLOTH_FN bool selfFinite(vec3 s, vec3 q) {
    const float big = 3.4028235e38f;
    vec3 a = abs(s);
    vec3 b = abs(q);
    return a.x <= big && a.y <= big && a.z <= big && b.x <= big && b.y <= big && b.z <= big;
}

// The translations' interval [lo, hi] per axis (lo the largest of disp - b, hi the least of
// disp + b): empty (or not finite) along some axis means a detection.
CLOTH_FN bool selfShiftEmpty(vec3 lo, vec3 hi) {
    return !(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z);
}

// Vertex v's move for the candidates' test (selfCandidateSkipped): x its largest displacement
// along an axis since the detection at x, less its configuration's translation (Ts at the
// start, Tq predicted), plus the slack; y its largest step of the substep along an axis.
CLOTH_FN vec2 selfVertexMoves(vec3 s, vec3 q, vec3 x, vec3 Ts, vec3 Tq, float slack) {
    float m = max(selfLargest(abs(s - x - Ts)), selfLargest(abs(q - x - Tq)));
    return vec2(m + slack, selfLargest(abs(q - s)));
}

// The candidates' test's shift: the translation's largest change over the substep along an axis.
CLOTH_FN float selfShift(vec3 Ts, vec3 Tq) { return selfLargest(abs(Tq - Ts)); }

// A move of at most m along every axis is at most sqrt(3) m long (rounded up).
const float SELF_SQRT3 = 1.7320510f;

// Is candidate (kind as SelfCandidate's) surely no contact in this substep? gaps: at its
// detection, its primitives' boxes' gap and their distance; m0..m3: its vertices' moves
// (selfVertexMoves); shift: the substep's selfShift. A vertex's swept box (start to
// prediction) lies within its detection position moved by the range of Ts and Tq and grown by
// its move, so a primitive's lies within its detection box grown so, and the swept boxes are
// still more than reach apart along an axis when the gap less both moves and the shift is. The
// contact's gap test measures the closest points at the start (at least the distance less
// sqrt(3) times both moves: the translation cancels) and at the prediction (less sqrt(3) times
// their steps more). `slack` covers the rounding.
CLOTH_FN bool selfCandidateSkipped(uint kind, vec2 gaps, vec2 m0, vec2 m1, vec2 m2, vec2 m3,
                                   float keep, float margin, float shift, float slack) {
    vec2 sides = (kind & 1u) == 0u ? m0 + max(m1, max(m2, m3)) : max(m0, m1) + max(m2, m3);
    float reach = keep + margin;
    return gaps.x - sides.x - shift > reach ||
           gaps.y - SELF_SQRT3 * (sides.x + sides.y) > reach + slack;
}

// The substep's separating planes. At the start a pair's primitives are d apart; n, the unit
// direction from the second primitive's closest point to the first's, separates them: every
// point p of the first and q of the second has n.(p - q) >= d (the closest point of a convex
// set). Moving each corner k by D_k, the pair stays apart while its approach along n,
// max over the second's corners of n.D_k less min over the first's, stays below d; along
// straight paths from the start the approach grows linearly, so checking the end suffices.
// Each corner's own predicted step w_k makes a predicted approach A; a corner may deviate from
// w_k towards the other primitive by at most gamma (r - A), r = d - floor the room
// (selfPlaneRoom), so that the actual approach stays below A + 2 gamma (r - A) < r. Moving
// away, or sideways, is free.
// Returns (n, d - A): the room, negative or small when the predicted paths meet (a conflict).
CLOTH_FN float selfApproach(uint kind, vec3 n, vec3 w0, vec3 w1, vec3 w2, vec3 w3) {
    if ((kind & 1u) == 0u)
        return max(meshDot(n, w1), max(meshDot(n, w2), meshDot(n, w3))) - meshDot(n, w0);
    return max(meshDot(n, w2), meshDot(n, w3)) - min(meshDot(n, w0), meshDot(n, w1));
}

// A pair whose predicted approach is more than this share of its room leaves its corners no
// room: the substep falls back to still references.
const float SELF_OWN_LIMIT = 0.9f;

// The floor: the share of a pair's distance to keep (keep, the two thicknesses) that the
// planes leave between its primitives. In exact arithmetic budgets of gamma d let a pair come
// closer by a factor 1 - 2 gamma in every substep without ever touching, but a direction
// computed from closest points a few units in the last place apart is not the separating one
// (two nearly parallel edges: its error is the rounding over the distance, its reach the
// primitives' length): measured, the vertex order's folded 128^2 cloth squeezed two parallel
// diagonals of neighbouring quads (a rest pair, which no contact pushes apart) from 0.1 mm to
// 1 um in six substeps, and through each other in the seventh. The budgets are taken from the
// room d - floor instead, floor = SELF_PLANE_FLOOR keep: a pair more than floor apart stays so
// ((1 - 2 gamma) d + 2 gamma floor > floor), and its direction comes from points at least
// floor apart (1% of a 1 mm cloth: 10 um, a thousand times the rounding of 1 m coordinates),
// so it tilts by less than floor over the length of a primitive. A pair already within the
// floor gets budgets 0: no corner may turn towards the other primitive at all.
const float SELF_PLANE_FLOOR = 0.01f;

CLOTH_FN float selfPlaneRoom(float d, float keep) { return d - SELF_PLANE_FLOOR * keep; }

// A pair's budgets (how far a corner may deviate towards the other primitive) from its
// distance d at the start, its predicted approach and its distance to keep: x about the own
// predicted steps (0 for a conflict), y about still references.
CLOTH_FN vec2 selfPairBudgets(float d, float approach, float keep) {
    float room = selfPlaneRoom(d, keep);
    if (!(room > 0.0f)) return vec2(0.0f);
    float own = approach <= SELF_OWN_LIMIT * room ? SELF_BOUND_GAMMA * (room - approach) : 0.0f;
    return vec2(own, SELF_BOUND_GAMMA * room);
}

// A pair within the floor (budgets 0 in both modes) calls for no still substep.
CLOTH_FN bool selfPairConflict(float d, float approach, float keep) {
    float room = selfPlaneRoom(d, keep);
    return room > 0.0f && !(approach <= SELF_OWN_LIMIT * room);
}

// The side of a pair's corner k: +1 for the first primitive's (the vertex, or the first edge),
// -1 for the second's.
CLOTH_FN float selfCornerSide(uint kind, uint k) {
    return ((kind & 1u) == 0u ? k == 0u : k < 2u) ? 1.0f : -1.0f;
}

// A vertex's deviation dev from its reference (its prediction, or its start when some pair
// conflicts) against one of its pairs' planes (n the pair's direction, side the vertex's corner
// side, budget the pair's for the reference): the share t of the deviation kept, cut so that it
// turns towards the other primitive by no more than the budget.
CLOTH_FN float selfPlaneShare(float t, vec3 n, float budget, float side, vec3 dev) {
    float toward = -side * meshDot(n, dev);
    return toward > budget ? min(t, budget / toward) : t;
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_SELF_MOTION_H
