// Self-collision's hierarchy (sim/self_phases.h's Rebuild and Refit; src/vk/self/): BOXES (per
// triangle its box at the substep's start, grown by its thickness and half the margin, and at a
// refit by the bound B; at a rebuild per workgroup the union of its boxes), BOX_REDUCE (their
// union by levels: the scene's box and the Morton grid), CODES, the radix sort
// (shaders/self_sort.comp), NODES (Karras' internal nodes and the leaves), FIT (bounds
// bottom-up, each leaf climbing while it is the second to arrive). The same tree, node for node,
// as src/cpu/self/tree.cpp.
#version 450
#extension GL_GOOGLE_include_directive : require

#include "self/buffers.glsl"

shared vec3 sharedLo[gl_WorkGroupSize.x];
shared vec3 sharedHi[gl_WorkGroupSize.x];
shared bool sharedAny[gl_WorkGroupSize.x];

// The workgroup's boxes (any: this invocation has one) folded in invocation order by the first
// invocation, written to work[at] and work[at + 1] (w: 1 when some invocation had one).
void foldWorkgroup(vec3 lo, vec3 hi, bool any, uint at) {
    uint l = gl_LocalInvocationID.x;
    sharedLo[l] = lo;
    sharedHi[l] = hi;
    sharedAny[l] = any;
    barrier();
    if (l == 0u) {
        any = false;
        for (uint k = 0u; k < gl_WorkGroupSize.x; ++k) {
            if (!sharedAny[k]) continue;
            lo = any ? lessOf(lo, sharedLo[k]) : sharedLo[k];
            hi = any ? moreOf(hi, sharedHi[k]) : sharedHi[k];
            any = true;
        }
        work[at] = vec4(lo, any ? 1.0 : 0.0);
        work[at + 1u] = vec4(hi, 0.0);
    }
}

// pc.array 1: a rebuild's boxes (no bound; per workgroup their union); 0: a refit's (grown by
// its corners' bounds, in a gated dispatch).
void jobBoxes() {
    bool rebuild = pc.array != 0u;
    uint i = rebuild ? gl_GlobalInvocationID.x : linearIndex();
    bool here = i < state.triangles;
    vec3 lo = vec3(0.0);
    vec3 hi = vec3(0.0);
    if (here) {
        uint t0 = triangles[3u * i];
        uint t1 = triangles[3u * i + 1u];
        uint t2 = triangles[3u * i + 2u];
        vec3 x0 = vec3(start[t0]);
        vec3 x1 = vec3(start[t1]);
        vec3 x2 = vec3(start[t2]);
        float grow = triThickness[i] + 0.5 * state.margin;
        if (!rebuild)  // each triangle by its corners' largest bound (a refit runs at detections)
            grow += moreOf(freshOf(originalOf(t0)).w,
                           moreOf(freshOf(originalOf(t1)).w, freshOf(originalOf(t2)).w));
        lo = lessOf(lessOf(x0, x1), x2) - vec3(grow);
        hi = moreOf(moreOf(x0, x1), x2) + vec3(grow);
        work[2u * i] = vec4(lo, 0.0);
        work[2u * i + 1u] = vec4(hi, 0.0);
    }
    if (rebuild) foldWorkgroup(lo, hi, here, boxLevelBase(0u) + 2u * gl_WorkGroupID.x);
}

// The union of the partial boxes by levels (pc.level; pc.array 1 at the top, one workgroup),
// then the scene's box and the Morton grid (lbvhInverseExtent). Exact min and max.
void jobBoxReduce() {
    uint k = pc.level;
    bool top = pc.array != 0u;
    uint b = gl_WorkGroupID.x;
    uint n = levelItemsOf(state.boxPartials, k);
    if (b * SELF_SCAN_BLOCK >= n && !top) return;  // (the whole workgroup)
    uint per = (SELF_SCAN_BLOCK + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
    uint blockEnd = min(n, (b + 1u) * SELF_SCAN_BLOCK);
    uint first = min(blockEnd, b * SELF_SCAN_BLOCK + gl_LocalInvocationID.x * per);
    uint end = min(blockEnd, first + per);
    bool any = false;
    vec3 lo = vec3(0.0);
    vec3 hi = vec3(0.0);
    uint base = boxLevelBase(k);
    for (uint i = first; i < end; ++i) {
        vec4 l = work[base + 2u * i];
        vec4 h = work[base + 2u * i + 1u];
        if (l.w == 0.0) continue;
        lo = any ? lessOf(lo, vec3(l)) : vec3(l);
        hi = any ? moreOf(hi, vec3(h)) : vec3(h);
        any = true;
    }
    if (!top) {
        foldWorkgroup(lo, hi, any, boxLevelBase(k + 1u) + 2u * b);
        return;
    }
    foldWorkgroup(lo, hi, any, sceneBase());
    if (gl_LocalInvocationID.x != 0u) return;
    lo = vec3(work[sceneBase()]);
    hi = vec3(work[sceneBase() + 1u]);
    vec3 inv;
    for (int j = 0; j < 3; ++j) inv[j] = hi[j] > lo[j] ? 1.0 / (hi[j] - lo[j]) : 1.0;
    work[sceneBase() + 1u] = vec4(inv, 0.0);
}

void jobCodes() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= state.triangles) return;
    vec3 centre = 0.5 * (vec3(work[2u * i]) + vec3(work[2u * i + 1u]));
    lbvhCodes[i] = lbvhMortonCode(centre, vec3(work[sceneBase()]), vec3(work[sceneBase() + 1u]));
    lbvhOrder[i] = i;
}

