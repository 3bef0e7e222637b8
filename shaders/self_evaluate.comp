// Every substep (sim/self_phases.h's Evaluate and Compact; src/vk/self/): each candidate tested
// with the positions at the substep's start and predicted, its slot holding the contact or none,
// a pair that stays a contact keeping its side; then per original vertex the slots of its
// contacts. The same as src/cpu/self/contacts.cpp.
#version 450
#extension GL_GOOGLE_include_directive : require

#include "self/buffers.glsl"
#include "kernels/self_motion.h"

vec2 moveOf(uint v, bool fresh) {
    vec4 m = movesOf(v);
    return fresh ? vec2(m.z, m.w) : vec2(m.x, m.y);
}

void jobEvaluate() {
    uint c = linearIndex();
    if (c >= state.candidates) return;
    SelfCandidate cand = candidates[c];
    uvec4 v = cand.vertices;
    bool fresh = state.detect != 0u;
    slotWeights(c) = vec4(0.0);
    vec4 gaps = candGaps(c);
    if (selfCandidateSkipped(cand.kind, vec2(gaps.x, gaps.y), moveOf(v.x, fresh),
                             moveOf(v.y, fresh), moveOf(v.z, fresh), moveOf(v.w, fresh),
                             cand.keep, state.margin, state.shift, state.startShift.w)) {
        candSide(c) = vec4(0.0);
        return;
    }
    atomicAdd(state.evaluated, 1u);
    SelfContact k;
    if (!selfCandidateContact(cand, state.margin, k)) {
        candSide(c) = vec4(0.0);
        return;
    }
    candSide(c) = selfKeepSide(candSide(c), k);
    slotWeights(c) = k.weights;
    slotNormal(c) = k.normal;
    atomicAdd(state.contacts, 1u);
}

void jobCompact() {
    uint v = linearIndex();
    if (v >= state.vertices) return;
    uint first = listOffset(v);
    uint n = 0u;
    for (uint k = first; k < listOffset(v + 1u); ++k) {
        uint slot = listSlot(k);
        if (slotWeights(slot >> 2u).x > 0.0) {
            activeSlot(first + n) = slot;
            n += 1u;
        }
    }
    activeCount(v) = n;
    if (n > 0u) atomicMax(state.mostVertexContacts, n);
}

void main() {
    switch (pc.job) {
        case SELF_JOB_EVALUATE: jobEvaluate(); break;
        case SELF_JOB_COMPACT: jobCompact(); break;
    }
}
