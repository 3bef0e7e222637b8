// Self-collision on the GPU (src/vk/self_collision_gpu.h), one kernel whose push constant picks
// the job; every job does what the CPU reference (src/cpu/self_collision.cpp, src/prep/lbvh.cpp)
// does in the same order, so both find the same tree and the same contacts.
//
// The hierarchy, each step: BOXES (per triangle its corners' box at the start and predicted,
// and that grown by its thickness and half the margin; per workgroup the union of the grown
// boxes), REDUCE (the scene's box and the Morton grid), CODES, four SORT_COUNT / scan (by blocks) /
// SORT_SCATTER passes of a stable radix sort on 8-bit digits, NODES (Karras' internal nodes,
// the leaves), FIT (bounds bottom-up, each leaf climbing while it is the second to arrive).
#version 450
#extension GL_GOOGLE_include_directive : require

#include "self/lbvh_buffers.glsl"
#include "kernels/self_jobs.h"

#include "self/jobs_common.glsl"

// min and max as std::min / std::max (the first argument unless the second is strictly less or
// greater), so that both backends pick the same zero.
float lessOf(float a, float b) { return b < a ? b : a; }
float moreOf(float a, float b) { return a < b ? b : a; }
vec3 lessOf(vec3 a, vec3 b) { return vec3(lessOf(a.x, b.x), lessOf(a.y, b.y), lessOf(a.z, b.z)); }
vec3 moreOf(vec3 a, vec3 b) { return vec3(moreOf(a.x, b.x), moreOf(a.y, b.y), moreOf(a.z, b.z)); }

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

// Per triangle: its boxes; per workgroup: the union of its triangles' grown boxes, folded in
// triangle order as each CPU member folds its range (any order gives the same min and max).
void jobBoxes() {
    uint i = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    bool here = i < pc.count;
    vec3 lo = vec3(0.0);
    vec3 hi = vec3(0.0);
    if (here) {
        uint a = triangles[3u * i];
        uint b = triangles[3u * i + 1u];
        uint c = triangles[3u * i + 2u];
        lo = vec3(start[a]);
        hi = lo;
        vec3 p[5] = vec3[5](vec3(start[b]), vec3(start[c]), vec3(predicted[a]), vec3(predicted[b]),
                            vec3(predicted[c]));
        for (int k = 0; k < 5; ++k) {
            lo = lessOf(lo, p[k]);
            hi = moreOf(hi, p[k]);
        }
        float grow = triThickness[i] + 0.5 * pc.margin;
        tight[2u * i] = vec4(lo, 0.0);
        tight[2u * i + 1u] = vec4(hi, 0.0);
        lo = lo - vec3(grow);
        hi = hi + vec3(grow);
        work[2u * i] = vec4(lo, 0.0);
        work[2u * i + 1u] = vec4(hi, 0.0);
    }
    foldWorkgroup(lo, hi, here, partialBase() + 2u * gl_WorkGroupID.x);
}

void jobCodes() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    vec3 centre = 0.5 * (vec3(work[2u * i]) + vec3(work[2u * i + 1u]));
    lbvhCodes[i] = lbvhMortonCode(centre, vec3(work[sceneBase()]), vec3(work[sceneBase() + 1u]));
    lbvhOrder[i] = i;
}


