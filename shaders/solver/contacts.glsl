// Contacts with the rigid colliders, per vertex over the chunk table (as vertices.glsl): the
// pass's job (CONTACT_* in solver_io.h) is a specialization constant. The maths is
// src/kernels/collider.h, as the CPU reference runs it.
#include "buffers.glsl"
#include "kernels/collider.h"

layout(std430, set = SET_COLLISIONS, binding = BINDING_COLLIDERS) readonly buffer Colliders { Collider colliders[]; };
layout(std430, set = SET_COLLISIONS, binding = BINDING_CONTACTS) buffer Contacts { ContactState contacts[]; };
layout(std430, set = SET_COLLISIONS, binding = BINDING_MESH_NODES) readonly buffer MeshNodes { MeshNode meshNodes[]; };
layout(std430, set = SET_COLLISIONS, binding = BINDING_MESH_TRIANGLES) readonly buffer MeshTriangles { MeshTriangle meshTriangles[]; };
layout(std430, set = SET_COLLISIONS, binding = BINDING_CONTACT_COUNT) buffer ContactCount { uint contactCount; };
layout(std430, set = SET_COLLISIONS, binding = BINDING_MESH_FEATURES) readonly buffer MeshFeatures { MeshFeature meshFeatures[]; };
layout(std430, set = SET_COLLISIONS, binding = BINDING_TRIANGLE_EDGES) readonly buffer TriangleEdges { uint triangleEdges[]; };
layout(std430, set = SET_COLLISIONS, binding = BINDING_FEATURE_SUMS) buffer FeatureSums { vec4 featureSums[]; };

#define CLOTH_HAS_MESH 1
#include "kernels/mesh_distance.h"
#include "kernels/collider.h"
#define CLOTH_HAS_FEATURES 1
#include "kernels/feature_contacts.h"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_VARIANT) const uint JOB = CONTACT_PROJECT;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { ContactPush pc; };
// A bug put in on purpose (clothcheck --inject; 0, nothing, in every ordinary run).
layout(constant_id = SPEC_FAULT) const uint FAULT = 0u;

void contactJob(uint v, float h) {
    if (JOB == CONTACT_BEGIN) {
        vec4 x = loadPosition(v);
        vec3 y = vec3(x);
        vec4 known = contacts[v].near;
        vec4 gathered = vec4(0.0, 0.0, 0.0, NEAR_UNSET);
        MeshMemory memory = MeshMemory(contacts[v].hint.x);
        if (x.w > 0.0)
            for (uint k = 0u; k < pc.colliderCount; ++k)
                if (!colliderIsStatic(colliders[k]))
                    y = prestabilise(colliders[k], colliderPose(colliders[k], clock[pc.substep].start),
                                     y, h, known, gathered, memory);
        storePosition(v, vec4(y, x.w));
        contacts[v] =
            contactStateAt(y, nearAfterPass(known, gathered), uvec4(memory.hint, 0u, 0u, 0u));
    } else if (JOB == CONTACT_PROJECT) {
        vec4 x = loadPosition(v);
        if (x.w <= 0.0) return;
        if (FAULT == FAULT_DROP_CONTACT && v % FAULT_DROP_EVERY == 0u) return;
        ContactState s = contacts[v];
        vec3 vPred = vec3(loadVelocity(v));
        vec4 gathered = vec4(0.0, 0.0, 0.0, NEAR_UNSET);
        MeshMemory memory = MeshMemory(s.hint.x);
        FrameClock t = clock[pc.substep];
        for (uint k = 0u; k < pc.colliderCount; ++k) {
            Collider c = colliders[k];
            projectContact(c, colliderPose(c, t.end), colliderPose(c, t.start), x, vPred, h,
                           pc.dt, pc.bounceBelow, s, memory, gathered);
        }
        s.near = nearAfterPass(s.near, gathered);
        s.hint.x = memory.hint;
        storePosition(v, x);
        contacts[v] = s;
    } else if (JOB == CONTACT_RESTITUTE) {
        vec4 vel = loadVelocity(v);
        storeVelocity(v, vec4(restituteVelocity(vec3(vel), contacts[v]), 0.0));
    } else if (contacts[v].start.w > 0.0) {
        atomicAdd(contactCount, 1u);
    }
}

