// Contacts of the cloth with itself and between cloths (issue 13; seed 000 §4.5-4.6, §6.2-6.4,
// with the corrections of NOTES.md). Written once for C++ and GLSL.
//
// Every contact is a linear constraint over four vertices x_k (original vertex indices):
//   C = n . sum_k g_k x_k - d >= 0,   with sum_k g_k = 0,
// with the unit direction n, the weights g and the distance d fixed when the contact is found,
// at the start of the substep:
//  - vertex p against triangle (t0, t1, t2): q = sum b_i t_i is the point of the triangle closest
//    to p at the start (barycentric b), g = (1, -b0, -b1, -b2), n = (p - q) / |p - q| at the
//    start: it points from the triangle to the side the vertex was on, so a vertex that crossed
//    the triangle during the substep is pushed back the way it came (the side remembered);
//  - edge (p0, p1) against edge (q0, q1): the closest points p0 + s (p1 - p0) and
//    q0 + t (q1 - q0) at the start, g = (1 - s, s, -(1 - t), -t), n the direction from the
//    second closest point to the first at the start.
// The side is remembered across substeps too: a pair that was a contact in the previous substep
// and is one again keeps the side it had then (its direction flipped if the start of this
// substep finds it crossed), so a crossing the last substep left unresolved is pushed back out,
// not locked in (cpu/self_collision.h keeps the last substep's directions by the pairs' keys).
// d is the distance the two layers keep: the sum of their cloths' thicknesses (2h within one
// cloth: 000 §4.5's 2r).
//
// With n and g fixed, C is linear in the positions: grad_k C = g_k n exactly, and the XPBD
// step at zero compliance is dLambda = -C / W, W = sum_k w_k g_k^2, dx_k = w_k g_k n dLambda.
// That moves the contact's relative point r = sum_k g_k x_k by exactly -C n, so C = 0 after
// it, and the momentum sum_k m_k dx_k = (sum_k g_k) n dLambda = 0 is conserved. Friction acts on
// the same relative point: its displacement over the substep rel = sum_k g_k (x_k - x_k,start)
// loses its tangential part up to the Coulomb bound (featureCorrection: static when
// |rel_t| <= mu_s N, else mu_k N of it, N = -C the normal correction), and the whole change D of
// r is shared out as dx_k = w_k g_k D / W.
//
// When a pair becomes a contact (000 §6.2-6.3): its gap along n at the start, d0 = n . r_start,
// and at the predicted positions, d1 = n . r_predicted (the closest points' weights kept), the
// gap's least value over the substep when the points move in straight lines, is below
// d + margin (000 §6.2's critical distance).
#ifndef CLOTH_SHARED_SELF_CONTACTS_H
#define CLOTH_SHARED_SELF_CONTACTS_H

#include "common.h"
#include "feature_contacts.h"
#include "mesh_collider.h"

CLOTH_NAMESPACE_BEGIN

struct SelfContact {
    uvec4 vertices;  // vertex-triangle: the vertex, then the triangle's corners; edge-edge: the
                     // first edge's ends, then the second's (original vertex indices)
    vec4 weights;    // g_k
    vec4 normal;     // xyz: n; w: d, the distance to keep (m)
    uvec4 info;      // x: SELF_VERTEX_TRIANGLE or SELF_EDGE_EDGE; y, z: the pair's key (the
                     // vertex and the triangle's index; or the two edges' ids, 3 t + e, lower
                     // first); w: 1 when the first edge is the lower id (n as the key reads
                     // it), else 0; 1 for vertex-triangle
};
CLOTH_CHECK_SIZE(SelfContact, 64)

const uint SELF_VERTEX_TRIANGLE = 0u;
const uint SELF_EDGE_EDGE = 1u;

// Per cloth triangle (PreparedCloth::triangleFeatureInfo): bit 3 + k set when it owns its corner
// k (each vertex belongs to its lowest-indexed triangle: representative triangles, 000 §6.4);
// bits 0-2 its edges (feature_contacts.h).
const uint TRIANGLE_OWNS_VERTEX_SHIFT = 3u;