// Node i of 2n - 1: internal nodes first (children, their parent, the range's end), then the
// leaves (the box of their triangle, and their range).
void jobNodes() {
    uint n = state.triangles;
    uint i = gl_GlobalInvocationID.x;
    if (i >= 2u * n - 1u) return;
    if (i == 0u) lbvhParent(0u) = LBVH_LEAF;
    if (i + 1u < n) {
        lbvhArrival(i) = 0u;  // for FIT
        uint left, right;
        int last;
        lbvhChildren(int(i), int(n), left, right, last);
        lbvhNodes[i].left = left;
        lbvhNodes[i].right = right;
        lbvhParent(left) = i;
        lbvhParent(right) = i;
        lbvhRangeEnd(i) = uint(max(int(i), last));
        return;
    }
    uint j = i - (n - 1u);
    uint t = lbvhOrder[j];
    vec4 lo = work[2u * t];
    vec4 hi = work[2u * t + 1u];
    LbvhNode leaf;
    leaf.minX = lo.x;
    leaf.minY = lo.y;
    leaf.minZ = lo.z;
    leaf.left = t;
    leaf.maxX = hi.x;
    leaf.maxY = hi.y;
    leaf.maxZ = hi.z;
    leaf.right = LBVH_LEAF;
    lbvhNodes[i] = leaf;
    lbvhRangeEnd(i) = j;
}

// Leaf j (a workgroup of one invocation each, in a 2D grid) takes its triangle's box (a refit),
// then climbs while it is the second child to arrive at a node (the first stops), so each
// node's bounds are computed once, after both children's. Arrival counters back to 0 on the
// way, for the next refit.
void jobFit() {
    uint n = state.triangles;
    uint j = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (j >= n) return;
    uint t = lbvhOrder[j];
    vec4 lo = work[2u * t];
    vec4 hi = work[2u * t + 1u];
    uint leaf = n - 1u + j;
    lbvhNodes[leaf].minX = lo.x;
    lbvhNodes[leaf].minY = lo.y;
    lbvhNodes[leaf].minZ = lo.z;
    lbvhNodes[leaf].maxX = hi.x;
    lbvhNodes[leaf].maxY = hi.y;
    lbvhNodes[leaf].maxZ = hi.z;
    if (n < 2u) return;
    uint node = lbvhParent(leaf);
    while (node != LBVH_LEAF) {
        memoryBarrierBuffer();
        if (atomicAdd(lbvhArrival(node), 1u) == 0u) return;
        lbvhArrival(node) = 0u;
        memoryBarrierBuffer();
        LbvhNode a = lbvhNodes[lbvhNodes[node].left];
        LbvhNode b = lbvhNodes[lbvhNodes[node].right];
        lbvhNodes[node].minX = lessOf(a.minX, b.minX);
        lbvhNodes[node].minY = lessOf(a.minY, b.minY);
        lbvhNodes[node].minZ = lessOf(a.minZ, b.minZ);
        lbvhNodes[node].maxX = moreOf(a.maxX, b.maxX);
        lbvhNodes[node].maxY = moreOf(a.maxY, b.maxY);
        lbvhNodes[node].maxZ = moreOf(a.maxZ, b.maxZ);
        node = lbvhParent(node);
    }
}

void main() {
    switch (pc.job) {
        case SELF_JOB_BOXES: jobBoxes(); break;
        case SELF_JOB_BOX_REDUCE: jobBoxReduce(); break;
        case SELF_JOB_CODES: jobCodes(); break;
        case SELF_JOB_NODES: jobNodes(); break;
        case SELF_JOB_FIT: jobFit(); break;
    }
}
