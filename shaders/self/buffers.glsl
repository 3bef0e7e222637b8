// The storage buffers of self-collision's kernels (shaders/self_*.comp; set 0, in the order of
// src/vk/self/self_collision_gpu.cpp's bind list): the solver's vertex state and triangles, the
// load-time data, the hierarchy, the candidates, per-vertex data and the shared state. Small
// arrays share a buffer (llvmpipe allows 32 storage buffers per stage); the accessors below find
// them.
#ifndef CLOTH_SELF_BUFFERS_GLSL
#define CLOTH_SELF_BUFFERS_GLSL

#include "kernels/common.h"
#include "kernels/self_jobs.h"

layout(local_size_x_id = 0) in;

layout(push_constant) uniform Push { SelfPush pc; };

layout(std430, set = 0, binding = 0) buffer Positions { vec4 positions[]; };
layout(std430, set = 0, binding = 1) buffer Start { vec4 start[]; };
layout(std430, set = 0, binding = 2) readonly buffer Predicted { vec4 predicted[]; };
layout(std430, set = 0, binding = 3) readonly buffer Triangles { uint triangles[]; };
layout(std430, set = 0, binding = 4) readonly buffer TriInfo { uint triInfo[]; };
layout(std430, set = 0, binding = 5) readonly buffer TriThickness { float triThickness[]; };
// The rest mesh's neighbours (prep/self_collision_data.h RestNeighbours).
layout(std430, set = 0, binding = 6) readonly buffer RestVtOffsets { uint restVtOffsets[]; };
layout(std430, set = 0, binding = 7) readonly buffer RestVt { uint restVt[]; };
layout(std430, set = 0, binding = 8) readonly buffer RestEeOffsets { uint restEeOffsets[]; };
layout(std430, set = 0, binding = 9) readonly buffer RestEe { uint restEe[]; };
layout(std430, set = 0, binding = 10) readonly buffer InertOffsets { uint inertOffsets[]; };
layout(std430, set = 0, binding = 11) readonly buffer Inert { uint inert[]; };
// The triangles' boxes (lo, hi), then the partial unions (BOX_REDUCE, MOTION_REDUCE: workBase*).
layout(std430, set = 0, binding = 12) buffer Work { vec4 work[]; };
layout(std430, set = 0, binding = 13) buffer Codes { uint lbvhCodes[]; };
layout(std430, set = 0, binding = 14) buffer Order { uint lbvhOrder[]; };
// The sort's second codes and order, then its histograms.
layout(std430, set = 0, binding = 15) buffer Scratch { uint scratch[]; };

#include "kernels/lbvh_tree.h"

layout(std430, set = 0, binding = 16) coherent buffer Nodes { LbvhNode lbvhNodes[]; };
// Per node: parents, then range ends, then arrival counters.
layout(std430, set = 0, binding = 17) coherent buffer NodeInts { uint nodeInts[]; };

#define CLOTH_HAS_LBVH_CODES
#include "kernels/lbvh_tree.h"

layout(std430, set = 0, binding = 18) buffer MemoryKeys { uvec4 memoryKeys[]; };
layout(std430, set = 0, binding = 19) buffer MemoryNormals { vec4 memoryNormals[]; };
layout(std430, set = 0, binding = 20) coherent buffer State { SelfState state; };

#include "kernels/self_contacts.h"

layout(std430, set = 0, binding = 21) buffer Candidates { SelfCandidate candidates[]; };
// Per candidate: its gaps at the detection (x: the boxes', y: the primitives' distance), then
// its side (the last substep's direction as its key reads it; w 1 when it was a contact).
layout(std430, set = 0, binding = 22) buffer CandData { vec4 candData[]; };
// Per candidate this substep: g (0 when no contact), then the normal and the distance to keep.
layout(std430, set = 0, binding = 23) buffer SlotContacts { vec4 slotContacts[]; };
// Per original vertex: where the detection saw it and its bound, its moves (selfVertexMoves:
// since the detection, then from a fresh one), the passes' two arrays, a fresh detection's
// position and bound, and its least budgets.
layout(std430, set = 0, binding = 24) buffer VertexData { vec4 vertexData[]; };
// Counts and lists, per original vertex unless said: the lists' offsets (vertices + 1), their
// counts (then cursors), the contacts' counts, the vertex order's colours, the vertices by
// colour, phantom groups (~0u: none); per triangle the walk's counts; per vertex its original;
// the phantom groups (first, count) and members; the scans' sums.
layout(std430, set = 0, binding = 25) buffer Ints { uint ints[]; };
// Per candidate 4 slots in the lists of its vertices, then as many for the contacts' lists.
layout(std430, set = 0, binding = 26) coherent buffer Slots { uint slots[]; };

// The rest neighbours as pairs (prep/self_collision_data.h RestPairs), and per original vertex
// its pairs (offsets, vertices + 1, then pair indices).
layout(std430, set = 0, binding = 27) readonly buffer RestPairs { SelfCandidate restPairs[]; };
layout(std430, set = 0, binding = 28) readonly buffer RestPairLists { uint restPairLists[]; };

// The substep's separating planes (kernels/self_motion.h): per candidate, then per rest pair,
// its direction and distance at the start, and its budgets (own, still).
layout(std430, set = 0, binding = 29) buffer Planes { vec4 planes[]; };
layout(std430, set = 0, binding = 30) buffer RestPlanes { vec4 restPlanes[]; };

// The walk's pool (kernels/self_jobs.h SELF_POOL_CHUNK): per slot a candidate as the walk found
// it (the other triangle, the owned pair's index, the gaps' bits), then per chunk its sorted
// triangle and the chunk's rank in that triangle's walk.
layout(std430, set = 0, binding = 31) buffer Pool { uvec4 pool[]; };

