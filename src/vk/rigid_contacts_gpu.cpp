#include "vk/rigid_contacts_gpu.h"

#include "core/error.h"
#include "kernels/solver_io.h"
#include "vk/transfer.h"

namespace cloth::vk::detail {

GpuRigidContacts::GpuRigidContacts(const Context&, const PreparedCloth& p,
                                   const SolverBuffers& buffers, SolverPipelines& pipelines,
                                   const DispatchPolicy& policy, std::uint32_t chunkCount)
    : buffers_(&buffers), pipelines_(&pipelines), policy_(&policy), chunkCount_(chunkCount) {
    CLOTH_ASSERT(!p.colliders.empty());
    colliderCount_ = static_cast<std::uint32_t>(p.colliders.size());
    triangleCount_ = static_cast<std::uint32_t>(p.triangles.size());
    originalVertexCount_ = p.originalVertexCount;
    phantomGroupCount_ = static_cast<std::uint32_t>(p.phantomGroups.size());
    for (const gpu::Collider& c : p.colliders)
        anyRestitution_ = anyRestitution_ || c.restitution > 0.0f;
    bounceBelow_ = restitutionThreshold(p.sim, p.timing);
    features_ = !p.meshFeatures.empty();
}

gpu::ContactPush GpuRigidContacts::push(const StepContext& c) const {
    gpu::ContactPush push{};  // the substep's times: its clock (GpuSolver's recordFrame)
    push.substep = static_cast<std::uint32_t>(c.substep);
    push.dt = c.dt;
    push.bounceBelow = bounceBelow_;
    push.colliderCount = colliderCount_;
    return push;
}

// A pass over the chunk table (every vertex).
void GpuRigidContacts::pass(Recorder& r, std::uint32_t job, const StepContext& c,
                            std::uint32_t stages) const {
    r.dispatch(pipelines_->get(Kernel::Contacts, policy_->spec(job)), push(c), chunkCount_,
               stages);
}

// The sharp-feature passes (feature_contacts.h): over `count` items, not the chunk table.
void GpuRigidContacts::featurePass(Recorder& r, std::uint32_t job, std::uint32_t count,
                                   const StepContext& c, std::uint32_t stages) const {
    gpu::ContactPush p = push(c);
    p.count = count;
    p.triangleCount = triangleCount_;
    r.dispatch(pipelines_->get(Kernel::Contacts, policy_->spec(job)), p, policy_->groupsFor(count),
               stages);
}

void GpuRigidContacts::recordFrameStart(VkCommandBuffer cb, Recorder& r) const {
    vkCmdFillBuffer(cb, countBuffer().get(), 0, VK_WHOLE_SIZE, 0);
    VkMemoryBarrier fill{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    fill.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    fill.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         0, 1, &fill, 0, nullptr, 0, nullptr);
    r.countBarriers(1);
}

void GpuRigidContacts::recordBegin(Recorder& r, const StepContext& c, std::uint32_t stages) const {
    pass(r, gpu::CONTACT_BEGIN, c, stages);
}

void GpuRigidContacts::recordProject(Recorder& r, const StepContext& c,
                                     std::uint32_t stages) const {
    pass(r, gpu::CONTACT_PROJECT, c, stages);
    if (!features_) return;
    featurePass(r, gpu::CONTACT_FEATURES, triangleCount_, c, stages);
    featurePass(r, gpu::CONTACT_FEATURE_MOVE, originalVertexCount_, c, stages);
    featurePass(r, gpu::CONTACT_FEATURE_COPIES, phantomGroupCount_, c, stages);
}

void GpuRigidContacts::recordRestitute(Recorder& r, const StepContext& c,
                                       std::uint32_t stages) const {
    if (anyRestitution_) pass(r, gpu::CONTACT_RESTITUTE, c, stages);
}

void GpuRigidContacts::recordCount(Recorder& r, float dt, std::uint32_t stages) const {
    StepContext last;
    last.dt = dt;
    pass(r, gpu::CONTACT_COUNT, last, stages);
}

void GpuRigidContacts::keepSnapshots(const Context& ctx) {
    if (!snapshot_)
        snapshot_ = deviceBuffer(ctx, (*buffers_)[BINDING_CONTACTS].size(), "snapshot contacts");
}

void GpuRigidContacts::recordSnapshot(VkCommandBuffer cb) const {
    if (snapshot_) copyWholeBuffer(cb, (*buffers_)[BINDING_CONTACTS], snapshot_);
}

void GpuRigidContacts::recordRestore(VkCommandBuffer cb) const {
    if (snapshot_) copyWholeBuffer(cb, snapshot_, (*buffers_)[BINDING_CONTACTS]);
}

const Buffer& GpuRigidContacts::countBuffer() const {
    return (*buffers_)[BINDING_CONTACT_COUNT];
}

}  // namespace cloth::vk::detail
