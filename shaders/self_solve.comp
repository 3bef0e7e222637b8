// The contacts' passes and the clamp into the bounds (sim/self_phases.h's Pass and Clamp;
// src/vk/self/), as src/cpu/self/solve.cpp runs them: KEEP (where the passes start), per pass
// either PASS per colour of the vertex order or one JACOBI, and at the iteration's end CLAMP.
#version 450
#extension GL_GOOGLE_include_directive : require

#include "self/buffers.glsl"
#include "kernels/self_motion.h"
#include "kernels/self_solve.h"

void jobKeep() {
    uint v = linearIndex();
    if (v < state.vertices) snapOf(0u, v) = positions[v];
}

// Vertex v's phantom copies move by what it moved (d).
void moveCopies(uint v, vec3 d) {
    uint g = groupOf(v);
    if (g == ~0u) return;
    uint first = ints[phantomBase() + 2u * g];
    uint count = ints[phantomBase() + 2u * g + 1u];
    for (uint k = 1u; k < count; ++k) {
        uint c = ints[phantomMembersBase() + first + k];
        if (positions[c].w > 0.0) positions[c] += vec4(d, 0.0);
    }
}

// The vertex order, colour pc.level of pass pc.shift: invocation i takes vertex
// colourOrder(pc.blocks + i) (pc.count of them).
void jobPass() {
    uint i = linearIndex();
    if (i >= pc.count) return;
    uint colour = pc.level;
    uint from = pc.shift % 2u;
    uint cur = (pc.shift + 1u) % 2u;
    uint v = colourOrder(pc.blocks + i);
    vec4 x = snapOf(from, v);
    uint first = listOffset(v);
    uint n = activeCount(v);
    for (uint a = first; a < first + n; ++a) {
        uint slot = activeSlot(a);
        uint c = slot >> 2u;
        uint k = slot & 3u;
        uvec4 u = candidates[c].vertices;
        vec4 q[4];
        uint later = 0u;
        for (uint j = 0u; j < 4u; ++j) {
            bool done = colourOf(u[j]) < colour;
            q[j] = done ? snapOf(cur, u[j]) : snapOf(from, u[j]);
            later |= done ? 0u : 1u << j;
        }
        q[k] = x;
        vec3 d = selfVertexMove(slotWeights(c), slotNormal(c), q[0], q[1], q[2], q[3],
                                vec3(start[u.x]), vec3(start[u.y]), vec3(start[u.z]),
                                vec3(start[u.w]), k, later, state.muS, state.muK);
        x += vec4(d, 0.0);
    }
    snapOf(cur, v) = x;
    if (n == 0u) return;
    vec3 moved = vec3(x) - vec3(positions[v]);
    positions[v] = x;
    moveCopies(v, moved);
}

// The Jacobi order, pass pc.shift: each contact from where the pass found its vertices, the
// |g|-weighted mean of a vertex's corrections in slot order.
void jobJacobi() {
    uint v = linearIndex();
    if (v >= state.vertices) return;
    uint from = pc.shift % 2u;
    uint to = (pc.shift + 1u) % 2u;
    vec4 sum = vec4(0.0);
    uint first = listOffset(v);
    uint n = activeCount(v);
    for (uint a = first; a < first + n; ++a) {
        uint slot = activeSlot(a);
        uint c = slot >> 2u;
        uint k = slot & 3u;
        uvec4 u = candidates[c].vertices;
        SelfContact contact;
        contact.weights = slotWeights(c);
        contact.normal = slotNormal(c);
        vec4 d[4];
        selfContactCorrections(contact, snapOf(from, u.x), snapOf(from, u.y), snapOf(from, u.z),
                               snapOf(from, u.w), vec3(start[u.x]), vec3(start[u.y]),
                               vec3(start[u.z]), vec3(start[u.w]), state.muS, state.muK, d[0],
                               d[1], d[2], d[3]);
        sum += d[k];
    }
    vec4 x = snapOf(from, v);
    vec4 d = featureMean(sum);
    if (d.w > 0.0 && x.w > 0.0) x += vec4(vec3(d), 0.0);
    snapOf(to, v) = x;
    if (n == 0u) return;
    vec3 moved = vec3(x) - vec3(positions[v]);
    positions[v] = x;
    moveCopies(v, moved);
}

// Every vertex that can move, phantom copies with their original: its deviation from its
// reference (its prediction, or its start when some pair conflicts) cut to at most the cap
// gamma reach, and so that it turns towards no pair's other primitive by more than the pair's
// budget (kernels/self_motion.h's separating planes), as src/cpu/self/solve.cpp's clamp().
void jobClamp() {
    uint v = linearIndex();
    if (v >= state.allVertices) return;
    uint o = originalOf(v);
    vec4 p = positions[v];
    if (!(p.w > 0.0) || !(positions[o].w > 0.0)) return;
    bool own = state.conflicts == 0u;
    uint which = own ? 0u : 1u;
    vec3 ref = own ? vec3(predicted[v]) : vec3(start[v]);
    vec3 dev = vec3(p) - ref;
    float t = 1.0;
    float len2 = meshLength2(dev);
    float cap = SELF_BOUND_GAMMA * state.reach;
    float least = leastOf(o)[which];
    if (len2 <= least * least && len2 <= cap * cap) return;  // turns by no more
    if (!(len2 <= cap * cap)) t = cap / sqrt(len2);
    for (uint k = listOffset(o); k < listOffset(o + 1u); ++k) {
        uint slot = listSlot(k);
        uint c = slot >> 2u;
        vec4 budgets = planeBudgets(c);
        if (!(budgets.y < SELF_NO_BOUND)) continue;
        t = selfPlaneShare(t, vec3(planeDir(c)), budgets[which],
                           selfCornerSide(candidates[c].kind, slot & 3u), dev);
    }
    for (uint k = restPairLists[o]; k < restPairLists[o + 1u]; ++k) {
        uint r = restPairLists[state.vertices + 1u + k];
        SelfCandidate pair = restPairs[r];
        uint corner = 0u;
        while (corner < 3u && pair.vertices[corner] != o) ++corner;
        t = selfPlaneShare(t, vec3(restPlaneDir(r)), restPlaneBudgets(r)[which],
                           selfCornerSide(pair.kind, corner), dev);
    }
    if (t < 1.0) {
        positions[v] = vec4(ref + dev * t, p.w);
        atomicAdd(state.clamped, 1u);
    }
}

void main() {
    switch (pc.job) {
        case SELF_JOB_KEEP: jobKeep(); break;
        case SELF_JOB_PASS: jobPass(); break;
        case SELF_JOB_JACOBI: jobJacobi(); break;
        case SELF_JOB_CLAMP: jobClamp(); break;
    }
}
