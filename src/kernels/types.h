// Buffer layouts shared by the C++ solver and the GLSL compute shaders (std430).
// One definition only: the CPU reference, the Vulkan uploads and the shaders all use these.
#ifndef CLOTH_KERNELS_TYPES_H
#define CLOTH_KERNELS_TYPES_H

#include "kernels/common.h"

CLOTH_NAMESPACE_BEGIN

// Solver modes.
const uint MODE_XPBD = 0u;
const uint MODE_PBD = 1u;

// Motion types for kinematic attachment targets.
const uint MOTION_STATIC = 0u;  // target stays at the anchor
const uint MOTION_CIRCLE = 1u;  // anchor + radius * ((cos(w t + phase) - cos(phase)) u
                                //                  + (sin(w t + phase) - sin(phase)) v)
const uint MOTION_LINEAR = 2u;  // anchor + t * u.xyz
const uint MOTION_OSCILLATE = 3u;  // anchor + (sin(w t + phase) - sin(phase)) u.xyz

// Vertex state is held in separate vec4 arrays (structure of arrays):
//   position      xyz = position, w = inverse mass (0 = pinned)
//   predicted     xyz = predicted position of the substep (after predictVertex)
//   velocity      xyz = velocity
//   normal        xyz = unit vertex normal (for rendering)

// Moving target for a kinematic attachment; see MOTION_*.
struct Motion {
    uint type;
    float radius;
    float angularSpeed;  // rad/s (circle, oscillate)
    float phase;         // rad
    vec4 u;              // circle: first in-plane axis; linear: velocity (m/s); oscillate:
                         // amplitude (m)
    vec4 v;              // circle: second in-plane axis
};
CLOTH_CHECK_SIZE(Motion, 48)

// Kinematic attachment: C = |x - target(t)|, target(t) = anchor + motion offset.
// Also used for grabbing the cloth with the mouse (static motion, anchor updated per frame).
struct Attachment {
    vec4 anchor;  // xyz = target at t = 0
    uint vertex;
    uint motion;  // index into the motion array
    float param;  // XPBD: compliance; PBD: k'
    uint pad0;
};
CLOTH_CHECK_SIZE(Attachment, 32)
CLOTH_CHECK_OFFSET(Attachment, vertex, 16)

// Long-range attachment (tether): |x_vertex - x_anchor| <= maxLength. The anchor is a pinned
// or kinematically attached vertex and is never moved by the tether.
struct Tether {
    uint vertex;
    uint anchor;
    float maxLength;
    uint pad0;
};
CLOTH_CHECK_SIZE(Tether, 16)

// Phantom vertices: members[first .. first+count) of the member array are the original vertex
// and its copies; after a sweep they are moved to their mass-weighted mean.
struct PhantomGroup {
    uint first;
    uint count;
};
CLOTH_CHECK_SIZE(PhantomGroup, 8)

// One cloth of a scene: its original vertices [vertexBegin, vertexEnd) and its phantom copies
// [phantomBegin, phantomEnd) (stored after all original vertices), with its own damping.
struct ClothSegment {
    uint vertexBegin;
    uint vertexEnd;
    uint phantomBegin;
    uint phantomEnd;
    float linearDamping;  // 1/s: v *= max(0, 1 - linearDamping * dt) each substep
    float rigidDamping;   // per substep, in [0,1]: Mueller's damping of non-rigid motion
    float thickness;      // m: contacts hold the vertices this far from a collider's surface
    uint pad1;
};
CLOTH_CHECK_SIZE(ClothSegment, 32)

// Mueller's damping sums are added vertex by vertex over runs of RIGID_SUM_CHUNK vertices of a
// segment (its original vertices, then its phantoms), then run by run: the order of the CPU
// reference (kChunk in src/cpu/cpu_solver.cpp; the models' in prep/model_damping.h), so that
// every backend rounds the same way.
const uint RIGID_SUM_CHUNK = 256u;

// Partial sums for Mueller's rigid-motion-preserving damping, relative to a reference point.
struct RigidSums {
    vec4 massMoment;  // xyz = sum m r, w = sum m
    vec4 momentum;    // xyz = sum m v, w = sum m (r . r)
    vec4 angular;     // xyz = sum m (r x v)
    vec4 rrDiag;      // xyz = sum m (rx rx, ry ry, rz rz)
    vec4 rrOff;       // xyz = sum m (rx ry, rx rz, ry rz)
};
CLOTH_CHECK_SIZE(RigidSums, 80)

// Rigid motion that the damping keeps: v_rigid(x) = linear + angular x (x - center).
struct RigidMotion {
    vec4 center;   // xyz = centre of mass
    vec4 linear;   // xyz = velocity of the centre of mass
    vec4 angular;  // xyz = angular velocity, w = damping factor k (0 = off)
};
CLOTH_CHECK_SIZE(RigidMotion, 48)

// Per-projection settings shared by every constraint kernel.
struct SolveParams {
    float invDt2;         // 1 / substep^2, scales compliance into alpha-tilde
    uint mode;            // MODE_XPBD or MODE_PBD
    uint firstIteration;  // 1 on the first iteration of a substep: lambda starts at 0
    float time;           // simulation time at the end of the substep (s)
};
CLOTH_CHECK_SIZE(SolveParams, 16)

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_TYPES_H
