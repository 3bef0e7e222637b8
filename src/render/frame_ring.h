// Frames in flight: per slot a command buffer, a fence (the CPU waits for it before reusing the
// slot's buffers) and a semaphore for the swapchain image it acquires.
#pragma once

#include <cstdint>
#include <vector>

#include "vk/context.h"

namespace cloth::render {

struct FrameSlot {
    std::uint32_t index = 0;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkSemaphore imageAcquired = VK_NULL_HANDLE;
};

class FrameRing {
  public:
    FrameRing(const vk::Context& ctx, std::uint32_t count);
    ~FrameRing();

    std::uint32_t count() const { return static_cast<std::uint32_t>(slots_.size()); }
    // Moves to the next slot and waits until the GPU has finished that slot's previous frame.
    // The returned slot's buffers (uniforms, uploads, timestamps) may then be reused.
    const FrameSlot& next();
    // Begins recording the current slot's command buffer.
    VkCommandBuffer begin();
    // Ends and submits it; waits for `wait` (at `waitStage`) and signals `signal` when given.
    void submit(VkSemaphore wait = VK_NULL_HANDLE,
                VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                VkSemaphore signal = VK_NULL_HANDLE);
    // Waits for the current slot's submission.
    void waitCurrent();
    // Waits for every slot's submission (then all their buffers and timestamps may be read).
    void waitAll();
    const FrameSlot& current() const { return slots_[current_]; }

  private:
    const vk::Context* ctx_;
    vk::Unique<VkCommandPool> pool_;
    std::vector<vk::Unique<VkFence>> fences_;
    std::vector<vk::Unique<VkSemaphore>> semaphores_;
    std::vector<FrameSlot> slots_;
    std::uint32_t current_ = 0;
    std::vector<bool> submitted_;
};

}  // namespace cloth::render
