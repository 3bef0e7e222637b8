// Contacts between the sharp features of mesh colliders (their convex edges and corners,
// src/prep/mesh_features.h) and the cloth's triangles and edges (Anon. 2023 §4.5-4.7). The
// per-vertex contacts of collider.h keep every cloth vertex out of a mesh; a sharp table edge
// or corner can still cut through the cloth between vertices. These contacts keep each sharp
// corner at least the thickness h away from every cloth triangle, and each sharp edge h away
// from every cloth edge, on the side it was on at the start of the substep (so a feature that
// has already crossed the cloth is pushed back out the way it came, not further through).
//
// Corner p against a cloth triangle (x0, x1, x2), all in the collider's frame: with the unit
// normal n of the triangle and the barycentric coordinates b of p's projection on its plane
// (used only when all three are >= 0: otherwise the projection falls outside and the edge
// contacts of the neighbouring edges take over), the cloth point under p is c = sum b_i x_i and
//   C = side * n.(p - c) - h >= 0,   side = the sign of n.(p - c) at the substep's start.
// With the normal held fixed, grad_i C = -side b_i n; the collider has no inverse mass, so the
// XPBD step (zero compliance) is dLambda = -C / sum_j w_j b_j^2, dx_i = w_i grad_i C dLambda:
// every vertex moves along -side n, away from the corner, in proportion to w_i b_i.
//
// Mesh edge (a, b) against a cloth edge (x0, x1): the closest points c = x0 + s (x1 - x0) and
// q = a + t (b - a) of the two segments (segmentClosest) give d = c - q; its direction at the
// substep's start, d0, says the side. With n = d / |d| (flipped when d . d0 < 0: crossed),
//   C = (side) |d| - h >= 0,   grad_x0 C = (1 - s) n, grad_x1 C = s n,
// dLambda = -C / (w0 (1 - s)^2 + w1 s^2), dx_i = w_i grad_i C dLambda.
//
// Several contacts may move one vertex in a pass: each cloth triangle sums its contacts'
// corrections per corner (with a count), and each vertex then moves by the mean over its
// triangles (a Jacobi step averaged by the number of contacts: deterministic, no atomics, and
// the order of the sums fixed by the vertex-triangle table). A cloth edge belongs to one of its
// triangles (the lower-indexed, representative triangles, Anon. 2023 §6.4), so it is tested once.
// Friction as for the per-vertex contacts, at position level with the collider's mu_s and mu_k
// (featureCorrection), budgeted by each projection's own normal correction.
#ifndef CLOTH_KERNELS_FEATURE_CONTACTS_H
#define CLOTH_KERNELS_FEATURE_CONTACTS_H

#include "kernels/collider.h"
#include "kernels/common.h"
#include "kernels/mesh_distance.h"

CLOTH_NAMESPACE_BEGIN

CLOTH_FN vec3 meshCross(vec3 u, vec3 v) {
    return vec3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x);
}

// Parameters s, t in [0, 1] of the closest points p0 + s (p1 - p0) and q0 + t (q1 - q0) of two
// segments. Minimising |r + s d1 - t d2|^2 (r = p0 - q0, d1 = p1 - p0, d2 = q1 - q0) with
// A = d1.d1, B = d1.d2, E = d2.d2, c = d1.r, f = d2.r: setting both derivatives to zero gives
// t = (B s + f) / E and s = (B f - c E) / (A E - B^2). Clamping: s first (0 when the segments
// are parallel, A E - B^2 = 0), then t from s; if t left [0, 1] it is clamped and s recomputed
// as the best for that t, s = (B t - c) / A, clamped. A degenerate segment (length^2 below
// 1e-12) counts as its first point.
CLOTH_FN void segmentClosest(vec3 p0, vec3 p1, vec3 q0, vec3 q1, CLOTH_OUT(float) s,
                             CLOTH_OUT(float) t) {
    vec3 d1 = p1 - p0;
    vec3 d2 = q1 - q0;
    vec3 r = p0 - q0;
    float A = meshDot(d1, d1);
    float E = meshDot(d2, d2);
    float f = meshDot(d2, r);
    const float tiny = 1e-12f;
    s = 0.0f;
    t = 0.0f;
    if (A <= tiny && E <= tiny) return;
    if (A <= tiny) {
        t = clamp(f / E, 0.0f, 1.0f);
        return;
    }
    float c = meshDot(d1, r);
    if (E <= tiny) {
        s = clamp(-c / A, 0.0f, 1.0f);
        return;
    }
    float B = meshDot(d1, d2);
    float denom = A * E - B * B;
    s = denom > 0.0f ? clamp((B * f - c * E) / denom, 0.0f, 1.0f) : 0.0f;
    t = (B * s + f) / E;
    if (t < 0.0f) {
        t = 0.0f;
        s = clamp(-c / A, 0.0f, 1.0f);
    } else if (t > 1.0f) {
        t = 1.0f;
        s = clamp((B - c) / A, 0.0f, 1.0f);
    }
}

