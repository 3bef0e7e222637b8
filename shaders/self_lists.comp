// A detection's lists (sim/self_phases.h's Lists; src/vk/self/): per original vertex the slots
// (4 c + k) of its candidates, counted with atomic increments, their offsets scanned
// (shaders/self_scan.comp), placed by atomic cursors and each list then sorted (the same lists
// as src/cpu/self/candidates.cpp's for any order of the atomics); per vertex where the
// detection saw it and its bound (MOTION_CHECK's fresh ones, kernels/self_motion.h).
#version 450
#extension GL_GOOGLE_include_directive : require

#include "self/buffers.glsl"

void jobListCount() {
    uint c = linearIndex();
    if (c >= state.candidates) return;
    uvec4 v = candidates[c].vertices;
    atomicAdd(listCount(v.x), 1u);
    atomicAdd(listCount(v.y), 1u);
    atomicAdd(listCount(v.z), 1u);
    atomicAdd(listCount(v.w), 1u);
}

void jobListFill() {
    uint c = linearIndex();
    if (c >= state.candidates) return;
    uvec4 v = candidates[c].vertices;
    for (uint k = 0u; k < 4u; ++k) listSlot(atomicAdd(listCount(v[k]), 1u)) = 4u * c + k;
}

// Heap sort of listSlot[first, first + n): n log n steps at most (a list of a thousand slots
// stays far below llvmpipe's loop limit).
void siftDown(uint first, uint root, uint n) {
    for (uint step = 0u; step < 32u; ++step) {
        uint child = 2u * root + 1u;
        if (child >= n) return;
        if (child + 1u < n && listSlot(first + child) < listSlot(first + child + 1u)) child += 1u;
        if (listSlot(first + root) >= listSlot(first + child)) return;
        uint t = listSlot(first + root);
        listSlot(first + root) = listSlot(first + child);
        listSlot(first + child) = t;
        root = child;
    }
}

void sortList(uint first, uint n) {
    if (n < 2u) return;
    for (uint k = n / 2u; k > 0u; --k) siftDown(first, k - 1u, n);
    for (uint end = n - 1u; end > 0u; --end) {
        uint t = listSlot(first);
        listSlot(first) = listSlot(first + end);
        listSlot(first + end) = t;
        siftDown(first, 0u, end);
    }
}

void jobListSort() {
    uint v = linearIndex();
    if (v >= state.vertices) return;
    uint first = listOffset(v);
    uint end = listOffset(v + 1u);
    if (end - first > SELF_LIST_LONGEST) atomicOr(state.truncated, 4u);
    if (end - first <= SELF_LIST_LONG)
        sortList(first, end - first);
    else
        longList(atomicAdd(state.longListGroups.x, 1u)) = v;
    detectedOf(v) = freshOf(v);
}

// Workgroup g sorts long list g (LIST_SORT's queue) by a bitonic network over the next power of
// two N of its n slots, those past n standing for +infinity: in stage k the first step compares
// each i with its mirror in its block of k, the others i with i + j, every comparator putting the
// smaller at the lower place (one that reaches past n is a no-op). Each invocation takes its
// share of a step's N / 2 comparators; barriers between steps.
void jobListSortLong() {
    uint v = longList(gl_WorkGroupID.x);
    uint first = listOffset(v);
    uint n = min(listOffset(v + 1u) - first, SELF_LIST_LONGEST);
    uint N = 1u;
    while (N < n) N *= 2u;
    for (uint k = 2u; k <= N; k *= 2u) {
        for (uint j = k / 2u; j > 0u; j /= 2u) {
            for (uint t = gl_LocalInvocationID.x; t < N / 2u; t += gl_WorkGroupSize.x) {
                uint lo = (t / j) * 2u * j + t % j;
                uint hi = j == k / 2u ? (lo / k) * k + k - 1u - lo % k : lo + j;
                if (hi >= n) continue;
                uint a = listSlot(first + lo);
                uint b = listSlot(first + hi);
                if (b < a) {
                    listSlot(first + lo) = b;
                    listSlot(first + hi) = a;
                }
            }
            memoryBarrierBuffer();
            barrier();
        }
    }
}

void main() {
    switch (pc.job) {
        case SELF_JOB_LIST_SORT_LONG: jobListSortLong(); break;
        case SELF_JOB_LIST_COUNT: jobListCount(); break;
        case SELF_JOB_LIST_FILL: jobListFill(); break;
        case SELF_JOB_LIST_SORT: jobListSort(); break;
    }
}
