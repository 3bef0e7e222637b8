// An exclusive prefix sum by blocks of SCAN_BLOCK items, in item order (integer sums: the
// offsets one serial loop gives): scanBlock (per block its sum), scanBlockSums (the blocks'
// sums turned into their offsets), scanApply (per block, its items' offsets). Every loop is at
// most SCAN_BLOCK long but scanBlockSums', which runs over the blocks.
//
// The includer defines, before including this file:
//   SCAN_BLOCK                            items per block (a constant)
//   uint scanGet(uint i)                  item i's count
//   void scanSet(uint i, uint offset)     item i's offset
//   uint blockSum(uint b)                 block b's sum, then its offset
//   void setBlockSum(uint b, uint v)
#ifndef CLOTH_LIB_BLOCK_SCAN_GLSL
#define CLOTH_LIB_BLOCK_SCAN_GLSL

// Block b of the n items: its sum.
void scanBlock(uint b, uint n) {
    if (b * SCAN_BLOCK >= n) return;
    uint end = min(n, (b + 1u) * SCAN_BLOCK);
    uint sum = 0u;
    for (uint i = b * SCAN_BLOCK; i < end; ++i) sum += scanGet(i);
    setBlockSum(b, sum);
}

// The blocks' sums of n items turned into offsets; returns the total. `complete` is false when
// the loop stopped before its end.
uint scanBlockSums(uint n, out bool complete) {
    uint blocks = (n + SCAN_BLOCK - 1u) / SCAN_BLOCK;
    uint sum = 0u;
    uint b = 0u;
    for (; b < blocks; ++b) {
        uint c = blockSum(b);
        setBlockSum(b, sum);
        sum += c;
    }
    complete = b >= blocks;
    return sum;
}

// Block b: its items' offsets, from the block's offset.
void scanApply(uint b, uint n) {
    if (b * SCAN_BLOCK >= n) return;
    uint end = min(n, (b + 1u) * SCAN_BLOCK);
    uint sum = blockSum(b);
    for (uint i = b * SCAN_BLOCK; i < end; ++i) {
        uint c = scanGet(i);
        scanSet(i, sum);
        sum += c;
    }
}

#endif