// Node i of 2n - 1: internal nodes first (children, their parent, the range's end), then the
// leaves (the box of their triangle).
void jobNodes() {
    uint n = pc.count;
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

// Leaf j climbs while it is the second child to arrive at a node (the first stops), so each
// node's bounds are computed once, after both children's (NODES zeroed the arrival counters).
void jobFit() {
    uint n = pc.count;
    uint j = gl_GlobalInvocationID.x;
    if (j >= n || n < 2u) return;
    uint node = lbvhParent(n - 1u + j);
    while (node != LBVH_LEAF) {
        memoryBarrierBuffer();
        if (atomicAdd(lbvhArrival(node), 1u) == 0u) return;
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

void jobStart() {
    uint v = gl_GlobalInvocationID.x;
    if (v < pc.allVertices) start[v] = positions[v];
}

// Triangle order[i] against the triangles after it in sorted order whose boxes overlap its own
// (lbvhWalkAfter of cpu/lbvh.h: depth first, left child first): the pairs whose primitives may
// collide (not inert), counted, or stored from `offset` (below the capacity).
// Without a stack: in Karras' layout the node that depth-first order visits after a node's
// subtree (its escape) follows from the subtree's last primitive b alone: it is the right child
// of the split at b, which starts at b + 1: internal node b + 1 if that node's range starts
// there (its end lies past it), else leaf b + 1; after b = n - 1 the walk is over. The same
// nodes in the same order as with a stack, without a per-invocation array indexed at run time
// (local memory on a GPU, a gather per access on lavapipe).
uint walk(uint i, bool store, uint offset) {
    uint n = pc.count;
    if (n < 2u) return 0u;
    uint a = lbvhOrder[i];
    vec3 lo = vec3(work[2u * a]);
    vec3 hi = vec3(work[2u * a + 1u]);
    uint found = 0u;
    uint overlapping = 0u;
    uint node = 0u;
    bool done = false;
    for (;;) {
        LbvhNode k = lbvhNodes[node];
        uint end = lbvhRangeEnd(node);
        bool overlaps = k.minX <= hi.x && k.minY <= hi.y && k.minZ <= hi.z && k.maxX >= lo.x &&
                        k.maxY >= lo.y && k.maxZ >= lo.z;
        if (end > i && overlaps) {
            if (k.right != LBVH_LEAF) {
                node = k.left;
                continue;
            }
            uint other = k.left;
            overlapping += 1u;
            if (!selfInertPair(a, other)) {
                if (store && offset + found < counters.pairCapacity)
                    pairs[offset + found] = uvec2(a, other);
                found += 1u;
            }
        }
        uint next = end + 1u;
        if (next >= n) {
            done = true;
            break;
        }
        node = next + 1u < n && lbvhRangeEnd(next) > next ? next : n - 1u + next;
    }
    if (!done) counters.truncated |= 8u;
    if (!store && overlapping > 0u) atomicAdd(counters.candidatePairs, overlapping);
    return found;
}

void jobWalkCount() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.count) walkCounts[i] = walk(i, false, 0u);
}

void jobWalkWrite() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.count) walk(i, true, walkCounts[i]);
}

uint storedPairs() { return min(counters.totalPairs, counters.pairCapacity); }

// Pair q's owned primitive pairs (self_contacts.h), counted or stored from `offset`.
uint narrow(uint q, bool store, uint offset) {
    uvec2 ab = pairs[q];
    uint bits = counters.memoryBits;
    uint found = 0u;
    uint tested = 0u;
    for (uint p = 0u; p < 15u; ++p) {
        SelfContact c;
        if (!selfPrimitivePair(ab.x, ab.y, p, pc.margin, bits, c, tested)) continue;
        if (store && offset + found < counters.capacity) contacts[offset + found] = c;
        found += 1u;
    }
    if (!store && tested > 0u) atomicAdd(counters.primitivePairs, tested);
    return found;
}

void jobNarrowCount() {
    uint q = gl_GlobalInvocationID.x;
    if (q < storedPairs()) pairCounts[q] = narrow(q, false, 0u);
}

void jobNarrowWrite() {
    uint q = gl_GlobalInvocationID.x;
    if (q < storedPairs()) narrow(q, true, pairCounts[q]);
}

uint storedContacts() { return min(counters.total, counters.capacity); }

void jobMemoryClear() {
    uint slot = gl_GlobalInvocationID.x;
    if (slot < (1u << counters.memoryBits)) memoryKeys[slot] = uvec4(0u);
}

// The contact memory's table (lib/hash_table.glsl): a slot's first word is its key's kind + 1.
uint hashClaim(uint slot, uint first) { return atomicCompSwap(memoryKeys[slot].x, 0u, first); }
#include "lib/hash_table.glsl"

void insertKey(uvec4 key, vec4 normal, uint bits) {
    uint slot = hashInsert(selfMemorySlot(key.x - 1u, key.y, key.z, bits), key.x, bits);
    if (slot == ~0u) return;  // full: never, the table has twice the contacts' slots
    memoryKeys[slot].y = key.y;
    memoryKeys[slot].z = key.z;
    memoryNormals[slot] = normal;
}

void jobMemoryInsert() {
    uint c = gl_GlobalInvocationID.x;
    if (c >= storedContacts()) return;
    SelfContact k = contacts[c];
    insertKey(uvec4(k.info.x + 1u, k.info.y, k.info.z, 0u), vec4(selfKeyNormal(k), 0.0),
              counters.memoryBits);
}

