// Timestamp queries around the render passes of one frame in flight.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vk/context.h"

namespace cloth::render {

struct PassTime {
    std::string name;
    double ms = 0.0;
};

class GpuTimer {
  public:
    GpuTimer() = default;
    // `passes` names in recording order; disabled (no-op) when the queue has no timestamps.
    GpuTimer(const vk::Context& ctx, std::vector<std::string> passes, std::string_view name);

    bool enabled() const { return static_cast<bool>(pool_); }
    void reset(VkCommandBuffer cmd);  // outside a render pass, before the first begin()
    void begin(VkCommandBuffer cmd, std::uint32_t pass);
    void end(VkCommandBuffer cmd, std::uint32_t pass);
    // After the frame's fence: milliseconds per pass; empty when disabled, or when nothing was
    // recorded since the last read.
    std::vector<PassTime> read();

  private:
    VkDevice device_ = VK_NULL_HANDLE;
    vk::Unique<VkQueryPool> pool_;
    std::vector<std::string> passes_;
    double periodNs_ = 1.0;
    bool recorded_ = false;
};

}  // namespace cloth::render
