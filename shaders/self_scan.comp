// Self-collision's prefix sums (src/vk/self/), by levels (lib/block_scan.glsl), over the array
// pc.array: the radix sort's histograms, the walk's counts per sorted triangle (then the
// candidates' total and the dispatches over them and over the pool's chunks), or the vertices'
// list counts (then the lists' offsets and cursors). Integer sums: the offsets of one serial loop.
#version 450
#extension GL_GOOGLE_include_directive : require

#include "self/buffers.glsl"

uint scanCount() {
    if (pc.array == SELF_SCAN_SORT) return SELF_SORT_BUCKETS * pc.blocks;  // bucket-major
    if (pc.array == SELF_SCAN_GATHER) return state.triangles;
    return state.vertices;
}

uint scanGet(uint i) {
    if (pc.array == SELF_SCAN_SORT) return histogram(i);
    if (pc.array == SELF_SCAN_GATHER) return walkCount(i);
    return listCount(i);
}

void scanSet(uint i, uint offset) {
    if (pc.array == SELF_SCAN_SORT) {
        histogram(i) = offset;
    } else if (pc.array == SELF_SCAN_GATHER) {
        walkCount(i) = offset;
    } else {
        listOffset(i) = offset;
        listCount(i) = offset;  // the cursor
    }
}

uint scanSum(uint j) { return ints[scanSumsBase() + j]; }
void setScanSum(uint j, uint v) { ints[scanSumsBase() + j] = v; }

#define SCAN_BLOCK SELF_SCAN_BLOCK
#include "lib/block_scan.glsl"

void jobScanTop() {
    uint sum = scanApply(pc.level, true);
    if (gl_LocalInvocationID.x != 0u) return;
    if (pc.array == SELF_SCAN_GATHER) {
        state.gathered = sum;
        state.mostGathered = max(state.mostGathered, sum);
        state.candidates = min(sum, state.capacity);
        state.candidateGroups = selfGroups2D(state.candidates, gl_WorkGroupSize.x);
        state.detectCandidateGroups = state.candidateGroups;
        uint chunks = min(state.poolChunks, state.poolCapacity / SELF_POOL_CHUNK);
        state.placeGroups = selfGroups2D(chunks * SELF_POOL_CHUNK, gl_WorkGroupSize.x);
    } else if (pc.array == SELF_SCAN_LISTS) {
        listOffset(state.vertices) = sum;
    }
}

void main() {
    switch (pc.job) {
        case SELF_JOB_SCAN_BLOCKS: scanReduce(pc.level); break;
        case SELF_JOB_SCAN_TOP: jobScanTop(); break;
        case SELF_JOB_SCAN_APPLY: scanApply(pc.level, false); break;
    }
}
