// Contacts of the cloth with itself and between cloths (issue 13; Anon. 2023 §4.5-4.6, §6.2-6.4,
// with the gradients derived anew: the source prints some wrong). Written once for C++ and GLSL.
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
// cloth: Anon. 2023 §4.5's 2r).
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
// When a pair becomes a contact (Anon. 2023 §6.2-6.3): its gap along n at the start, d0 = n . r_start,
// and at the predicted positions, d1 = n . r_predicted (the closest points' weights kept), the
// gap's least value over the substep when the points move in straight lines, is below
// d + margin (Anon. 2023 §6.2's critical distance).
#ifndef CLOTH_KERNELS_SELF_CONTACTS_H
#define CLOTH_KERNELS_SELF_CONTACTS_H

#include "kernels/common.h"
#include "kernels/feature_contacts.h"
#include "kernels/mesh_distance.h"

CLOTH_NAMESPACE_BEGIN

struct SelfContact {
    uvec4 vertices;  // vertex-triangle: the vertex, then the triangle's corners; edge-edge: the
                     // first edge's ends, then the second's (original vertex indices)
    vec4 weights;    // g_k
    vec4 normal;     // xyz: n; w: d, the distance to keep (m)
    uvec4 info;      // x: SELF_VERTEX_TRIANGLE or SELF_EDGE_EDGE; y, z: the pair's key (the
                     // vertex and the triangle's index; or the two edges' ids, 3 t + e, lower
                     // first, and the lower one's ends are the first two vertices); w: 1 when
                     // n is as the key reads it (always, as selfPairCandidate orders them)
};
CLOTH_CHECK_SIZE(SelfContact, 64)

// A primitive pair that can collide (selfPairCandidate): the contact's vertices, kind and key
// as SelfContact has them, and the distance to keep.
struct SelfCandidate {
    uvec4 vertices;
    uint kind;  // bit 0: SELF_VERTEX_TRIANGLE or SELF_EDGE_EDGE; bit 1: SelfContact's info.w
    uint keyY;  // SelfContact's info.y, info.z (for a vertex-triangle pair: the triangle)
    uint keyZ;
    float keep;
};
CLOTH_CHECK_SIZE(SelfCandidate, 32)

const uint SELF_VERTEX_TRIANGLE = 0u;
const uint SELF_EDGE_EDGE = 1u;

// Per cloth triangle (PreparedCloth::triangleFeatureInfo): bit 3 + k set when it owns its corner
// k (each vertex belongs to its lowest-indexed triangle: representative triangles, Anon. 2023 §6.4);
// bits 0-2 its edges (feature_contacts.h).
const uint TRIANGLE_OWNS_VERTEX_SHIFT = 3u;

// Are two swept boxes (each holding a primitive at the substep's start and predicted) more than
// `reach` apart along some axis? Then the primitives, moving in straight lines, never come
// within `reach` of each other in the substep: no contact (checked before the gap test).
CLOTH_FN float selfBoxesGap(vec3 lo1, vec3 hi1, vec3 lo2, vec3 hi2) {
    vec3 gap = max(lo1 - hi2, lo2 - hi1);
    return max(gap.x, max(gap.y, gap.z));
}

