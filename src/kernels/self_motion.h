// Self-collision's motion argument (docs/collisions.md, "Detection on demand and the guarantee"),
// written once for C++ and GLSL: when a detection is needed, and how far each vertex may move
// until the next one.
//
// A detection at positions x^ (the substep's start) keeps as candidates every owned primitive
// pair whose box gap at x^ (the largest of the boxes' separations along the axes) is at most
// reach + 2B (reach: the two thicknesses plus the margin; B the detection's bound). Each vertex
// v gets two bounds:
//  - B, shared, per configuration: a substep's starts and its predictions are checked each on
//    their own. A configuration whose displacements since the detection, less a translation
//    common to all its vertices (the middle of their range per axis: Ts at the start, Tq
//    predicted), stay within B along every axis keeps every pair that is no candidate more than
//    reach apart along an axis (a gap is the same after a common translation, and each
//    primitive's box lies within its detection box so moved and grown by B). Every point of the
//    straight path from start to prediction is such a configuration too (per axis, the
//    displacement at time t less (1 - t) Ts + t Tq blends two values within B). A cloth that
//    falls as a whole, however fast, stays inside; at the detection's own substep the starts'
//    displacements are zero and the predictions' are the steps, so a fresh B need only cover
//    the steps' spread (selfFreshBound), not their common part;
//  - beta_v, its own (Offset Geometric Contact, Chen et al. 2025): the least over v's candidates
//    of max(gamma d, phi keep), d the candidate's distance at x^ and keep its distance to keep.
//    While every vertex stays within beta_v of x^_v + C (Euclidean; C one translation for all
//    vertices at each moment), two primitives at distance d keep at least
//    d - beta_p - beta_q >= (1 - 2 gamma) d > 0 (a primitive's points are convex combinations of
//    its corners, so it moves no farther than its farthest corner): no vertex passes through a
//    triangle and no edge through an edge, however the solve moves them. C is 0 at the
//    detection and moves on over each substep by delta, 0 or the substep's common step where
//    that leaves fewer predictions outside (selfBallStep); along the straight path from start
//    to end, each vertex's offset from its moving centre blends the two ends' offsets, so it
//    stays inside when both ends do. beta_v is at most gamma (reach + 2B), so pairs that are
//    no candidates (farther than reach + 2B along an axis at x^, so in distance) cannot meet
//    inside the balls either.
// Each substep, after the prediction, a vertex whose start or prediction leaves either bound
// (or a position that is not finite, or a clamp in the last substep) makes a new detection at
// that substep's start, so every start lies inside both. At the end of each iteration a vertex
// outside its ball is moved back along the straight line from its start to the first point
// outside (selfClamp, the centre moving with the substep): the substeps' positions, and the straight paths between them, stay
// inside. A clamp removes motion and never adds any. phi keeps a vertex that touches a
// primitive at a detection able to move: pairs closer than phi keep / gamma at a detection
// (deep inside the distance to keep) are held by the contacts' solve alone.
#ifndef CLOTH_KERNELS_SELF_MOTION_H
#define CLOTH_KERNELS_SELF_MOTION_H

#include "kernels/common.h"
#include "kernels/mesh_distance.h"

CLOTH_NAMESPACE_BEGIN

const float SELF_BOUND_GAMMA = 0.4f;  // gamma < 1/2: what a pair's two sides may each take
const float SELF_BOUND_FLOOR = 0.001f;  // phi, of the candidate's distance to keep
// A new detection's B covers the largest move of a vertex in the substep relative to the others
// (half the steps' spread), with 1/16 to spare for rounding. Twice that (so that vertices that
// keep their speed stay inside for the next substep too) detected a fifth less often on the
// folded benchmark cloth at the same cost, and cost 1.8 times as much on self_collision.json,
// where clamps, not the cube, call most detections (docs/collisions.md).
const float SELF_MOTION_COVER = 1.0625f;
// beta of a vertex without candidates: no bound but B.
const float SELF_NO_BOUND = 1e30f;

CLOTH_FN float selfLargest(vec3 v) { return max(v.x, max(v.y, v.z)); }

// What rounding can take from a box's gap: a few units in the last place of the largest
// coordinate, for each of the differences a gap is made of.
CLOTH_FN float selfSlack(vec3 far) { return 16.0f * 1.1920929e-7f * selfLargest(far); }

// The common translation of displacements whose range per axis is [lo, hi]: its middle.
CLOTH_FN vec3 selfTranslation(vec3 lo, vec3 hi) { return 0.5f * (lo + hi); }

// A new detection's bound from its substep's steps (prediction less start, range [lo, hi]): the
// predictions' displacements are the steps and the starts' are zero, so the steps' spread is
// all the bound must hold; at least `least`.
CLOTH_FN float selfFreshBound(vec3 lo, vec3 hi, float least) {
    return max(least, SELF_MOTION_COVER * 0.5f * selfLargest(hi - lo));
}

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

// The translations' interval [lo, hi] per axis (lo the largest of disp - b, hi the least of
// disp + b): empty (or not finite) along some axis means a detection.
CLOTH_FN bool selfShiftEmpty(vec3 lo, vec3 hi) {
    return !(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z);
}

// A candidate's bound for each of its four vertices: gamma d, at least phi keep.
CLOTH_FN float selfCandidateBound(float distance, float keep) {
    return max(SELF_BOUND_GAMMA * distance, SELF_BOUND_FLOOR * keep);
}

