// Self-collision's radix sort passes (src/vk/self/): SORT_COUNT and SORT_SCATTER of the Morton
// codes, as lib/radix_sort.glsl does them, one invocation per block of SELF_SORT_BLOCK. A kernel
// of its own: its per-invocation digit tables (2 KB) would otherwise be the private memory of
// every self-collision job, which llvmpipe allocates per workgroup.
#version 450
#extension GL_GOOGLE_include_directive : require

#include "self/buffers.glsl"

// The radix sort's hooks (lib/radix_sort.glsl): pc.flip 0 reads codes/order and writes
// codes2/order2, 1 the other way.
#define RADIX_BLOCK SELF_SORT_BLOCK
uint radixKey(uint k) { return pc.flip == 0u ? lbvhCodes[k] : lbvhCodes2(k); }
uint radixHistogram(uint i) { return histogram(i); }
void setRadixHistogram(uint i, uint v) { histogram(i) = v; }
void radixMove(uint from, uint to, uint key) {
    if (pc.flip == 0u) {
        lbvhCodes2(to) = key;
        lbvhOrder2(to) = lbvhOrder[from];
    } else {
        lbvhCodes[to] = key;
        lbvhOrder[to] = lbvhOrder2(from);
    }
}
#include "lib/radix_sort.glsl"

void main() {
    if (pc.job == SELF_JOB_SORT_COUNT)
        radixCount(gl_GlobalInvocationID.x, pc.blocks, state.triangles, pc.shift);
    else if (pc.job == SELF_JOB_SORT_SCATTER)
        radixScatter(gl_GlobalInvocationID.x, pc.blocks, state.triangles, pc.shift);
}
