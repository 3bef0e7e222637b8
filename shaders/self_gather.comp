// A detection's walk (sim/self_phases.h's Gather; src/vk/self/): the memory of the last
// substep's contacts' sides, then per triangle in sorted order the triangles after it whose
// boxes (grown by their corners' bounds) overlap its own, and of each pair the owned primitive
// pairs within reach plus their corners' bounds at the substep's start (kernels/self_motion.h):
// counted, their offsets scanned (shaders/self_scan.comp), then stored, so that the candidates
// come out in src/cpu/self/candidates.cpp's order.
#version 450
#extension GL_GOOGLE_include_directive : require

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

// Sorted position i's triangle against the triangles after it in sorted order whose boxes
// overlap its own (lbvhWalkAfter of prep/lbvh.h: depth first, left child first), each pair's
// owned primitive pairs tested: the candidates counted, or stored from `offset` (below the
// capacity). Without a stack: in Karras' layout the node that depth-first order visits after a
// node's subtree (its escape) follows from the subtree's last primitive b alone: the right child
// of the split at b, which starts at b + 1: internal node b + 1 if that node's range starts there
// (its end lies past it), else leaf b + 1; after b = n - 1 the walk is over. The same nodes in
// the same order as with a stack.
uint walk(uint i, bool store, uint offset) {
    uint n = state.triangles;
    if (n < 2u) return 0u;
    uint a = lbvhOrder[i];
    vec3 lo = vec3(work[2u * a]);
    vec3 hi = vec3(work[2u * a + 1u]);
    uint found = 0u;
    uint overlapping = 0u;
    uint tested = 0u;
    uint looked = 0u;
    uint node = 0u;
    bool done = false;
    for (uint step = 0u; step < 16384u; ++step) {
        looked += 1u;
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
                    if (store && offset + found < state.capacity) {
                        uint c = offset + found;
                        candidates[c] = cand;
                        candGaps(c) = vec4(gap, distance, 0.0, 0.0);
                        candSide(c) = vec4(0.0);  // EVALUATE looks the memory up
                    }
                    found += 1u;
                }
            }
        }
        uint next = end + 1u;
        if (next >= n) {
            done = true;
            break;
        }
        node = next + 1u < n && lbvhRangeEnd(next) > next ? next : n - 1u + next;
    }
    if (!done) state.truncated |= 1u;
    if (!store) {
        if (overlapping > 0u) atomicAdd(state.pairs, overlapping);
        if (tested > 0u) atomicAdd(state.tested, tested);
        atomicAdd(state.walkNodes, looked);
    }
    return found;
}

// The walk's counts; and (in the same dispatch, over the larger of the three) the memory table
// emptied and the vertices' list counts zeroed.
void jobGatherCount() {
    uint i = linearIndex();
    if (i < (1u << state.memoryBits)) memoryKeys[i] = uvec4(0u);
    if (i < state.vertices) listCount(i) = 0u;
    if (i < state.triangles) walkCount(i) = walk(i, false, 0u);
}

void jobGatherWrite() {
    uint i = linearIndex();
    if (i < state.triangles) walk(i, true, walkCount(i));
}

void main() {
    switch (pc.job) {
        case SELF_JOB_MEMORY_INSERT: jobMemoryInsert(); break;
        case SELF_JOB_GATHER_COUNT: jobGatherCount(); break;
        case SELF_JOB_GATHER_WRITE: jobGatherWrite(); break;
    }
}