// Are two swept boxes (each holding a primitive at the substep's start and predicted) more than
// `reach` apart along some axis? Then the primitives, moving in straight lines, never come
// within `reach` of each other in the substep: no contact (checked before the gap test).
CLOTH_FN bool selfBoxesApart(vec3 lo1, vec3 hi1, vec3 lo2, vec3 hi2, float reach) {
    vec3 gap = max(lo1 - hi2, lo2 - hi1);
    return max(gap.x, max(gap.y, gap.z)) > reach;
}

// Barycentric coordinates of the point of triangle (a, b, c) closest to p: the regions of
// meshClosestPoint (mesh_collider.h, where the tests are derived), each giving its weights.
CLOTH_FN vec3 selfClosestBarycentric(vec3 p, vec3 a, vec3 b, vec3 c) {
    vec3 ab = b - a;
    vec3 ac = c - a;
    vec3 ap = p - a;
    float d1 = meshDot(ab, ap);
    float d2 = meshDot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f) return vec3(1.0f, 0.0f, 0.0f);
    vec3 bp = p - b;
    float d3 = meshDot(ab, bp);
    float d4 = meshDot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3) return vec3(0.0f, 1.0f, 0.0f);
    float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
        float t = d1 > 0.0f ? d1 / (d1 - d3) : 0.0f;
        return vec3(1.0f - t, t, 0.0f);
    }
    vec3 cp = p - c;
    float d5 = meshDot(ab, cp);
    float d6 = meshDot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6) return vec3(0.0f, 0.0f, 1.0f);
    float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
        float t = d2 > 0.0f ? d2 / (d2 - d6) : 0.0f;
        return vec3(1.0f - t, 0.0f, t);
    }
    float va = d3 * d6 - d5 * d4;
    float e4 = d4 - d3;
    float e5 = d5 - d6;
    if (va <= 0.0f && e4 >= 0.0f && e5 >= 0.0f) {
        float t = e4 > 0.0f ? e4 / (e4 + e5) : 0.0f;
        return vec3(0.0f, 1.0f - t, t);
    }
    float sum = va + vb + vc;
    if (!(sum > 0.0f)) return vec3(1.0f, 0.0f, 0.0f);  // degenerate triangle
    float inv = 1.0f / sum;
    return vec3(1.0f - vb * inv - vc * inv, vb * inv, vc * inv);
}

// The direction of a contact whose closest points touch at the start (|gap| below 1 um): `axis`
// (a face or edge-pair normal, any length), turned against the relative motion `motion` of the
// two points over the substep, so the pair is held on the side it came from; zero when `axis`
// is degenerate.
CLOTH_FN vec3 selfTouchingDirection(vec3 axis, vec3 motion) {
    float a2 = meshDot(axis, axis);
    if (!(a2 > 1e-24f)) return vec3(0.0f);
    vec3 n = axis * (1.0f / sqrt(a2));
    return meshDot(n, motion) > 0.0f ? -n : n;
}

// The contact's direction from the gap r0 = sum g_k x_k at the start, r1 at the predicted
// positions, and `axis` for touching points; the gap test of 000 §6.2. False: no contact.
CLOTH_FN bool selfContactFrom(vec3 r0, vec3 r1, vec3 axis, float keep, float margin,
                              CLOTH_OUT(vec3) n) {
    float len2 = meshDot(r0, r0);
    if (len2 > MESH_TOUCH_DISTANCE2)
        n = r0 * (1.0f / sqrt(len2));
    else
        n = selfTouchingDirection(axis, r1 - r0);
    if (meshDot(n, n) == 0.0f) return false;
    float gap = min(meshDot(n, r0), meshDot(n, r1));
    return gap < keep + margin;
}

