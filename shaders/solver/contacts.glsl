// Contacts with the rigid colliders, per vertex over the chunk table (as vertices.glsl): the
// pass's job (CONTACT_* in solver_io.h) is a specialization constant. The maths is
// shaders/shared/collider.h, as the CPU reference runs it.
#include "buffers.glsl"
#include "collider.h"

layout(std430, set = SET_COLLISIONS, binding = BINDING_COLLIDERS) readonly buffer Colliders { Collider colliders[]; };
layout(std430, set = SET_COLLISIONS, binding = BINDING_CONTACTS) buffer Contacts { ContactState contacts[]; };
layout(std430, set = SET_COLLISIONS, binding = BINDING_MESH_NODES) readonly buffer MeshNodes { MeshNode meshNodes[]; };
layout(std430, set = SET_COLLISIONS, binding = BINDING_MESH_TRIANGLES) readonly buffer MeshTriangles { MeshTriangle meshTriangles[]; };
layout(std430, set = SET_COLLISIONS, binding = BINDING_CONTACT_COUNT) buffer ContactCount { uint contactCount; };

#define CLOTH_HAS_MESH 1
#include "mesh_collider.h"
#include "collider.h"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_VARIANT) const uint JOB = CONTACT_PROJECT;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { ContactPush pc; };

void contactJob(uint v, float h) {
    if (JOB == CONTACT_BEGIN) {
        vec4 x = loadPosition(v);
        vec3 y = vec3(x);
        vec4 known = contacts[v].near;
        vec4 gathered = vec4(0.0, 0.0, 0.0, NEAR_UNSET);
        uint hint = contacts[v].hint.x;
        if (x.w > 0.0)
            for (uint k = 0u; k < pc.colliderCount; ++k)
                if (!colliderIsStatic(colliders[k]))
                    y = prestabilise(colliders[k], colliderPose(colliders[k], pc.start), y, h,
                                     known, gathered, hint);
        storePosition(v, vec4(y, x.w));
        contacts[v] = contactStateAt(y, nearAfterPass(known, gathered), uvec4(hint, 0u, 0u, 0u));
    } else if (JOB == CONTACT_PROJECT) {
        vec4 x = loadPosition(v);
        if (x.w <= 0.0) return;
        ContactState s = contacts[v];
        vec3 vPred = vec3(loadVelocity(v));
        vec4 gathered = vec4(0.0, 0.0, 0.0, NEAR_UNSET);
        for (uint k = 0u; k < pc.colliderCount; ++k) {
            Collider c = colliders[k];
            projectContact(c, colliderPose(c, pc.end), colliderPose(c, pc.start), x, vPred, h,
                           pc.dt, pc.bounceBelow, s, gathered);
        }
        s.near = nearAfterPass(s.near, gathered);
        storePosition(v, x);
        contacts[v] = s;
    } else if (JOB == CONTACT_RESTITUTE) {
        vec4 vel = loadVelocity(v);
        storeVelocity(v, vec4(restituteVelocity(vec3(vel), contacts[v]), 0.0));
    } else if (contacts[v].start.w > 0.0) {
        atomicAdd(contactCount, 1u);
    }
}

void main() {
    VertexChunk chunk = chunks[gl_WorkGroupID.x];
    float h = segments[chunk.segment].thickness;
    if (STRIDED) {
        for (uint k = gl_LocalInvocationID.x; k < chunk.count; k += gl_WorkGroupSize.x)
            contactJob(chunk.begin + k, h);
    } else if (gl_LocalInvocationID.x < chunk.count) {
        contactJob(chunk.begin + gl_LocalInvocationID.x, h);
    }
}
