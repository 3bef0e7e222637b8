// Self-collision's motion check (sim/self_phases.h's Motion; src/vk/self/): the substep's
// start, the intervals of translations that keep every vertex within its bound (at the start
// and predicted: kernels/self_motion.h's per-vertex bounds), each vertex's fresh bound and moves,
// and the decision: a detection or not, with the sizes of its dispatches. The same values as
// src/cpu/self/candidates.cpp's motion().
#version 450
#extension GL_GOOGLE_include_directive : require

#include "self/buffers.glsl"
#include "kernels/self_motion.h"

// The ranges of one item (vec4 each, w unused): the starts' intervals of translations (lo: the
// largest displacement less bound, hi: the least displacement plus bound), the predictions',
// and the largest coordinate.
const uint RANGE = SELF_MOTION_RANGES;
shared vec4 sharedRange[gl_WorkGroupSize.x * RANGE];

uint levelItems(uint k) { return levelItemsOf(state.partials, k); }
uint motionBase(uint k) { return motionLevelBase(k); }

void identity(out vec4 r[RANGE]) {
    const float inf = 1.0 / 0.0;
    for (uint k = 0u; k < 4u; k += 2u) {
        r[k] = vec4(-inf);
        r[k + 1u] = vec4(inf);
    }
    r[4] = vec4(0.0);
}

void combine(inout vec4 r[RANGE], vec4 o[RANGE]) {
    for (uint k = 0u; k < 4u; k += 2u) {
        r[k] = vec4(moreOf(vec3(r[k]), vec3(o[k])), 0.0);
        r[k + 1u] = vec4(lessOf(vec3(r[k + 1u]), vec3(o[k + 1u])), 0.0);
    }
    r[4] = vec4(moreOf(vec3(r[4]), vec3(o[4])), 0.0);
}

// The workgroup's ranges folded by its first invocation, in invocation order (exact min and
// max: the same as any order), written at `at` unless `top`; returned to the first invocation.
void foldWorkgroup(vec4 r[RANGE], uint at, bool write, out vec4 all[RANGE]) {
    uint l = gl_LocalInvocationID.x;
    for (uint k = 0u; k < RANGE; ++k) sharedRange[l * RANGE + k] = r[k];
    barrier();
    identity(all);
    if (l != 0u) return;
    for (uint i = 0u; i < gl_WorkGroupSize.x; ++i) {
        vec4 o[RANGE];
        for (uint k = 0u; k < RANGE; ++k) o[k] = sharedRange[i * RANGE + k];
        combine(all, o);
    }
    if (write)
        for (uint k = 0u; k < RANGE; ++k) work[at + k] = all[k];
}

void jobStart() {
    uint v = linearIndex();
    if (v < state.allVertices) start[v] = positions[v];
}

void jobFold() {
    uint v = gl_GlobalInvocationID.x;
    vec4 r[RANGE];
    identity(r);
    if (v < state.vertices) {
        vec3 s = vec3(start[v]);
        vec3 q = vec3(predicted[v]);
        if (state.detections != 0u) {
            vec4 x = detectedOf(v);
            vec3 d = vec3(x);
            r[0] = vec4(s - d - x.w, 0.0);
            r[1] = vec4(s - d + x.w, 0.0);
            r[2] = vec4(q - d - x.w, 0.0);
            r[3] = vec4(q - d + x.w, 0.0);
        }
        r[4] = vec4(moreOf(abs(s), abs(q)), 0.0);
    }
    vec4 all[RANGE];
    foldWorkgroup(r, motionBase(0u) + RANGE * gl_WorkGroupID.x, true, all);
}