// Friction at the contact point (the collider's frame, where the feature stands still): the
// point's displacement over the substep, rel = c(now) - c(start) with the same weights, loses its
// tangential part rt = rel - n (n . rel) when |rt| <= muS N (static; N = -C, this projection's
// normal correction), else up to muK N of it (kinetic). Returns the point's whole correction:
// the normal one, n N, plus the friction's.
CLOTH_FN vec3 featureCorrection(vec3 n, float N, vec3 rel, float muS, float muK) {
    vec3 rt = rel - n * meshDot(n, rel);
    float len2 = meshDot(rt, rt);
    vec3 D = n * N;
    if (len2 > TINY_LENGTH2) {
        float len = sqrt(len2);
        if (len <= muS * N)
            D -= rt;
        else
            D -= rt * (min(len, muK * N) / len);
    }
    return D;
}

// Corner p against the cloth triangle y (now) / z (at the substep's start), inverse masses w,
// friction muS, muK: adds each vertex's correction to acc_i.xyz and 1 to acc_i.w when the
// contact acts.
CLOTH_FN void cornerTriangleContact(vec3 p, vec3 y0, vec3 y1, vec3 y2, vec3 z0, vec3 z1, vec3 z2,
                                    vec3 w, float h, float muS, float muK, CLOTH_INOUT(vec4) acc0,
                                    CLOTH_INOUT(vec4) acc1, CLOTH_INOUT(vec4) acc2) {
    vec3 e1 = y1 - y0;
    vec3 e2 = y2 - y0;
    vec3 m = meshCross(e1, e2);
    float m2 = meshDot(m, m);
    if (!(m2 > 1e-20f)) return;
    vec3 v = p - y0;
    // v = b1 e1 + b2 e2 + (normal part): (v x e2).m = b1 |m|^2, (e1 x v).m = b2 |m|^2.
    float b1 = meshDot(meshCross(v, e2), m) / m2;
    float b2 = meshDot(meshCross(e1, v), m) / m2;
    float b0 = 1.0f - b1 - b2;
    if (b0 < 0.0f || b1 < 0.0f || b2 < 0.0f) return;
    vec3 n = m * (1.0f / sqrt(m2));
    float height = meshDot(v, n);  // n.(p - c), as c - y0 lies in the plane
    vec3 m0 = meshCross(z1 - z0, z2 - z0);
    float side = meshDot(p - z0, m0) >= 0.0f ? 1.0f : -1.0f;
    float C = side * height - h;
    if (C >= 0.0f) return;
    float W = w.x * b0 * b0 + w.y * b1 * b1 + w.z * b2 * b2;
    if (!(W > 0.0f)) return;
    // The cloth point moves by n_out (-C), n_out = -side n pointing away from the corner:
    // dx_i = w_i b_i (that) / W, which is w_i grad_i C dLambda.
    vec3 rel = (y0 * b0 + y1 * b1 + y2 * b2) - (z0 * b0 + z1 * b1 + z2 * b2);
    vec3 k = featureCorrection(n * (-side), -C, rel, muS, muK) * (1.0f / W);
    acc0 += vec4(k * (w.x * b0), 1.0f);
    acc1 += vec4(k * (w.y * b1), 1.0f);
    acc2 += vec4(k * (w.z * b2), 1.0f);
}

// Mesh edge (a, b) against the cloth edge y0 y1 (now) / z0 z1 (at the start), inverse masses
// w0, w1, friction muS, muK.
CLOTH_FN void edgeEdgeContact(vec3 a, vec3 b, vec3 y0, vec3 y1, vec3 z0, vec3 z1, float w0,
                              float w1, float h, float muS, float muK, CLOTH_INOUT(vec4) acc0,
                              CLOTH_INOUT(vec4) acc1) {
    float s, t;
    segmentClosest(y0, y1, a, b, s, t);
    vec3 d = (y0 + (y1 - y0) * s) - (a + (b - a) * t);
    float s0, t0;
    segmentClosest(z0, z1, a, b, s0, t0);
    vec3 d0 = (z0 + (z1 - z0) * s0) - (a + (b - a) * t0);
    float len2 = meshDot(d, d);
    vec3 n;
    float dist;
    if (len2 > MESH_TOUCH_DISTANCE2) {
        float len = sqrt(len2);
        float side = meshDot(d, d0) >= 0.0f ? 1.0f : -1.0f;
        n = d * (side / len);
        dist = side * len;
    } else {
        float len02 = meshDot(d0, d0);
        if (!(len02 > MESH_TOUCH_DISTANCE2)) return;  // touching now and then: no direction
        n = d0 * (1.0f / sqrt(len02));
        dist = meshDot(d, n);
    }
    float C = dist - h;
    if (C >= 0.0f) return;
    float g0 = 1.0f - s;
    float W = w0 * g0 * g0 + w1 * s * s;
    if (!(W > 0.0f)) return;
    // The cloth point c moves by n (-C) plus friction: dx_i = w_i grad_i (that) / W.
    vec3 rel = (y0 * g0 + y1 * s) - (z0 * g0 + z1 * s);
    vec3 k = featureCorrection(n, -C, rel, muS, muK) * (1.0f / W);
    acc0 += vec4(k * (w0 * g0), 1.0f);
    acc1 += vec4(k * (w1 * s), 1.0f);
}