#define CLOTH_HAS_SELF_ARRAYS
#include "kernels/self_contacts.h"

uint selfV() { return state.vertices; }
#define detectedOf(v) vertexData[(v)]
#define movesOf(v) vertexData[state.vertices + (v)]
#define snapOf(k, v) vertexData[(2u + (k)) * state.vertices + (v)]
// A fresh detection's position and bound of each vertex (MOTION_CHECK), and its least budgets
// (COMPACT).
#define freshOf(v) vertexData[4u * state.vertices + (v)]
#define leastOf(v) vertexData[5u * state.vertices + (v)]
#define restPlaneDir(r) restPlanes[2u * (r)]
#define restPlaneBudgets(r) restPlanes[2u * (r) + 1u]
#define planeDir(c) planes[2u * (c)]
#define planeBudgets(c) planes[2u * (c) + 1u]
#define listOffset(v) ints[(v)]
#define listCount(v) ints[state.vertices + 1u + (v)]
#define activeCount(v) ints[2u * state.vertices + 1u + (v)]
// (At a detection, before COMPACT: the long lists' vertices, LIST_SORT_LONG's queue.)
#define longList(k) ints[2u * state.vertices + 1u + (k)]
#define colourOf(v) ints[3u * state.vertices + 1u + (v)]
#define colourOrder(i) ints[4u * state.vertices + 1u + (i)]
#define groupOf(v) ints[5u * state.vertices + 1u + (v)]
#define walkCount(i) ints[6u * state.vertices + 1u + (i)]
uint originalBase() { return 6u * state.vertices + 1u + state.triangles; }
#define originalOf(v) ints[originalBase() + (v)]
uint phantomBase() { return originalBase() + state.allVertices; }
uint phantomMembersBase() { return phantomBase() + 2u * state.phantomGroups; }
uint scanSumsBase() {
    return phantomMembersBase() + state.phantomGroups + state.allVertices - state.vertices;
}
#define listSlot(i) slots[(i)]
#define activeSlot(i) slots[4u * state.capacity + (i)]
#define poolSlot(s) pool[(s)]
#define poolChunkOf(k) pool[state.poolCapacity + (k)]
#define candGaps(c) candData[2u * (c)]
#define candSide(c) candData[2u * (c) + 1u]
#define slotWeights(c) slotContacts[2u * (c)]
#define slotNormal(c) slotContacts[2u * (c) + 1u]
uint nodeCount() { return 2u * state.triangles - 1u; }
#define lbvhParent(k) nodeInts[(k)]
#define lbvhRangeEnd(k) nodeInts[nodeCount() + (k)]
#define lbvhArrival(k) nodeInts[2u * nodeCount() + (k)]
#define lbvhCodes2(k) scratch[(k)]
#define lbvhOrder2(k) scratch[state.triangles + (k)]
#define histogram(k) scratch[2u * state.triangles + (k)]

// `work`'s layout: the triangles' boxes (lo, hi), the scene's box and Morton grid (BOX_REDUCE's
// top), the boxes' partial unions by levels (level 0: BOXES' workgroups; level k + 1: the unions
// of level k's blocks of SELF_SCAN_BLOCK), then the motion's ranges by levels
// (SELF_MOTION_RANGES per item).
uint levelItemsOf(uint n, uint k) {
    for (uint j = 0u; j < k; ++j) n = (n + SELF_SCAN_BLOCK - 1u) / SELF_SCAN_BLOCK;
    return n;
}
uint levelsBefore(uint n, uint k, uint stride) {
    uint base = 0u;
    for (uint j = 0u; j < k; ++j) {
        base += stride * n;
        n = (n + SELF_SCAN_BLOCK - 1u) / SELF_SCAN_BLOCK;
    }
    return base;
}
// Levels until one of at most SELF_SCAN_BLOCK items (the top), and one more.
uint levelsTotal(uint n, uint stride) {
    uint total = 0u;
    for (uint j = 0u; j < 8u; ++j) {
        total += stride * n;
        if (n <= SELF_SCAN_BLOCK) break;
        n = (n + SELF_SCAN_BLOCK - 1u) / SELF_SCAN_BLOCK;
    }
    return total + stride;
}
uint sceneBase() { return 2u * state.triangles; }
uint boxLevelBase(uint k) { return sceneBase() + 2u + levelsBefore(state.boxPartials, k, 2u); }
uint motionLevelBase(uint k) {
    return sceneBase() + 2u + levelsTotal(state.boxPartials, 2u) +
           levelsBefore(state.partials, k, SELF_MOTION_RANGES);
}

// The invocation's index in a dispatch of 2D workgroups (selfGroups2D).
uint linearIndex() {
    return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x +
           gl_LocalInvocationID.x;
}

// min and max as std::min / std::max (the first argument unless the second is strictly less or
// greater), so that both backends pick the same zero.
float lessOf(float a, float b) { return b < a ? b : a; }
float moreOf(float a, float b) { return a < b ? b : a; }
vec2 lessOf(vec2 a, vec2 b) { return vec2(lessOf(a.x, b.x), lessOf(a.y, b.y)); }
vec3 lessOf(vec3 a, vec3 b) { return vec3(lessOf(a.x, b.x), lessOf(a.y, b.y), lessOf(a.z, b.z)); }
vec3 moreOf(vec3 a, vec3 b) { return vec3(moreOf(a.x, b.x), moreOf(a.y, b.y), moreOf(a.z, b.z)); }

#endif