// Level pc.level's blocks of SELF_SCAN_BLOCK into level pc.level + 1; at the top (pc.array 1,
// one workgroup) the whole intersection, then the translations, the slack and whether an
// interval is empty (as src/cpu/self/candidates.cpp's motion()).
void jobReduce() {
    uint k = pc.level;
    bool top = pc.array != 0u;
    uint b = gl_WorkGroupID.x;
    uint n = levelItems(k);
    if (b * SELF_SCAN_BLOCK >= n && !top) return;  // (the whole workgroup)
    uint per = (SELF_SCAN_BLOCK + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
    uint blockEnd = min(n, (b + 1u) * SELF_SCAN_BLOCK);
    uint first = min(blockEnd, b * SELF_SCAN_BLOCK + gl_LocalInvocationID.x * per);
    uint end = min(blockEnd, first + per);
    vec4 r[RANGE];
    identity(r);
    uint base = motionBase(k);
    for (uint i = first; i < end; ++i) {
        vec4 o[RANGE];
        for (uint j = 0u; j < RANGE; ++j) o[j] = work[base + RANGE * i + j];
        combine(r, o);
    }
    vec4 all[RANGE];
    foldWorkgroup(r, motionBase(k + 1u) + RANGE * b, !top, all);
    if (!top || gl_LocalInvocationID.x != 0u) return;
    vec3 slo = vec3(all[0]);
    vec3 shi = vec3(all[1]);
    vec3 qlo = vec3(all[2]);
    vec3 qhi = vec3(all[3]);
    float slack = selfSlack(vec3(all[4]));
    vec3 ts = selfTranslation(slo, shi);
    vec3 tq = selfTranslation(qlo, qhi);
    state.startShift = vec4(ts, slack);
    state.predShift = vec4(tq, selfShift(ts, tq));
    bool empty = state.detections != 0u && (selfShiftEmpty(slo, shi) || selfShiftEmpty(qlo, qhi));
    state.outside = uvec4(empty ? 1u : 0u, 0u, 0u, 0u);
}

// A detection when there has been none, with EverySubstep, when an interval of translations
// is empty or a position is not finite (MOTION_REDUCE's and MOTION_CHECK's count); then its
// gated dispatches' sizes. One invocation, after every vertex's check.
void decide() {
    uint o = atomicOr(state.outside.x, 0u);
    bool detect = state.detections == 0u || o > 0u || state.everySubstep != 0u;
    state.clampedTotal += state.clamped;
    state.clamped = 0u;
    state.detect = detect ? 1u : 0u;
    state.contacts = 0u;
    state.evaluated = 0u;
    state.mostVertexContacts = 0u;
    state.conflicts = 0u;
    for (uint k = 0u; k < SELF_GATES; ++k) state.gate[k] = detect ? state.gateSizes[k] : uvec4(0u);
    state.detectCandidateGroups = uvec4(0u);
    state.placeGroups = uvec4(0u);
    state.longListGroups = uvec4(0u, 1u, 1u, 0u);
    state.shift = detect ? selfShift(vec3(0.0), vec3(0.0)) : state.predShift.w;
    if (!detect) {
        state.oldCandidateGroups = uvec4(0u);
        return;
    }
    state.detections += 1u;
    state.frameDetections += 1u;
    state.oldCandidateGroups = selfGroups2D(state.candidates, gl_WorkGroupSize.x);
    state.pairs = 0u;
    state.tested = 0u;
    state.walkNodes = 0u;
    state.poolChunks = 0u;
}

shared bool lastGroup;

// Each position that is not finite (counted), each vertex's fresh bound, and its moves for the
// candidates' test, from the detection that holds (xy) and from a fresh one at this substep's
// start (zw). The workgroup
// that finishes last (a counter of finished workgroups, each after its own counts) decides:
// the same decision whichever it is.
void jobCheck() {
    uint v = linearIndex();
    if (v < state.vertices) {
        vec3 s = vec3(start[v]);
        vec3 q = vec3(predicted[v]);
        vec4 x = detectedOf(v);
        vec3 ts = vec3(state.startShift);
        vec3 tq = vec3(state.predShift);
        float slack = state.startShift.w;
        if (!selfFinite(s, q)) atomicAdd(state.outside.x, 1u);
        freshOf(v) = vec4(s, selfFreshVertexBound(q - s, state.minBound));
        movesOf(v) = vec4(selfVertexMoves(s, q, vec3(x), ts, tq, slack),
                          selfVertexMoves(s, q, s, vec3(0.0), vec3(0.0), slack));
    }
    memoryBarrierBuffer();
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
        lastGroup = atomicAdd(state.checkDone, 1u) == groups - 1u;
    }
    barrier();
    if (!lastGroup || gl_LocalInvocationID.x != 0u) return;
    memoryBarrierBuffer();
    state.checkDone = 0u;
    decide();
}

void main() {
    switch (pc.job) {
        case SELF_JOB_START: jobStart(); break;
        case SELF_JOB_MOTION_FOLD: jobFold(); break;
        case SELF_JOB_MOTION_REDUCE: jobReduce(); break;
        case SELF_JOB_MOTION_CHECK: jobCheck(); break;
    }
}