void jobMemoryRehash() {
    uint slot = gl_GlobalInvocationID.x;
    if (slot >= pc.oldSlots || old[slot].x == 0u) return;
    insertKey(old[slot], uintBitsToFloat(old[pc.oldSlots + slot]), counters.memoryBits);
}

void jobListClear() {
    uint v = gl_GlobalInvocationID.x;
    if (v < pc.vertices) vertexCounts(v) = 0u;
}

void jobListCount() {
    uint c = gl_GlobalInvocationID.x;
    if (c >= storedContacts()) return;
    uvec4 v = contacts[c].vertices;
    atomicAdd(vertexCounts(v.x), 1u);
    atomicAdd(vertexCounts(v.y), 1u);
    atomicAdd(vertexCounts(v.z), 1u);
    atomicAdd(vertexCounts(v.w), 1u);
}

// ---- prefix sums by blocks (SCAN_BLOCKS, SCAN_TOP, SCAN_APPLY over the array pc.scan):
// exclusive offsets in item order, as one serial loop would give them (integer sums) ----

uint scanCount() {
    if (pc.scan == SELF_SCAN_SORT) return SELF_SORT_BUCKETS * pc.blocks;  // bucket-major
    if (pc.scan == SELF_SCAN_WALK) return pc.count;
    if (pc.scan == SELF_SCAN_PAIRS) return storedPairs();
    return pc.vertices;
}

uint scanGet(uint i) {
    if (pc.scan == SELF_SCAN_SORT) return histogram(i);
    if (pc.scan == SELF_SCAN_WALK) return walkCounts[i];
    if (pc.scan == SELF_SCAN_PAIRS) return pairCounts[i];
    return vertexCounts(i);
}

void scanSet(uint i, uint offset) {
    if (pc.scan == SELF_SCAN_SORT) {
        histogram(i) = offset;
    } else if (pc.scan == SELF_SCAN_WALK) {
        walkCounts[i] = offset;
    } else if (pc.scan == SELF_SCAN_PAIRS) {
        pairCounts[i] = offset;
    } else {
        listOffsets(i) = offset;
        vertexCounts(i) = offset;  // the cursor
    }
}

// The levels' block sums, then offsets: in walkCounts while the sort runs, else at scratch's
// start (the sort's second keys, free once it has run).
uint scanSum(uint j) { return pc.scan == SELF_SCAN_SORT ? walkCounts[j] : scratch[j]; }
void setScanSum(uint j, uint v) {
    if (pc.scan == SELF_SCAN_SORT) walkCounts[j] = v; else scratch[j] = v;
}

#define SCAN_BLOCK SELF_SCAN_BLOCK
#include "lib/block_scan.glsl"

// The union of the partial boxes by levels, as the prefix sums run (lib/block_scan.glsl): level
// 0 is BOXES' partial boxes (pc.partialCount), level k + 1 the unions of level k's blocks of
// SELF_SCAN_BLOCK, after the scene's box; pc.color is the level, pc.scan 1 at the top (one
// workgroup, at most one block), which writes the scene's box and the Morton grid
// (lbvhInverseExtent). Exact min and max: any order gives the same box.
uint reduceCount(uint k) { return blockLevelCount(pc.partialCount, k); }
uint reduceBase(uint k) {
    if (k == 0u) return partialBase();
    uint base = sceneBase() + 2u;
    for (uint j = 1u; j < k; ++j) base += 2u * reduceCount(j);
    return base;
}

void jobReduce() {
    uint k = pc.color;
    bool top = pc.scan != 0u;
    uint b = gl_WorkGroupID.x;
    uint n = reduceCount(k);
    if (b * SELF_SCAN_BLOCK >= n && !top) return;  // (the whole workgroup)
    uint first, end;
    blockChunk(b, n, first, end);
    bool any = false;
    vec3 lo = vec3(0.0);
    vec3 hi = vec3(0.0);
    uint base = reduceBase(k);
    for (uint i = first; i < end; ++i) {
        vec4 l = work[base + 2u * i];
        vec4 h = work[base + 2u * i + 1u];
        if (l.w == 0.0) continue;
        lo = any ? lessOf(lo, vec3(l)) : vec3(l);
        hi = any ? moreOf(hi, vec3(h)) : vec3(h);
        any = true;
    }
    if (!top) {
        foldWorkgroup(lo, hi, any, reduceBase(k + 1u) + 2u * b);
        return;
    }
    foldWorkgroup(lo, hi, any, sceneBase());
    if (gl_LocalInvocationID.x != 0u) return;
    counters.candidatePairs = 0u;  // this detection's (walk counts them)
    counters.primitivePairs = 0u;
    lo = vec3(work[sceneBase()]);
    hi = vec3(work[sceneBase() + 1u]);
    vec3 inv;
    for (int j = 0; j < 3; ++j) inv[j] = hi[j] > lo[j] ? 1.0 / (hi[j] - lo[j]) : 1.0;
    work[sceneBase() + 1u] = vec4(inv, 0.0);
}

