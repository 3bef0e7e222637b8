// A linear bounding volume hierarchy over the cloth's triangles (issue 13: self-collision), as
// Karras (2012, "Maximizing parallelism in the construction of BVHs, octrees, and k-d trees")
// builds it: the primitives sorted by the Morton code of their box centres, and every internal
// node found on its own from the sorted keys alone, so that the GPU builds all of them at once
// and the CPU reference, working from the same keys in the same order, builds the same tree.
//
// Keys: the 30-bit Morton code of the centre quantised to a 1024^3 grid over the scene's bounds,
// with the primitive's index as the tie-breaker (two equal codes compare by index), so every key
// is distinct and the sorted order is total.
//
// Layout for n >= 2 primitives: internal nodes 0 .. n-2 (node 0 the root), leaves n-1 .. 2n-2
// (leaf n-1+i holds sorted primitive i). An internal node i covers a contiguous range [a, b] of
// sorted primitives, one of whose ends is i; it is split where the keys' common prefix (with the
// tie-breaker appended) grows. Its children are internal nodes, or leaves when their range is
// one primitive. Shared by C++ and GLSL: GLSL declares the buffer lbvhCodes[] (sorted codes)
// before including this with CLOTH_HAS_LBVH_CODES defined.
#ifndef CLOTH_KERNELS_LBVH_TREE_H
#define CLOTH_KERNELS_LBVH_TREE_H

#include "kernels/common.h"
#ifdef __cplusplus
#include <bit>
#endif

CLOTH_NAMESPACE_BEGIN

// Morton code grid: 10 bits per axis.
const uint LBVH_GRID = 1024u;

// The 10 low bits of v spread to every third bit (bit k to bit 3k).
CLOTH_FN uint lbvhSpreadBits(uint v) {
    v &= 0x3FFu;
    v = (v | (v << 16u)) & 0x030000FFu;
    v = (v | (v << 8u)) & 0x0300F00Fu;
    v = (v | (v << 4u)) & 0x030C30C3u;
    v = (v | (v << 2u)) & 0x09249249u;
    return v;
}

// The Morton code of p in the box [lo, lo + 1 / invExtent): each axis quantised to
// floor(t * LBVH_GRID) clamped to [0, LBVH_GRID - 1], x in the highest of each bit triple.
CLOTH_FN uint lbvhMortonCode(vec3 p, vec3 lo, vec3 invExtent) {
    vec3 t = (p - lo) * invExtent * float(LBVH_GRID);
    float top = float(LBVH_GRID - 1u);
    uint x = uint(clamp(t.x, 0.0f, top));
    uint y = uint(clamp(t.y, 0.0f, top));
    uint z = uint(clamp(t.z, 0.0f, top));
    return (lbvhSpreadBits(x) << 2u) | (lbvhSpreadBits(y) << 1u) | lbvhSpreadBits(z);
}

// Leading zero bits of a 32-bit word (32 for 0).
CLOTH_FN int lbvhLeadingZeros(uint v) {
#ifdef __cplusplus
    return std::countl_zero(v);
#else
    return 31 - findMSB(v);
#endif
}

// A node of the hierarchy: its bounds and children (node indices; see the layout above). A
// leaf's `left` is its primitive (the original index) and `right` LBVH_LEAF.
struct LbvhNode {
    float minX, minY, minZ;
    uint left;
    float maxX, maxY, maxZ;
    uint right;
};
CLOTH_CHECK_SIZE(LbvhNode, 32)

const uint LBVH_LEAF = 0xFFFFFFFFu;

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_LBVH_TREE_H

// ---- the hierarchy from the sorted codes (C++ passes the array; shaders declare lbvhCodes[]) --
#if (defined(__cplusplus) || defined(CLOTH_HAS_LBVH_CODES)) && !defined(CLOTH_KERNELS_LBVH_BUILD)
#define CLOTH_KERNELS_LBVH_BUILD
#ifdef __cplusplus
#define CLOTH_LBVH_PARAMS const uint *lbvhCodes,
#define CLOTH_LBVH_ARGS lbvhCodes,
#else
#define CLOTH_LBVH_PARAMS
#define CLOTH_LBVH_ARGS
#endif
CLOTH_NAMESPACE_BEGIN

// The length of the common prefix of sorted keys i and j (their codes, then their positions i
// and j as the tie-breaker: equal codes share 32 bits plus the prefix of i ^ j); -1 when j is
// outside [0, n).
CLOTH_FN int lbvhDelta(CLOTH_LBVH_PARAMS int i, int j, int n) {
    if (j < 0 || j >= n) return -1;
    uint a = lbvhCodes[i];
    uint b = lbvhCodes[j];
    if (a != b) return lbvhLeadingZeros(a ^ b);
    return 32 + lbvhLeadingZeros(uint(i) ^ uint(j));
}

// Internal node i of n sorted keys: its two children (node indices) and the other end `last`
// of its range (the range is [min(i, last), max(i, last)]). Karras' construction: the
// direction d of the range from the neighbours' prefixes, the range's other end by an
// exponential then binary search for the farthest key sharing more than delta_min, then the
// split by a binary search for the last key sharing more with i than the range's ends do.
CLOTH_FN void lbvhChildren(CLOTH_LBVH_PARAMS int i, int n, CLOTH_OUT(uint) left,
                           CLOTH_OUT(uint) right, CLOTH_OUT(int) last) {
    int d = lbvhDelta(CLOTH_LBVH_ARGS i, i + 1, n) - lbvhDelta(CLOTH_LBVH_ARGS i, i - 1, n) > 0
                ? 1
                : -1;
    int deltaMin = lbvhDelta(CLOTH_LBVH_ARGS i, i - d, n);
    int lMax = 2;
    while (lbvhDelta(CLOTH_LBVH_ARGS i, i + lMax * d, n) > deltaMin) lMax *= 2;
    int l = 0;
    for (int t = lMax / 2; t >= 1; t /= 2)
        if (lbvhDelta(CLOTH_LBVH_ARGS i, i + (l + t) * d, n) > deltaMin) l += t;
    int j = i + l * d;
    last = j;
    int deltaNode = lbvhDelta(CLOTH_LBVH_ARGS i, j, n);
    // (Keys past j share no more with i than j does, so s + t never needs to stop at l; for
    // l = 1 the loop is skipped and the split is at i itself.)
    int s = 0;
    int t = l;
    while (t > 1) {
        t = (t + 1) / 2;
        if (lbvhDelta(CLOTH_LBVH_ARGS i, i + (s + t) * d, n) > deltaNode) s += t;
    }
    int gamma = i + s * d + min(d, 0);
    int lo = min(i, j);
    int hi = max(i, j);
    left = uint(lo == gamma ? (n - 1) + gamma : gamma);
    right = uint(hi == gamma + 1 ? (n - 1) + gamma + 1 : gamma + 1);
}

CLOTH_NAMESPACE_END
#endif
