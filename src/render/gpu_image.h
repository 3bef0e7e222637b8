// Images with their own memory and a view, plus the small Vulkan helpers the renderer shares
// (shader modules, samplers). Ownership through vk::Unique (src/vk/handle.h).
#pragma once

#include <string_view>

#include "vk/context.h"

namespace cloth::render {

class Image {
  public:
    Image() = default;
    Image(const vk::Context& ctx, VkExtent2D extent, VkFormat format, VkImageUsageFlags usage,
          std::string_view name);

    VkImage get() const { return image_.get(); }
    VkImageView view() const { return view_.get(); }
    VkFormat format() const { return format_; }
    VkExtent2D extent() const { return extent_; }
    VkImageAspectFlags aspect() const { return aspect_; }
    explicit operator bool() const { return static_cast<bool>(image_); }

  private:
    vk::Unique<VkDeviceMemory> memory_;
    vk::Unique<VkImage> image_;  // destroyed before its memory
    vk::Unique<VkImageView> view_;
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    VkExtent2D extent_{};
    VkImageAspectFlags aspect_ = 0;
};

bool isDepthFormat(VkFormat format);

// A 2D colour view of `image` (swapchain images have no Image of their own).
vk::Unique<VkImageView> makeView(const vk::Context& ctx, VkImage image, VkFormat format,
                                 VkImageAspectFlags aspect, std::string_view name);

vk::Unique<VkShaderModule> shaderModule(const vk::Context& ctx, std::string_view name);

enum class Filter { Nearest, Linear };
// Clamp-to-edge sampler; `compare` makes a depth-comparison (shadow) sampler.
vk::Unique<VkSampler> makeSampler(const vk::Context& ctx, Filter filter, bool compare,
                                  std::string_view name);

// Whether `format` supports `features` with optimal tiling.
bool formatSupports(const vk::Context& ctx, VkFormat format, VkFormatFeatureFlags features);

}  // namespace cloth::render