// pc.color: the level.
void jobScanBlocks() { scanReduce(pc.color); }

// One workgroup: the top level pc.color (at most SELF_SCAN_BLOCK items), the total and its use.
void jobScanTop() {
    uint sum = scanApply(pc.color, true);
    if (gl_LocalInvocationID.x != 0u) return;
    if (pc.scan == SELF_SCAN_WALK) {  // the pairs: the total, the dispatch over those stored
        counters.totalPairs = sum;
        counters.mostPairs = max(counters.mostPairs, sum);
        uint stored = min(sum, counters.pairCapacity);
        counters.pairGroups = uvec4((stored + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x, 1u, 1u, 0u);
    } else if (pc.scan == SELF_SCAN_PAIRS) {
        // the contacts: the total, the dispatch over those stored
        counters.total = sum;
        counters.mostTotal = max(counters.mostTotal, sum);
        uint stored = min(sum, counters.capacity);
        counters.contactGroups = uvec4((stored + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x, 1u, 1u, 0u);
    } else if (pc.scan == SELF_SCAN_LISTS) {
        listOffsets(pc.vertices) = sum;
    }
}

void jobScanApply() { scanApply(pc.color, false); }

void jobListFill() {
    uint c = gl_GlobalInvocationID.x;
    if (c >= storedContacts()) return;
    uvec4 v = contacts[c].vertices;
    for (uint k = 0u; k < 4u; ++k) slots[atomicAdd(vertexCounts(v[k]), 1u)] = 4u * c + k;
}

void jobListSort() {
    uint v = gl_GlobalInvocationID.x;
    if (v >= pc.vertices) return;
    uint begin = listOffsets(v);
    uint end = listOffsets(v + 1u);
    uint k = begin + 1u;
    for (; k < end; ++k) {
        uint x = slots[k];
        uint j = k;
        while (j > begin && slots[j - 1u] > x) {
            slots[j] = slots[j - 1u];
            j -= 1u;
        }
        slots[j] = x;
    }
    if (k < end) counters.truncated |= 4u;
}

void jobSolve() {
    uint c = gl_GlobalInvocationID.x;
    if (c >= storedContacts()) return;
    SelfContact k = contacts[c];
    uvec4 v = k.vertices;
    vec4 d0, d1, d2, d3;
    selfContactCorrections(k, positions[v.x], positions[v.y], positions[v.z], positions[v.w],
                           vec3(start[v.x]), vec3(start[v.y]), vec3(start[v.z]),
                           vec3(start[v.w]), pc.muS, pc.muK, d0, d1, d2, d3);
    corrections[4u * c] = d0;
    corrections[4u * c + 1u] = d1;
    corrections[4u * c + 2u] = d2;
    corrections[4u * c + 3u] = d3;
}

void jobGather() {
    uint v = gl_GlobalInvocationID.x;
    if (v >= pc.vertices) return;
    vec4 sum = vec4(0.0);
    for (uint k = listOffsets(v); k < listOffsets(v + 1u); ++k) sum += corrections[slots[k]];
    vec4 d = featureMean(sum);
    moved[v] = d;
    if (d.w > 0.0 && positions[v].w > 0.0) positions[v] += vec4(vec3(d), 0.0);
}

void jobCopies() {
    uint g = gl_GlobalInvocationID.x;
    if (g >= pc.phantomGroupCount) return;
    uint base = 2u * pc.phantomGroupCount;  // the members after the groups
    uvec2 group = uvec2(phantoms[2u * g], phantoms[2u * g + 1u]);
    vec4 d = moved[phantoms[base + group.x]];
    if (d.w <= 0.0) return;
    for (uint k = 1u; k < group.y; ++k) {
        uint v = phantoms[base + group.x + k];
        if (positions[v].w > 0.0) positions[v] += vec4(vec3(d), 0.0);
    }
}

void jobColorClear() {
    uint v = gl_GlobalInvocationID.x;
    if (v <= SELF_COLOR_SLOTS) colorOffset(v) = 0u;
    if (v <= SELF_COLOR_ROUNDS) counters.roundGroups[v] = uvec4(0u, 1u, 1u, 0u);
    if (v >= pc.vertices) return;
    for (uint w = 0u; w < 4u; ++w) colorMask(v, w) = 0u;
    roundPriority(0u, v) = 0u;
}

// As cpu/contact_colors.cpp's colorContacts, by Jones-Plassmann-Luby rounds (self_contacts.h):
// round 0 (over all contacts) writes each contact's priority into its vertices' maxima; round
// r > 0 (over the contacts round r - 1 left uncoloured, in any order) colours each one that holds
// the maximum at all its vertices (its neighbours of higher priority have their colours), and
// the others write theirs into round r's maxima and join round r + 1's list (its dispatch grows
// by a workgroup with every workgroup's first). Two winners of a round share no vertex, so each
// reads and writes its own vertices' masks alone. Each round clears the maxima of the next (read
// last two rounds before).
const uint SELF_UNCOLORED = 0xFFFFFFFFu;

void jobColorRound() {
    uint r = pc.color;
    uint i;
    if (r == 0u) {
        i = gl_GlobalInvocationID.x;
        if (i >= storedContacts()) return;
        colorOf(i) = SELF_UNCOLORED;
    } else {
        if (gl_GlobalInvocationID.x >= counters.roundGroups[r].w) return;
        i = roundList(r, gl_GlobalInvocationID.x);
    }
    uvec4 v = contacts[i].vertices;
    uint priority = selfColorPriority(i);
    if (r > 0u && roundPriority(r - 1u, v.x) == priority && roundPriority(r - 1u, v.y) == priority &&
        roundPriority(r - 1u, v.z) == priority && roundPriority(r - 1u, v.w) == priority) {
        uint color = SELF_COLORS + (r - 1u);
        for (uint w = 0u; w < 4u; ++w) {
            uint used = colorMask(v.x, w) | colorMask(v.y, w) | colorMask(v.z, w) | colorMask(v.w, w);
            if (used == 0xFFFFFFFFu) continue;
            uint bit = 1u << uint(findLSB(~used));
            color = 32u * w + uint(findLSB(~used));
            colorMask(v.x, w) |= bit;
            colorMask(v.y, w) |= bit;
            colorMask(v.z, w) |= bit;
            colorMask(v.w, w) |= bit;
            break;
        }
        colorOf(i) = color;
        atomicAdd(colorOffset(color + 1u), 1u);
        return;
    }
    if (pc.scan != 0u) {  // the last round recorded: the frame redoes itself with more
        atomicAdd(counters.uncolored, 1u);
        return;
    }
    for (uint k = 0u; k < 4u; ++k) {
        atomicMax(roundPriority(r, v[k]), priority);
        roundPriority(r + 1u, v[k]) = 0u;
    }
    uint j = atomicAdd(counters.roundGroups[r + 1u].w, 1u);
    roundList(r + 1u, j) = i;
    if (j % gl_WorkGroupSize.x == 0u) atomicAdd(counters.roundGroups[r + 1u].x, 1u);
}

void jobColorOffsets() {
    if (gl_GlobalInvocationID.x != 0u) return;
    for (uint k = 0u; k < SELF_COLOR_SLOTS; ++k) colorOffset(k + 1u) += colorOffset(k);
}

// The cursors in the colours' offsets, moved back by COLOR_END (each ends at the next's start).
void jobColorPlace() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= storedContacts()) return;
    uint color = colorOf(i);
    if (color >= SELF_COLOR_SLOTS) return;  // uncoloured: the frame is redone
    colorOrder(atomicAdd(colorOffset(color), 1u)) = i;
}

