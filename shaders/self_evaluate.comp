// Every substep (sim/self_phases.h's Evaluate and Compact; src/vk/self/): each candidate tested
// with the positions at the substep's start and predicted, its slot holding the contact or none,
// a pair that stays a contact keeping its side, and its separating plane (kernels/self_motion.h);
// each rest pair's plane; then per original vertex the slots of its contacts and the least of
// its pairs' budgets. The same as src/cpu/self/contacts.cpp.
#version 450
#extension GL_GOOGLE_include_directive : require

#include "self/buffers.glsl"
#include "kernels/self_motion.h"

vec2 moveOf(uint v, bool fresh) {
    vec4 m = movesOf(v);
    return fresh ? vec2(m.z, m.w) : vec2(m.x, m.y);
}

// The pair's budgets from its direction at the start (kernels/self_motion.h's separating
// planes), its conflict counted.
vec2 pairPlane(SelfCandidate cand, vec4 dir) {
    uvec4 v = cand.vertices;
    vec3 n = vec3(dir);
    float approach = selfApproach(cand.kind, n, vec3(predicted[v.x]) - vec3(start[v.x]),
                                  vec3(predicted[v.y]) - vec3(start[v.y]),
                                  vec3(predicted[v.z]) - vec3(start[v.z]),
                                  vec3(predicted[v.w]) - vec3(start[v.w]));
    if (selfPairConflict(dir.w, approach, cand.keep)) atomicAdd(state.conflicts, 1u);
    return selfPairBudgets(dir.w, approach, cand.keep);
}

void jobEvaluateRest() {
    uint r = linearIndex();
    if (r >= state.restPairs) return;
    vec4 dir = selfCandidateDirection(restPairs[r]);
    vec2 budgets = pairPlane(restPairs[r], dir);
    restPlaneDir(r) = dir;
    restPlaneBudgets(r) = vec4(budgets, 0.0, 0.0);
}

void jobEvaluate() {
    uint c = linearIndex();
    if (c >= state.candidates) return;
    SelfCandidate cand = candidates[c];
    uvec4 v = cand.vertices;
    bool fresh = state.detect != 0u;
    slotWeights(c) = vec4(0.0);
    planeBudgets(c) = vec4(SELF_NO_BOUND);
    vec4 gaps = candGaps(c);
    if (selfCandidateSkipped(cand.kind, vec2(gaps.x, gaps.y), moveOf(v.x, fresh),
                             moveOf(v.y, fresh), moveOf(v.z, fresh), moveOf(v.w, fresh),
                             cand.keep, state.margin, state.shift, state.startShift.w)) {
        candSide(c) = vec4(0.0);
        return;
    }
    atomicAdd(state.evaluated, 1u);
    vec4 dir;
    SelfContact k;
    bool contact = selfCandidateEvaluate(cand, state.margin, dir, k);
    planeBudgets(c) = vec4(pairPlane(cand, dir), 0.0, 0.0);
    planeDir(c) = dir;
    if (!contact) {
        candSide(c) = vec4(0.0);
        return;
    }
    // A detection's candidates are new: the side a contact had comes from the memory.
    vec4 side = state.detect != 0u ? selfRememberedSide(cand, state.memoryBits) : candSide(c);
    candSide(c) = selfKeepSide(side, k);
    slotWeights(c) = k.weights;
    slotNormal(c) = k.normal;
    atomicAdd(state.contacts, 1u);
}

void jobCompact() {
    uint v = linearIndex();
    if (v >= state.vertices) return;
    uint first = listOffset(v);
    uint n = 0u;
    vec2 least = vec2(SELF_NO_BOUND);
    for (uint k = first; k < listOffset(v + 1u); ++k) {
        uint slot = listSlot(k);
        least = lessOf(least, vec2(planeBudgets(slot >> 2u)));
        if (slotWeights(slot >> 2u).x > 0.0) {
            activeSlot(first + n) = slot;
            n += 1u;
        }
    }
    for (uint k = restPairLists[v]; k < restPairLists[v + 1u]; ++k)
        least = lessOf(least, vec2(restPlaneBudgets(restPairLists[state.vertices + 1u + k])));
    leastOf(v) = vec4(least, 0.0, 0.0);
    activeCount(v) = n;
    if (n > 0u) atomicMax(state.mostVertexContacts, n);
}

void main() {
    switch (pc.job) {
        case SELF_JOB_EVALUATE: jobEvaluate(); break;
        case SELF_JOB_COMPACT: jobCompact(); break;
        case SELF_JOB_EVALUATE_REST: jobEvaluateRest(); break;
    }
}
