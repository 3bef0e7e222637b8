// Render passes, descriptor set layouts and graphics pipelines with the renderer's defaults.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "vk/context.h"

namespace cloth::render {

struct AttachmentDesc {
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkAttachmentLoadOp load = VK_ATTACHMENT_LOAD_OP_CLEAR;
    VkImageLayout finalLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
};

// One subpass writing `colours` (and `depth`), contents discarded on entry (UNDEFINED initial
// layout). The external dependencies order it after any earlier pass that wrote or read its
// attachments (attachment output, fragment shader, transfer) and make its writes visible to
// fragment shaders and transfers after it.
vk::Unique<VkRenderPass> makeRenderPass(const vk::Context& ctx,
                                        std::span<const AttachmentDesc> colours,
                                        std::optional<AttachmentDesc> depth, std::string_view name);

vk::Unique<VkFramebuffer> makeFramebuffer(const vk::Context& ctx, VkRenderPass pass,
                                          std::span<const VkImageView> views, VkExtent2D extent,
                                          std::string_view name);

struct BindingDesc {
    std::uint32_t binding;
    VkDescriptorType type;
    VkShaderStageFlags stages;
};

vk::Unique<VkDescriptorSetLayout> makeSetLayout(const vk::Context& ctx,
                                                std::span<const BindingDesc> bindings,
                                                std::string_view name);
vk::Unique<VkPipelineLayout> makePipelineLayout(const vk::Context& ctx, VkDescriptorSetLayout set,
                                                std::string_view name);

struct PipelineDesc {
    std::string_view vertexShader;
    std::string_view fragmentShader;  // empty: depth only
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkRenderPass renderPass = VK_NULL_HANDLE;
    std::uint32_t colourAttachments = 1;
    bool depthTest = false;
    bool depthWrite = false;
    VkCullModeFlags cull = VK_CULL_MODE_NONE;
    bool depthBias = false;  // for the shadow map
    std::string_view name;
};

// Viewport and scissor are dynamic; no vertex input (the shaders pull from storage buffers).
vk::Unique<VkPipeline> makePipeline(const vk::Context& ctx, const PipelineDesc& desc);

// Full-target viewport and scissor.
void setViewport(VkCommandBuffer cmd, VkExtent2D extent);

}  // namespace cloth::render