// Vertex p against triangle (t0, t1, t2): x at the substep's start, y predicted. Fills the
// contact's weights and direction (normal.w = keep) when the pair is one.
CLOTH_FN bool selfVertexTriangle(vec3 xp, vec3 x0, vec3 x1, vec3 x2, vec3 yp, vec3 y0, vec3 y1,
                                 vec3 y2, float keep, float margin, CLOTH_OUT(vec4) weights,
                                 CLOTH_OUT(vec4) normal) {
    vec3 b = selfClosestBarycentric(xp, x0, x1, x2);
    vec3 r0 = xp - (x0 * b.x + x1 * b.y + x2 * b.z);
    vec3 r1 = yp - (y0 * b.x + y1 * b.y + y2 * b.z);
    vec3 n;
    if (!selfContactFrom(r0, r1, meshCross(x1 - x0, x2 - x0), keep, margin, n)) return false;
    weights = vec4(1.0f, -b.x, -b.y, -b.z);
    normal = vec4(n, keep);
    return true;
}

// Edge (p0, p1) against edge (q0, q1), as selfVertexTriangle.
CLOTH_FN bool selfEdgeEdge(vec3 xp0, vec3 xp1, vec3 xq0, vec3 xq1, vec3 yp0, vec3 yp1, vec3 yq0,
                           vec3 yq1, float keep, float margin, CLOTH_OUT(vec4) weights,
                           CLOTH_OUT(vec4) normal) {
    float s, t;
    segmentClosest(xp0, xp1, xq0, xq1, s, t);
    vec3 r0 = (xp0 * (1.0f - s) + xp1 * s) - (xq0 * (1.0f - t) + xq1 * t);
    vec3 r1 = (yp0 * (1.0f - s) + yp1 * s) - (yq0 * (1.0f - t) + yq1 * t);
    vec3 n;
    if (!selfContactFrom(r0, r1, meshCross(xp1 - xp0, xq1 - xq0), keep, margin, n)) return false;
    weights = vec4(1.0f - s, s, -(1.0f - t), -t);
    normal = vec4(n, keep);
    return true;
}

// One contact's projection: the corrections of its four vertices (x: now, w = inverse mass;
// s: at the substep's start), with w = 1 when the contact acts (C < 0) and 0 otherwise.
CLOTH_FN void selfContactCorrections(CLOTH_IN(SelfContact) c, vec4 x0, vec4 x1, vec4 x2, vec4 x3,
                                     vec3 s0, vec3 s1, vec3 s2, vec3 s3, float muS, float muK,
                                     CLOTH_OUT(vec4) d0, CLOTH_OUT(vec4) d1, CLOTH_OUT(vec4) d2,
                                     CLOTH_OUT(vec4) d3) {
    d0 = vec4(0.0f);
    d1 = vec4(0.0f);
    d2 = vec4(0.0f);
    d3 = vec4(0.0f);
    vec4 g = c.weights;
    vec3 n = vec3(c.normal);
    vec3 r = vec3(x0) * g.x + vec3(x1) * g.y + vec3(x2) * g.z + vec3(x3) * g.w;
    float C = meshDot(n, r) - c.normal.w;
    if (!(C < 0.0f)) return;
    float W = x0.w * g.x * g.x + x1.w * g.y * g.y + x2.w * g.z * g.z + x3.w * g.w * g.w;
    if (!(W > 0.0f)) return;
    vec3 rel = (vec3(x0) - s0) * g.x + (vec3(x1) - s1) * g.y + (vec3(x2) - s2) * g.z +
               (vec3(x3) - s3) * g.w;
    vec3 k = featureCorrection(n, -C, rel, muS, muK) * (1.0f / W);
    vec4 a = abs(g);
    d0 = vec4(k * (x0.w * g.x * a.x), a.x);
    d1 = vec4(k * (x1.w * g.y * a.y), a.y);
    d2 = vec4(k * (x2.w * g.z * a.z), a.z);
    d3 = vec4(k * (x3.w * g.w * a.w), a.w);
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_SHARED_SELF_CONTACTS_H
