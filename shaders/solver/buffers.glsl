// The compute solver's storage buffers (descriptor sets and bindings from solver_io.h) and the
// functions the kernels read and write vertex state and constraints with.
//
// Two ways to access memory, chosen per device by the host (the `_wide` shader variants, built
// from every kernel that says `cloth: wide variant` with CLOTH_WIDE_ACCESS by cmake/Shaders.cmake):
//  - plain: vec4 / struct loads and stores, what GPUs do natively;
//  - CLOTH_WIDE_ACCESS: the same bytes as 64-bit words. llvmpipe (lavapipe) emulates every
//    32-bit component of a scattered load or store with a bounds-checked loop over the SIMD
//    lanes, so moving a vec4 as two 64-bit words halves the cost of the solver's memory traffic
//    (measured: about 45% fewer instructions per frame). Needs shaderInt64.
// The bit patterns are moved unchanged, so both give identical results.
#ifndef CLOTH_SOLVER_BUFFERS_GLSL
#define CLOTH_SOLVER_BUFFERS_GLSL

#ifdef CLOTH_WIDE_ACCESS
#extension GL_ARB_gpu_shader_int64 : require
#endif

#include "kernels/solver_io.h"

// In a colour run (colors_run.comp) an invocation reads positions that other invocations of its
// workgroup wrote before a barrier(): `coherent` makes those writes visible to it.
#ifdef CLOTH_COLOR_RUN
#define CLOTH_POSITIONS_MEMORY coherent
#else
#define CLOTH_POSITIONS_MEMORY
#endif

// Per constraint type (constraint_types.h): its multipliers.
#define CLOTH_X(I, Name, name, Item, V, W, Lam) \
    layout(std430, set = SET_CONSTRAINTS, binding = BINDING_TYPE_LAMBDAS(I)) buffer Name##Lambdas { Lam name##Lambdas[]; };
CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X
layout(std430, set = SET_VERTEX, binding = BINDING_ATTACHMENTS) readonly buffer Attachments { Attachment attachments[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_MOTIONS) readonly buffer Motions { Motion motions[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_LAMBDA_ATTACH) buffer LambdaAttach { float lambdaAttach[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_TETHERS) readonly buffer Tethers { Tether tethers[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_PHANTOM_GROUPS) readonly buffer PhantomGroups { PhantomGroup phantomGroups[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_PHANTOM_MEMBERS) readonly buffer PhantomMembers { uint phantomMembers[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_SEGMENTS) readonly buffer Segments { ClothSegment segments[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_CHUNKS) readonly buffer Chunks { VertexChunk chunks[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_SEGMENT_SUM_CHUNKS) readonly buffer SegmentSumChunks { uvec2 segmentSumChunks[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_SUM_CHUNKS) readonly buffer SumChunks { VertexChunk sumChunks[]; };
layout(std430, set = SET_CONSTRAINTS, binding = BINDING_COLOR_RANGES) readonly buffer ColorRanges { uvec2 colorRanges[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_RIGID_PARTIALS) buffer RigidPartials { RigidSums rigidPartials[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_RIGID_MOTIONS) buffer RigidMotions { RigidMotion rigidMotions[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_TRIANGLES) readonly buffer Triangles { uint triangles[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_VERTEX_TRI_OFFSETS) readonly buffer VertexTriOffsets { uint vertexTriOffsets[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_VERTEX_TRIANGLES) readonly buffer VertexTriangles { uint vertexTriangles[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_WIND_VERTICES) readonly buffer WindVertices { WindVertex windVertices[]; };
layout(std430, set = SET_VERTEX, binding = BINDING_CLOCK) readonly buffer Clock { FrameClock clock[]; };

#ifdef CLOTH_WIDE_ACCESS

layout(std430, set = SET_STATE, binding = BINDING_POSITIONS) CLOTH_POSITIONS_MEMORY buffer Positions { u64vec2 positions[]; };
layout(std430, set = SET_STATE, binding = BINDING_PREDICTED) buffer Predicted { u64vec2 predicted[]; };
layout(std430, set = SET_STATE, binding = BINDING_VELOCITIES) buffer Velocities { u64vec2 velocities[]; };
layout(std430, set = SET_STATE, binding = BINDING_NORMALS) writeonly buffer Normals { u64vec2 normals[]; };
// Per constraint type: its items as 64-bit words, read by <name>LoadWide of the type's file.
#define CLOTH_X(I, Name, name, Item, V, W, Lam)                                     \
    layout(std430, set = SET_CONSTRAINTS, binding = BINDING_TYPE_ITEMS(I)) readonly buffer Name##Items {   \
        u64vec2 name##Words[];                                                      \
    };
CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X

uvec4 wordsOf(u64vec2 w) { return uvec4(unpackUint2x32(w.x), unpackUint2x32(w.y)); }
vec4 vec4Of(u64vec2 w) { return uintBitsToFloat(wordsOf(w)); }
u64vec2 wideOf(vec4 v) {
    uvec4 u = floatBitsToUint(v);
    return u64vec2(packUint2x32(uvec2(u.x, u.y)), packUint2x32(uvec2(u.z, u.w)));
}

vec4 loadStatePosition(uint v) { return vec4Of(positions[v]); }
vec4 loadPredicted(uint v) { return vec4Of(predicted[v]); }
vec4 loadVelocity(uint v) { return vec4Of(velocities[v]); }
void storeStatePosition(uint v, vec4 x) { positions[v] = wideOf(x); }
void storePredicted(uint v, vec4 x) { predicted[v] = wideOf(x); }
void storeVelocity(uint v, vec4 x) { velocities[v] = wideOf(x); }
void storeNormal(uint v, vec4 x) { normals[v] = wideOf(x); }

#else

layout(std430, set = SET_STATE, binding = BINDING_POSITIONS) CLOTH_POSITIONS_MEMORY buffer Positions { vec4 positions[]; };
layout(std430, set = SET_STATE, binding = BINDING_PREDICTED) buffer Predicted { vec4 predicted[]; };
layout(std430, set = SET_STATE, binding = BINDING_VELOCITIES) buffer Velocities { vec4 velocities[]; };
layout(std430, set = SET_STATE, binding = BINDING_NORMALS) writeonly buffer Normals { vec4 normals[]; };
#define CLOTH_X(I, Name, name, Item, V, W, Lam) \
    layout(std430, set = SET_CONSTRAINTS, binding = BINDING_TYPE_ITEMS(I)) readonly buffer Name##Items { Item name##Items[]; };
CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X

vec4 loadStatePosition(uint v) { return positions[v]; }
vec4 loadPredicted(uint v) { return predicted[v]; }
vec4 loadVelocity(uint v) { return velocities[v]; }
void storeStatePosition(uint v, vec4 x) { positions[v] = x; }
void storePredicted(uint v, vec4 x) { predicted[v] = x; }
void storeVelocity(uint v, vec4 x) { velocities[v] = x; }
void storeNormal(uint v, vec4 x) { normals[v] = x; }

#endif

// What the shared solves (CLOTH_LOAD / CLOTH_STORE) load and store positions through: the state
// buffer, or, in the Jacobi kernel's item pass (CLOTH_JACOBI_LOCAL), the item's own local copies
// (jacobiIndex[j]: its j-th vertex; jacobiLocal[j]: that vertex's copy), found by vertex index.
#ifdef CLOTH_JACOBI_LOCAL
uint jacobiIndex[4];
vec4 jacobiLocal[4];
uint jacobiSlot(uint v) {
    return v == jacobiIndex[0] ? 0u : v == jacobiIndex[1] ? 1u : v == jacobiIndex[2] ? 2u : 3u;
}
vec4 loadPosition(uint v) { return jacobiLocal[jacobiSlot(v)]; }
void storePosition(uint v, vec4 x) { jacobiLocal[jacobiSlot(v)] = x; }
#else
vec4 loadPosition(uint v) { return loadStatePosition(v); }
void storePosition(uint v, vec4 x) { storeStatePosition(v, x); }
#endif

// The maths, and now that positions can be loaded and stored, each type's per-item solve.
#define CLOTH_HAS_POSITIONS 1
#include "kernels/constraints.h"
#include "kernels/constraint_types.h"

// load<Name>(k): item k of a constraint type.
#ifdef CLOTH_WIDE_ACCESS
#define CLOTH_X(I, Name, name, Item, V, W, Lam) \
    Item load##Name(uint k) { return name##LoadWide(k); }
#else
#define CLOTH_X(I, Name, name, Item, V, W, Lam) \
    Item load##Name(uint k) { return name##Items[k]; }
#endif
CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X

#endif
