#include "vk/buffer.h"

#include <cstring>
#include <string>

namespace cloth::vk {

Buffer::Buffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage,
               VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred,
               std::string_view name)
    : size_(size) {
    VkDevice dev = ctx.device();
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkBuffer buffer = VK_NULL_HANDLE;
    VK_CHECK(vkCreateBuffer(dev, &info, nullptr, &buffer));
    buffer_ = Unique<VkBuffer>(dev, buffer);
    ctx.name(buffer, name);

    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(dev, buffer, &req);
    std::uint32_t type = ctx.memoryType(req.memoryTypeBits, required, preferred);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = type;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkResult r = vkAllocateMemory(dev, &alloc, nullptr, &memory);
    if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
        throw Failure(r, "out of memory allocating " + std::to_string(req.size) + " bytes for '" +
                             std::string(name) + "' on " + ctx.info().name);
    VK_CHECK(r);
    memory_ = Unique<VkDeviceMemory>(dev, memory);
    ctx.name(memory, name);
    VK_CHECK(vkBindBufferMemory(dev, buffer, memory, 0));
    if (ctx.memory().memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
        VK_CHECK(vkMapMemory(dev, memory, 0, VK_WHOLE_SIZE, 0, &mapped_));
}

Buffer deviceBuffer(const Context& ctx, VkDeviceSize size, std::string_view name,
                    VkBufferUsageFlags extraUsage) {
    return Buffer(ctx, size,
                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                      VK_BUFFER_USAGE_TRANSFER_DST_BIT | extraUsage,
                  VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, name);
}

Buffer stagingBuffer(const Context& ctx, VkDeviceSize size, std::string_view name) {
    return Buffer(ctx, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                  VK_MEMORY_PROPERTY_HOST_CACHED_BIT, name);
}

OneShot::OneShot(const Context& ctx, std::string_view name) : ctx_(&ctx) {
    VkDevice dev = ctx.device();
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = ctx.queueFamily();
    VkCommandPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateCommandPool(dev, &poolInfo, nullptr, &pool));
    pool_ = Unique<VkCommandPool>(dev, pool);
    ctx.name(pool, name);
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VK_CHECK(vkAllocateCommandBuffers(dev, &alloc, &cmd_));
    ctx.name(cmd_, name);
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    VK_CHECK(vkCreateFence(dev, &fenceInfo, nullptr, &fence));
    fence_ = Unique<VkFence>(dev, fence);
}

void OneShot::run(const std::function<void(VkCommandBuffer)>& record) {
    VK_CHECK(vkResetCommandBuffer(cmd_, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(cmd_, &begin));
    record(cmd_);
    VK_CHECK(vkEndCommandBuffer(cmd_));
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd_;
    VkFence fence = fence_.get();
    VK_CHECK(vkQueueSubmit(ctx_->queue(), 1, &submit, fence));
    VK_CHECK(vkWaitForFences(ctx_->device(), 1, &fence, VK_TRUE, UINT64_MAX));
    VK_CHECK(vkResetFences(ctx_->device(), 1, &fence));
}

void upload(const Context& ctx, OneShot& once, const Buffer& dst, const void* data,
            std::size_t bytes, VkDeviceSize offset) {
    if (bytes == 0) return;
    Buffer staging = stagingBuffer(ctx, bytes, "upload staging");
    std::memcpy(staging.mapped(), data, bytes);
    once.run([&](VkCommandBuffer cb) {
        VkBufferCopy copy{0, offset, bytes};
        vkCmdCopyBuffer(cb, staging.get(), dst.get(), 1, &copy);
        // Visible to whatever later work on the queue reads or overwrites it.
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                             0, 1, &mb, 0, nullptr, 0, nullptr);
    });
}

void download(const Context& ctx, OneShot& once, const Buffer& src, void* data, std::size_t bytes,
              VkDeviceSize offset) {
    if (bytes == 0) return;
    Buffer staging = stagingBuffer(ctx, bytes, "download staging");
    once.run([&](VkCommandBuffer cb) {
        VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        before.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
        before.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             0, 1, &before, 0, nullptr, 0, nullptr);
        VkBufferCopy copy{offset, 0, bytes};
        vkCmdCopyBuffer(cb, src.get(), staging.get(), 1, &copy);
        VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                             &host, 0, nullptr, 0, nullptr);
    });
    std::memcpy(data, staging.mapped(), bytes);
}

}  // namespace cloth::vk
