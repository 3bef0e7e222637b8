#include "cpu/rigid_contacts.h"

#include <cmath>

#include "core/error.h"
#include "kernels/feature_contacts.h"

namespace cloth {

RigidContacts::RigidContacts(const PreparedCloth& p, const std::vector<glm::vec4>& positions)
    : p_(p) {
    CLOTH_ASSERT(!p.colliders.empty());
    contacts_.resize(positions.size());
    memory_.assign(positions.size(), gpu::meshMemoryNone());
    for (std::size_t i = 0; i < positions.size(); ++i)
        contacts_[i] = gpu::contactStateNew(glm::vec3(positions[i]));
    poseStart_.resize(p.colliders.size());
    poseEnd_.resize(p.colliders.size());
    for (const gpu::Collider& c : p.colliders) {
        anyRestitution_ |= c.restitution > 0.0f;
        anyMoving_ |= !gpu::colliderIsStatic(c);
    }
    bounceBelow_ = restitutionThreshold(p.sim, p.timing);
    if (!p.meshFeatures.empty())
        featureSums_.assign(3 * p.triangles.size() + p.originalVertexCount, glm::vec4(0.0f));
}

// The colliders' poses of the substep (member 0, then everyone), then per vertex:
// pre-stabilisation against every collider in order and the contact state reset.
void RigidContacts::begin(ThreadPool& pool, int member, int size, const StepContext& c,
                          const std::vector<VertexChunk>& chunks, std::vector<glm::vec4>& pos,
                          glm::vec4* start) {
    if (member == 0)
        for (std::size_t k = 0; k < p_.colliders.size(); ++k) {
            poseStart_[k] = gpu::colliderPose(p_.colliders[k], c.start);
            poseEnd_[k] = gpu::colliderPose(p_.colliders[k], c.solve.time);
        }
    std::uint32_t b, e;
    if (start) {
        // Self-collision's start: before the colliders' pre-stabilisation moves the vertices,
        // which may push one layer through another (the contacts then see that move as part of
        // the substep's motion, on the side the layers were on).
        ThreadPool::split(static_cast<std::uint32_t>(pos.size()), member, size, b, e);
        for (std::uint32_t i = b; i < e; ++i) start[i] = pos[i];
    }
    pool.barrier();
    ThreadPool::split(static_cast<std::uint32_t>(chunks.size()), member, size, b, e);
    const gpu::MeshNode* nodes = p_.meshNodes.data();
    const gpu::MeshTriangle* tris = p_.meshTriangles.data();
    for (std::uint32_t ch = b; ch < e; ++ch) {
        const float h = p_.segments[chunks[ch].segment].thickness;
        if (!anyMoving_) {
            // Nothing to pre-stabilise against: contactStateAt with what the vertex knew, but
            // only the per-substep fields written (the same bits, a third of the memory traffic).
            for (std::uint32_t i = chunks[ch].begin; i < chunks[ch].end; ++i) {
                contacts_[i].start = glm::vec4(glm::vec3(pos[i]), 0.0f);
                contacts_[i].normal = glm::vec4(0.0f);
                contacts_[i].bounce = glm::vec4(0.0f);
            }
            continue;
        }
        for (std::uint32_t i = chunks[ch].begin; i < chunks[ch].end; ++i) {
            glm::vec3 x(pos[i]);
            const glm::vec4 known = contacts_[i].near;
            glm::vec4 gathered(0.0f, 0.0f, 0.0f, gpu::NEAR_UNSET);
            gpu::MeshMemory& memory = memory_[i];
            if (pos[i].w > 0.0f)
                for (std::size_t k = 0; k < p_.colliders.size(); ++k)
                    x = gpu::prestabilise(nodes, tris, p_.colliders[k], poseStart_[k], x, h, known,
                                          gathered, memory);
            pos[i] = glm::vec4(x, pos[i].w);
            contacts_[i] = gpu::contactStateAt(x, gpu::nearAfterPass(known, gathered),
                                               glm::uvec4(gpu::MESH_NO_HINT));
        }
    }
}

void RigidContacts::solve(ThreadPool& pool, int member, int size,
                          const std::vector<VertexChunk>& chunks, std::vector<glm::vec4>& pos,
                          const std::vector<glm::vec4>& vel, float dt) {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(chunks.size()), member, size, b, e);
    const gpu::MeshNode* nodes = p_.meshNodes.data();
    const gpu::MeshTriangle* tris = p_.meshTriangles.data();
    for (std::uint32_t ch = b; ch < e; ++ch) {
        const float h = p_.segments[chunks[ch].segment].thickness;
        for (std::uint32_t i = chunks[ch].begin; i < chunks[ch].end; ++i) {
            glm::vec4 gathered(0.0f, 0.0f, 0.0f, gpu::NEAR_UNSET);
            for (std::size_t k = 0; k < p_.colliders.size(); ++k)
                gpu::projectContact(nodes, tris, p_.colliders[k], poseEnd_[k], poseStart_[k],
                                    pos[i], glm::vec3(vel[i]), h, dt, bounceBelow_,
                                    contacts_[i], memory_[i], gathered);
            contacts_[i].near = gpu::nearAfterPass(contacts_[i].near, gathered);
        }
    }
    if (!featureSums_.empty()) solveFeatures(pool, member, size, pos);
}

