// Buffers with their own memory, and one-off command submission for uploads and read-back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "vk/context.h"

namespace cloth::vk {

class Buffer {
  public:
    Buffer() = default;
    // `required` memory properties must be present; `preferred` ones are taken when available.
    // Host-visible memory is mapped for the buffer's lifetime (mapped() != nullptr).
    Buffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage,
           VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred, std::string_view name);

    VkBuffer get() const { return buffer_.get(); }
    VkDeviceSize size() const { return size_; }
    void* mapped() const { return mapped_; }
    explicit operator bool() const { return static_cast<bool>(buffer_); }

  private:
    Unique<VkDeviceMemory> memory_;
    Unique<VkBuffer> buffer_;  // destroyed before its memory
    VkDeviceSize size_ = 0;
    void* mapped_ = nullptr;
};

// A device-local storage buffer (also a transfer source and destination, plus `extraUsage`).
Buffer deviceBuffer(const Context& ctx, VkDeviceSize size, std::string_view name,
                    VkBufferUsageFlags extraUsage = 0);
// A host-visible, coherent staging buffer.
Buffer stagingBuffer(const Context& ctx, VkDeviceSize size, std::string_view name);

// A command pool with one reusable command buffer and a fence, for work the host waits for.
class OneShot {
  public:
    explicit OneShot(const Context& ctx, std::string_view name);
    // Records `record` into the command buffer, submits it and waits for it to finish.
    void run(const std::function<void(VkCommandBuffer)>& record);

  private:
    const Context* ctx_;
    Unique<VkCommandPool> pool_;
    VkCommandBuffer cmd_ = VK_NULL_HANDLE;
    Unique<VkFence> fence_;
};

// Copies `bytes` from host memory into `dst` at `offset` through a staging buffer.
void upload(const Context& ctx, OneShot& once, const Buffer& dst, const void* data,
            std::size_t bytes, VkDeviceSize offset = 0);
// Copies `bytes` of `src` from `offset` into host memory through a staging buffer (after all
// work submitted before it).
void download(const Context& ctx, OneShot& once, const Buffer& src, void* data, std::size_t bytes,
              VkDeviceSize offset = 0);

// A device buffer holding `data`, never empty (a buffer of no bytes is invalid: a spare element
// stands in for none).
template <class T>
Buffer filledBuffer(const Context& ctx, OneShot& once, const std::vector<T>& data,
                    std::string_view name) {
    const std::size_t bytes = (data.empty() ? 1 : data.size()) * sizeof(T);
    Buffer b = deviceBuffer(ctx, bytes, name);
    if (!data.empty()) upload(ctx, once, b, data.data(), data.size() * sizeof(T));
    return b;
}

}  // namespace cloth::vk
