// Self-collision's motion argument (docs/collisions.md, "Detection on demand and the guarantee"),
// written once for C++ and GLSL: when a detection is needed, and how far each vertex may move
// until the next one.
//
// A detection at positions x^ (the substep's start) keeps as candidates every owned primitive
// pair whose boxes at x^ lie within reach + 2B of each other along every axis (reach: the two
// thicknesses plus the margin; B the detection's bound). Each vertex v gets two bounds:
//  - B, shared: while every vertex's displacement since the detection, less a translation T
//    common to all (the middle of the displacements' range per axis), stays within B along every
//    axis, every pair a full detection would make a contact is a candidate (a primitive's swept
//    box lies within its detection box moved by T and grown by B, so pairs farther than
//    reach + 2B stay farther than reach);
//  - beta_v, its own (Offset Geometric Contact, Chen et al. 2025): the least over v's candidates
//    of max(gamma d, phi keep), d the candidate's distance at x^ and keep its distance to keep.
//    While every vertex stays within beta_v of x^_v (Euclidean; no translation here: a vertex
//    the others pass by must not be carried along), two primitives at distance d keep at least
//    d - beta_p - beta_q >= (1 - 2 gamma) d > 0 along any path inside those balls (a
//    primitive's points are convex combinations of its corners, so it moves no farther than
//    its farthest corner), so no vertex passes through a triangle and no edge through an edge,
//    however the solve moves them; pairs that are no candidates stay farther than reach by the
//    first argument.
// Each substep, after the prediction, a vertex whose start or prediction leaves either bound
// (or a position that is not finite, or a clamp in the last substep) makes a new detection at
// that substep's start, so every start lies inside both. At the end of each iteration a vertex
// outside is moved back along the straight line from its start to the first point outside
// (selfClamp): the substeps' positions, and the straight paths between them, stay inside. A
// clamp removes motion and never adds any. phi keeps a vertex that touches a primitive at a
// detection able to move: pairs closer than phi keep / gamma at a detection (deep inside the
// distance to keep) are held by the contacts' solve alone.
#ifndef CLOTH_KERNELS_SELF_MOTION_H
#define CLOTH_KERNELS_SELF_MOTION_H

#include "kernels/common.h"
#include "kernels/mesh_distance.h"

CLOTH_NAMESPACE_BEGIN

const float SELF_BOUND_GAMMA = 0.4f;  // gamma < 1/2: what a pair's two sides may each take
const float SELF_BOUND_FLOOR = 0.001f;  // phi, of the candidate's distance to keep
// A new detection's B covers twice the largest move of a vertex in the substep (relative to the
// others), so that vertices that keep their speed stay within it for the next substep too.
const float SELF_MOTION_COVER = 2.0f;
// beta of a vertex without candidates: no bound but B.
const float SELF_NO_BOUND = 1e30f;

CLOTH_FN float selfLargest(vec3 v) { return max(v.x, max(v.y, v.z)); }

// What rounding can take from a box's gap: a few units in the last place of the largest
// coordinate, for each of the differences a gap is made of.
CLOTH_FN float selfSlack(vec3 far) { return 16.0f * 1.1920929e-7f * selfLargest(far); }

// The common translation of displacements whose range per axis is [lo, hi]: its middle.
CLOTH_FN vec3 selfTranslation(vec3 lo, vec3 hi) { return 0.5f * (lo + hi); }

// A new detection's bound from its substep's steps (prediction less start; range [lo, hi] with
// 0 included, as the start's own displacement): at least `least`.
CLOTH_FN float selfFreshBound(vec3 lo, vec3 hi, float least) {
    return max(least, SELF_MOTION_COVER * 0.5f * selfLargest(hi - lo));
}

// A candidate's bound for each of its four vertices: gamma d, at least phi keep.
CLOTH_FN float selfCandidateBound(float distance, float keep) {
    return max(SELF_BOUND_GAMMA * distance, SELF_BOUND_FLOOR * keep);
}

