// Batches descriptor writes (buffers and combined image samplers) and flushes them in one call.
#pragma once

#include <array>
#include <cstdint>

#include "core/error.h"
#include "render/scene_renderer.h"

namespace cloth::render {

inline constexpr VkDescriptorType kCombinedSampler = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;

class DescriptorWriter {
  public:
    explicit DescriptorWriter(VkDevice device) : device_(device) {}
    void buffer(VkDescriptorSet set, std::uint32_t binding, VkDescriptorType type,
                const BufferSlice& b) {
        const std::uint32_t i = count_;
        buffers_[i] = {b.buffer, b.offset, b.size};
        add(set, binding, type).pBufferInfo = &buffers_[i];
    }
    void image(VkDescriptorSet set, std::uint32_t binding, VkImageView view, VkSampler sampler) {
        const std::uint32_t i = count_;
        images_[i] = {sampler, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        add(set, binding, kCombinedSampler).pImageInfo = &images_[i];
    }
    void flush() {
        vkUpdateDescriptorSets(device_, count_, writes_.data(), 0, nullptr);
        count_ = 0;
    }

  private:
    VkWriteDescriptorSet& add(VkDescriptorSet set, std::uint32_t binding, VkDescriptorType type) {
        CLOTH_ASSERT(count_ < writes_.size());
        VkWriteDescriptorSet& w = writes_[count_++];
        w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstSet = set;
        w.dstBinding = binding;
        w.descriptorCount = 1;
        w.descriptorType = type;
        return w;
    }
    VkDevice device_;
    std::uint32_t count_ = 0;
    std::array<VkWriteDescriptorSet, 16> writes_{};
    std::array<VkDescriptorBufferInfo, 16> buffers_{};
    std::array<VkDescriptorImageInfo, 16> images_{};
};

}  // namespace cloth::render
