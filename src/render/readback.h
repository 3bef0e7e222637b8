// Reading rendered images back to the host (screenshots, recordings), and the offscreen target
// used without a window.
#pragma once

#include "render/gpu_image.h"
#include "render/image_file.h"
#include "vk/buffer.h"

namespace cloth::render {

// A host-visible buffer that receives a copy of a colour image.
class Readback {
  public:
    Readback(const vk::Context& ctx, VkExtent2D extent, VkFormat format);
    // Copies `image` (in `layout`, left in `layout` afterwards) into the buffer. Outside a render
    // pass, after the pass that wrote it.
    void record(VkCommandBuffer cmd, VkImage image, VkImageLayout layout);
    // After the submission has finished: RGBA8 pixels (BGRA formats swizzled).
    ImageRgba8 image() const;
    VkExtent2D extent() const { return extent_; }

  private:
    vk::Buffer buffer_;
    VkExtent2D extent_;
    VkFormat format_;
};

// Colour image rendered to without a window (TRANSFER_SRC after the output pass).
class OffscreenTarget {
  public:
    OffscreenTarget(const vk::Context& ctx, VkExtent2D extent,
                    VkFormat format = VK_FORMAT_R8G8B8A8_SRGB);
    VkImage image() const { return image_.get(); }
    VkImageView view() const { return image_.view(); }
    VkFormat format() const { return image_.format(); }
    VkExtent2D extent() const { return image_.extent(); }

  private:
    Image image_;
};

}  // namespace cloth::render