// Does the box [lo, hi] overlap node k's box?
CLOTH_FN bool meshNodeOverlaps(MeshNode k, vec3 lo, vec3 hi) {
    return k.minX <= hi.x && k.minY <= hi.y && k.minZ <= hi.z && k.maxX >= lo.x && k.maxY >= lo.y &&
           k.maxZ >= lo.z;
}

// Per cloth triangle (PreparedCloth::triangleFeatureInfo): bit e (0..2) set when it owns its
// edge e (x0x1, x1x2, x2x0); its cloth segment from bit TRIANGLE_SEGMENT_SHIFT up.
const uint TRIANGLE_SEGMENT_SHIFT = 8u;

// What a vertex moves by, from the sum of its triangles' sums (xyz correction, w count): their
// mean, with w = 1; zero when no contact touched it.
CLOTH_FN vec4 featureMean(vec4 sum) {
    if (!(sum.w > 0.0f)) return vec4(0.0f);
    return vec4(vec3(sum) / sum.w, 1.0f);
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_FEATURE_CONTACTS_H

// ---- the walk: needs the node and feature arrays (C++ passes them; shaders declare the
// buffers meshNodes[] and meshFeatures[] and include this with CLOTH_HAS_FEATURES defined) ----
#if (defined(__cplusplus) || defined(CLOTH_HAS_FEATURES)) && !defined(CLOTH_KERNELS_FEATURE_WALK)
#define CLOTH_KERNELS_FEATURE_WALK
#ifdef __cplusplus
#define CLOTH_FEATURE_PARAMS const MeshNode *meshNodes, const MeshFeature *meshFeatures,
#define CLOTH_FEATURE_ARGS meshNodes, meshFeatures,
#else
#define CLOTH_FEATURE_PARAMS
#define CLOTH_FEATURE_ARGS
#endif
CLOTH_NAMESPACE_BEGIN

// One cloth triangle (x_i now, world, w = inverse mass; s_i at the substep's start) against the
// sharp features of collider c (at pose p1 now, p0 at the start): every corner against the
// triangle and every sharp edge against the triangle's own edges (`ownedEdges`), found by a walk
// of the features' hierarchy with the box of the triangle's local corners then and now, grown
// by h (a feature outside it is more than h from the triangle now and did not cross it). Adds
// the corrections (world space) and contact counts to acc_i.
CLOTH_FN void featureContacts(CLOTH_FEATURE_PARAMS CLOTH_IN(Collider) c, CLOTH_IN(ColliderPose) p1,
                              CLOTH_IN(ColliderPose) p0, vec4 x0, vec4 x1, vec4 x2, vec3 s0,
                              vec3 s1, vec3 s2, uint ownedEdges, float h, CLOTH_INOUT(vec4) acc0,
                              CLOTH_INOUT(vec4) acc1, CLOTH_INOUT(vec4) acc2) {
    if (c.shape != SHAPE_MESH || c.featureNode == MESH_NO_HINT) return;
    vec3 y0 = poseToLocal(p1, vec3(x0));
    vec3 y1 = poseToLocal(p1, vec3(x1));
    vec3 y2 = poseToLocal(p1, vec3(x2));
    vec3 z0 = poseToLocal(p0, s0);
    vec3 z1 = poseToLocal(p0, s1);
    vec3 z2 = poseToLocal(p0, s2);
    vec3 lo = min(min(min(y0, y1), min(y2, z0)), min(z1, z2)) - vec3(h);
    vec3 hi = max(max(max(y0, y1), max(y2, z0)), max(z1, z2)) + vec3(h);
    vec3 w = vec3(x0.w, x1.w, x2.w);
    float muS = c.staticFriction;
    float muK = c.kineticFriction;
    vec4 l0 = vec4(0.0f);
    vec4 l1 = vec4(0.0f);
    vec4 l2 = vec4(0.0f);
    uint stack[MESH_STACK_SIZE];
    uint top = 0u;
    uint node = c.featureNode;
    bool walking = meshNodeOverlaps(meshNodes[node], lo, hi);
    while (walking) {
        uint first = meshNodes[node].first;
        uint second = meshNodes[node].second;
        bool descend = false;
        if ((second & MESH_LEAF) != 0u) {
            uint end = first + (second & ~MESH_LEAF);
            for (uint f = first; f < end; ++f) {
                vec3 a = vec3(meshFeatures[f].a);
                if (meshFeatures[f].a.w == MESH_FEATURE_IS_CORNER) {
                    cornerTriangleContact(a, y0, y1, y2, z0, z1, z2, w, h, muS, muK, l0, l1, l2);
                } else {
                    vec3 b = vec3(meshFeatures[f].b);
                    if ((ownedEdges & 1u) != 0u)
                        edgeEdgeContact(a, b, y0, y1, z0, z1, w.x, w.y, h, muS, muK, l0, l1);
                    if ((ownedEdges & 2u) != 0u)
                        edgeEdgeContact(a, b, y1, y2, z1, z2, w.y, w.z, h, muS, muK, l1, l2);
                    if ((ownedEdges & 4u) != 0u)
                        edgeEdgeContact(a, b, y2, y0, z2, z0, w.z, w.x, h, muS, muK, l2, l0);
                }
            }
        } else {
            bool inFirst = meshNodeOverlaps(meshNodes[first], lo, hi);
            bool inSecond = meshNodeOverlaps(meshNodes[second], lo, hi);
            // The builder bounds the depth (MESH_STACK_SIZE); the test keeps memory safe.
            if (inFirst && inSecond && top < MESH_STACK_SIZE) {
                stack[top] = second;
                top += 1u;
            }
            if (inFirst || inSecond) {
                node = inFirst ? first : second;
                descend = true;
            }
        }
        if (!descend) {
            walking = top > 0u;
            if (walking) {
                top -= 1u;
                node = stack[top];
            }
        }
    }
    if (l0.w > 0.0f) acc0 += vec4(poseDirection(p1, vec3(l0)), l0.w);
    if (l1.w > 0.0f) acc1 += vec4(poseDirection(p1, vec3(l1)), l1.w);
    if (l2.w > 0.0f) acc2 += vec4(poseDirection(p1, vec3(l2)), l2.w);
}

CLOTH_NAMESPACE_END
#endif

// ---- C++ only: the three passes' items over the host's arrays, as contacts.glsl runs them
// (the CPU reference and the serial test reference share these) ----
#if defined(__cplusplus) && !defined(CLOTH_KERNELS_FEATURE_PASSES)
#define CLOTH_KERNELS_FEATURE_PASSES
CLOTH_NAMESPACE_BEGIN

// CONTACT_FEATURES: triangle i (corners tri) against every collider's features; pos: positions,
// contacts: the vertices' contact states (their start), poses1/0: the colliders' poses at the
// substep's end and start; sums: 3 per triangle.
inline void featureTrianglePass(const MeshNode* meshNodes, const MeshFeature* meshFeatures,
                                const Collider* colliders, uint colliderCount,
                                const ColliderPose* poses1, const ColliderPose* poses0,
                                const vec4* pos, const ContactState* contacts, uvec3 tri, uint info,
                                float h, vec4* sums) {
    vec4 a0(0.0f), a1(0.0f), a2(0.0f);
    for (uint k = 0; k < colliderCount; ++k) {
        const Collider& c = colliders[k];
        if (c.shape != SHAPE_MESH || c.featureNode == MESH_NO_HINT) continue;
        featureContacts(meshNodes, meshFeatures, c, poses1[k], poses0[k], pos[tri.x], pos[tri.y],
                        pos[tri.z], vec3(contacts[tri.x].start), vec3(contacts[tri.y].start),
                        vec3(contacts[tri.z].start), info, h, a0, a1, a2);
    }
    sums[0] = a0;
    sums[1] = a1;
    sums[2] = a2;
}

// CONTACT_FEATURE_MOVE: vertex v's mean over its triangles (CSR offsets / vertexTriangles),
// applied to x; returns it (w = 1 when it moved the vertex or would have, 0 when untouched).
inline vec4 featureMovePass(const uint* offsets, const uint* vertexTriangles, const uvec3* tris,
                            const vec4* sums, uint v) {
    vec4 sum(0.0f);
    for (uint k = offsets[v]; k < offsets[v + 1]; ++k) {
        const uint t = vertexTriangles[k];
        const uint corner = tris[t].x == v ? 0u : (tris[t].y == v ? 1u : 2u);
        sum += sums[3 * t + corner];
    }
    return featureMean(sum);
}

CLOTH_NAMESPACE_END
#endif
