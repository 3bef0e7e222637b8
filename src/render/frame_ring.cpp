#include "render/frame_ring.h"

#include <string>

namespace cloth::render {

FrameRing::FrameRing(const vk::Context& ctx, std::uint32_t count)
    : ctx_(&ctx), submitted_(count, false) {
    VkDevice dev = ctx.device();
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = ctx.queueFamily();
    VkCommandPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateCommandPool(dev, &poolInfo, nullptr, &pool));
    pool_ = vk::Unique<VkCommandPool>(dev, pool);
    ctx.name(pool, "render command pool");

    std::vector<VkCommandBuffer> cmds(count);
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = count;
    VK_CHECK(vkAllocateCommandBuffers(dev, &alloc, cmds.data()));
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::string n = " [" + std::to_string(i) + "]";
        VkFenceCreateInfo f{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VkFence fence = VK_NULL_HANDLE;
        VK_CHECK(vkCreateFence(dev, &f, nullptr, &fence));
        fences_.emplace_back(dev, fence);
        ctx.name(fence, "frame fence" + n);
        VkSemaphoreCreateInfo s{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VkSemaphore sem = VK_NULL_HANDLE;
        VK_CHECK(vkCreateSemaphore(dev, &s, nullptr, &sem));
        semaphores_.emplace_back(dev, sem);
        ctx.name(sem, "image acquired" + n);
        ctx.name(cmds[i], "render commands" + n);
        slots_.push_back({i, cmds[i], fence, sem});
    }
    current_ = count - 1;
}

FrameRing::~FrameRing() {
    std::vector<VkFence> pending;
    for (std::uint32_t i = 0; i < count(); ++i)
        if (submitted_[i]) pending.push_back(slots_[i].fence);
    if (!pending.empty())
        vkWaitForFences(ctx_->device(), static_cast<std::uint32_t>(pending.size()), pending.data(),
                        VK_TRUE, UINT64_MAX);
}

const FrameSlot& FrameRing::next() {
    current_ = (current_ + 1) % count();
    waitCurrent();
    return slots_[current_];
}

void FrameRing::waitCurrent() {
    FrameSlot& s = slots_[current_];
    if (!submitted_[current_]) return;
    VK_CHECK(vkWaitForFences(ctx_->device(), 1, &s.fence, VK_TRUE, UINT64_MAX));
    VK_CHECK(vkResetFences(ctx_->device(), 1, &s.fence));
    submitted_[current_] = false;
}

void FrameRing::waitAll() {
    const std::uint32_t keep = current_;
    for (current_ = 0; current_ < count(); ++current_) waitCurrent();
    current_ = keep;
}

VkCommandBuffer FrameRing::begin() {
    VkCommandBuffer cmd = slots_[current_].cmd;
    VK_CHECK(vkResetCommandBuffer(cmd, 0));
    VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(cmd, &info));
    return cmd;
}

void FrameRing::submit(VkSemaphore wait, VkPipelineStageFlags waitStage, VkSemaphore signal) {
    FrameSlot& s = slots_[current_];
    VK_CHECK(vkEndCommandBuffer(s.cmd));
    VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    if (wait) {
        info.waitSemaphoreCount = 1;
        info.pWaitSemaphores = &wait;
        info.pWaitDstStageMask = &waitStage;
    }
    info.commandBufferCount = 1;
    info.pCommandBuffers = &s.cmd;
    if (signal) {
        info.signalSemaphoreCount = 1;
        info.pSignalSemaphores = &signal;
    }
    VK_CHECK(vkQueueSubmit(ctx_->queue(), 1, &info, s.fence));
    submitted_[current_] = true;
}

}  // namespace cloth::render
