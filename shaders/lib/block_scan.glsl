// An exclusive prefix sum of n items in item order (integer sums: the offsets one serial loop
// gives), by workgroups over blocks of SCAN_BLOCK items, level by level, so that no invocation
// loops more than SCAN_BLOCK / (workgroup size) times and every dispatch has one workgroup per
// block of what it scans:
//   level 0 is the n items; level k + 1 holds level k's block sums (ceil(n_k / SCAN_BLOCK) of
//   them); the top level is the first with at most SCAN_BLOCK items.
//   up:   scanReduce(k) for k = 0 .. top - 1: per block of level k, its sum into level k + 1;
//   top:  scanApply(top, true): one workgroup (at most SCAN_BLOCK items, whatever n), the top
//         level's items replaced by their offsets from 0 (returns the total);
//   down: scanApply(k, false) for k = top - 1 .. 0: per block of level k, its items replaced by
//         their offsets from the block's own (level k + 1's item, an offset by then).
// Used by one workgroup per block (gl_WorkGroupID.x), all of its invocations (barriers inside).
//
// The includer defines, before including this file:
//   SCAN_BLOCK                             items per block (a constant; an invocation loops
//                                          over SCAN_BLOCK / workgroup size of them)
//   uint scanCount()                       n, the level-0 items
//   uint scanGet(uint i)                   level-0 item i's count
//   void scanSet(uint i, uint offset)      level-0 item i's offset
//   uint scanSum(uint j)                   the levels above 0, one after another: level 1's
//   void setScanSum(uint j, uint v)        items at j = 0 .., then level 2's, ...
#ifndef CLOTH_LIB_BLOCK_SCAN_GLSL
#define CLOTH_LIB_BLOCK_SCAN_GLSL

shared uint scanShared[gl_WorkGroupSize.x];

// Items at level k of n items at level 0 (a handful of levels: SCAN_BLOCK^k grows fast).
uint blockLevelCount(uint n, uint k) {
    for (uint j = 0u; j < k; ++j) n = (n + SCAN_BLOCK - 1u) / SCAN_BLOCK;
    return n;
}
uint scanLevelCount(uint k) { return blockLevelCount(scanCount(), k); }

// Where level k >= 1 starts among the sums.
uint scanLevelBase(uint k) {
    uint n = scanCount();
    uint base = 0u;
    for (uint j = 1u; j < k; ++j) {
        n = (n + SCAN_BLOCK - 1u) / SCAN_BLOCK;
        base += n;
    }
    return base;
}

uint scanItem(uint k, uint i) { return k == 0u ? scanGet(i) : scanSum(scanLevelBase(k) + i); }
void setScanItem(uint k, uint i, uint v) {
    if (k == 0u) scanSet(i, v); else setScanSum(scanLevelBase(k) + i, v);
}

// This invocation's items of block b of a level of n items: [first, end).
void blockChunk(uint b, uint n, out uint first, out uint end) {
    uint per = (SCAN_BLOCK + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
    uint blockEnd = min(n, (b + 1u) * SCAN_BLOCK);
    first = min(blockEnd, b * SCAN_BLOCK + gl_LocalInvocationID.x * per);
    end = min(blockEnd, first + per);
}

// The workgroup's values in scanShared replaced by their exclusive prefix sums; returns the
// total (Hillis-Steele steps, then a shift).
uint scanWorkgroup(uint mine) {
    uint l = gl_LocalInvocationID.x;
    scanShared[l] = mine;
    barrier();
    for (uint step = 1u; step < gl_WorkGroupSize.x; step *= 2u) {
        uint add = l >= step ? scanShared[l - step] : 0u;
        barrier();
        scanShared[l] += add;
        barrier();
    }
    uint total = scanShared[gl_WorkGroupSize.x - 1u];
    uint before = scanShared[l] - mine;
    barrier();
    scanShared[l] = before;
    barrier();
    return total;
}

// Block b of level k: its sum, into level k + 1's item b.
void scanReduce(uint k) {
    uint b = gl_WorkGroupID.x;
    uint n = scanLevelCount(k);
    if (b * SCAN_BLOCK >= n) return;  // (the whole workgroup)
    uint first, end;
    blockChunk(b, n, first, end);
    uint sum = 0u;
    for (uint i = first; i < end; ++i) sum += scanItem(k, i);
    uint total = scanWorkgroup(sum);
    if (gl_LocalInvocationID.x == 0u) setScanItem(k + 1u, b, total);
}

// Block b of level k: its items replaced by their offsets, from 0 at the top level, else from
// level k + 1's item b. Returns the block's total (the whole sum at the top).
uint scanApply(uint k, bool top) {
    uint b = gl_WorkGroupID.x;
    uint n = scanLevelCount(k);
    if (b * SCAN_BLOCK >= n && !(top && b == 0u)) return 0u;
    uint first, end;
    blockChunk(b, n, first, end);
    uint sum = 0u;
    for (uint i = first; i < end; ++i) sum += scanItem(k, i);
    uint total = scanWorkgroup(sum);
    uint offset = (top ? 0u : scanItem(k + 1u, b)) + scanShared[gl_LocalInvocationID.x];
    for (uint i = first; i < end; ++i) {
        uint c = scanItem(k, i);
        setScanItem(k, i, offset);
        offset += c;
    }
    return total;
}

#endif