void jobColorEnd() {
    if (gl_GlobalInvocationID.x != 0u) return;
    for (uint k = SELF_COLOR_SLOTS; k > 0u; --k) colorOffset(k) = colorOffset(k - 1u);
    colorOffset(0u) = 0u;
    uint used = 0u;
    for (uint k = 0u; k < SELF_COLOR_SLOTS; ++k) {
        uint count = colorOffset(k + 1u) - colorOffset(k);
        if (count > 0u) used = k + 1u;
        counters.colorGroups[k] = uvec4((count + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x, 1u, 1u, 0u);
    }
    counters.mostColors = max(counters.mostColors, used);
}

// Contact i's projection from the positions now, each vertex moved by its own correction.
void projectContact(uint i) {
    SelfContact k = contacts[i];
    uvec4 v = k.vertices;
    vec4 d[4];
    selfContactCorrections(k, positions[v.x], positions[v.y], positions[v.z], positions[v.w],
                           vec3(start[v.x]), vec3(start[v.y]), vec3(start[v.z]),
                           vec3(start[v.w]), pc.muS, pc.muK, d[0], d[1], d[2], d[3]);
    for (uint j = 0u; j < 4u; ++j) {
        vec4 m = featureMean(d[j]);
        if (m.w > 0.0 && positions[v[j]].w > 0.0) positions[v[j]] += vec4(vec3(m), 0.0);
    }
}

// As cpu/self_collision.cpp's solveColored: KEEP, then SOLVE_COLOR for each colour in turn
// (each dispatched over its contacts), then COPIES.
void jobColorKeep() {
    uint v = gl_GlobalInvocationID.x;
    if (v < pc.vertices) moved[v] = positions[v];
}

void jobSolveColor() {
    uint i = gl_GlobalInvocationID.x;
    if (colorOffset(pc.color) + i < colorOffset(pc.color + 1u))
        projectContact(colorOrder(colorOffset(pc.color) + i));
}

void jobColorCopies() {
    uint g = gl_GlobalInvocationID.x;
    if (g >= pc.phantomGroupCount) return;
    uint base = 2u * pc.phantomGroupCount;  // the members after the groups
    uvec2 group = uvec2(phantoms[2u * g], phantoms[2u * g + 1u]);
    uint o = phantoms[base + group.x];
    vec4 d = vec4(vec3(positions[o]) - vec3(moved[o]), 0.0);
    for (uint k = 1u; k < group.y; ++k) {
        uint v = phantoms[base + group.x + k];
        if (positions[v].w > 0.0) positions[v] += d;
    }
}

void main() {
    switch (pc.job) {
        case SELF_JOB_START: jobStart(); break;
        case SELF_JOB_WALK_COUNT: jobWalkCount(); break;
        case SELF_JOB_WALK_WRITE: jobWalkWrite(); break;
        case SELF_JOB_NARROW_COUNT: jobNarrowCount(); break;
        case SELF_JOB_NARROW_WRITE: jobNarrowWrite(); break;
        case SELF_JOB_MEMORY_CLEAR: jobMemoryClear(); break;
        case SELF_JOB_MEMORY_INSERT: jobMemoryInsert(); break;
        case SELF_JOB_MEMORY_REHASH: jobMemoryRehash(); break;
        case SELF_JOB_LIST_CLEAR: jobListClear(); break;
        case SELF_JOB_LIST_COUNT: jobListCount(); break;
        case SELF_JOB_LIST_FILL: jobListFill(); break;
        case SELF_JOB_LIST_SORT: jobListSort(); break;
        case SELF_JOB_SOLVE: jobSolve(); break;
        case SELF_JOB_GATHER: jobGather(); break;
        case SELF_JOB_COPIES: jobCopies(); break;
        case SELF_JOB_BOXES: jobBoxes(); break;
        case SELF_JOB_REDUCE: jobReduce(); break;
        case SELF_JOB_CODES: jobCodes(); break;
        case SELF_JOB_NODES: jobNodes(); break;
        case SELF_JOB_FIT: jobFit(); break;
        case SELF_JOB_COLOR_CLEAR: jobColorClear(); break;
        case SELF_JOB_COLOR_ROUND: jobColorRound(); break;
        case SELF_JOB_COLOR_KEEP: jobColorKeep(); break;
        case SELF_JOB_SOLVE_COLOR: jobSolveColor(); break;
        case SELF_JOB_COLOR_COPIES: jobColorCopies(); break;
        case SELF_JOB_COLOR_OFFSETS: jobColorOffsets(); break;
        case SELF_JOB_COLOR_PLACE: jobColorPlace(); break;
        case SELF_JOB_COLOR_END: jobColorEnd(); break;
        case SELF_JOB_SCAN_BLOCKS: jobScanBlocks(); break;
        case SELF_JOB_SCAN_TOP: jobScanTop(); break;
        case SELF_JOB_SCAN_APPLY: jobScanApply(); break;
        default: break;
    }
}
