// Triangle-mesh colliders: a closed mesh in its collider's frame (scale applied) and a bounding
// volume hierarchy over its triangles, built once at load (src/prep/mesh_collider.h) and moved
// with the collider (queries are made in the collider's frame).
//
// meshSignedDistance (below) finds the exact closest triangle by a depth-first walk of the
// hierarchy and signs the distance with the angle-weighted pseudo-normal of the closest feature
// (face, edge or corner; Baerentzen and Aanaes 2005), which is right for closed meshes. The
// result is the one a brute-force search over every triangle gives with the same per-triangle
// function (meshTriangleDistance2), ties going to the lower triangle index: see there for why
// pruning by box distance never drops a triangle that would win. C++ and GLSL run the same
// operations in the same order (sums written out, no dot()), so both give the same bits where
// the device rounds division and sqrt correctly, as lavapipe does (tests/vk/test_mesh_query).
// On the CPU, meshSignedDistanceKept answers most of a moving vertex's queries from the
// triangles its last walk found nearest, with the same bits.
#ifndef CLOTH_KERNELS_MESH_DISTANCE_H
#define CLOTH_KERNELS_MESH_DISTANCE_H

#include "kernels/common.h"

CLOTH_NAMESPACE_BEGIN

// A node: its bounds, and either two children or a range of triangles (absolute indices into
// the shared node and triangle arrays, which hold every mesh collider one after another).
// Scalars, not vec4 with indices in w: a uint's bits in a float lane are subnormals or NaNs,
// which a device that flushes denormals or a compiler that canonicalises NaNs may change.
struct MeshNode {
    float minX, minY, minZ;
    uint first;  // inner node: its left child; leaf: its first triangle
    float maxX, maxY, maxZ;
    uint second;  // inner node: its right child; leaf: MESH_LEAF | its triangle count
};
CLOTH_CHECK_SIZE(MeshNode, 32)
CLOTH_CHECK_OFFSET(MeshNode, first, 12)
CLOTH_CHECK_OFFSET(MeshNode, second, 28)

const uint MESH_LEAF = 0x80000000u;
// The walk keeps at most one pending node per level below the root: the builder keeps every
// leaf at most this deep (src/prep/mesh_collider.cpp; a median split has depth log2(n)).
const uint MESH_STACK_SIZE = 32u;
// No triangle to start a query from (meshSignedDistanceHinted; also an unused slot of
// meshSignedDistanceKept's triangles).
const uint MESH_NO_HINT = 0xFFFFFFFFu;
// Below this squared distance (1 um)^2 the direction p - q is rounding noise: the gradient is
// the closest feature's pseudo-normal instead.
const float MESH_TOUCH_DISTANCE2 = 1e-12f;

// The closest feature of a triangle to a point (meshClosestPoint).
const uint MESH_FEATURE_FACE = 0u;
const uint MESH_FEATURE_EDGE_AB = 1u;   // 1 + k: edge k of ab, bc, ca
const uint MESH_FEATURE_VERTEX_A = 4u;  // 4 + k: corner k of a, b, c

// A triangle with what a signed distance needs: its corners, its face normal and the
// angle-weighted pseudo-normals of its edges and corners (Baerentzen and Aanaes 2005), so the
// sign of the distance to a closed mesh is right at every feature. Normals are unit length; an
// edge's or a corner's is the same bits in every triangle that shares it. w lanes unused (0).
struct MeshTriangle {
    vec4 a;
    vec4 b;
    vec4 c;
    vec4 faceNormal;
    vec4 edgeNormal[3];    // edges ab, bc, ca
    vec4 vertexNormal[3];  // corners a, b, c
};
CLOTH_CHECK_SIZE(MeshTriangle, 160)
CLOTH_CHECK_OFFSET(MeshTriangle, edgeNormal, 64)
CLOTH_CHECK_OFFSET(MeshTriangle, vertexNormal, 112)

// A sharp feature of a mesh collider (src/prep/mesh_features.h), in its collider's frame: a
// corner (a.w = MESH_FEATURE_IS_CORNER, b = a) or an edge from a to b (a.w = MESH_FEATURE_IS_EDGE).
// A collider's features have their own hierarchy in the node array (Collider::featureNode),
// whose leaves index this array instead of the triangles (src/kernels/feature_contacts.h).
struct MeshFeature {
    vec4 a;
    vec4 b;
};
CLOTH_CHECK_SIZE(MeshFeature, 32)

