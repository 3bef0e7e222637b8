#include "render/readback.h"

#include <cstring>

#include "core/error.h"

namespace cloth::render {

namespace {

bool isBgra(VkFormat f) {
    return f == VK_FORMAT_B8G8R8A8_SRGB || f == VK_FORMAT_B8G8R8A8_UNORM;
}

bool isRgba8(VkFormat f) {
    return f == VK_FORMAT_R8G8B8A8_SRGB || f == VK_FORMAT_R8G8B8A8_UNORM || isBgra(f);
}

}  // namespace

Readback::Readback(const vk::Context& ctx, VkExtent2D extent, VkFormat format)
    : buffer_(ctx, VkDeviceSize(extent.width) * extent.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
              VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
              VK_MEMORY_PROPERTY_HOST_CACHED_BIT, "screenshot readback"),
      extent_(extent),
      format_(format) {
    if (!isRgba8(format))
        throw Error("screenshots need an 8-bit RGBA or BGRA image; the window's format is " +
                    std::to_string(int(format)));
}

void Readback::record(VkCommandBuffer cmd, VkImage image, VkImageLayout layout) {
    const bool transition = layout != VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    if (transition) {
        b.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        b.oldLayout = layout;
        b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                             VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &b);
    }
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {extent_.width, extent_.height, 1};
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer_.get(), 1,
                           &copy);
    if (transition) {
        b.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        b.dstAccessMask = 0;
        b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        b.newLayout = layout;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0, nullptr, 1,
                             &b);
    }
    VkBufferMemoryBarrier host{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    host.srcQueueFamilyIndex = host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    host.buffer = buffer_.get();
    host.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                         nullptr, 1, &host, 0, nullptr);
}

ImageRgba8 Readback::image() const {
    ImageRgba8 img;
    img.width = int(extent_.width);
    img.height = int(extent_.height);
    img.pixels.resize(std::size_t(img.width) * img.height * 4);
    std::memcpy(img.pixels.data(), buffer_.mapped(), img.pixels.size());
    if (isBgra(format_))
        for (std::size_t i = 0; i < img.pixels.size(); i += 4)
            std::swap(img.pixels[i], img.pixels[i + 2]);
    for (std::size_t i = 3; i < img.pixels.size(); i += 4) img.pixels[i] = 255;  // opaque
    return img;
}

OffscreenTarget::OffscreenTarget(const vk::Context& ctx, VkExtent2D extent, VkFormat format)
    : image_(ctx, extent, format,
             VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
             "offscreen output") {}

}  // namespace cloth::render
