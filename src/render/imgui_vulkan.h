// Dear ImGui's Vulkan backend (Debian's libimgui-dev 1.86 ships it as source; it is compiled into
// cloth_imgui with IMGUI_IMPL_VULKAN_NO_PROTOTYPES and loads its functions through volk).
// The caller owns the ImGui context (ImGui::CreateContext) and the platform backend.
#pragma once

#include <cstdint>

#include "vk/context.h"

namespace cloth::render {

class ImGuiVulkan {
  public:
    // Draws inside `pass` (subpass 0); `imageCount` buffers are cycled (>= frames in flight).
    ImGuiVulkan(const vk::Context& ctx, VkRenderPass pass, std::uint32_t minImageCount,
                std::uint32_t imageCount);
    ~ImGuiVulkan();
    ImGuiVulkan(const ImGuiVulkan&) = delete;
    ImGuiVulkan& operator=(const ImGuiVulkan&) = delete;

    void newFrame();
    // Records the draw data of the last ImGui::Render() (inside the output pass).
    void draw(VkCommandBuffer cmd);
    void setMinImageCount(std::uint32_t count);

  private:
    const vk::Context* ctx_;
    vk::Unique<VkDescriptorPool> pool_;
};

}  // namespace cloth::render
