// Rendering without a window: one frame at a time into an offscreen image, read back as RGBA8.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "render/frame_ring.h"
#include "render/readback.h"
#include "render/scene_renderer.h"

namespace cloth::render {

class OffscreenRenderer {
  public:
    OffscreenRenderer(std::shared_ptr<vk::Context> ctx, VkExtent2D extent,
                      const ShadingSettings& shading);

    SceneRenderer& scene() { return scene_; }
    VkExtent2D extent() const { return target_.extent(); }

    // Renders a frame, waits for it and returns the image (when `readback`) and pass times.
    // With the CPU backend pass this frame's positions and normals; with the GPU backend leave
    // them empty (the renderer reads the solver's buffers).
    ImageRgba8 render(const gpu::FrameUniforms& uniforms, std::span<const glm::vec4> positions,
                      std::span<const glm::vec4> normals, bool readback = true);
    const std::vector<PassTime>& lastTimes() const { return times_; }

  private:
    std::shared_ptr<vk::Context> ctx_;
    OffscreenTarget target_;
    SceneRenderer scene_;
    FrameRing ring_;
    Readback readback_;
    std::vector<PassTime> times_;
};

}  // namespace cloth::render
