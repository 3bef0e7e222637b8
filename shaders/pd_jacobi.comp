// pd_jacobi.comp: projective dynamics with the Jacobi global step on Vulkan (src/vk/pd_jacobi_gpu.h,
// kernels/pd_jacobi.h), the same bits as the CPU reference (cpu/pd_jacobi.cpp, cpu/post_step.cpp).
// One invocation per item and job: PREDICT per vertex (s, and the first iterates), PROJECT_TRI
// and PROJECT_BEND per term (the local step's projections from the current iterate), SWEEP per
// vertex (its terms gathered in the CPU's CSR order, then Chebyshev's blend into the next
// iterate), TETHERS per tether, FINISH per vertex (colliders, velocity, damping). WIND per vertex
// before PREDICT (springWind, its triangles' normals summed in the CPU's order). Attachments:
// PREDICT puts each one's target at the step's end in Targets (a carried vertex's prediction is
// its target), SWEEP adds a compliant one's term, FINISH carries a hard one's vertex. RIGID_*
// damp a substep's velocities towards each cloth's rigid motion (lib/model_rigid.glsl).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/types.h"
#include "kernels/constraints.h"
#include "kernels/spring.h"
#include "kernels/pd_jacobi.h"

layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 0) buffer Positions { vec4 positions[]; };
layout(std430, set = 0, binding = 1) buffer Velocities { vec4 velocities[]; };
layout(std430, set = 0, binding = 2) buffer Predicted { vec4 predicted[]; };
// Three iterates of n vertices each, x^(k-1), x^k, x^(k+1) at the push's rotating bases.
layout(std430, set = 0, binding = 3) buffer Iterates { vec4 iterates[]; };
layout(std430, set = 0, binding = 4) readonly buffer Vertices { PdJacobiVertex vertices[]; };
layout(std430, set = 0, binding = 5) readonly buffer Triangles { PdTriangle pdTriangles[]; };
layout(std430, set = 0, binding = 6) readonly buffer Bends { PdBend bends[]; };
layout(std430, set = 0, binding = 7) buffer TriProjections { vec4 triProjections[]; };
layout(std430, set = 0, binding = 8) buffer BendProjections { vec4 bendProjections[]; };
layout(std430, set = 0, binding = 9) readonly buffer TriOffsets { uint triOffsets[]; };
layout(std430, set = 0, binding = 10) readonly buffer TriCorners { uint triCorners[]; };
layout(std430, set = 0, binding = 11) readonly buffer BendOffsets { uint bendOffsets[]; };
layout(std430, set = 0, binding = 12) readonly buffer BendCorners { uint bendCorners[]; };
layout(std430, set = 0, binding = 13) readonly buffer Tethers { Tether tethers[]; };
layout(std430, set = 0, binding = 14) readonly buffer Colliders { Collider colliders[]; };
layout(std430, set = 0, binding = 15) readonly buffer Thickness { float thickness[]; };
layout(std430, set = 0, binding = 16) readonly buffer Damping { float damping[]; };
layout(std430, set = 0, binding = 17) buffer Contact { uint contact[]; };  // FINISH: 1 in contact
// Per vertex with an attachment: its target at the step's end (PREDICT).
layout(std430, set = 0, binding = 18) buffer Targets { vec4 targets[]; };
// Per vertex, its attachment's index or 0xffffffff (prep/springs.h springAttachmentOf).
layout(std430, set = 0, binding = 19) readonly buffer AttachmentOf { uint attachmentOf[]; };
layout(std430, set = 0, binding = 20) readonly buffer Attachments { Attachment attachments[]; };
layout(std430, set = 0, binding = 21) readonly buffer Motions { Motion motions[]; };
layout(std430, set = 0, binding = 22) readonly buffer MeshTriangles { uint triangles[]; };
layout(std430, set = 0, binding = 23) readonly buffer VertexTriOffsets { uint vertexTriOffsets[]; };
layout(std430, set = 0, binding = 24) readonly buffer VertexTriangles { uint vertexTriangles[]; };
layout(std430, set = 0, binding = 25) readonly buffer Wind { WindVertex windVertices[]; };
// The mesh colliders' hierarchies and triangles (src/prep/mesh_collider.h) and, per vertex, what
// its mesh queries remember (kernels/collider.h MeshMemory: a hint), kept from step to step.
layout(std430, set = 0, binding = 26) readonly buffer ColliderMeshNodes { MeshNode meshNodes[]; };
layout(std430, set = 0, binding = 27) readonly buffer ColliderMeshTriangles { MeshTriangle meshTriangles[]; };
layout(std430, set = 0, binding = 28) buffer MeshHints { uint meshHints[]; };
#define MODEL_RIGID_BINDING 29  // and 30
#include "lib/model_rigid.glsl"

