// A self-contact's projection, and its shares in the passes' orders (docs/collisions.md,
// "Solving the contacts"; the constraint in kernels/self_contacts.h). Written once for C++ and
// GLSL.
#ifndef CLOTH_KERNELS_SELF_SOLVE_H
#define CLOTH_KERNELS_SELF_SOLVE_H

#include "kernels/common.h"
#include "kernels/feature_contacts.h"
#include "kernels/mesh_distance.h"
#include "kernels/self_contacts.h"

CLOTH_NAMESPACE_BEGIN

// One contact's projection from positions x (w = inverse mass) with s the positions at the
// substep's start: D / W, the change D of its relative point r = sum_k g_k x_k that lands it on
// C = 0 with friction (featureCorrection), over W = sum_k w_k g_k^2; vertex k moves by
// w_k g_k D / W (its share of the XPBD step). w = 1 when the contact acts (C < 0, W > 0), 0
// otherwise (and xyz = 0).
CLOTH_FN vec4 selfContactStep(vec4 g, vec4 normal, vec4 x0, vec4 x1, vec4 x2, vec4 x3, vec3 s0,
                              vec3 s1, vec3 s2, vec3 s3, float muS, float muK) {
    vec3 n = vec3(normal);
    vec3 r = vec3(x0) * g.x + vec3(x1) * g.y + vec3(x2) * g.z + vec3(x3) * g.w;
    float C = meshDot(n, r) - normal.w;
    if (!(C < 0.0f)) return vec4(0.0f);
    float W = x0.w * g.x * g.x + x1.w * g.y * g.y + x2.w * g.z * g.z + x3.w * g.w * g.w;
    if (!(W > 0.0f)) return vec4(0.0f);
    vec3 rel = (vec3(x0) - s0) * g.x + (vec3(x1) - s1) * g.y + (vec3(x2) - s2) * g.z +
               (vec3(x3) - s3) * g.w;
    return vec4(featureCorrection(n, -C, rel, muS, muK) * (1.0f / W), 1.0f);
}

// Vertex k's move in the vertex order (SelfCollisionSettings::Order::Vertex; docs/collisions.md):
// the vertices are coloured so that no two of a triangle share a colour, a pass moves them
// colour by colour, and vertex k of colour c sees its contact's other vertices where the colours
// before c left them. It takes its share of the change D of the contact's relative point over
// the vertices that have yet to move in this pass (`later`: bit j set when vertex j's colour is
// c or after), w_k g_k D / max(W_later, W / 2): an isolated contact lands on C = 0 once its last
// colour has moved (the shares of the XPBD step one after another), and no vertex takes more
// than twice its XPBD share (a triangle corner with a small weight g, last to move, would
// otherwise be asked for the whole of the contact).
CLOTH_FN vec3 selfVertexMove(vec4 g, vec4 normal, vec4 x0, vec4 x1, vec4 x2, vec4 x3, vec3 s0,
                             vec3 s1, vec3 s2, vec3 s3, uint k, uint later, float muS,
                             float muK) {
    vec3 n = vec3(normal);
    vec3 r = vec3(x0) * g.x + vec3(x1) * g.y + vec3(x2) * g.z + vec3(x3) * g.w;
    float C = meshDot(n, r) - normal.w;
    if (!(C < 0.0f)) return vec3(0.0f);
    vec4 wg2 = vec4(x0.w * g.x * g.x, x1.w * g.y * g.y, x2.w * g.z * g.z, x3.w * g.w * g.w);
    float W = wg2.x + wg2.y + wg2.z + wg2.w;
    if (!(W > 0.0f)) return vec3(0.0f);
    float Wl = ((later & 1u) != 0u ? wg2.x : 0.0f) + ((later & 2u) != 0u ? wg2.y : 0.0f) +
               ((later & 4u) != 0u ? wg2.z : 0.0f) + ((later & 8u) != 0u ? wg2.w : 0.0f);
    vec3 rel = (vec3(x0) - s0) * g.x + (vec3(x1) - s1) * g.y + (vec3(x2) - s2) * g.z +
               (vec3(x3) - s3) * g.w;
    float wk = k == 0u ? x0.w : (k == 1u ? x1.w : (k == 2u ? x2.w : x3.w));
    float gk = k == 0u ? g.x : (k == 1u ? g.y : (k == 2u ? g.z : g.w));
    return featureCorrection(n, -C, rel, muS, muK) * (wk * gk / max(Wl, 0.5f * W));
}

// One contact's projection: the corrections of its four vertices (x: now, w = inverse mass;
// s: at the substep's start) for a |g|-weighted mean (featureMean), w = |g_k| when the contact
// acts and 0 otherwise.
CLOTH_FN void selfContactCorrections(CLOTH_IN(SelfContact) c, vec4 x0, vec4 x1, vec4 x2, vec4 x3,
                                     vec3 s0, vec3 s1, vec3 s2, vec3 s3, float muS, float muK,
                                     CLOTH_OUT(vec4) d0, CLOTH_OUT(vec4) d1, CLOTH_OUT(vec4) d2,
                                     CLOTH_OUT(vec4) d3) {
    vec4 g = c.weights;
    vec4 step = selfContactStep(g, c.normal, x0, x1, x2, x3, s0, s1, s2, s3, muS, muK);
    vec3 k = vec3(step);
    vec4 a = abs(g) * step.w;
    d0 = vec4(k * (x0.w * g.x * a.x), a.x);
    d1 = vec4(k * (x1.w * g.y * a.y), a.y);
    d2 = vec4(k * (x2.w * g.z * a.z), a.z);
    d3 = vec4(k * (x3.w * g.w * a.w), a.w);
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_SELF_SOLVE_H
