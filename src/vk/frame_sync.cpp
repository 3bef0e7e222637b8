#include "vk/frame_sync.h"

#include <algorithm>
#include <cstring>

namespace cloth::vk::detail {

FrameSync::FrameSync(const Context& ctx) : ctx_(&ctx) {
    VkDevice dev = ctx.device();
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = ctx.queueFamily();
    VkCommandPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateCommandPool(dev, &poolInfo, nullptr, &pool));
    pool_ = Unique<VkCommandPool>(dev, pool);
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VK_CHECK(vkAllocateCommandBuffers(dev, &alloc, &cmd_));
    ctx.name(cmd_, "solver frame");
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    VK_CHECK(vkCreateFence(dev, &fenceInfo, nullptr, &fence));
    fence_ = Unique<VkFence>(dev, fence);
    ctx.name(fence, "solver frame fence");
}

void FrameSync::submit() {
    VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    info.commandBufferCount = 1;
    info.pCommandBuffers = &cmd_;
    VK_CHECK(vkQueueSubmit(ctx_->queue(), 1, &info, fence_.get()));
    inFlight_ = true;
}

bool FrameSync::wait() {
    if (!inFlight_) return false;
    VkFence fence = fence_.get();
    VK_CHECK(vkWaitForFences(ctx_->device(), 1, &fence, VK_TRUE, UINT64_MAX));
    VK_CHECK(vkResetFences(ctx_->device(), 1, &fence));
    inFlight_ = false;
    return true;
}

ReadBack::ReadBack(const Context& ctx, std::size_t initialBytes)
    : ctx_(&ctx), staging_(stagingBuffer(ctx, std::max<std::size_t>(16, initialBytes),
                                         "solver read-back")) {}

void ReadBack::read(OneShot& once, const std::vector<BufferRead>& reads) {
    std::size_t total = 0;
    for (const BufferRead& r : reads) total += r.bytes;
    if (total == 0) return;
    if (total > staging_.size()) staging_ = stagingBuffer(*ctx_, total, "solver read-back");
    once.run([&](VkCommandBuffer cmd) {
        VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        before.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        before.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, 0, nullptr, 0,
                             nullptr);
        std::size_t at = 0;
        for (const BufferRead& r : reads) {
            if (r.bytes == 0) continue;
            VkBufferCopy copy{0, at, r.bytes};
            vkCmdCopyBuffer(cmd, r.buffer, staging_.get(), 1, &copy);
            at += r.bytes;
        }
        VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        after.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        after.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                             1, &after, 0, nullptr, 0, nullptr);
    });
    std::size_t at = 0;
    for (const BufferRead& r : reads) {
        if (r.bytes == 0) continue;  // (an empty vector's data() may be null)
        std::memcpy(r.dst, static_cast<const char*>(staging_.mapped()) + at, r.bytes);
        at += r.bytes;
    }
}

}  // namespace cloth::vk::detail
