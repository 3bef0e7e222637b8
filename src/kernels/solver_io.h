// The compute solver's interface between C++ and GLSL: descriptor bindings and push constants.
// One definition for both sides (the renderer may bind the same buffers: see gpu_solver.h).
#ifndef CLOTH_KERNELS_SOLVER_IO_H
#define CLOTH_KERNELS_SOLVER_IO_H

#include "kernels/common.h"
#include "kernels/types.h"
#include "kernels/constraint_types.h"
#include "kernels/wind.h"
#include "kernels/jacobi.h"

// Descriptor sets, one per group of buffers (bindings are numbered across all sets, so a
// binding's number names its buffer; bindingSet() below gives its set):
//  - SET_STATE: the vertex state (positions, predicted positions, velocities, normals);
//  - SET_VERTEX: what the per-vertex passes read (pins, tethers, phantoms, damping, normals'
//    triangles, wind);
//  - SET_CONSTRAINTS: each constraint type's items and multipliers, and the colour ranges;
//  - SET_COLLISIONS: the colliders, mesh colliders' hierarchies and the contact state.
// A kernel's pipeline layout holds only the sets it uses: the colour kernels SET_STATE and
// SET_CONSTRAINTS (an empty layout in between), the contact kernel SET_STATE, SET_VERTEX and
// SET_COLLISIONS (an empty set 2), every other kernel SET_STATE and SET_VERTEX.
// llvmpipe re-binds every buffer of a pipeline's layout on each dispatch, so fewer is faster.
#define SET_STATE 0
#define SET_VERTEX 1
#define SET_CONSTRAINTS 2
#define SET_COLLISIONS 3
#define SET_COUNT 4
#define BINDING_POSITIONS 0       // vec4 per vertex (phantoms included): xyz, w = inverse mass
#define BINDING_PREDICTED 1       // vec4 per vertex: predicted position of the substep
#define BINDING_VELOCITIES 2      // vec4 per vertex (the predicted velocity inside a substep)
#define BINDING_NORMALS 3         // vec4 per original vertex
#define BINDING_ATTACHMENTS 4     // Attachment[]
#define BINDING_MOTIONS 5         // Motion[]
#define BINDING_LAMBDA_ATTACH 6   // float per attachment, then one for the grab
#define BINDING_TETHERS 7         // Tether[]
#define BINDING_PHANTOM_GROUPS 8  // PhantomGroup[]
#define BINDING_PHANTOM_MEMBERS 9 // uint[]
#define BINDING_SEGMENTS 10       // ClothSegment[]
#define BINDING_CHUNKS 11         // VertexChunk[]: the workgroups of the per-vertex passes
#define BINDING_SEGMENT_SUM_CHUNKS 12 // uvec2 per segment: its first sum chunk and their count
#define BINDING_RIGID_PARTIALS 13 // RigidSums per sum chunk
#define BINDING_RIGID_MOTIONS 14  // RigidMotion per segment
#define BINDING_TRIANGLES 15      // uint[3 * triangles] (also usable as an index buffer)
#define BINDING_VERTEX_TRI_OFFSETS 16  // uint per original vertex + 1 (CSR)
#define BINDING_VERTEX_TRIANGLES 17    // uint[]
#define BINDING_SUM_CHUNKS 18     // VertexChunk[]: the runs of vertices damping sums add up
#define BINDING_COLOR_RANGES 19   // uvec2 (begin, count) per colour and constraint type, colour
                                  // by colour (the colour runs of colors_run.comp)
#define BINDING_WIND_VERTICES 20  // WindVertex per vertex (scenes with wind; else a placeholder)
// Per constraint type I of constraint_types.h: its items, then its multipliers.
#define BINDING_TYPES_BASE 21
#define BINDING_TYPE_ITEMS(I) (BINDING_TYPES_BASE + 2 * (I))
#define BINDING_TYPE_LAMBDAS(I) (BINDING_TYPES_BASE + 2 * (I) + 1)
// Collisions (shaders/solver/contacts.glsl).
#define BINDING_COLLIDERS (BINDING_TYPES_BASE + 2 * CLOTH_CONSTRAINT_TYPE_COUNT)  // Collider[]
#define BINDING_CONTACTS (BINDING_COLLIDERS + 1)        // ContactState per vertex
#define BINDING_MESH_NODES (BINDING_COLLIDERS + 2)      // MeshNode[] (mesh_collider.h)
#define BINDING_MESH_TRIANGLES (BINDING_COLLIDERS + 3)  // MeshTriangle[]
#define BINDING_CONTACT_COUNT (BINDING_COLLIDERS + 4)   // uint: vertices in contact (last substep)
#define BINDING_MESH_FEATURES (BINDING_COLLIDERS + 5)   // MeshFeature[] (feature_contacts.h)
#define BINDING_TRIANGLE_EDGES (BINDING_COLLIDERS + 6)  // uint per cloth triangle: the edges it
                                                        // owns, its segment (feature_contacts.h)