// CONTACT_FEATURES: cloth triangle i against every collider's sharp features, its sums per
// corner into featureSums[3 i + k].
void featureTriangle(uint i) {
    uint v0 = triangles[3u * i];
    uint v1 = triangles[3u * i + 1u];
    uint v2 = triangles[3u * i + 2u];
    vec4 x0 = loadPosition(v0);
    vec4 x1 = loadPosition(v1);
    vec4 x2 = loadPosition(v2);
    vec3 s0 = vec3(contacts[v0].start);
    vec3 s1 = vec3(contacts[v1].start);
    vec3 s2 = vec3(contacts[v2].start);
    uint info = triangleEdges[i];
    float h = segments[info >> TRIANGLE_SEGMENT_SHIFT].thickness;
    vec4 a0 = vec4(0.0);
    vec4 a1 = vec4(0.0);
    vec4 a2 = vec4(0.0);
    FrameClock t = clock[pc.substep];
    for (uint k = 0u; k < pc.colliderCount; ++k) {
        Collider c = colliders[k];
        if (c.shape != SHAPE_MESH || c.featureNode == MESH_NO_HINT) continue;
        featureContacts(c, colliderPose(c, t.end), colliderPose(c, t.start), x0, x1, x2, s0, s1,
                        s2, info, h, a0, a1, a2);
    }
    featureSums[3u * i] = a0;
    featureSums[3u * i + 1u] = a1;
    featureSums[3u * i + 2u] = a2;
}

// CONTACT_FEATURE_MOVE: original vertex v moves by the mean of its triangles' sums.
void featureMove(uint v) {
    vec4 sum = vec4(0.0);
    for (uint k = vertexTriOffsets[v]; k < vertexTriOffsets[v + 1u]; ++k) {
        uint t = vertexTriangles[k];
        uint corner = triangles[3u * t] == v ? 0u : (triangles[3u * t + 1u] == v ? 1u : 2u);
        sum += featureSums[3u * t + corner];
    }
    vec4 d = featureMean(sum);
    featureSums[3u * pc.triangleCount + v] = d;
    vec4 x = loadPosition(v);
    if (d.w > 0.0 && x.w > 0.0) {
        storePosition(v, vec4(vec3(x) + vec3(d), x.w));
        contacts[v].start.w += sqrt(meshLength2(vec3(d)));
    }
}

// CONTACT_FEATURE_COPIES: phantom group g's copies move as its original did.
void featureCopies(uint g) {
    PhantomGroup group = phantomGroups[g];
    vec4 d = featureSums[3u * pc.triangleCount + phantomMembers[group.first]];
    if (d.w <= 0.0) return;
    for (uint k = 1u; k < group.count; ++k) {
        uint v = phantomMembers[group.first + k];
        vec4 x = loadPosition(v);
        if (x.w > 0.0) storePosition(v, vec4(vec3(x) + vec3(d), x.w));
    }
}

void featureJob(uint i) {
    if (JOB == CONTACT_FEATURES)
        featureTriangle(i);
    else if (JOB == CONTACT_FEATURE_MOVE)
        featureMove(i);
    else
        featureCopies(i);
}

void main() {
    if (JOB >= CONTACT_FEATURES) {
        if (STRIDED) {
            uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
            for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) featureJob(i);
        } else if (gl_GlobalInvocationID.x < pc.count) {
            featureJob(gl_GlobalInvocationID.x);
        }
        return;
    }
    VertexChunk chunk = chunks[gl_WorkGroupID.x];
    float h = segments[chunk.segment].thickness;
    if (STRIDED) {
        for (uint k = gl_LocalInvocationID.x; k < chunk.count; k += gl_WorkGroupSize.x)
            contactJob(chunk.begin + k, h);
    } else if (gl_LocalInvocationID.x < chunk.count) {
        contactJob(chunk.begin + gl_LocalInvocationID.x, h);
    }
}