// Vertex v's bounds at its start s and prediction q (detected at x, its own bound beta), as bits:
// SELF_OUT_CUBE when either lies outside the cube of half-side B round x + T (or is not finite);
// SELF_OUT_BALL when either lies outside the ball of radius beta round x, SELF_OUT_BALL_T round
// x + T; SELF_OUT_START_T when the start does.
const uint SELF_OUT_CUBE = 1u;
const uint SELF_OUT_BALL = 2u;
const uint SELF_OUT_BALL_T = 4u;
const uint SELF_OUT_START_T = 8u;
CLOTH_FN uint selfOutsideBits(vec3 s, vec3 q, vec3 x, float beta, vec3 T, float B) {
    vec3 c = x + T;
    vec3 a = s - c;
    vec3 b = q - c;
    float cube = selfLargest(max(abs(a), abs(b)));
    float r2 = beta * beta;
    uint bits = !(cube <= B) ? SELF_OUT_CUBE : 0u;
    if (!(max(meshLength2(s - x), meshLength2(q - x)) <= r2)) bits |= SELF_OUT_BALL;
    if (!(max(meshLength2(a), meshLength2(b)) <= r2)) bits |= SELF_OUT_BALL_T;
    if (!(meshLength2(a) <= r2)) bits |= SELF_OUT_START_T;
    return bits;
}

// The balls' centres move with T when that leaves fewer vertices outside them than staying put
// (n0 outside the balls round x, nT round x + T) and every start inside: a cloth whose layers
// move together keeps them inside without a detection, and a cloth lying still while another
// falls onto it is not carried along. Returns the balls' translation.
CLOTH_FN vec3 selfBallTranslation(uint n0, uint nT, uint startsT, vec3 T) {
    return nT < n0 && startsT == 0u ? T : vec3(0.0f);
}

// The vertices outside the balls of the chosen translation (a detection when nonzero).
CLOTH_FN uint selfBallOutside(uint n0, uint nT, uint startsT) {
    return nT < n0 && startsT == 0u ? nT : n0;
}

// Vertex v's move for the candidates' test (self_contacts.h selfCandidateSkipped): x its
// largest displacement along an axis since the detection at x, less T, plus the slack; y its
// largest step of the substep along an axis.
CLOTH_FN vec2 selfVertexMoves(vec3 s, vec3 q, vec3 x, vec3 T, float slack) {
    vec3 c = x + T;
    return vec2(selfLargest(max(abs(s - c), abs(q - c))) + slack, selfLargest(abs(q - s)));
}

// A move of at most m along every axis is at most sqrt(3) m long (rounded up).
const float SELF_SQRT3 = 1.7320510f;

// Is candidate (kind as SelfCandidate's) surely no contact in this substep? gaps: at its
// detection, its primitives' boxes' gap and their distance; m0..m3: its vertices' moves
// (selfVertexMoves). Each primitive's swept box lies within its detection box grown by the
// largest move of its vertices (the bound's argument, with T taken from both), so the swept
// boxes are still more than reach apart when the gap less both moves is; and the closest points
// at the start are farther than reach and move by less than the rest within the substep when
// the distance less sqrt(3) times the moves and steps is. `slack` covers the rounding.
CLOTH_FN bool selfCandidateSkipped(uint kind, vec2 gaps, vec2 m0, vec2 m1, vec2 m2, vec2 m3,
                                   float keep, float margin, float slack) {
    vec2 sides = (kind & 1u) == 0u ? m0 + max(m1, max(m2, m3)) : max(m0, m1) + max(m2, m3);
    float reach = keep + margin;
    return gaps.x - sides.x > reach || gaps.y - SELF_SQRT3 * (sides.x + sides.y) > reach + slack;
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

// Position p (selfBeyond) moved back into the ball of radius beta round c along the straight line
// from its substep's start s, which lies inside (the motion check made sure of it): s + t (p - s)
// with the root t in [0, 1] of |s - c + t d|^2 = beta^2, written without cancellation.
CLOTH_FN vec3 selfClamp(vec3 s, vec3 p, vec3 c, float beta) {
    vec3 d = p - s;
    vec3 e = s - c;
    float a = meshLength2(d);
    float room = max(beta * beta - meshLength2(e), 0.0f);
    float ed = meshDot(e, d);
    float root = ed + sqrt(ed * ed + a * room);
    float t = root > 0.0f ? min(room / root, 1.0f) : 0.0f;
    return s + d * t;
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_SELF_MOTION_H