#define BINDING_FEATURE_SUMS (BINDING_COLLIDERS + 7)    // vec4 per cloth triangle corner (3 per
                                                        // triangle), then per original vertex
// Jacobi and Chebyshev iterations (src/kernels/jacobi.h, prep/jacobi_layout.h), in
// SET_CONSTRAINTS: placeholders with Gauss-Seidel.
#define BINDING_JACOBI_BASE (BINDING_COLLIDERS + 8)
#define BINDING_JACOBI_DELTAS BINDING_JACOBI_BASE              // vec4 per item vertex
#define BINDING_JACOBI_VERTICES (BINDING_JACOBI_BASE + 1)      // JacobiVertex per vertex
#define BINDING_JACOBI_SOURCES (BINDING_JACOBI_BASE + 2)       // uint: delta slots per vertex
#define BINDING_JACOBI_PREV_POSITIONS (BINDING_JACOBI_BASE + 3)  // vec4 per vertex: q^(k-1)
#define BINDING_JACOBI_PREV_LAMBDAS (BINDING_JACOBI_BASE + 4)    // vec4 per item: lambda^(k-1)
// The times of the frame's substeps (FrameClock per substep), written by the host before each
// submission: the kernels read the time here, not in their push constants, so that one recorded
// frame serves every frame (vk/gpu_solver.cpp). In the vertex set.
#define BINDING_CLOCK (BINDING_JACOBI_BASE + 5)
#define BINDING_COUNT (BINDING_JACOBI_BASE + 6)

#ifdef __cplusplus
// The set of binding b (buffers.glsl declares each buffer with the same).
inline constexpr int bindingSet(int b) {
    if (b == BINDING_CLOCK) return SET_VERTEX;
    if (b <= BINDING_NORMALS) return SET_STATE;
    if (b >= BINDING_JACOBI_BASE) return SET_CONSTRAINTS;
    if (b >= BINDING_COLLIDERS) return SET_COLLISIONS;
    if (b == BINDING_COLOR_RANGES || b >= BINDING_TYPES_BASE) return SET_CONSTRAINTS;
    return SET_VERTEX;
}
#endif

// Specialization constants. Every pipeline: the workgroup size, and whether an invocation loops
// over several items (strided by the dispatch size) or takes exactly one. Per kernel: a variant
// (VERTEX_* stages of vertices.comp, COLOR_* types of colors.comp) and the multiplier use.
#define SPEC_WORKGROUP_SIZE 0
#define SPEC_VARIANT 1
#define SPEC_LAMBDA 2
#define SPEC_STRIDED 3
// A bug put in on purpose (FAULT_*; 0 in every ordinary run): clothcheck --inject.
#define SPEC_FAULT 4

CLOTH_NAMESPACE_BEGIN

// What one per-vertex pass does, in this order (a bit mask, SPEC_VARIANT of vertices.comp).
const uint VERTEX_VELOCITY = 1u;  // v from the solved and predicted state, linear damping
const uint VERTEX_DAMP = 4u;      // v += k (v_rigid - v) with the segment's RigidMotion
const uint VERTEX_PREDICT = 8u;   // next substep: v += g dt; x += v dt; predicted = x

// Mueller's damping sums: RIGID_SUM_CHUNK in kernels/types.h.

// The constraint types one colors.comp pipeline solves (SPEC_VARIANT): a mask with bit I for
// type I of constraint_types.h. One type per dispatch suits CPU devices, which run both sides of
// a branch; all types per dispatch suit GPUs.

// SPEC_FAULT: distance constraint 0 moves its second vertex the wrong way (the sign of that
// vertex's gradient flipped: its correction mirrored), in colors.comp; the collider contacts of
// every vertex whose index is a multiple of FAULT_DROP_EVERY left unprojected, in contacts.comp;
// a colour run's first two colours solved without the workgroup barrier between them (stale
// reads: an invocation starts the second colour while others still solve the first), in
// colors_run.comp.
const uint FAULT_GRADIENT_SIGN = 1u;
const uint FAULT_DROP_CONTACT = 2u;
const uint FAULT_DROP_EVERY = 97u;
const uint FAULT_MISSING_BARRIER = 3u;

// Multipliers (SPEC_LAMBDA): load the previous iteration's, store for the next one.
const uint LAMBDA_LOAD = 1u;
const uint LAMBDA_STORE = 2u;

