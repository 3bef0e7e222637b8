// mass_spring.comp: the mass-spring model on Vulkan (src/vk/mass_spring_gpu.h), one invocation
// per vertex (or tether) and job: FORCES sums a vertex's springs in the CPU reference's order
// (prep/springs.h springIncidence), then its fixed angles' (kernels/spring.h angleSpringForce), STEP moves it by the integrator (kernels/spring.h, the CPU's
// own functions), TETHERS projects a tether's vertex (kernels/constraints.h), CONTACTS projects a
// vertex out of the colliders, meshes included, with friction (kernels/collider.h
// springContactAny), WIND
// gives a vertex the substep's wind (springWind, from its triangles' normals summed in the CPU's
// order). Attachments: a compliant one adds its spring in FORCES, a hard one carries its vertex
// in STEP. RIGID_* damp a substep's velocities towards each cloth's rigid motion
// (lib/model_rigid.glsl). The same bits as the CPU reference (cpu/mass_spring.cpp).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/types.h"
#include "kernels/constraints.h"
#include "kernels/spring.h"

layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 0) buffer Positions { vec4 positions[]; };
layout(std430, set = 0, binding = 1) buffer Velocities { vec4 velocities[]; };
layout(std430, set = 0, binding = 2) buffer Previous { vec4 previous[]; };
layout(std430, set = 0, binding = 3) buffer Forces { vec4 forces[]; };
layout(std430, set = 0, binding = 4) readonly buffer Springs { Spring springs[]; };
layout(std430, set = 0, binding = 5) readonly buffer Offsets { uint offsets[]; };
layout(std430, set = 0, binding = 6) readonly buffer Incident { uint incident[]; };
layout(std430, set = 0, binding = 7) readonly buffer Damping { float damping[]; };
layout(std430, set = 0, binding = 8) readonly buffer Tethers { Tether tethers[]; };
layout(std430, set = 0, binding = 9) readonly buffer Colliders { Collider colliders[]; };
layout(std430, set = 0, binding = 10) readonly buffer Thickness { float thickness[]; };
// With colliders: each free vertex at the start of the step; w after CONTACTS: the normal
// correction of its contacts (> 0: in contact).
layout(std430, set = 0, binding = 11) buffer Start { vec4 start[]; };
layout(std430, set = 0, binding = 12) readonly buffer Triangles { uint triangles[]; };
layout(std430, set = 0, binding = 13) readonly buffer VertexTriOffsets { uint vertexTriOffsets[]; };
layout(std430, set = 0, binding = 14) readonly buffer VertexTriangles { uint vertexTriangles[]; };
layout(std430, set = 0, binding = 15) readonly buffer Wind { WindVertex windVertices[]; };
// Per vertex, its attachment's index or 0xffffffff (prep/springs.h springAttachmentOf).
layout(std430, set = 0, binding = 16) readonly buffer AttachmentOf { uint attachmentOf[]; };
layout(std430, set = 0, binding = 17) readonly buffer Attachments { Attachment attachments[]; };
layout(std430, set = 0, binding = 18) readonly buffer Motions { Motion motions[]; };
// The mesh colliders' hierarchies and triangles (src/prep/mesh_collider.h) and, per vertex, what
// its mesh queries remember (kernels/collider.h MeshMemory: a hint), kept from step to step.
layout(std430, set = 0, binding = 19) readonly buffer ColliderMeshNodes { MeshNode meshNodes[]; };
layout(std430, set = 0, binding = 20) readonly buffer ColliderMeshTriangles { MeshTriangle meshTriangles[]; };
layout(std430, set = 0, binding = 21) buffer MeshHints { uint meshHints[]; };
// Fixed angles as angle springs (prep/springs.h angleSprings: param = w), and each vertex's
// corners (spring * 4 + corner) in spring order (prep/springs.h stencilIncidence).
layout(std430, set = 0, binding = 24) readonly buffer Angles { FixedAngleConstraint angles[]; };
layout(std430, set = 0, binding = 25) readonly buffer AngleOffsets { uint angleOffsets[]; };
layout(std430, set = 0, binding = 26) readonly buffer AngleCorners { uint angleCorners[]; };
#define MODEL_RIGID_BINDING 22  // and 23
#define MODEL_RIGID_PREVIOUS
#include "lib/model_rigid.glsl"

#define CLOTH_HAS_MESH 1
#include "kernels/mesh_distance.h"
#include "kernels/collider.h"

const uint JOB_FORCES = 0u;
const uint JOB_STEP = 1u;
const uint JOB_TETHERS = 2u;
const uint JOB_CONTACTS = 3u;
const uint JOB_WIND = 4u;
// Mueller's damping at a substep's end (lib/model_rigid.glsl): count runs, damped segments, and
// runs x RIGID_SUM_CHUNK vertex slots.
const uint JOB_RIGID_SUMS = 5u;
const uint JOB_RIGID_MOTIONS = 6u;
const uint JOB_RIGID_DAMP = 7u;

layout(push_constant, std430) uniform Push {
    vec4 gravity;  // xyz
    uint job;
    uint count;  // vertices, or tethers
    uint integrator;
    float h;
    float t0;  // the step's start and end (s): the colliders' poses, the attachments' targets
    float t1;
    float bounceBelow;  // m/s (prep/springs.h springBounceBelow)
    uint colliderCount;
    float hMean;  // adaptive_verlet's (prep/springs.h springStepSize)
    float ratio;
    uint rigidRuns;  // the damping table's run count (prep/model_damping.h)
    float pad1;      // the wind at offset 64
    WindParams wind;    // JOB_WIND: the substep's
} pc;

