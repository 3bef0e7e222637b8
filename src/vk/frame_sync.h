// Submission, synchronisation and read-back of the GPU solver's frames (internal to GpuSolver):
// one command buffer (recorded anew only when the frame's commands change) and the fence of its
// submission; a staging buffer that reads several device buffers with one submission and one wait.
#pragma once

#include <cstddef>
#include <vector>

#include "vk/buffer.h"
#include "vk/context.h"
#include "vk/handle.h"

namespace cloth::vk::detail {

class FrameSync {
  public:
    explicit FrameSync(const Context& ctx);

    VkCommandBuffer commandBuffer() const { return cmd_; }
    // Submits the recorded command buffer with the fence.
    void submit();
    // Waits for the submitted frame and resets the fence; false when none was in flight.
    bool wait();

  private:
    const Context* ctx_;
    Unique<VkCommandPool> pool_;
    VkCommandBuffer cmd_ = VK_NULL_HANDLE;  // freed with the pool
    Unique<VkFence> fence_;
    bool inFlight_ = false;
};

// One device buffer's first `bytes`, read into `dst`.
struct BufferRead {
    VkBuffer buffer = VK_NULL_HANDLE;
    std::size_t bytes = 0;
    void* dst = nullptr;
};

class ReadBack {
  public:
    ReadBack(const Context& ctx, std::size_t initialBytes);
    // The buffers packed into the staging buffer (grown to hold them all), one submission on
    // `once` and one wait. The caller has waited for the work that wrote them.
    void read(OneShot& once, const std::vector<BufferRead>& reads);

  private:
    const Context* ctx_;
    Buffer staging_;
};

}  // namespace cloth::vk::detail