// Is vertex v (detected at x) outside its cube: its start s farther than B from x + Ts along an
// axis, or its prediction q farther than B from x + Tq (or either not finite)?
CLOTH_FN bool selfOutsideCube(vec3 s, vec3 q, vec3 x, vec3 Ts, vec3 Tq, float B) {
    return !(max(selfLargest(abs(s - x - Ts)), selfLargest(abs(q - x - Tq))) <= B);
}

// Vertex v's ball (radius beta, detected at x) as bits, its centre x + C at the substep's start
// and x + C + delta at its prediction, delta either 0 or the substep's common step D (the middle
// of the steps' range): SELF_OUT_START when its start s lies outside (or is not finite),
// SELF_OUT_STILL when its prediction q lies outside with delta 0, SELF_OUT_MOVED with D.
const uint SELF_OUT_START = 1u;
const uint SELF_OUT_STILL = 2u;
const uint SELF_OUT_MOVED = 4u;
CLOTH_FN uint selfOutsideBalls(vec3 s, vec3 q, vec3 x, float beta, vec3 C, vec3 D) {
    vec3 c = x + C;
    float r2 = beta * beta;
    uint bits = 0u;
    if (!(meshLength2(s - c) <= r2)) bits |= SELF_OUT_START;
    if (!(meshLength2(q - c) <= r2)) bits |= SELF_OUT_STILL;
    if (!(meshLength2(q - c - D) <= r2)) bits |= SELF_OUT_MOVED;
    return bits;
}

// The balls move on with the substep's common step D when that leaves fewer predictions outside
// them than staying put (nStill, nMoved outside): a cloth whose layers move together, however
// fast, keeps them inside without a detection, and a cloth lying still while another falls onto
// it is not carried along. Returns the balls' step delta.
CLOTH_FN vec3 selfBallStep(uint nStill, uint nMoved, vec3 D) {
    return nMoved < nStill ? D : vec3(0.0f);
}

// The vertices outside the balls with the chosen step (a detection when nonzero).
CLOTH_FN uint selfBallOutside(uint nStart, uint nStill, uint nMoved) {
    return nStart + (nMoved < nStill ? nMoved : nStill);
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

// A vertex's bound beta from the least of its candidates' (selfCandidateBound), at most
// gamma (reach + 2B), reach the least distance to keep plus the margin: pairs that are no
// candidates were farther apart than that at the detection.
CLOTH_FN float selfVertexBound(float least, float reach, float B) {
    return min(least, SELF_BOUND_GAMMA * (reach + 2.0f * B));
}

// Is p outside the ball of radius beta round c? True when it is not finite.
CLOTH_FN bool selfBeyond(vec3 p, vec3 c, float beta) {
    return !(meshLength2(p - c) <= beta * beta);
}

// Position p (selfBeyond the ball round ce) moved back along the straight line from its
// substep's start s, which lies inside the ball round cs (the motion check made sure of it),
// the ball's centre moving from cs to ce over the substep: s + t (p - s) with the root t in
// [0, 1] of |s - cs + t (p - s - (ce - cs))|^2 = beta^2, written without cancellation.
CLOTH_FN vec3 selfClamp(vec3 s, vec3 p, vec3 cs, vec3 ce, float beta) {
    vec3 d = p - s - (ce - cs);
    vec3 e = s - cs;
    float a = meshLength2(d);
    float room = max(beta * beta - meshLength2(e), 0.0f);
    float ed = meshDot(e, d);
    float root = ed + sqrt(ed * ed + a * room);
    float t = root > 0.0f ? min(room / root, 1.0f) : 0.0f;
    return s + (p - s) * t;
}

// The substep's separating planes. At the start a pair's primitives are d apart; n, the unit
// direction from the second primitive's closest point to the first's, separates them: every
// point p of the first and q of the second has n.(p - q) >= d (the closest point of a convex
// set). Moving each corner k by D_k, the pair stays apart while its approach along n,
// max over the second's corners of n.D_k less min over the first's, stays below d; along
// straight paths from the start the approach grows linearly, so checking the end suffices.
// Each corner's own predicted step w_k makes a predicted approach A; a corner may deviate from
// w_k towards the other primitive by at most gamma (d - A), so that the actual approach stays
// below A + 2 gamma (d - A) < d. Moving away, or sideways, is free.
// Returns (n, d - A): the room, negative or small when the predicted paths meet (a conflict).
CLOTH_FN float selfApproach(uint kind, vec3 n, vec3 w0, vec3 w1, vec3 w2, vec3 w3) {
    if ((kind & 1u) == 0u)
        return max(meshDot(n, w1), max(meshDot(n, w2), meshDot(n, w3))) - meshDot(n, w0);
    return max(meshDot(n, w2), meshDot(n, w3)) - min(meshDot(n, w0), meshDot(n, w1));
}

// A pair whose predicted approach is more than this share of its distance leaves its corners
// no room: the substep falls back to still references.
const float SELF_OWN_LIMIT = 0.9f;

// The side of a pair's corner k: +1 for the first primitive's (the vertex, or the first edge),
// -1 for the second's.
CLOTH_FN float selfCornerSide(uint kind, uint k) {
    return ((kind & 1u) == 0u ? k == 0u : k < 2u) ? 1.0f : -1.0f;
}

// A pair's budgets (how far a corner may deviate towards the other primitive): x about the own
// predicted steps (0 for a conflict), y about still references.
CLOTH_FN vec2 selfPairBudgets(float d, float approach) {
    float own = approach <= SELF_OWN_LIMIT * d ? SELF_BOUND_GAMMA * (d - approach) : 0.0f;
    return vec2(own, SELF_BOUND_GAMMA * d);
}

CLOTH_FN bool selfPairConflict(float d, float approach) {
    return !(approach <= SELF_OWN_LIMIT * d);
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_SELF_MOTION_H