// The sharp features of mesh colliders, in three passes as contacts.glsl records them: per cloth
// triangle its contacts' sums, per original vertex the mean of its sums, per phantom group its
// copies moved as its original.
void RigidContacts::solveFeatures(ThreadPool& pool, int member, int size,
                                  std::vector<glm::vec4>& pos) {
    pool.barrier();
    const auto triCount = static_cast<std::uint32_t>(p_.triangles.size());
    std::uint32_t b, e;
    ThreadPool::split(triCount, member, size, b, e);
    for (std::uint32_t i = b; i < e; ++i) {
        const std::uint32_t info = p_.triangleFeatureInfo[i];
        gpu::featureTrianglePass(
            p_.meshNodes.data(), p_.meshFeatures.data(), p_.colliders.data(),
            static_cast<std::uint32_t>(p_.colliders.size()), poseEnd_.data(), poseStart_.data(),
            pos.data(), contacts_.data(), p_.triangles[i],
            info, p_.segments[info >> gpu::TRIANGLE_SEGMENT_SHIFT].thickness,
            featureSums_.data() + 3 * std::size_t(i));
    }
    pool.barrier();
    ThreadPool::split(p_.originalVertexCount, member, size, b, e);
    for (std::uint32_t v = b; v < e; ++v) {
        const glm::vec4 d =
            gpu::featureMovePass(p_.vertexTriangleOffsets.data(), p_.vertexTriangles.data(),
                                 p_.triangles.data(), featureSums_.data(), v);
        featureSums_[3 * std::size_t(triCount) + v] = d;
        if (d.w > 0.0f && pos[v].w > 0.0f) {
            pos[v] += glm::vec4(glm::vec3(d), 0.0f);
            contacts_[v].start.w += std::sqrt(gpu::meshLength2(glm::vec3(d)));
        }
    }
    if (p_.phantomGroups.empty()) return;
    pool.barrier();
    ThreadPool::split(static_cast<std::uint32_t>(p_.phantomGroups.size()), member, size, b, e);
    for (std::uint32_t g = b; g < e; ++g) {
        const gpu::PhantomGroup group = p_.phantomGroups[g];
        const glm::vec4 d =
            featureSums_[3 * std::size_t(triCount) + p_.phantomMembers[group.first]];
        if (d.w <= 0.0f) continue;
        for (std::uint32_t k = 1; k < group.count; ++k) {
            const std::uint32_t v = p_.phantomMembers[group.first + k];
            if (pos[v].w > 0.0f) pos[v] += glm::vec4(glm::vec3(d), 0.0f);
        }
    }
}

void RigidContacts::restitute(int member, int size, std::vector<glm::vec4>& vel) const {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(vel.size()), member, size, b, e);
    for (std::uint32_t i = b; i < e; ++i)
        vel[i] = glm::vec4(gpu::restituteVelocity(glm::vec3(vel[i]), contacts_[i]), 0.0f);
}

// Counted when asked, not every frame: the contact states of the last substep.
std::uint32_t RigidContacts::contactCount() const {
    std::uint32_t n = 0;
    for (const gpu::ContactState& s : contacts_) n += s.start.w > 0.0f ? 1u : 0u;
    return n;
}

}  // namespace cloth