const uint NO_ATTACHMENT = 0xffffffffu;

#include "lib/vertex_normal_sum.glsl"

vec3 targetOf(uint a, float t) {
    Attachment k = attachments[a];
    return attachmentTarget(k, motions[k.motion], t);
}

// Vertex i is carried by a hard attachment.
bool carried(uint i) {
    uint a = attachmentOf[i];
    return a != NO_ATTACHMENT && attachments[a].param == 0.0;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    if (pc.job == JOB_FORCES) {
        vec3 sum = vec3(0.0);
        vec3 xv = vec3(positions[i]);
        for (uint k = offsets[i]; k < offsets[i + 1u]; ++k) {
            Spring s = springs[incident[k]];
            uint other = s.a == i ? s.b : s.a;
            sum += springForce(xv, vec3(positions[other]), s.rest, s.stiffness);
        }
        for (uint k = angleOffsets[i]; k < angleOffsets[i + 1u]; ++k) {
            FixedAngleConstraint t = angles[angleCorners[k] / 4u];
            sum += angleSpringForce(vec3(positions[t.v0]), vec3(positions[t.v1]),
                                    vec3(positions[t.v2]), vec3(positions[t.v3]), t.targetAngle,
                                    t.param, angleCorners[k] % 4u);
        }
        uint a = attachmentOf[i];
        if (a != NO_ATTACHMENT && attachments[a].param > 0.0)
            sum += springAttachmentForce(xv, targetOf(a, pc.t0), attachments[a].param);
        forces[i] = vec4(sum, 0.0);
    } else if (pc.job == JOB_STEP) {
        vec4 x = positions[i];
        if (x.w <= 0.0) return;
        if (pc.colliderCount > 0u) start[i] = x;
        vec4 v = velocities[i];
        if (carried(i)) {
            vec4 p = x;
            uint a = attachmentOf[i];
            springFollowTarget(x, p, v, targetOf(a, pc.t0), targetOf(a, pc.t1),
                               pc.h);
            if (pc.integrator >= SPRING_VERLET) previous[i] = p;
            if (pc.colliderCount > 0u) start[i].w = 0.0;  // never in contact
            positions[i] = x;
            velocities[i] = v;
            return;
        }
        vec3 f = vec3(forces[i]);
        vec3 g = vec3(pc.gravity);
        if (pc.integrator == SPRING_EXPLICIT) {
            springExplicitStep(x, v, f, g, damping[i], pc.h);
        } else if (pc.integrator == SPRING_SYMPLECTIC) {
            springSymplecticStep(x, v, f, g, damping[i], pc.h);
        } else if (pc.integrator == SPRING_VERLET) {
            vec4 p = previous[i];
            springVerletStep(x, p, v, f, g, damping[i], pc.h);
            previous[i] = p;
        } else {
            vec4 p = previous[i];
            springTimeCorrectedVerletStep(x, p, v, f, g, damping[i], pc.h, pc.hMean, pc.ratio);
            previous[i] = p;
        }
        positions[i] = x;
        velocities[i] = v;
    } else if (pc.job == JOB_TETHERS) {
        Tether t = tethers[i];
        vec4 x = positions[t.vertex];
        vec4 before = x;
        projectTether(x, vec3(positions[t.anchor]), t.maxLength);
        positions[t.vertex] = x;
        if (pc.integrator < SPRING_VERLET && x != before)
            velocities[t.vertex] += vec4((vec3(x) - vec3(before)) / pc.h, 0.0);
    } else if (pc.job == JOB_WIND) {
        vec4 x = positions[i];
        if (x.w <= 0.0) return;
        vec3 dv = springWind(vec3(velocities[i]), x.w, vertexNormalSum(i), windVertices[i].area,
                             pc.wind);
        velocities[i] += vec4(dv, 0.0);
        if (pc.integrator >= SPRING_VERLET) previous[i] -= vec4(pc.h * dv, 0.0);
    } else if (pc.job == JOB_RIGID_SUMS) {
        modelRigidSums(i, pc.rigidRuns);
    } else if (pc.job == JOB_RIGID_MOTIONS) {
        modelRigidMotion(i, pc.rigidRuns);
    } else if (pc.job == JOB_RIGID_DAMP) {
        modelRigidDamp(i, pc.rigidRuns, pc.integrator >= SPRING_VERLET, pc.h);
    } else if (pc.job == JOB_CONTACTS) {
        vec4 x = positions[i];
        if (x.w <= 0.0 || carried(i)) return;
        ContactState s = contactStateAt(vec3(start[i]), vec4(0.0), uvec4(0u));
        vec4 before = x;
        vec3 vStep = vec3(velocities[i]);
        MeshMemory memory = MeshMemory(meshHints[i]);
        for (uint c = 0u; c < pc.colliderCount; ++c) {
            Collider k = colliders[c];
            springContactAny(k, colliderPose(k, pc.t1), colliderPose(k, pc.t0), x, vStep,
                             thickness[i], pc.h, pc.bounceBelow, s, memory);
        }
        meshHints[i] = memory.hint;
        start[i].w = s.start.w;
        if (s.start.w <= 0.0) return;
        vec3 v = springContactVelocity(vStep, vec3(x) - vec3(before), pc.h, s);
        positions[i] = x;
        velocities[i] = vec4(v, 0.0);
        if (pc.integrator >= SPRING_VERLET && s.bounce.w > 0.0)
            previous[i] = vec4(vec3(x) - pc.h * v, x.w);
    }
}
