// Contacts with the scene's rigid colliders on the GPU (shaders/contacts.comp, the maths of
// src/kernels/collider.h and feature_contacts.h), in a room of their own beside the solver: what
// a frame records at the schedule's Collisions, Contacts and Restitution steps and after its last
// substep, the contact states a redone frame restores, and the count of vertices in contact.
// The CPU reference's room is cpu/rigid_contacts.h; both run the same passes in the same order.
#pragma once

#include <cstdint>

#include "prep/prepared.h"
#include "sim/schedule.h"
#include "vk/buffer.h"
#include "vk/device_policy.h"
#include "vk/recorder.h"
#include "vk/solver_resources.h"

namespace cloth::vk::detail {

class GpuRigidContacts {
  public:
    // p must have colliders. `chunkCount`: workgroups of the per-vertex passes.
    GpuRigidContacts(const Context& ctx, const PreparedCloth& p, const SolverBuffers& buffers,
                     SolverPipelines& pipelines, const DispatchPolicy& policy,
                     std::uint32_t chunkCount);

    bool anyRestitution() const { return anyRestitution_; }

    // At the frame's start (directly into the command buffer): the contact count at 0.
    void recordFrameStart(VkCommandBuffer cb, Recorder& r) const;
    // Step::Collisions: the poses of the substep, pre-stabilisation, the contact states reset.
    void recordBegin(Recorder& r, const StepContext& c, std::uint32_t stages) const;
    // Step::Contacts: the projection with friction, then the sharp features' three passes.
    void recordProject(Recorder& r, const StepContext& c, std::uint32_t stages) const;
    // Step::Restitution.
    void recordRestitute(Recorder& r, const StepContext& c, std::uint32_t stages) const;
    // After the frame's last substep: the vertices in contact, counted (read by countBuffer()).
    void recordCount(Recorder& r, float dt, std::uint32_t stages) const;

    // The contact states a redone frame starts from (self-collision's overflow): copies into and
    // out of a snapshot buffer, which the first call to keepSnapshots() allocates.
    void keepSnapshots(const Context& ctx);
    void recordSnapshot(VkCommandBuffer cb) const;
    void recordRestore(VkCommandBuffer cb) const;

    const Buffer& countBuffer() const;

  private:
    gpu::ContactPush push(const StepContext& c) const;
    void pass(Recorder& r, std::uint32_t job, const StepContext& c, std::uint32_t stages) const;
    void featurePass(Recorder& r, std::uint32_t job, std::uint32_t count, const StepContext& c,
                     std::uint32_t stages) const;

    const SolverBuffers* buffers_;
    SolverPipelines* pipelines_;
    const DispatchPolicy* policy_;
    std::uint32_t chunkCount_ = 0;
    std::uint32_t colliderCount_ = 0;
    std::uint32_t triangleCount_ = 0, originalVertexCount_ = 0, phantomGroupCount_ = 0;
    bool anyRestitution_ = false;
    bool features_ = false;     // a mesh collider has sharp features: their three passes
    float bounceBelow_ = 0.0f;  // m/s: restitutionThreshold
    Buffer snapshot_;
};

}  // namespace cloth::vk::detail