#define CLOTH_HAS_MESH 1
#include "kernels/mesh_distance.h"
#include "kernels/collider.h"

const uint JOB_PREDICT = 0u;
const uint JOB_PROJECT_TRI = 1u;
const uint JOB_PROJECT_BEND = 2u;
const uint JOB_SWEEP = 3u;
const uint JOB_TETHERS = 4u;
const uint JOB_FINISH = 5u;
const uint JOB_WIND = 6u;
// Mueller's damping after FINISH (lib/model_rigid.glsl): count runs, damped segments, and runs x
// RIGID_SUM_CHUNK vertex slots.
const uint JOB_RIGID_SUMS = 7u;
const uint JOB_RIGID_MOTIONS = 8u;
const uint JOB_RIGID_DAMP = 9u;
const uint NO_ATTACHMENT = 0xffffffffu;

layout(push_constant, std430) uniform Push {
    vec4 gravity;  // xyz
    uint job;
    uint count;  // vertices, terms or tethers
    uint cur;    // bases in Iterates: x^k (TETHERS, FINISH: the step's result), x^(k-1), x^(k+1)
    uint prev;
    uint next;
    float h;
    float omega;  // Chebyshev's weight of this iteration
    float gamma;  // relaxation
    float t0;     // the step's start and end (s): the colliders' poses, the attachments' targets
    float t1;
    float bounceBelow;  // m/s (sim/schedule.h restitutionThreshold)
    uint colliderCount;
    WindParams wind;    // WIND: the substep's
    uint rigidRuns;     // the damping table's run count (prep/model_damping.h)
} pc;

#include "lib/vertex_normal_sum.glsl"

vec3 targetOf(uint a, float t) {
    Attachment k = attachments[a];
    return attachmentTarget(k, motions[k.motion], t);
}

vec3 at(uint v) {
    return vec3(iterates[pc.cur + v]);
}

vec3 sweepSum(uint i) {
    vec3 sum = pdJacobiInertia(predicted[i], iterates[pc.cur + i], vertices[i]);
    for (uint k = triOffsets[i]; k < triOffsets[i + 1u]; ++k) {
        uint t = triCorners[k] / 3u;
        PdTriangle term = pdTriangles[t];
        sum += pdTriangleJacobiTerm(at(term.v0), at(term.v1), at(term.v2), triCorners[k] % 3u,
                                    term.invRest, term.stiffness, term.area,
                                    vec3(triProjections[2u * t]), vec3(triProjections[2u * t + 1u]));
    }
    for (uint k = bendOffsets[i]; k < bendOffsets[i + 1u]; ++k) {
        uint b = bendCorners[k] / 4u;
        PdBend term = bends[b];
        sum += pdBendJacobiTerm(at(term.v0), at(term.v1), at(term.v2), at(term.v3),
                                bendCorners[k] % 4u, term.k, term.weight, vec3(bendProjections[b]));
    }
    if (vertices[i].attachment > 0.0)
        sum += pdAttachmentJacobiTerm(vec3(targets[i]), at(i), vertices[i].attachment);
    return sum;
}