const float MESH_FEATURE_IS_CORNER = 0.0f;
const float MESH_FEATURE_IS_EDGE = 1.0f;

// x^2 + y^2 + z^2 in this order on every backend (a driver's dot() may sum in another order).
CLOTH_FN float meshLength2(vec3 v) {
    return v.x * v.x + v.y * v.y + v.z * v.z;
}

CLOTH_FN float meshDot(vec3 u, vec3 v) {
    return u.x * v.x + u.y * v.y + u.z * v.z;
}

// Squared distance from p to the box [lo, hi] (0 inside).
CLOTH_FN float meshBoxDistance2(vec3 lo, vec3 hi, vec3 p) {
    return meshLength2(max(max(lo - p, p - hi), vec3(0.0f)));
}

// The point of triangle (a, b, c) closest to p, and its feature (MESH_FEATURE_*).
//
// With ab = b - a, ac = c - a, the closest point lies in one of seven regions: the three
// corners, the three edges, the face. Write d1 = ab.(p-a), d2 = ac.(p-a), d3 = ab.(p-b),
// d4 = ac.(p-b), d5 = ab.(p-c), d6 = ac.(p-c). The projection of p on the triangle's plane has
// barycentric coordinates proportional to (va, vb, vc) with, by Lagrange's identity,
//   vc = (ab x ac).(ab x (p-a)) = |ab|^2 d2 - (ab.ac) d1 = d1 d4 - d3 d2   (weight of c)
//   vb = d5 d2 - d1 d6  (weight of b),   va = d3 d6 - d5 d4  (weight of a),
// all positive inside and summing to |ab x ac|^2. Then:
//   corner a: p is behind both edges leaving a:           d1 <= 0, d2 <= 0
//   corner b: p is past b along ab and behind bc at b:     d3 >= 0, (c-b).(p-b) = d4 - d3 <= 0
//   edge ab:  p outside ab (vc <= 0) and between a and b:  d1 >= 0, d3 <= 0; q = a + ab t,
//             t = d1 / (d1 - d3) (= ab.(p-a) / |ab|^2)
//   corner c: d6 >= 0, (b-c).(p-c) = d5 - d6 <= 0
//   edge ca:  vb <= 0, d2 >= 0, d6 <= 0; q = a + ac t, t = d2 / (d2 - d6)
//   edge bc:  va <= 0, d4 - d3 >= 0 (past b), d5 - d6 >= 0 (before c);
//             q = b + (c-b) t, t = (d4 - d3) / ((d4 - d3) + (d5 - d6))
//   face:     q = a + ab vb / (va+vb+vc) + ac vc / (va+vb+vc)
// Each test is reached only when the earlier ones failed, which is what makes the conditions
// sufficient (e.g. edge ab's test needs corner a and b ruled out). The divisions are guarded so
// that a rounding-level inconsistency gives an end point, never NaN.
CLOTH_FN vec3 meshClosestPoint(vec3 p, vec3 a, vec3 b, vec3 c, CLOTH_OUT(uint) feature) {
    vec3 ab = b - a;
    vec3 ac = c - a;
    vec3 ap = p - a;
    float d1 = meshDot(ab, ap);
    float d2 = meshDot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f) {
        feature = MESH_FEATURE_VERTEX_A;
        return a;
    }
    vec3 bp = p - b;
    float d3 = meshDot(ab, bp);
    float d4 = meshDot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3) {
        feature = MESH_FEATURE_VERTEX_A + 1u;
        return b;
    }
    float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
        feature = MESH_FEATURE_EDGE_AB;
        float t = d1 > 0.0f ? d1 / (d1 - d3) : 0.0f;
        return a + ab * t;
    }
    vec3 cp = p - c;
    float d5 = meshDot(ab, cp);
    float d6 = meshDot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6) {
        feature = MESH_FEATURE_VERTEX_A + 2u;
        return c;
    }
    float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
        feature = MESH_FEATURE_EDGE_AB + 2u;
        float t = d2 > 0.0f ? d2 / (d2 - d6) : 0.0f;
        return a + ac * t;
    }
    float va = d3 * d6 - d5 * d4;
    float e4 = d4 - d3;
    float e5 = d5 - d6;
    if (va <= 0.0f && e4 >= 0.0f && e5 >= 0.0f) {
        feature = MESH_FEATURE_EDGE_AB + 1u;
        float t = e4 > 0.0f ? e4 / (e4 + e5) : 0.0f;
        return b + (c - b) * t;
    }
    feature = MESH_FEATURE_FACE;
    float sum = va + vb + vc;
    if (!(sum > 0.0f)) return a;  // only a degenerate triangle (the builder refuses those)
    float inv = 1.0f / sum;
    return a + ab * (vb * inv) + ac * (vc * inv);
}

