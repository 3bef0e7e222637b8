// A detection's walk (sim/self_phases.h's Gather; src/vk/self/): the memory of the last
// substep's contacts' sides, then per triangle in sorted order the triangles after it whose
// boxes (grown by their corners' bounds) overlap its own, and of each pair the owned primitive
// pairs within reach plus their corners' bounds at the substep's start (kernels/self_motion.h).
// One walk per triangle counts its candidates and stores them in chunks of the pool
// (kernels/self_jobs.h SELF_POOL_CHUNK); the counts are scanned into offsets
// (shaders/self_scan.comp) and GATHER_PLACE moves each candidate to its place, so that the
// candidates come out in src/cpu/self/candidates.cpp's order whichever chunks the walks took.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_vote : require

#include "self/buffers.glsl"
#include "kernels/self_motion.h"

// The memory's table (lib/hash_table.glsl): a slot's first word is its key's kind + 1.
uint hashClaim(uint slot, uint first) { return atomicCompSwap(memoryKeys[slot].x, 0u, first); }
#include "lib/hash_table.glsl"

// Each candidate of the last detection that was a contact in the last substep: its key and side.
void jobMemoryInsert() {
    uint c = linearIndex();
    if (c >= state.candidates) return;
    vec4 side = candSide(c);
    if (side.w == 0.0) return;
    SelfCandidate k = candidates[c];
    uint kind = k.kind & 1u;
    uint slot = hashInsert(selfMemorySlot(kind, k.keyY, k.keyZ, state.memoryBits), kind + 1u,
                           state.memoryBits);
    if (slot == ~0u) return;  // full: never, the table has twice the candidates' slots
    memoryKeys[slot].y = k.keyY;
    memoryKeys[slot].z = k.keyZ;
    memoryNormals[slot] = vec4(vec3(side), 0.0);
}

uint poolChunks() { return state.poolCapacity / SELF_POOL_CHUNK; }

// The owned primitive pairs of triangle a (sorted position i) and `other`, in ascending order:
// each that can come within reach before the next detection is counted and stored in the pool
// (`found`: the triangle's candidates so far; `chunk`: its last chunk), a chunk taken whenever
// the last one is full (none beyond the pool: then the candidates pass the capacity and the
// frame is redone).
void testPair(uint i, uint a, uint other, inout uint found, inout uint chunk,
              inout uint tested) {
    uint live = selfOwnedPairs(a, other);
    while (live != 0u) {  // the owned pairs in ascending order
        uint p = uint(findLSB(live));
        live &= live - 1u;
        SelfCandidate cand;
        if (!selfPairCandidate(a, other, p, cand)) continue;
        tested += 1u;
        float gap = selfCandidateGapAt(cand);
        uvec4 u = cand.vertices;
        float b0 = freshOf(u.x).w;
        float b1 = freshOf(u.y).w;
        float b2 = freshOf(u.z).w;
        float b3 = freshOf(u.w).w;
        float sides = (cand.kind & 1u) == 0u ? b0 + moreOf(b1, moreOf(b2, b3))
                                             : moreOf(b0, b1) + moreOf(b2, b3);
        float reach = cand.keep + state.margin;
        if (gap > reach + sides) continue;
        float distance = selfCandidateDistance(cand);
        if (distance > reach + SELF_SQRT3 * sides + state.startShift.w) continue;
        uint within = found % SELF_POOL_CHUNK;
        if (within == 0u) {
            chunk = atomicAdd(state.poolChunks, 1u);
            if (chunk < poolChunks())
                poolChunkOf(chunk) = uvec4(i, found / SELF_POOL_CHUNK, 0u, 0u);
        }
        if (chunk < poolChunks())
            poolSlot(chunk * SELF_POOL_CHUNK + within) =
                uvec4(other, p, floatBitsToUint(gap), floatBitsToUint(distance));
        found += 1u;
    }
}

// Sorted position i's triangle (`live`: i < triangles) against the triangles after it in
// sorted order whose boxes overlap its own (lbvhWalkAfter of prep/lbvh.h: depth first, left
// child first), each pair's owned primitive pairs tested (testPair). Without a stack: in
// Karras' layout the node that depth-first order visits after a node's subtree (its escape)
// follows from the subtree's last primitive b alone: the right child of the split at b, which
// starts at b + 1: internal node b + 1 if that node's range starts there (its end lies past
// it), else leaf b + 1; after b = n - 1 the walk is over. The same nodes in the same order as
// with a stack.
// The walk holds up to SELF_WALK_BATCH overlapping triangles before it tests their pairs, and the
// invocations of a subgroup test theirs together, whenever one of them holds a full batch or
// all have ended their walks: the tests, most of the work, run on all lanes at once rather than
// on the few that reached a leaf in the same step. Each invocation's pairs stay in its walk's
// order, so the candidates do not depend on the subgroup.
const uint SELF_WALK_BATCH = 16u;

