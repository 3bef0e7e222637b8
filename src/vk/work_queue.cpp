#include "vk/work_queue.h"

#include <bit>
#include <cstring>

#include "core/error.h"

namespace cloth::vk {

WorkQueue::WorkQueue(const Context& ctx, std::string name, VkDeviceSize itemBytes,
                     std::uint32_t capacity, std::uint32_t workgroupSize)
    : ctx_(&ctx),
      name_(std::move(name)),
      itemBytes_(itemBytes),
      counter_(ctx, sizeof(gpu::WorkCounter),
               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                   VK_BUFFER_USAGE_TRANSFER_DST_BIT,
               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
               VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, name_ + " counter"),
      args_(ctx, "work_args.comp", 1, 0, workgroupSize) {
    CLOTH_ASSERT(itemBytes > 0 && capacity > 0 && workgroupSize > 0);
    std::memset(counter_.mapped(), 0, sizeof(gpu::WorkCounter));
    allocate(capacity);
    args_.bind({&counter_});
}

void WorkQueue::allocate(std::uint32_t capacity) {
    const VkDeviceSize bytes = itemBytes_ * capacity;
    if (bytes > ctx_->limits().maxStorageBufferRange)
        throw Error(name_ + ": " + std::to_string(capacity) + " items of " +
                    std::to_string(itemBytes_) + " bytes exceed the storage-buffer limit of " +
                    ctx_->info().name);
    items_ = Buffer();  // the old one first: no two at once
    items_ = deviceBuffer(*ctx_, bytes, name_ + " items");
    capacity_ = capacity;
}

void WorkQueue::recordReset(VkCommandBuffer cb) const {
    const std::uint32_t head[2] = {0u, capacity_};
    vkCmdUpdateBuffer(cb, counter_.get(), 0, sizeof head, head);
}

void WorkQueue::recordArgs(VkCommandBuffer cb) const {
    args_.dispatch(cb, nullptr, 1);
}

void WorkQueue::dispatchIndirect(VkCommandBuffer cb, const ComputeKernel& kernel,
                                 const void* push) const {
    kernel.dispatchIndirect(cb, push, counter_, offsetof(gpu::WorkCounter, groupsX));
}

std::uint32_t WorkQueue::appended() const {
    gpu::WorkCounter c;
    std::memcpy(&c, counter_.mapped(), sizeof c);
    return c.count;
}

bool WorkQueue::growIfOverflowed() {
    const std::uint32_t n = appended();
    if (n <= capacity_) return false;
    ++overflows_;
    allocate(std::bit_ceil(n));
    return true;
}

}  // namespace cloth::vk
