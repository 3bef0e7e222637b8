// Contacts with the scene's rigid colliders on the CPU reference (planes, spheres, capsules,
// boxes, closed meshes with sharp features; src/kernels/collider.h, feature_contacts.h), in a
// room of their own beside the solver: the solver's schedule calls begin() at the substep's
// Collisions step, solve() at its Contacts step, restitute() at its Restitution step.
//
// Per substep: the colliders' poses at its start and end; per vertex pre-stabilisation against
// every collider in order and its contact state reset (begin); then per iteration each vertex
// projected out of every collider with friction, and the sharp features' contacts in three
// passes (solve); after the velocities, restitution (restitute). Every pass writes each vertex's
// own state only (the feature passes through per-triangle sums): the same bits for any split.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "cpu/thread_pool.h"
#include "kernels/collider.h"
#include "prep/prepared.h"
#include "sim/schedule.h"

namespace cloth {

// A contiguous run of vertices of one segment (the solver's reduction chunks).
struct VertexChunk {
    std::uint32_t segment, begin, end;
};

class RigidContacts {
public:
    // p must outlive this and have colliders; `positions`: the starting positions.
    RigidContacts(const PreparedCloth& p, const std::vector<glm::vec4>& positions);

    bool anyRestitution() const { return anyRestitution_; }

    // Every member of the pool calls these together (each ends without a barrier; begin() and
    // solve() hold barriers inside). `start`, when not null, receives each vertex's position
    // before pre-stabilisation moves it (self-collision's substep start).
    void begin(ThreadPool& pool, int member, int size, const StepContext& c,
               const std::vector<VertexChunk>& chunks, std::vector<glm::vec4>& pos,
               glm::vec4* start);
    void solve(ThreadPool& pool, int member, int size, const std::vector<VertexChunk>& chunks,
               std::vector<glm::vec4>& pos, const std::vector<glm::vec4>& vel, float dt);
    void restitute(int member, int size, std::vector<glm::vec4>& vel) const;

    // Vertices in contact in the last substep (counted when asked).
    std::uint32_t contactCount() const;

private:
    void solveFeatures(ThreadPool& pool, int member, int size, std::vector<glm::vec4>& pos);

    const PreparedCloth& p_;
    // The colliders' poses at the start and the end of the current substep, and per vertex the
    // contacts of the substep.
    std::vector<gpu::ColliderPose> poseStart_, poseEnd_;
    std::vector<gpu::ContactState> contacts_;
    std::vector<gpu::MeshMemory> memory_;  // per vertex (its ContactState::hint is unused here)
    // Mesh colliders' sharp features (feature_contacts.h): per cloth triangle corner its
    // contacts' sums, then per original vertex what it moved by.
    std::vector<glm::vec4> featureSums_;
    bool anyRestitution_ = false;
    bool anyMoving_ = false;    // a collider moves or spins: pre-stabilisation has work
    float bounceBelow_ = 0.0f;  // m/s: restitutionThreshold
};

}  // namespace cloth