void finish(uint i) {
    vec4 x = positions[i];
    if (x.w <= 0.0) {
        velocities[i] = vec4(0.0);
        contact[i] = 0u;
        return;
    }
    uint a = attachmentOf[i];
    if (a != NO_ATTACHMENT && attachments[a].param == 0.0) {  // carried, never in contact
        vec4 before = x;
        vec4 v;
        springFollowTarget(x, before, v, targetOf(a, pc.t0), targetOf(a, pc.t1), pc.h);
        positions[i] = x;
        velocities[i] = v;
        contact[i] = 0u;
        return;
    }
    vec4 y = iterates[pc.cur + i];
    vec3 start = vec3(x);
    ContactState s = contactStateAt(start, vec4(0.0), uvec4(0u));
    vec3 vStep = (vec3(y) - start) / pc.h;
    MeshMemory memory = MeshMemory(meshHints[i]);
    for (uint c = 0u; c < pc.colliderCount; ++c) {
        Collider k = colliders[c];
        springContactAny(k, colliderPose(k, pc.t1), colliderPose(k, pc.t0), y, vStep,
                         thickness[i], pc.h, pc.bounceBelow, s, memory);
    }
    meshHints[i] = memory.hint;
    bool touching = s.start.w > 0.0;
    contact[i] = touching ? 1u : 0u;
    velocities[i] = vec4(implicitVelocity(vec3(y), start, pc.h, touching, s, damping[i]), 0.0);
    positions[i] = y;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    if (pc.job == JOB_PREDICT) {
        vec4 x = positions[i];
        vec4 s = pdPredict(x, velocities[i], vec3(pc.gravity), pc.h);
        uint a = attachmentOf[i];
        if (a != NO_ATTACHMENT) {
            vec3 target = targetOf(a, pc.t1);
            targets[i] = vec4(target, 0.0);
            if (attachments[a].param == 0.0) s = vec4(target, x.w);
        }
        predicted[i] = s;
        iterates[pc.cur + i] = s;
        iterates[pc.prev + i] = s;
    } else if (pc.job == JOB_PROJECT_TRI) {
        PdTriangle t = pdTriangles[i];
        vec3 ru, rv;
        pdProjectTriangle(at(t.v0), at(t.v1), at(t.v2), t.invRest, t.stiffness, ru, rv);
        triProjections[2u * i] = vec4(ru, 0.0);
        triProjections[2u * i + 1u] = vec4(rv, 0.0);
    } else if (pc.job == JOB_PROJECT_BEND) {
        PdBend b = bends[i];
        bendProjections[i] = vec4(pdProjectBend(at(b.v0), at(b.v1), at(b.v2), at(b.v3), b), 0.0);
    } else if (pc.job == JOB_SWEEP) {
        vec3 sum = sweepSum(i);
        iterates[pc.next + i] = pdJacobiVertex(iterates[pc.cur + i], iterates[pc.prev + i], sum,
                                               vertices[i], pc.omega, pc.gamma);
    } else if (pc.job == JOB_TETHERS) {
        Tether t = tethers[i];
        vec4 x = iterates[pc.cur + t.vertex];
        projectTether(x, at(t.anchor), t.maxLength);
        iterates[pc.cur + t.vertex] = x;
    } else if (pc.job == JOB_FINISH) {
        finish(i);
    } else if (pc.job == JOB_RIGID_SUMS) {
        modelRigidSums(i, pc.rigidRuns);
    } else if (pc.job == JOB_RIGID_MOTIONS) {
        modelRigidMotion(i, pc.rigidRuns);
    } else if (pc.job == JOB_RIGID_DAMP) {
        modelRigidDamp(i, pc.rigidRuns, false, 0.0);
    } else if (pc.job == JOB_WIND) {
        vec4 x = positions[i];
        if (x.w <= 0.0) return;
        velocities[i] += vec4(springWind(vec3(velocities[i]), x.w, vertexNormalSum(i),
                                         windVertices[i].area, pc.wind), 0.0);
    }
}
