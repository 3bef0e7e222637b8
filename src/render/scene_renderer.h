// The cloth renderer: shadow map, G-buffer (depth, normal, albedo), SSAO and its blur at half
// resolution, and the lighting pass into an output image (a swapchain image or an offscreen one),
// where an overlay (the HUD) may draw after it. Timestamps around every pass.
//
// Vertex data comes either from the GPU solver's buffers (drawn straight from them, on the same
// queue: `acquire` records the solver's read barrier) or, for the CPU solver, from host-visible
// buffers filled once per frame by uploadVertices().
//
// The rigid colliders (ClothDrawData::colliders) are drawn in the shadow and G-buffer passes from
// meshes uploaded once, placed every frame by colliderPose at FrameUniforms::time.x; plane
// colliders are squares of the ground, and a floor plane replaces the automatic ground.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "render/draw_data.h"
#include "render/gpu_image.h"
#include "render/gpu_timer.h"
#include "render/stage.h"
#include "vk/buffer.h"
#include "vk/context.h"

namespace cloth::render {

struct BufferSlice {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;
};

// The simulation's own buffers (GPU backend).
struct ExternalVertexBuffers {
    BufferSlice positions;  // vec4 per vertex (phantoms included)
    BufferSlice normals;    // vec4 per original vertex
    // Recorded before the first pass: makes the solver's writes visible to vertex shaders.
    std::function<void(VkCommandBuffer)> acquire;
};

struct OutputDesc {
    VkFormat format = VK_FORMAT_R8G8B8A8_SRGB;
    // PRESENT_SRC_KHR for a swapchain, TRANSFER_SRC_OPTIMAL for an image read back.
    VkImageLayout finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
};

// Render pass names, in order; the stats JSON and the HUD use them.
inline const std::vector<std::string> kRenderPassNames = {"shadow", "gbuffer", "ssao", "ssao_blur",
                                                          "lighting"};

class SceneRenderer {
  public:
    SceneRenderer(std::shared_ptr<vk::Context> ctx, const OutputDesc& output,
                  const ShadingSettings& shading, std::uint32_t framesInFlight);
    ~SceneRenderer();
    SceneRenderer(const SceneRenderer&) = delete;
    SceneRenderer& operator=(const SceneRenderer&) = delete;

    // A new cloth (scene or backend change). Waits for the device to be idle.
    void setCloth(const ClothDrawData& cloth, std::optional<ExternalVertexBuffers> gpu);
    // New output images (start, resize). Waits for the device to be idle.
    void setOutputs(VkExtent2D extent, std::span<const VkImageView> views);

    // CPU backend: this frame's positions (all vertices) and normals (original vertices).
    void uploadVertices(std::uint32_t slot, std::span<const glm::vec4> positions,
                        std::span<const glm::vec4> normals);

    // Records the frame's passes into `cmd` (outside any render pass), the colliders placed at
    // the simulated time uniforms.time.x. `overlay` draws inside the output pass after the
    // lighting (ImGui).
    void record(VkCommandBuffer cmd, std::uint32_t slot, std::uint32_t outputIndex,
                const gpu::FrameUniforms& uniforms,
                const std::function<void(VkCommandBuffer)>& overlay = {});

    // After the slot's fence has signalled: GPU time per pass of the frame it last ran.
    std::vector<PassTime> readTimes(std::uint32_t slot);

    VkRenderPass outputPass() const;
    VkExtent2D extent() const;
    const ClothDrawData& cloth() const;
    const ShadingSettings& shading() const;
    // Switches shadows and SSAO on or off (the shadow map's size stays as created).
    void setShading(const ShadingSettings& shading);
    bool usesGpuVertices() const;
    // The output is a UNORM format: the lighting shader encodes sRGB itself.
    bool manualSrgb() const;

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

// Whether `format` stores sRGB-encoded values (the hardware encodes on write).
bool isSrgbFormat(VkFormat format);

}  // namespace cloth::render
