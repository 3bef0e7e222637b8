// The storage buffers of self_collide.comp (set 0, in src/vk/self_collision_gpu.cpp's bindAll
// order): the solver's vertex state and triangles, and self-collision's own. Small arrays share
// a buffer (llvmpipe allows 32 storage buffers per stage); the accessors below find them.
#ifndef CLOTH_SELF_LBVH_BUFFERS_GLSL
#define CLOTH_SELF_LBVH_BUFFERS_GLSL

#include "kernels/common.h"

layout(std430, set = 0, binding = 0) buffer Positions { vec4 positions[]; };
layout(std430, set = 0, binding = 1) buffer Start { vec4 start[]; };
layout(std430, set = 0, binding = 2) readonly buffer Predicted { vec4 predicted[]; };
layout(std430, set = 0, binding = 3) readonly buffer Triangles { uint triangles[]; };
layout(std430, set = 0, binding = 4) readonly buffer TriInfo { uint triInfo[]; };
layout(std430, set = 0, binding = 5) readonly buffer TriThickness { float triThickness[]; };
layout(std430, set = 0, binding = 6) buffer Tight { vec4 tight[]; };
// boxes (2 per triangle), then the partial boxes (2 per workgroup), then the scene's box and
// grid (2).
layout(std430, set = 0, binding = 7) buffer Work { vec4 work[]; };
layout(std430, set = 0, binding = 8) buffer Codes { uint lbvhCodes[]; };
layout(std430, set = 0, binding = 9) buffer Order { uint lbvhOrder[]; };
// the sort's second codes and order (n each), then its histograms.
layout(std430, set = 0, binding = 10) buffer Scratch { uint scratch[]; };

#include "kernels/lbvh_tree.h"

layout(std430, set = 0, binding = 11) coherent buffer Nodes { LbvhNode lbvhNodes[]; };
// per node: parents, then range ends, then arrival counters.
layout(std430, set = 0, binding = 12) coherent buffer NodeInts { uint nodeInts[]; };

#define CLOTH_HAS_LBVH_CODES
#include "kernels/lbvh_tree.h"

// The rest-mesh neighbours (cpu/self_collision.h RestNeighbours), the memory table, the contacts.
layout(std430, set = 0, binding = 13) readonly buffer RestVtOffsets { uint restVtOffsets[]; };
layout(std430, set = 0, binding = 14) readonly buffer RestVt { uint restVt[]; };
layout(std430, set = 0, binding = 15) readonly buffer RestEeOffsets { uint restEeOffsets[]; };
layout(std430, set = 0, binding = 16) readonly buffer RestEe { uint restEe[]; };
layout(std430, set = 0, binding = 17) readonly buffer InertOffsets { uint inertOffsets[]; };
layout(std430, set = 0, binding = 18) readonly buffer Inert { uint inert[]; };
layout(std430, set = 0, binding = 19) buffer MemoryKeys { uvec4 memoryKeys[]; };
layout(std430, set = 0, binding = 20) buffer MemoryNormals { vec4 memoryNormals[]; };
layout(std430, set = 0, binding = 21) buffer WalkCounts { uint walkCounts[]; };

#include "kernels/self_contacts.h"

layout(std430, set = 0, binding = 22) buffer Contacts { SelfContact contacts[]; };
// Counters: total contacts of the substep, their capacity, the most of any substep of the
// frame, triangle pairs and primitive pairs tested (last substep), the memory's bits, the close
// triangle pairs to test and their capacity; at 32 the dispatch over the stored contacts, at
// 48 over the stored pairs (x, y, z); the most pairs and the most colours (below the last) of
// any substep; from 80 the colored
// order's dispatch over each colour.
layout(std430, set = 0, binding = 23) buffer Counters {
    uint total;
    uint capacity;
    uint mostTotal;
    uint candidatePairs;
    uint primitivePairs;
    uint memoryBits;
    uint totalPairs;
    uint pairCapacity;
    uvec4 contactGroups;
    uvec4 pairGroups;
    uint mostPairs;
    uint mostColors;  // colored: the most colours (1 + the highest) any substep of the frame used
    uint truncated;   // nonzero when a loop stopped before its end (self_collide.comp, SERIAL_BUDGET)
    uint uncolored;   // colored: contacts the frame's colouring rounds left uncoloured
    uvec4 colorGroups[SELF_COLOR_SLOTS];
    // colored: per colouring round its dispatch over the contacts still uncoloured (x groups;
    // w: their count)
    uvec4 roundGroups[SELF_COLOR_ROUNDS + 1u];
} counters;
// Jacobi: per original vertex its count (then cursor), then the lists' offsets (vertices + 1).
// Colored: per original vertex the colours its contacts took (four words), then three arrays of
// per original vertex the highest priority of its uncoloured contacts (the rounds' in turn).
layout(std430, set = 0, binding = 24) buffer Lists { uint lists[]; };
// Jacobi: the lists' slots (4 per contact). Colored: the contacts by colour, then (from the
// capacity) each contact's colour, then (from 2 and 3 x the capacity) the colouring rounds' lists
// of uncoloured contacts, then (from 4 x the capacity) the colours' offsets.
layout(std430, set = 0, binding = 25) buffer Slots { uint slots[]; };
layout(std430, set = 0, binding = 26) buffer Corrections { vec4 corrections[]; };
// Jacobi: per original vertex what it moved by; colored: where it was before the pass.
layout(std430, set = 0, binding = 27) buffer Moved { vec4 moved[]; };
// phantom groups (first, count), then their members.
layout(std430, set = 0, binding = 28) readonly buffer Phantoms { uint phantoms[]; };
// the memory table kept at the frame's start: keys, then normals (as bits).
layout(std430, set = 0, binding = 29) readonly buffer Old { uvec4 old[]; };
// The close triangle pairs to test (not inert), in walk order: (a, b); per pair its contacts'
// count, then offset.
layout(std430, set = 0, binding = 30) buffer Pairs { uvec2 pairs[]; };
layout(std430, set = 0, binding = 31) buffer PairCounts { uint pairCounts[]; };

#define CLOTH_HAS_SELF_ARRAYS
#include "kernels/self_contacts.h"

#endif
