// The compute solver's storage buffers (descriptor set 0, bindings from solver_io.h) and the
// functions the kernels read and write vertex state and constraints with.
//
// Two ways to access memory, chosen per device by the host (the `_wide` shader variants):
//  - plain: vec4 / struct loads and stores, what GPUs do natively;
//  - CLOTH_WIDE_ACCESS: the same bytes as 64-bit words. llvmpipe (lavapipe) emulates every
//    32-bit component of a scattered load or store with a bounds-checked loop over the SIMD
//    lanes, so moving a vec4 as two 64-bit words halves the cost of the solver's memory traffic
//    (measured: about 45% fewer instructions per frame). Needs shaderInt64.
// The bit patterns are moved unchanged, so both give identical results.
#ifndef CLOTH_SOLVER_BUFFERS_GLSL
#define CLOTH_SOLVER_BUFFERS_GLSL

#include "constraints.h"
#include "solver_io.h"

// In a colour run (colors_run.comp) an invocation reads positions that other invocations of its
// workgroup wrote before a barrier(): `coherent` makes those writes visible to it.
#ifdef CLOTH_COLOR_RUN
#define CLOTH_POSITIONS_MEMORY coherent
#else
#define CLOTH_POSITIONS_MEMORY
#endif

layout(std430, binding = BINDING_LAMBDA_DISTANCE) buffer LambdaDistance { float lambdaDistance[]; };
layout(std430, binding = BINDING_LAMBDA_BENDING) buffer LambdaBending { float lambdaBending[]; };
layout(std430, binding = BINDING_ATTACHMENTS) readonly buffer Attachments { Attachment attachments[]; };
layout(std430, binding = BINDING_MOTIONS) readonly buffer Motions { Motion motions[]; };
layout(std430, binding = BINDING_LAMBDA_ATTACH) buffer LambdaAttach { float lambdaAttach[]; };
layout(std430, binding = BINDING_TETHERS) readonly buffer Tethers { Tether tethers[]; };
layout(std430, binding = BINDING_PHANTOM_GROUPS) readonly buffer PhantomGroups { PhantomGroup phantomGroups[]; };
layout(std430, binding = BINDING_PHANTOM_MEMBERS) readonly buffer PhantomMembers { uint phantomMembers[]; };
layout(std430, binding = BINDING_SEGMENTS) readonly buffer Segments { ClothSegment segments[]; };
layout(std430, binding = BINDING_CHUNKS) readonly buffer Chunks { VertexChunk chunks[]; };
layout(std430, binding = BINDING_SEGMENT_SUM_CHUNKS) readonly buffer SegmentSumChunks { uvec2 segmentSumChunks[]; };
layout(std430, binding = BINDING_SUM_CHUNKS) readonly buffer SumChunks { VertexChunk sumChunks[]; };
layout(std430, binding = BINDING_COLOR_RANGES) readonly buffer ColorRanges { uvec4 colorRanges[]; };
layout(std430, binding = BINDING_RIGID_PARTIALS) buffer RigidPartials { RigidSums rigidPartials[]; };
layout(std430, binding = BINDING_RIGID_MOTIONS) buffer RigidMotions { RigidMotion rigidMotions[]; };
layout(std430, binding = BINDING_TRIANGLES) readonly buffer Triangles { uint triangles[]; };
layout(std430, binding = BINDING_VERTEX_TRI_OFFSETS) readonly buffer VertexTriOffsets { uint vertexTriOffsets[]; };
layout(std430, binding = BINDING_VERTEX_TRIANGLES) readonly buffer VertexTriangles { uint vertexTriangles[]; };

#ifdef CLOTH_WIDE_ACCESS

layout(std430, binding = BINDING_POSITIONS) CLOTH_POSITIONS_MEMORY buffer Positions { u64vec2 positions[]; };
layout(std430, binding = BINDING_PREDICTED) buffer Predicted { u64vec2 predicted[]; };
layout(std430, binding = BINDING_VELOCITIES) buffer Velocities { u64vec2 velocities[]; };
layout(std430, binding = BINDING_NORMALS) writeonly buffer Normals { u64vec2 normals[]; };
layout(std430, binding = BINDING_DISTANCE) readonly buffer Distances { u64vec2 distances[]; };
// A BendingConstraint is two 16-byte halves: v0..v3, then restAngle, param and padding.
layout(std430, binding = BINDING_BENDING) readonly buffer Bendings { u64vec2 bendings[]; };

uvec4 wordsOf(u64vec2 w) { return uvec4(unpackUint2x32(w.x), unpackUint2x32(w.y)); }
vec4 vec4Of(u64vec2 w) { return uintBitsToFloat(wordsOf(w)); }
u64vec2 wideOf(vec4 v) {
    uvec4 u = floatBitsToUint(v);
    return u64vec2(packUint2x32(uvec2(u.x, u.y)), packUint2x32(uvec2(u.z, u.w)));
}

vec4 loadPosition(uint v) { return vec4Of(positions[v]); }
vec4 loadPredicted(uint v) { return vec4Of(predicted[v]); }
vec4 loadVelocity(uint v) { return vec4Of(velocities[v]); }
void storePosition(uint v, vec4 x) { positions[v] = wideOf(x); }
void storePredicted(uint v, vec4 x) { predicted[v] = wideOf(x); }
void storeVelocity(uint v, vec4 x) { velocities[v] = wideOf(x); }
void storeNormal(uint v, vec4 x) { normals[v] = wideOf(x); }

DistanceConstraint loadDistance(uint k) {
    uvec4 w = wordsOf(distances[k]);
    DistanceConstraint c;
    c.v0 = w.x;
    c.v1 = w.y;
    c.restLength = uintBitsToFloat(w.z);
    c.param = uintBitsToFloat(w.w);
    return c;
}

BendingConstraint loadBending(uint k) {
    uvec4 v = wordsOf(bendings[2u * k]);
    uvec2 w = unpackUint2x32(bendings[2u * k + 1u].x);
    BendingConstraint c;
    c.v0 = v.x;
    c.v1 = v.y;
    c.v2 = v.z;
    c.v3 = v.w;
    c.restAngle = uintBitsToFloat(w.x);
    c.param = uintBitsToFloat(w.y);
    c.pad0 = 0u;
    c.pad1 = 0u;
    return c;
}

#else

layout(std430, binding = BINDING_POSITIONS) CLOTH_POSITIONS_MEMORY buffer Positions { vec4 positions[]; };
layout(std430, binding = BINDING_PREDICTED) buffer Predicted { vec4 predicted[]; };
layout(std430, binding = BINDING_VELOCITIES) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = BINDING_NORMALS) writeonly buffer Normals { vec4 normals[]; };
layout(std430, binding = BINDING_DISTANCE) readonly buffer Distances { DistanceConstraint distances[]; };
layout(std430, binding = BINDING_BENDING) readonly buffer Bendings { BendingConstraint bendings[]; };

vec4 loadPosition(uint v) { return positions[v]; }
vec4 loadPredicted(uint v) { return predicted[v]; }
vec4 loadVelocity(uint v) { return velocities[v]; }
void storePosition(uint v, vec4 x) { positions[v] = x; }
void storePredicted(uint v, vec4 x) { predicted[v] = x; }
void storeVelocity(uint v, vec4 x) { velocities[v] = x; }
void storeNormal(uint v, vec4 x) { normals[v] = x; }
DistanceConstraint loadDistance(uint k) { return distances[k]; }
BendingConstraint loadBending(uint k) { return bendings[k]; }

#endif

#endif
