#include "render/offscreen_renderer.h"

namespace cloth::render {

OffscreenRenderer::OffscreenRenderer(std::shared_ptr<vk::Context> ctx, VkExtent2D extent,
                                     const ShadingSettings& shading)
    : ctx_(ctx),
      target_(*ctx, extent),
      scene_(ctx, OutputDesc{target_.format(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL}, shading, 1),
      ring_(*ctx, 1),
      readback_(*ctx, extent, target_.format()) {
    const VkImageView view = target_.view();
    scene_.setOutputs(extent, {&view, 1});
}

ImageRgba8 OffscreenRenderer::render(const gpu::FrameUniforms& uniforms,
                                     std::span<const glm::vec4> positions,
                                     std::span<const glm::vec4> normals, bool readback) {
    const FrameSlot& slot = ring_.next();
    if (!scene_.usesGpuVertices()) scene_.uploadVertices(slot.index, positions, normals);
    VkCommandBuffer cmd = ring_.begin();
    scene_.record(cmd, slot.index, 0, uniforms);
    if (readback) readback_.record(cmd, target_.image(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    ring_.submit();
    ring_.waitCurrent();
    times_ = scene_.readTimes(slot.index);
    return readback ? readback_.image() : ImageRgba8{};
}

}  // namespace cloth::render
