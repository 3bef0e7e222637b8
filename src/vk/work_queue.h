// A buffer of items whose number a shader decides (src/kernels/work_counter.h): shaders append
// with an atomic counter, workArgs() turns the count into indirect dispatch arguments on the
// device, and later passes dispatch indirectly over exactly the stored items. An append past
// the capacity is counted but not stored; after the submission the owner calls
// growIfOverflowed(), which grows the item buffer to hold every append, counts the overflow and
// says the work must be redone (after rebinding the new buffer). Nothing is dropped silently.
#pragma once

#include <cstdint>
#include <string>

#include "vk/buffer.h"
#include "vk/compute_kernel.h"
#include "kernels/work_counter.h"

namespace cloth::vk {

class WorkQueue {
  public:
    // itemBytes: size of one item; capacity: items at first (>= 1); workgroupSize: of the
    // passes dispatched indirectly over the items.
    WorkQueue(const Context& ctx, std::string name, VkDeviceSize itemBytes, std::uint32_t capacity,
              std::uint32_t workgroupSize);

    const Buffer& items() const { return items_; }
    const Buffer& counter() const { return counter_; }  // WorkCounter (host-visible)
    std::uint32_t capacity() const { return capacity_; }

    // count = 0 and the capacity, before the appending pass.
    void recordReset(VkCommandBuffer cb) const;
    // After the appending pass (a barrier first): the indirect arguments for the items stored.
    void recordArgs(VkCommandBuffer cb) const;
    // Dispatches `kernel` over the stored items (after recordArgs and a barrier).
    void dispatchIndirect(VkCommandBuffer cb, const ComputeKernel& kernel, const void* push) const;

    // After the submission has finished: the items appended (stored or not).
    std::uint32_t appended() const;
    // If more were appended than fit: grows the item buffer to the next power of two >= the
    // appends (its contents are not kept), counts an overflow and returns true: rebind
    // items() and redo the work. Throws cloth::Error if that exceeds the device's limits.
    bool growIfOverflowed();
    std::uint64_t overflows() const { return overflows_; }

  private:
    void allocate(std::uint32_t capacity);

    const Context* ctx_;
    std::string name_;
    VkDeviceSize itemBytes_;
    std::uint32_t capacity_ = 0;
    std::uint64_t overflows_ = 0;
    Buffer items_;
    Buffer counter_;
    ComputeKernel args_;
};

}  // namespace cloth::vk