// Squared distance from p to triangle (a, b, c), with the closest point q and its feature.
//
// q is clamped into the triangle's bounding box, which changes it only by rounding (the exact
// closest point lies in the box). That makes the result at least meshBoxDistance2 of any box
// holding the triangle, in floating point too: per axis, q lies in [lo, hi], so by the
// monotonicity of rounded subtraction |p - q| >= the box's gap on that axis, and squaring and
// the left-to-right sum are monotonic. So the walk may skip any box farther than the best
// triangle so far and still find exactly the brute-force minimum.
CLOTH_FN float meshTriangleDistance2(vec3 p, vec3 a, vec3 b, vec3 c, CLOTH_OUT(vec3) q,
                                     CLOTH_OUT(uint) feature) {
    q = meshClosestPoint(p, a, b, c, feature);
    q = clamp(q, min(a, min(b, c)), max(a, max(b, c)));
    return meshLength2(p - q);
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_MESH_DISTANCE_H

// ---- queries: need the node and triangle arrays (C++ passes them, shaders declare buffers
// meshNodes[] and meshTriangles[] before including this with CLOTH_HAS_MESH defined) ----
#if (defined(__cplusplus) || defined(CLOTH_HAS_MESH)) && !defined(CLOTH_KERNELS_MESH_QUERY)
#define CLOTH_KERNELS_MESH_QUERY
#ifdef __cplusplus
// (maybe_unused: a helper may read only one of the two arrays)
#define CLOTH_MESH_PARAMS \
    [[maybe_unused]] const MeshNode *meshNodes, [[maybe_unused]] const MeshTriangle *meshTriangles,
#define CLOTH_MESH_ARGS meshNodes, meshTriangles,
#else
#define CLOTH_MESH_PARAMS
#define CLOTH_MESH_ARGS
#endif
CLOTH_NAMESPACE_BEGIN

CLOTH_FN float meshNodeDistance2(CLOTH_MESH_PARAMS uint node, vec3 p) {
    vec3 lo = vec3(meshNodes[node].minX, meshNodes[node].minY, meshNodes[node].minZ);
    vec3 hi = vec3(meshNodes[node].maxX, meshNodes[node].maxY, meshNodes[node].maxZ);
    return meshBoxDistance2(lo, hi, p);
}

// meshTriangleDistance2 of triangle t of the shared array.
CLOTH_FN float meshTriangleDistance2At(CLOTH_MESH_PARAMS uint t, vec3 p, CLOTH_OUT(vec3) q,
                                       CLOTH_OUT(uint) feature) {
    return meshTriangleDistance2(p, vec3(meshTriangles[t].a), vec3(meshTriangles[t].b),
                                 vec3(meshTriangles[t].c), q, feature);
}

// The unit pseudo-normal of a feature of triangle t.
CLOTH_FN vec3 meshFeatureNormal(CLOTH_MESH_PARAMS uint t, uint feature) {
    if (feature == MESH_FEATURE_FACE) return vec3(meshTriangles[t].faceNormal);
    if (feature < MESH_FEATURE_VERTEX_A)
        return vec3(meshTriangles[t].edgeNormal[feature - MESH_FEATURE_EDGE_AB]);
    return vec3(meshTriangles[t].vertexNormal[feature - MESH_FEATURE_VERTEX_A]);
}

// The signed distance and gradient from the closest triangle t (closest point q, its feature,
// squared distance d2 < maxDistance^2): the sign of (p - q) . pseudo-normal (0 counts as
// outside); at ~0 distance the gradient is the pseudo-normal itself.
CLOTH_FN float meshSignedFromClosest(CLOTH_MESH_PARAMS uint t, uint feature, vec3 q, float d2,
                                     vec3 p, float maxDistance, CLOTH_OUT(vec3) g) {
    float d = sqrt(d2);
    if (d >= maxDistance) {
        g = vec3(0.0f, 1.0f, 0.0f);
        return maxDistance;
    }
    vec3 n = meshFeatureNormal(CLOTH_MESH_ARGS t, feature);
    vec3 v = p - q;
    float s = meshDot(v, n) >= 0.0f ? 1.0f : -1.0f;
    if (d2 <= MESH_TOUCH_DISTANCE2) {
        g = n;
    } else {
        g = v * (s / d);
    }
    return s * d;
}

// Signed distance from local point p to the closed mesh whose root node is `root` (negative
// inside), with its unit gradient g (pointing out of the mesh), when |distance| < maxDistance.
// Otherwise returns maxDistance and g = (0, 1, 0): too far to matter (deep inside counts as far).
//
// Depth-first, nearer child first (ties: the left one), the farther one pushed with its box
// distance; a node is skipped when its box is farther than the best triangle so far (equal is
// visited: it may hold a tie with a lower index). The first candidate must be closer than
// maxDistance.
//
// `hint`: a triangle of this mesh likely to be the closest (the last query's answer, from
// meshSignedDistanceHinted), or MESH_NO_HINT. It seeds the best distance, so that the walk opens
// only boxes at most that far; the answer is the same (the least distance, ties to the lower
// index, whatever the seed), only found sooner. On return it is the closest triangle, or
// MESH_NO_HINT when none is closer than maxDistance.

CLOTH_FN float meshSignedDistanceHinted(CLOTH_MESH_PARAMS uint root, vec3 p, float maxDistance,
                                        CLOTH_INOUT(uint) hint, CLOTH_OUT(vec3) g) {
    g = vec3(0.0f, 1.0f, 0.0f);
    if (!(maxDistance > 0.0f)) {
        hint = MESH_NO_HINT;
        return maxDistance;
    }
    float best2 = maxDistance * maxDistance;
    uint bestTri = 0u;
    uint bestFeature = 0u;
    bool found = false;
    vec3 bestQ = p;
    if (hint != MESH_NO_HINT) {
        vec3 q;
        uint feature;
        float d2 = meshTriangleDistance2At(CLOTH_MESH_ARGS hint, p, q, feature);
        if (d2 < best2) {
            best2 = d2;
            bestTri = hint;
            bestFeature = feature;
            bestQ = q;
            found = true;
        }
    }
    uint stackNode[MESH_STACK_SIZE];
    float stackDist2[MESH_STACK_SIZE];
    uint top = 0u;
    uint node = root;
    bool walking = meshNodeDistance2(CLOTH_MESH_ARGS root, p) <= best2;
    while (walking) {
        bool descend = false;
        uint first = meshNodes[node].first;
        uint second = meshNodes[node].second;
        if ((second & MESH_LEAF) != 0u) {
            uint end = first + (second & ~MESH_LEAF);
            for (uint t = first; t < end; ++t) {
                vec3 q;
                uint feature;
                float d2 = meshTriangleDistance2At(CLOTH_MESH_ARGS t, p, q, feature);
                if (d2 < best2 || (found && d2 == best2 && t < bestTri)) {
                    best2 = d2;
                    bestTri = t;
                    bestFeature = feature;
                    bestQ = q;
                    found = true;
                }
            }
        } else {
            float d2First = meshNodeDistance2(CLOTH_MESH_ARGS first, p);
            float d2Second = meshNodeDistance2(CLOTH_MESH_ARGS second, p);
            bool firstNear = d2First <= d2Second;
            uint nearNode = firstNear ? first : second;
            uint farNode = firstNear ? second : first;
            float d2Near = firstNear ? d2First : d2Second;
            float d2Far = firstNear ? d2Second : d2First;
            // The builder bounds the depth (MESH_STACK_SIZE); the test keeps memory safe.
            if (d2Far <= best2 && top < MESH_STACK_SIZE) {
                stackNode[top] = farNode;
                stackDist2[top] = d2Far;
                top += 1u;
            }
            if (d2Near <= best2) {
                node = nearNode;
                descend = true;
            }
        }
        if (!descend) {
            walking = false;
            while (top > 0u) {
                top -= 1u;
                if (stackDist2[top] <= best2) {
                    node = stackNode[top];
                    walking = true;
                    break;
                }
            }
        }
    }
    hint = found ? bestTri : MESH_NO_HINT;
    if (!found) return maxDistance;
    return meshSignedFromClosest(CLOTH_MESH_ARGS bestTri, bestFeature, bestQ, best2, p, maxDistance,
                                 g);
}

// ---- C++ only (the CPU reference): queries that remember what they proved. A shader keeps the
// single hint above: the walk below and its memory cost llvmpipe twice the contact time (code
// size and 32 more bytes of state per vertex), and the answers are the same bits either way. ----
#ifdef __cplusplus

// A vertex remembers the MESH_KEEP triangles nearest it (meshSignedDistanceKept), in seven of
// eight uint slots; the eighth holds a bound (float bits) for all but the nearest.
const uint MESH_KEEP = 7u;
// meshSignedDistanceKept trusts a remembered bound only with this much to spare (relative, and
// of the search radius), far more than the rounding of the distances it compares.
const float MESH_RIVAL_SLACK = 1e-4f;

// (d2a, a) before (d2b, b): nearer, ties to the lower index (brute force's order).
CLOTH_FN bool meshBefore(float d2a, uint a, float d2b, uint b) {
    return d2a < d2b || (d2a == d2b && a < b);
}

// The MESH_KEEP triangles nearest local point p (those closer than maxDistance), nearest first in
// brute force's order (the per-triangle function meshTriangleDistance2, ties to the lower index),
// found by a depth-first walk: nearer child first (ties: the left one), the farther one pushed
// with its box distance; a node is skipped when its box is farther than the list's last once the
// list is full (or than maxDistance before; equal is visited: it may hold a tie with a lower
// index).
//
// The triangles go into keepA then keepB.xyz (MESH_NO_HINT where fewer), and in rival2 a
// lower bound on the squared distance of every other triangle: the least over the triangles
// tested and not kept and the boxes not opened (a box's distance bounds its triangles'). keepB.w:
// the bits of a lower bound on the distance of every triangle but the nearest. What keepA/keepB
// held on entry (triangles of this mesh, or MESH_NO_HINT) is tried first: it seeds the bound the
// walk prunes with; the result is the same whatever the seeds.
// The nearest triangles found so far, in order (meshNearestTriangles).
struct MeshKeptList {
    uint tri[MESH_KEEP];
    float d2[MESH_KEEP];
    uint n;
};

// Offers triangle t at squared distance d2 to the list: kept in order if closer than max2 and
// before the list's last when it is full (which it then drops); what is not kept lowers rival2.
CLOTH_FN void meshKeepOffer(CLOTH_INOUT(MeshKeptList) list, uint t, float d2, float max2,
                            CLOTH_INOUT(float) rival2) {
    if (!(d2 < max2)) {
        rival2 = min(rival2, d2);
        return;
    }
    if (list.n == MESH_KEEP) {
        if (!meshBefore(d2, t, list.d2[MESH_KEEP - 1u], list.tri[MESH_KEEP - 1u])) {
            rival2 = min(rival2, d2);
            return;
        }
        rival2 = min(rival2, list.d2[MESH_KEEP - 1u]);
        list.n -= 1u;
    }
    uint i = list.n;
    while (i > 0u && meshBefore(d2, t, list.d2[i - 1u], list.tri[i - 1u])) {
        list.d2[i] = list.d2[i - 1u];
        list.tri[i] = list.tri[i - 1u];
        i -= 1u;
    }
    list.d2[i] = d2;
    list.tri[i] = t;
    list.n += 1u;
}

CLOTH_FN void meshNearestTriangles(CLOTH_MESH_PARAMS uint root, vec3 p, float maxDistance,
                                   CLOTH_INOUT(uvec4) keepA, CLOTH_INOUT(uvec4) keepB,
                                   CLOTH_OUT(float) rival2) {
    float max2 = maxDistance * maxDistance;
    rival2 = max2;
    MeshKeptList list;
    list.n = 0u;
    uint seeds[MESH_KEEP] = {keepA.x, keepA.y, keepA.z, keepA.w, keepB.x, keepB.y, keepB.z};
    for (uint k = 0u; k < MESH_KEEP; ++k) {  // (distinct: they come from an earlier list)
        if (seeds[k] == MESH_NO_HINT) continue;
        vec3 q;
        uint feature;
        meshKeepOffer(list, seeds[k],
                      meshTriangleDistance2At(CLOTH_MESH_ARGS seeds[k], p, q, feature), max2,
                      rival2);
    }
    uint stackNode[MESH_STACK_SIZE];
    float stackDist2[MESH_STACK_SIZE];
    uint top = 0u;
    uint node = root;
    float bound2 = list.n == MESH_KEEP ? list.d2[MESH_KEEP - 1u] : max2;
    float rootDist2 = meshNodeDistance2(CLOTH_MESH_ARGS root, p);
    bool walking = rootDist2 <= bound2;
    if (!walking) rival2 = min(rival2, rootDist2);
    while (walking) {
        bool descend = false;
        uint first = meshNodes[node].first;
        uint second = meshNodes[node].second;
        if ((second & MESH_LEAF) != 0u) {
            uint end = first + (second & ~MESH_LEAF);
            for (uint t = first; t < end; ++t) {
                bool seeded = false;
                for (uint k = 0u; k < MESH_KEEP; ++k) seeded = seeded || seeds[k] == t;
                if (seeded) continue;  // tried already
                vec3 q;
                uint feature;
                meshKeepOffer(list, t, meshTriangleDistance2At(CLOTH_MESH_ARGS t, p, q, feature),
                              max2, rival2);
                if (list.n == MESH_KEEP) bound2 = list.d2[MESH_KEEP - 1u];
            }
        } else {
            float d2First = meshNodeDistance2(CLOTH_MESH_ARGS first, p);
            float d2Second = meshNodeDistance2(CLOTH_MESH_ARGS second, p);
            bool firstNear = d2First <= d2Second;
            uint nearNode = firstNear ? first : second;
            uint farNode = firstNear ? second : first;
            float d2Near = firstNear ? d2First : d2Second;
            float d2Far = firstNear ? d2Second : d2First;
            // The builder bounds the depth (MESH_STACK_SIZE); the test keeps memory safe.
            if (d2Far <= bound2 && top < MESH_STACK_SIZE) {
                stackNode[top] = farNode;
                stackDist2[top] = d2Far;
                top += 1u;
            } else {
                rival2 = min(rival2, d2Far);
            }
            if (d2Near <= bound2) {
                node = nearNode;
                descend = true;
            } else {
                rival2 = min(rival2, d2Near);
            }
        }
        if (!descend) {
            walking = false;
            while (top > 0u) {
                top -= 1u;
                if (stackDist2[top] <= bound2) {
                    node = stackNode[top];
                    walking = true;
                    break;
                }
                rival2 = min(rival2, stackDist2[top]);
            }
        }
    }
    for (uint k = list.n; k < MESH_KEEP; ++k) list.tri[k] = MESH_NO_HINT;
    // All but the nearest are at least as far as the second kept or the rival bound.
    float second2 = list.n > 1u ? min(list.d2[1], rival2) : rival2;
    keepA = uvec4(list.tri[0], list.tri[1], list.tri[2], list.tri[3]);
    keepB = uvec4(list.tri[4], list.tri[5], list.tri[6], floatBitsToUint(sqrt(second2)));
}

// meshSignedDistance from what a vertex remembers: keepA/keepB, the triangles nearest it when it
// last walked the hierarchy (meshNearestTriangles), and rival (xyz: where, in the collider's
// frame; w: a distance, 0 = nothing known), which says every other triangle was at least rival.w
// from rival.xyz, so is at least rival.w - |p - rival.xyz| from p (a distance to a fixed set
// changes no faster than the point moves); keepB.w says the same of every triangle but the
// nearest. First the nearest alone is tried against its bound, then all the kept ones against
// theirs: when the nearest of them is closer than the bound (with MESH_RIVAL_SLACK to spare),
// it is the one brute force would pick, and its answer has the walk's bits (then the bounds are
// moved to p, the nearest first). Otherwise the walk runs, seeded with the kept triangles, and
// everything becomes what it proved at p. A vertex resting on a mesh walks again only once it
// has moved a good part of the gap between its nearest triangles and the next ones.
CLOTH_FN float meshSignedDistanceKept(CLOTH_MESH_PARAMS uint root, vec3 p, float maxDistance,
                                      CLOTH_INOUT(uvec4) keepA, CLOTH_INOUT(uvec4) keepB,
                                      CLOTH_INOUT(vec4) rival, CLOTH_OUT(vec3) g) {
    g = vec3(0.0f, 1.0f, 0.0f);
    if (!(maxDistance > 0.0f)) {
        keepA = uvec4(MESH_NO_HINT);
        keepB = uvec4(MESH_NO_HINT);
        rival = vec4(0.0f);
        return maxDistance;
    }
    float max2 = maxDistance * maxDistance;
    float spare = MESH_RIVAL_SLACK * maxDistance;
    if (rival.w > 0.0f && keepA.x != MESH_NO_HINT) {
        float moved = sqrt(meshLength2(p - vec3(rival)));
        vec3 q;
        uint feature;
        float d2 = meshTriangleDistance2At(CLOTH_MESH_ARGS keepA.x, p, q, feature);
        if (d2 < max2 &&
            sqrt(d2) * (1.0f + MESH_RIVAL_SLACK) + spare < uintBitsToFloat(keepB.w) - moved)
            return meshSignedFromClosest(CLOTH_MESH_ARGS keepA.x, feature, q, d2, p, maxDistance,
                                         g);
        uint kept[MESH_KEEP] = {keepA.x, keepA.y, keepA.z, keepA.w, keepB.x, keepB.y, keepB.z};
        float best2 = d2;
        uint best = 0u;  // its slot
        float second2 = max2;
        for (uint k = 1u; k < MESH_KEEP; ++k) {
            if (kept[k] == MESH_NO_HINT) continue;
            vec3 qk;
            uint fk;
            float e2 = meshTriangleDistance2At(CLOTH_MESH_ARGS kept[k], p, qk, fk);
            if (meshBefore(e2, kept[k], best2, kept[best])) {
                second2 = min(second2, best2);
                best2 = e2;
                best = k;
                q = qk;
                feature = fk;
            } else {
                second2 = min(second2, e2);
            }
        }
        float bound = rival.w - moved;
        if (best2 < max2 && sqrt(best2) * (1.0f + MESH_RIVAL_SLACK) + spare < bound) {
            uint t = kept[best];
            kept[best] = kept[0];
            kept[0] = t;
            keepA = uvec4(kept[0], kept[1], kept[2], kept[3]);
            keepB = uvec4(kept[4], kept[5], kept[6], floatBitsToUint(min(sqrt(second2), bound)));
            rival = vec4(p, bound);
            return meshSignedFromClosest(CLOTH_MESH_ARGS keepA.x, feature, q, best2, p,
                                         maxDistance, g);
        }
    }
    float rival2;
    meshNearestTriangles(CLOTH_MESH_ARGS root, p, maxDistance, keepA, keepB, rival2);
    rival = keepA.x != MESH_NO_HINT ? vec4(p, sqrt(rival2)) : vec4(0.0f);
    if (keepA.x == MESH_NO_HINT) return maxDistance;
    vec3 q;
    uint feature;
    float d2 = meshTriangleDistance2At(CLOTH_MESH_ARGS keepA.x, p, q, feature);
    return meshSignedFromClosest(CLOTH_MESH_ARGS keepA.x, feature, q, d2, p, maxDistance, g);
}

#endif  // __cplusplus

CLOTH_FN float meshSignedDistance(CLOTH_MESH_PARAMS uint root, vec3 p, float maxDistance,
                                  CLOTH_OUT(vec3) g) {
    uint hint = MESH_NO_HINT;
    return meshSignedDistanceHinted(CLOTH_MESH_ARGS root, p, maxDistance, hint, g);
}

CLOTH_NAMESPACE_END
#endif