// A workgroup of the per-vertex passes: `count` consecutive vertices from `begin`, all of one
// cloth segment (its original vertices or its phantoms).
struct VertexChunk {
    uint segment;
    uint begin;
    uint count;
    uint pad0;
};
CLOTH_CHECK_SIZE(VertexChunk, 16)

struct VertexPush {
    vec4 gravity;  // xyz
    float dt;
    float invDt;
    uint pad0;
    uint pad1;
};
CLOTH_CHECK_SIZE(VertexPush, 32)

// colors.comp: one colour, the items [begin[I], +count[I]) of each type I in the dispatch's
// mask, in table order, one invocation each.
// colors_run.comp: the colours [colorBegin, colorEnd) in order, by a single workgroup with a
// workgroup barrier between colours (ranges from BINDING_COLOR_RANGES).
struct ColorPush {
    SolveParams solve;
    uint begin[CLOTH_TYPE_SLOTS];
    uint count[CLOTH_TYPE_SLOTS];
    uint colorBegin;
    uint colorEnd;
    uint pad0;
    uint pad1;
};
CLOTH_CHECK_SIZE(ColorPush, 32 + 8 * CLOTH_TYPE_SLOTS)

// The clock of a substep (BINDING_CLOCK): what the host computes for it (sim/schedule.h
// forEachStep), in the same floats.
struct FrameClock {
    vec4 wind;    // xyz: the wind velocity of the substep, gusts included (WindParams::velocity)
    float start;  // s: the substep's start (StepContext::start)
    float end;    // s: its end (SolveParams::time)
    uint pad0;
    uint pad1;
};
CLOTH_CHECK_SIZE(FrameClock, 32)

// (solve.time is unused: the attachments' time is their substep's clock.end.)
struct AttachPush {
    SolveParams solve;
    uint count;
    uint substep;  // its clock (BINDING_CLOCK)
    uint pad1;
    uint pad2;
};
CLOTH_CHECK_SIZE(AttachPush, 32)

// The mouse grab runs in the phantom pass, after the tethers: on the grabbed vertex alone (an
// extra invocation after the groups) or, when it was split, on every member of its group just
// before that group is averaged.
const uint GRAB_NONE = 0u;
const uint GRAB_ALONE = 1u;
const uint GRAB_WITH_GROUP = 2u;

struct PhantomPush {
    SolveParams solve;
    vec4 grabTarget;  // xyz
    uint count;       // phantom groups
    uint grabMode;
    uint grabVertex;  // GRAB_ALONE
    uint grabGroup;   // GRAB_WITH_GROUP
};
CLOTH_CHECK_SIZE(PhantomPush, 48)
CLOTH_CHECK_OFFSET(PhantomPush, grabTarget, 16)
CLOTH_CHECK_OFFSET(PhantomPush, count, 32)

// wind.comp: the wind of the substep on vertices [0, count) (phantoms included); its velocity
// is the substep's clock.wind (wind.velocity unused).
struct WindPush {
    WindParams wind;
    uint count;
    uint substep;  // its clock (BINDING_CLOCK)
    uint pad1;
    uint pad2;
};
CLOTH_CHECK_SIZE(WindPush, 48)

// contacts.comp: what one pass does (SPEC_VARIANT), over the chunk table.
const uint CONTACT_BEGIN = 1u;      // pre-stabilisation and contact state reset
const uint CONTACT_PROJECT = 2u;    // the contacts of an iteration
const uint CONTACT_RESTITUTE = 4u;  // after the velocity update
const uint CONTACT_COUNT = 8u;      // counts the vertices in contact (BINDING_CONTACT_COUNT)
// The sharp features of mesh colliders (feature_contacts.h), after CONTACT_PROJECT, over
// `count` items instead of the chunk table:
const uint CONTACT_FEATURES = 16u;        // per cloth triangle: its contacts' sums per corner
const uint CONTACT_FEATURE_MOVE = 32u;    // per original vertex: moved by the mean of its sums
const uint CONTACT_FEATURE_COPIES = 64u;  // per phantom group: its copies moved as the original

// The substep's start (pre-stabilisation, friction) and end (the contacts) are its clock's.
struct ContactPush {
    float dt;
    float bounceBelow;  // m/s: slower contacts do not bounce
    uint colliderCount;
    uint count;          // the CONTACT_FEATURE* passes: their items
    uint triangleCount;  // ... and the cloth's triangles
    uint substep;        // its clock (BINDING_CLOCK)
    uint pad0;
    uint pad1;
};
CLOTH_CHECK_SIZE(ContactPush, 32)

// Tethers, phantom groups, rigid-motion segments, normals: a count of items.
struct CountPush {
    uint count;
    uint pad0;
    uint pad1;
    uint pad2;
};
CLOTH_CHECK_SIZE(CountPush, 16)

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_SOLVER_IO_H