uint walk(uint i, bool live) {
    uint n = state.triangles;
    bool walking = live && n >= 2u;
    uint a = walking ? lbvhOrder[i] : 0u;
    vec3 lo = walking ? vec3(work[2u * a]) : vec3(0.0);
    vec3 hi = walking ? vec3(work[2u * a + 1u]) : vec3(0.0);
    uint found = 0u;
    uint chunk = 0u;
    uint overlapping = 0u;
    uint tested = 0u;
    uint looked = 0u;
    uint node = 0u;
    uint held = 0u;
    uint batch[SELF_WALK_BATCH];
    bool stopped = false;  // the walk's steps ran out before its end
    for (uint step = 0u; step < 16385u; ++step) {
        if (walking && held < SELF_WALK_BATCH) {
            if (step == 16384u) {
                stopped = true;
                walking = false;
            } else {
                looked += 1u;
                LbvhNode k = lbvhNodes[node];
                uint end = lbvhRangeEnd(node);
                bool overlaps = k.minX <= hi.x && k.minY <= hi.y && k.minZ <= hi.z &&
                                k.maxX >= lo.x && k.maxY >= lo.y && k.maxZ >= lo.z;
                bool descend = end > i && overlaps && k.right != LBVH_LEAF;
                if (descend) {
                    node = k.left;
                } else {
                    if (end > i && overlaps) {
                        overlapping += 1u;
                        if (!selfInertPair(a, k.left)) batch[held++] = k.left;
                    }
                    uint next = end + 1u;
                    if (next >= n)
                        walking = false;
                    else
                        node = next + 1u < n && lbvhRangeEnd(next) > next ? next : n - 1u + next;
                }
            }
        }
        bool ended = !walking;
        if (subgroupAny(held == SELF_WALK_BATCH) || subgroupAll(ended)) {
            for (uint j = 0u; j < held; ++j) testPair(i, a, batch[j], found, chunk, tested);
            held = 0u;
        }
        if (subgroupAll(ended)) break;
    }
    if (!live) return 0u;
    if (stopped) state.truncated |= 1u;
    if (overlapping > 0u) atomicAdd(state.pairs, overlapping);
    if (tested > 0u) atomicAdd(state.tested, tested);
    atomicAdd(state.walkNodes, looked);
    return found;
}

// The walk: its counts and its candidates in the pool; and (in the same dispatch, over the
// larger of the three) the memory table emptied and the vertices' list counts zeroed.
void jobGather() {
    uint i = linearIndex();
    if (i < (1u << state.memoryBits)) memoryKeys[i] = uvec4(0u);
    if (i < state.vertices) listCount(i) = 0u;
    uint found = walk(i, i < state.triangles);  // every invocation: the subgroup's votes
    if (i < state.triangles) walkCount(i) = found;
}

// Per slot of the chunks taken: its candidate, if the chunk's walk filled it, made again from
// its pair (the same bits) at its triangle's offset (the scanned counts) plus its rank in the
// walk (below the capacity).
void jobGatherPlace() {
    uint s = linearIndex();
    uint chunk = s / SELF_POOL_CHUNK;
    if (chunk >= min(state.poolChunks, poolChunks())) return;
    uvec4 owner = poolChunkOf(chunk);
    uint i = owner.x;
    uint begin = walkCount(i);
    uint end = i + 1u < state.triangles ? walkCount(i + 1u) : state.gathered;
    uint c = begin + owner.y * SELF_POOL_CHUNK + s % SELF_POOL_CHUNK;
    if (c >= end || c >= state.capacity) return;
    uvec4 found = poolSlot(s);
    SelfCandidate cand;
    selfPairCandidate(lbvhOrder[i], found.x, found.y, cand);  // true: the walk kept it
    candidates[c] = cand;
    candGaps(c) = vec4(uintBitsToFloat(found.zw), 0.0, 0.0);
    candSide(c) = vec4(0.0);  // EVALUATE looks the memory up
}

void main() {
    switch (pc.job) {
        case SELF_JOB_MEMORY_INSERT: jobMemoryInsert(); break;
        case SELF_JOB_GATHER: jobGather(); break;
        case SELF_JOB_GATHER_PLACE: jobGatherPlace(); break;
    }
}