CLOTH_FN bool selfBoxesApart(vec3 lo1, vec3 hi1, vec3 lo2, vec3 hi2, float reach) {
    return selfBoxesGap(lo1, hi1, lo2, hi2) > reach;
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
// positions, and `axis` for touching points; the gap test of Anon. 2023 §6.2. False: no contact.
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

// Closest-point parameters closer than this to an end of their range (a barycentric weight or
// an edge's s, t) count as lying on the boundary feature there (an edge, a vertex, an end).
const float SELF_FEATURE_SNAP = 1e-3f;

// Does a vertex-triangle pair whose closest point has barycentric weights b belong to this
// triangle? Inside the face: yes. On an edge or at a corner (weights below SELF_FEATURE_SNAP
// taken as 0): only when the triangle owns that feature (`owned`: triangleFeatureInfo's bits
// 0-2 edges (k, k + 1), 3-5 corners). Every triangle around an edge or a corner finds the same
// closest point there, so the feature's owner alone keeps it: each local minimum of a vertex's
// distance to a cloth is one contact, not one per triangle around it.
CLOTH_FN bool selfClosestFeatureOwned(vec3 b, uint owned) {
    bool z0 = b.x < SELF_FEATURE_SNAP;
    bool z1 = b.y < SELF_FEATURE_SNAP;
    bool z2 = b.z < SELF_FEATURE_SNAP;
    uint zeros = (z0 ? 1u : 0u) + (z1 ? 1u : 0u) + (z2 ? 1u : 0u);
    if (zeros == 0u) return true;
    uint bit;
    if (zeros == 1u)
        bit = z2 ? 0u : (z0 ? 1u : 2u);  // the edge opposite the zero weight's corner
    else
        bit = TRIANGLE_OWNS_VERTEX_SHIFT + (!z0 ? 0u : (!z1 ? 1u : 2u));
    return (owned & (1u << bit)) != 0u;
}

// Vertex p against triangle (t0, t1, t2), which owns the features `owned` (as
// selfClosestFeatureOwned): x at the substep's start, y predicted. Fills the contact's weights
// and direction (normal.w = keep) when the pair is one.
// The same from the closest point's barycentric weights b at the start and its offset r0 there
// (xp less the point).
CLOTH_FN bool selfVertexTriangleAt(vec3 b, vec3 r0, vec3 x0, vec3 x1, vec3 x2, vec3 yp, vec3 y0,
                                   vec3 y1, vec3 y2, uint owned, float keep, float margin,
                                   CLOTH_OUT(vec4) weights, CLOTH_OUT(vec4) normal) {
    if (!selfClosestFeatureOwned(b, owned)) return false;
    vec3 r1 = yp - (y0 * b.x + y1 * b.y + y2 * b.z);
    vec3 n;
    if (!selfContactFrom(r0, r1, meshCross(x1 - x0, x2 - x0), keep, margin, n)) return false;
    weights = vec4(1.0f, -b.x, -b.y, -b.z);
    normal = vec4(n, keep);
    return true;
}

CLOTH_FN bool selfVertexTriangle(vec3 xp, vec3 x0, vec3 x1, vec3 x2, vec3 yp, vec3 y0, vec3 y1,
                                 vec3 y2, uint owned, float keep, float margin,
                                 CLOTH_OUT(vec4) weights, CLOTH_OUT(vec4) normal) {
    vec3 b = selfClosestBarycentric(xp, x0, x1, x2);
    return selfVertexTriangleAt(b, xp - (x0 * b.x + x1 * b.y + x2 * b.z), x0, x1, x2, yp, y0, y1,
                                y2, owned, keep, margin, weights, normal);
}

// Edge (p0, p1) against edge (q0, q1), as selfVertexTriangle. Only closest points inside both
// edges (s and t at least SELF_FEATURE_SNAP from 0 and 1): at an end the pair is a vertex's
// distance to an edge or a vertex, which the vertex's contact with a triangle there keeps.
// The same from the closest points' parameters s, t at the start and their offset r0 there.
CLOTH_FN bool selfEdgeEdgeAt(float s, float t, vec3 r0, vec3 xp0, vec3 xp1, vec3 xq0, vec3 xq1,
                             vec3 yp0, vec3 yp1, vec3 yq0, vec3 yq1, float keep, float margin,
                             CLOTH_OUT(vec4) weights, CLOTH_OUT(vec4) normal) {
    if (s < SELF_FEATURE_SNAP || s > 1.0f - SELF_FEATURE_SNAP || t < SELF_FEATURE_SNAP ||
        t > 1.0f - SELF_FEATURE_SNAP)
        return false;
    vec3 r1 = (yp0 * (1.0f - s) + yp1 * s) - (yq0 * (1.0f - t) + yq1 * t);
    vec3 n;
    if (!selfContactFrom(r0, r1, meshCross(xp1 - xp0, xq1 - xq0), keep, margin, n)) return false;
    weights = vec4(1.0f - s, s, -(1.0f - t), -t);
    normal = vec4(n, keep);
    return true;
}

CLOTH_FN bool selfEdgeEdge(vec3 xp0, vec3 xp1, vec3 xq0, vec3 xq1, vec3 yp0, vec3 yp1, vec3 yq0,
                           vec3 yq1, float keep, float margin, CLOTH_OUT(vec4) weights,
                           CLOTH_OUT(vec4) normal) {
    float s, t;
    segmentClosest(xp0, xp1, xq0, xq1, s, t);
    return selfEdgeEdgeAt(s, t, (xp0 * (1.0f - s) + xp1 * s) - (xq0 * (1.0f - t) + xq1 * t), xp0,
                          xp1, xq0, xq1, yp0, yp1, yq0, yq1, keep, margin, weights, normal);
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_SELF_CONTACTS_H

// ---- the narrow phase of a close triangle pair: needs the arrays below (C++ passes them;
// shaders declare the buffers of shaders/self/buffers.glsl and include this with
// CLOTH_HAS_SELF_ARRAYS defined) ----
#if (defined(__cplusplus) || defined(CLOTH_HAS_SELF_ARRAYS)) && !defined(CLOTH_KERNELS_SELF_PAIRS)
#define CLOTH_KERNELS_SELF_PAIRS
#ifdef __cplusplus
// triangles: 3 per triangle; triInfo: triangleFeatureInfo; triThickness: per triangle its
// cloth's; start, predicted: per vertex; restVt*, restEe*, inert*: the rest-mesh neighbours (CSR, sorted:
// cpu/self_collision.h's RestNeighbours); memoryKeys, memoryNormals: the last substep's table.
// (maybe_unused: each function reads only some of them.)
#define CLOTH_SELF_PARAMS                                                                  \
    [[maybe_unused]] const uint *triangles, [[maybe_unused]] const uint *triInfo,         \
        [[maybe_unused]] const float *triThickness, [[maybe_unused]] const vec4 *start,   \
        [[maybe_unused]] const vec4 *predicted,                                            \
        [[maybe_unused]] const uint *restVtOffsets, [[maybe_unused]] const uint *restVt,  \
        [[maybe_unused]] const uint *restEeOffsets, [[maybe_unused]] const uint *restEe,  \
        [[maybe_unused]] const uint *inertOffsets, [[maybe_unused]] const uint *inert,    \
        [[maybe_unused]] const uvec4 *memoryKeys, [[maybe_unused]] const vec4 *memoryNormals,
#define CLOTH_SELF_ARGS                                                                       \
    triangles, triInfo, triThickness, start, predicted, restVtOffsets, restVt,                \
        restEeOffsets, restEe, inertOffsets, inert, memoryKeys, memoryNormals,
#else
#define CLOTH_SELF_PARAMS
#define CLOTH_SELF_ARGS
#endif
CLOTH_NAMESPACE_BEGIN

// Is `value` in the sorted list items[offsets[key], offsets[key + 1])? (One function per list:
// GLSL cannot pass buffers.)
CLOTH_FN bool selfRestVt(CLOTH_SELF_PARAMS uint v, uint t) {
    uint lo = restVtOffsets[v];
    uint hi = restVtOffsets[v + 1u];
    while (lo < hi) {
        uint mid = (lo + hi) / 2u;
        if (restVt[mid] == t) return true;
        if (restVt[mid] < t) lo = mid + 1u; else hi = mid;
    }
    return false;
}

CLOTH_FN bool selfRestEe(CLOTH_SELF_PARAMS uint e, uint f) {
    uint lo = restEeOffsets[e];
    uint hi = restEeOffsets[e + 1u];
    while (lo < hi) {
        uint mid = (lo + hi) / 2u;
        if (restEe[mid] == f) return true;
        if (restEe[mid] < f) lo = mid + 1u; else hi = mid;
    }
    return false;
}

// Is the triangle pair (a, b) one whose every owned primitive pair the rest mesh rules out?
CLOTH_FN bool selfInertPair(CLOTH_SELF_PARAMS uint a, uint b) {
    uint lo = inertOffsets[a];
    uint hi = inertOffsets[a + 1u];
    while (lo < hi) {
        uint mid = (lo + hi) / 2u;
        if (inert[mid] == b) return true;
        if (inert[mid] < b) lo = mid + 1u; else hi = mid;
    }
    return false;
}

// The memory of the last substep: a table of 2^bits slots (bits 0: none), linear probing from
// selfMemorySlot; a slot's key is uvec4(kind + 1, info.y, info.z, 0) (x 0: empty), its normal
// the contact's direction as the key reads it (info.w 0 flips it).
CLOTH_FN uint selfMemorySlot(uint kind, uint y, uint z, uint bits) {
    uint h = (y * 0x9E3779B1u) ^ ((z + 0x7F4A7C15u) * 0x85EBCA77u) ^ ((kind + 1u) * 0xC2B2AE3Du);
    return h >> (32u - bits);
}

CLOTH_FN vec3 selfKeyNormal(CLOTH_IN(SelfContact) c) {
    return c.info.w != 0u ? vec3(c.normal) : -vec3(c.normal);
}

// A candidate's contact c, found again in this substep, keeps the side `side` remembered from
// the last (its direction as the key reads it; w 1 when it was a contact then): n flipped when
// the two disagree. Returns what to remember for the next substep.
CLOTH_FN vec4 selfKeepSide(vec4 side, CLOTH_INOUT(SelfContact) c) {
    if (side.w != 0.0f && meshDot(vec3(side), selfKeyNormal(c)) < 0.0f)
        c.normal = vec4(-vec3(c.normal), c.normal.w);
    return vec4(selfKeyNormal(c), 1.0f);
}

// A pair that was a contact in the last substep keeps the side it had then: n flipped when the
// remembered direction disagrees.
CLOTH_FN void selfRemember(CLOTH_SELF_PARAMS CLOTH_INOUT(SelfContact) c, uint bits) {
    if (bits == 0u) return;
    uint mask = (1u << bits) - 1u;
    uint slot = selfMemorySlot(c.info.x, c.info.y, c.info.z, bits);
    for (uint probe = 0u; probe <= mask; ++probe) {
        uvec4 key = memoryKeys[slot];
        if (key.x == 0u) return;
        if (key.x == c.info.x + 1u && key.y == c.info.y && key.z == c.info.z) {
            if (meshDot(vec3(memoryNormals[slot]), selfKeyNormal(c)) < 0.0f)
                c.normal = vec4(-vec3(c.normal), c.normal.w);
            return;
        }
        slot = (slot + 1u) & mask;
    }
}

// The swept box of vertex v.
CLOTH_FN void selfVertexBox(CLOTH_SELF_PARAMS uint v, CLOTH_OUT(vec3) lo, CLOTH_OUT(vec3) hi) {
    vec3 s = vec3(start[v]);
    vec3 p = vec3(predicted[v]);
    lo = vec3(p.x < s.x ? p.x : s.x, p.y < s.y ? p.y : s.y, p.z < s.z ? p.z : s.z);
    hi = vec3(s.x < p.x ? p.x : s.x, s.y < p.y ? p.y : s.y, s.z < p.z ? p.z : s.z);
}

// The owned primitive pairs (k below) of close triangles a and b, as bits: 0-2 a's corners, 3-5
// b's, 6-14 edge pairs (selfPairCandidate is false at once for the others).
CLOTH_FN uint selfOwnedPairs(CLOTH_SELF_PARAMS uint a, uint b) {
    uint ia = triInfo[a];
    uint ib = triInfo[b];
    uint live = ((ia >> TRIANGLE_OWNS_VERTEX_SHIFT) & 7u) |
                (((ib >> TRIANGLE_OWNS_VERTEX_SHIFT) & 7u) << 3u);
    for (uint ea = 0u; ea < 3u; ++ea)
        if (((ia >> ea) & 1u) != 0u) live |= (ib & 7u) << (6u + 3u * ea);
    return live;
}

// The side remembered for candidate `cand` in the memory table of 2^bits slots (selfRemember's
// table): its direction and w 1, or 0 when its pair was no contact.
CLOTH_FN vec4 selfRememberedSide(CLOTH_SELF_PARAMS CLOTH_IN(SelfCandidate) cand, uint bits) {
    if (bits == 0u) return vec4(0.0f);
    uint kind = cand.kind & 1u;
    uint mask = (1u << bits) - 1u;
    uint slot = selfMemorySlot(kind, cand.keyY, cand.keyZ, bits);
    for (uint probe = 0u; probe <= mask; ++probe) {
        uvec4 key = memoryKeys[slot];
        if (key.x == 0u) return vec4(0.0f);
        if (key.x == kind + 1u && key.y == cand.keyY && key.z == cand.keyZ)
            return vec4(vec3(memoryNormals[slot]), 1.0f);
        slot = (slot + 1u) & mask;
    }
    return vec4(0.0f);
}

// Primitive pair k (0..14) of the close triangles a and b (Anon. 2023 §6.4: only what each owns):
// k 0-2 a's corner k against triangle b, 3-5 b's corner k - 3 against a, 6-14 a's edge
// (k - 6) / 3 against b's edge (k - 6) % 3. True when the pair can collide at all (a and b own
// the two primitives, they share no vertex and the rest mesh does not rule them out), filled
// into `cand`. What it is depends on the rest mesh and the triangles alone.
CLOTH_FN bool selfPairCandidate(CLOTH_SELF_PARAMS uint a, uint b, uint k,
                                CLOTH_OUT(SelfCandidate) cand) {
    bool sameCloth = (triInfo[a] >> TRIANGLE_SEGMENT_SHIFT) == (triInfo[b] >> TRIANGLE_SEGMENT_SHIFT);
    uvec3 ta = uvec3(triangles[3u * a], triangles[3u * a + 1u], triangles[3u * a + 2u]);
    uvec3 tb = uvec3(triangles[3u * b], triangles[3u * b + 1u], triangles[3u * b + 2u]);
    cand.keep = triThickness[a] + triThickness[b];
    if (k < 6u) {
        uint owner = k < 3u ? a : b;
        uint other = k < 3u ? b : a;
        uint corner = k % 3u;
        uvec3 to = k < 3u ? ta : tb;
        uvec3 t = k < 3u ? tb : ta;
        if ((triInfo[owner] & (1u << (TRIANGLE_OWNS_VERTEX_SHIFT + corner))) == 0u) return false;
        uint v = to[corner];
        if (v == t.x || v == t.y || v == t.z) return false;
        if (sameCloth && selfRestVt(CLOTH_SELF_ARGS v, other)) return false;
        cand.vertices = uvec4(v, t.x, t.y, t.z);
        cand.kind = SELF_VERTEX_TRIANGLE | 2u;
        cand.keyY = v;
        cand.keyZ = other;
        return true;
    }
    uint ea = (k - 6u) / 3u;
    uint eb = (k - 6u) % 3u;
    if ((triInfo[a] & (1u << ea)) == 0u || (triInfo[b] & (1u << eb)) == 0u) return false;
    uint p0 = ta[ea];
    uint p1 = ta[(ea + 1u) % 3u];
    uint q0 = tb[eb];
    uint q1 = tb[(eb + 1u) % 3u];
    if (p0 == q0 || p0 == q1 || p1 == q0 || p1 == q1) return false;
    uint ia = 3u * a + ea;
    uint ib = 3u * b + eb;
    if (sameCloth && selfRestEe(CLOTH_SELF_ARGS ia, ib)) return false;
    // The lower edge id first, whichever triangle the walk met first: the same contact, to
    // the bit, from any detection.
    cand.vertices = ia < ib ? uvec4(p0, p1, q0, q1) : uvec4(q0, q1, p0, p1);
    cand.kind = SELF_EDGE_EDGE | 2u;
    cand.keyY = min(ia, ib);
    cand.keyZ = max(ia, ib);
    return true;
}

// The union of two boxes (min and max as std::min / std::max: the first argument unless the
// second is strictly less or greater, so that every backend picks the same zero).
CLOTH_FN void selfBoxUnion(vec3 lo0, vec3 hi0, vec3 lo1, vec3 hi1, CLOTH_OUT(vec3) lo,
                           CLOTH_OUT(vec3) hi) {
    lo = vec3(lo1.x < lo0.x ? lo1.x : lo0.x, lo1.y < lo0.y ? lo1.y : lo0.y,
              lo1.z < lo0.z ? lo1.z : lo0.z);
    hi = vec3(hi0.x < hi1.x ? hi1.x : hi0.x, hi0.y < hi1.y ? hi1.y : hi0.y,
              hi0.z < hi1.z ? hi1.z : hi0.z);
}

// How far apart the candidate's two primitives' boxes (each vertex's from `start` and
// `predicted`) are along the axis where they are farthest apart (negative where they overlap).
CLOTH_FN float selfCandidateGap(CLOTH_SELF_PARAMS CLOTH_IN(SelfCandidate) cand) {
    uvec4 v = cand.vertices;
    vec3 lo0, hi0, lo1, hi1, lo2, hi2, lo3, hi3;
    selfVertexBox(CLOTH_SELF_ARGS v.x, lo0, hi0);
    selfVertexBox(CLOTH_SELF_ARGS v.y, lo1, hi1);
    selfVertexBox(CLOTH_SELF_ARGS v.z, lo2, hi2);
    selfVertexBox(CLOTH_SELF_ARGS v.w, lo3, hi3);
    vec3 loP, hiP, loQ, hiQ;
    if ((cand.kind & 1u) == SELF_VERTEX_TRIANGLE) {
        vec3 lo12, hi12;
        selfBoxUnion(lo1, hi1, lo2, hi2, lo12, hi12);
        selfBoxUnion(lo12, hi12, lo3, hi3, loQ, hiQ);
        return selfBoxesGap(lo0, hi0, loQ, hiQ);
    }
    selfBoxUnion(lo0, hi0, lo1, hi1, loP, hiP);
    selfBoxUnion(lo2, hi2, lo3, hi3, loQ, hiQ);
    return selfBoxesGap(loP, hiP, loQ, hiQ);
}

// The same with every vertex at `start` alone (a detection's boxes).
CLOTH_FN float selfCandidateGapAt(CLOTH_SELF_PARAMS CLOTH_IN(SelfCandidate) cand) {
    uvec4 v = cand.vertices;
    vec3 a = vec3(start[v.x]);
    vec3 b = vec3(start[v.y]);
    vec3 c = vec3(start[v.z]);
    vec3 d = vec3(start[v.w]);
    vec3 loP, hiP, loQ, hiQ;
    if ((cand.kind & 1u) == SELF_VERTEX_TRIANGLE) {
        vec3 lo12, hi12;
        selfBoxUnion(b, b, c, c, lo12, hi12);
        selfBoxUnion(lo12, hi12, d, d, loQ, hiQ);
        return selfBoxesGap(a, a, loQ, hiQ);
    }
    selfBoxUnion(a, a, b, b, loP, hiP);
    selfBoxUnion(c, c, d, d, loQ, hiQ);
    return selfBoxesGap(loP, hiP, loQ, hiQ);
}

// The offset at `start` from the second primitive's closest point to the first's (their closest
// points as the gap test finds them).
CLOTH_FN vec3 selfCandidateOffset(CLOTH_SELF_PARAMS CLOTH_IN(SelfCandidate) cand) {
    uvec4 v = cand.vertices;
    vec3 a = vec3(start[v.x]);
    vec3 b = vec3(start[v.y]);
    vec3 c = vec3(start[v.z]);
    vec3 d = vec3(start[v.w]);
    if ((cand.kind & 1u) == SELF_VERTEX_TRIANGLE) {
        vec3 w = selfClosestBarycentric(a, b, c, d);
        return a - (b * w.x + c * w.y + d * w.z);
    }
    float s, t;
    segmentClosest(a, b, c, d, s, t);
    return (a * (1.0f - s) + b * s) - (c * (1.0f - t) + d * t);
}

// The distance between the candidate's two primitives at `start`.
CLOTH_FN float selfCandidateDistance(CLOTH_SELF_PARAMS CLOTH_IN(SelfCandidate) cand) {
    vec3 r = selfCandidateOffset(CLOTH_SELF_ARGS cand);
    return sqrt(meshDot(r, r));
}

// The pair's direction at the start, from the second primitive's closest point to the first's
// (0 where they touch), and in w their distance.
CLOTH_FN vec4 selfCandidateDirection(CLOTH_SELF_PARAMS CLOTH_IN(SelfCandidate) cand) {
    vec3 r = selfCandidateOffset(CLOTH_SELF_ARGS cand);
    float len = sqrt(meshDot(r, r));
    return len > 0.0f ? vec4(r / len, len) : vec4(0.0f);
}

CLOTH_FN bool selfCandidateApart(CLOTH_SELF_PARAMS CLOTH_IN(SelfCandidate) cand, float reach) {
    return selfCandidateGap(CLOTH_SELF_ARGS cand) > reach;
}

// Is the candidate a contact in this substep (its swept boxes within reach, then the gap test)?
// Filled into c, without the remembered side. (A full detection's test: selfPrimitivePair.)
CLOTH_FN bool selfCandidateContact(CLOTH_SELF_PARAMS CLOTH_IN(SelfCandidate) cand, float margin,
                                   CLOTH_OUT(SelfContact) c) {
    if (selfCandidateApart(CLOTH_SELF_ARGS cand, cand.keep + margin)) return false;
    uvec4 v = cand.vertices;
    c.vertices = v;
    c.info = uvec4(cand.kind & 1u, cand.keyY, cand.keyZ, (cand.kind >> 1u) & 1u);
    if ((cand.kind & 1u) == SELF_VERTEX_TRIANGLE)
        return selfVertexTriangle(vec3(start[v.x]), vec3(start[v.y]), vec3(start[v.z]),
                                  vec3(start[v.w]), vec3(predicted[v.x]), vec3(predicted[v.y]),
                                  vec3(predicted[v.z]), vec3(predicted[v.w]), triInfo[cand.keyZ],
                                  cand.keep, margin, c.weights, c.normal);
    return selfEdgeEdge(vec3(start[v.x]), vec3(start[v.y]), vec3(start[v.z]), vec3(start[v.w]),
                        vec3(predicted[v.x]), vec3(predicted[v.y]), vec3(predicted[v.z]),
                        vec3(predicted[v.w]), cand.keep, margin, c.weights, c.normal);
}

// Evaluate's test of a candidate in a substep: its direction at the start (dir, as
// selfCandidateDirection) always, and whether it is a contact (its swept boxes within reach,
// then the gap test, as selfCandidateContact), filled into c without the remembered side; one
// closest-point computation serves both.
CLOTH_FN bool selfCandidateEvaluate(CLOTH_SELF_PARAMS CLOTH_IN(SelfCandidate) cand, float margin,
                                    CLOTH_OUT(vec4) dir, CLOTH_OUT(SelfContact) c) {
    uvec4 v = cand.vertices;
    vec3 a = vec3(start[v.x]);
    vec3 b = vec3(start[v.y]);
    vec3 e = vec3(start[v.z]);
    vec3 d = vec3(start[v.w]);
    bool vt = (cand.kind & 1u) == SELF_VERTEX_TRIANGLE;
    vec3 w = vec3(0.0f);
    float s = 0.0f;
    float t = 0.0f;
    vec3 r;
    if (vt) {
        w = selfClosestBarycentric(a, b, e, d);
        r = a - (b * w.x + e * w.y + d * w.z);
    } else {
        segmentClosest(a, b, e, d, s, t);
        r = (a * (1.0f - s) + b * s) - (e * (1.0f - t) + d * t);
    }
    float len = sqrt(meshDot(r, r));
    dir = len > 0.0f ? vec4(r / len, len) : vec4(0.0f);
    if (selfCandidateApart(CLOTH_SELF_ARGS cand, cand.keep + margin)) return false;
    c.vertices = v;
    c.info = uvec4(cand.kind & 1u, cand.keyY, cand.keyZ, (cand.kind >> 1u) & 1u);
    if (vt)
        return selfVertexTriangleAt(w, r, b, e, d, vec3(predicted[v.x]), vec3(predicted[v.y]),
                                    vec3(predicted[v.z]), vec3(predicted[v.w]),
                                    triInfo[cand.keyZ], cand.keep, margin, c.weights, c.normal);
    return selfEdgeEdgeAt(s, t, r, a, b, e, d, vec3(predicted[v.x]), vec3(predicted[v.y]),
                          vec3(predicted[v.z]), vec3(predicted[v.w]), cand.keep, margin,
                          c.weights, c.normal);
}

// Primitive pair k of the close triangles a and b in one go (selfPairCandidate, then
// selfCandidateContact): true when it is a contact, filled into c (its side remembered from the
// last substep); `tested` counts the pairs that reach the box test.
CLOTH_FN bool selfPrimitivePair(CLOTH_SELF_PARAMS uint a, uint b, uint k, float margin,
                                uint memoryBits, CLOTH_OUT(SelfContact) c,
                                CLOTH_INOUT(uint) tested) {
    SelfCandidate cand;
    if (!selfPairCandidate(CLOTH_SELF_ARGS a, b, k, cand)) return false;
    tested += 1u;
    if (!selfCandidateContact(CLOTH_SELF_ARGS cand, margin, c)) return false;
    selfRemember(CLOTH_SELF_ARGS c, memoryBits);
    return true;
}

CLOTH_NAMESPACE_END
#endif
