// A stable least-significant-digit radix sort of 32-bit keys by blocks, one 8-bit digit a pass,
// as the CPU reference sorts (src/prep/lbvh.h): per pass, radixCount (per block, how many of its
// items have each digit), an exclusive prefix sum over the histogram in bucket-major order
// (block_scan.glsl), then radixScatter (per block, its items in order to their places).
// Each invocation takes one block of RADIX_BLOCK items.
//
// The includer defines, before including this file:
//   RADIX_BLOCK                              items per block (a constant)
//   uint radixKey(uint k)                    the key of the k-th item of the pass's input
//   uint radixHistogram(uint i)              the histogram, bucket * blocks + block
//   void setRadixHistogram(uint i, uint v)
//   void radixMove(uint from, uint to, uint key)   the item `from` of the input to `to` of the
//                                                 output (the key and what it carries)
#ifndef CLOTH_LIB_RADIX_SORT_GLSL
#define CLOTH_LIB_RADIX_SORT_GLSL

const uint RADIX_BUCKETS = 256u;

// Block `block` of `blocks` over `count` items: its digit counts at `shift`.
void radixCount(uint block, uint blocks, uint count, uint shift) {
    if (block >= blocks) return;
    uint counts[RADIX_BUCKETS];
    for (uint d = 0u; d < RADIX_BUCKETS; ++d) counts[d] = 0u;
    uint end = min(count, (block + 1u) * RADIX_BLOCK);
    for (uint k = block * RADIX_BLOCK; k < end; ++k) counts[(radixKey(k) >> shift) & 255u] += 1u;
    for (uint d = 0u; d < RADIX_BUCKETS; ++d) setRadixHistogram(d * blocks + block, counts[d]);
}

// Block `block`: its items, in order, to the places the scanned histogram gives (stable).
void radixScatter(uint block, uint blocks, uint count, uint shift) {
    if (block >= blocks) return;
    uint next[RADIX_BUCKETS];
    for (uint d = 0u; d < RADIX_BUCKETS; ++d) next[d] = radixHistogram(d * blocks + block);
    uint end = min(count, (block + 1u) * RADIX_BLOCK);
    for (uint k = block * RADIX_BLOCK; k < end; ++k) {
        uint key = radixKey(k);
        uint d = (key >> shift) & 255u;
        uint slot = next[d];
        next[d] = slot + 1u;
        radixMove(k, slot, key);
    }
}

#endif
