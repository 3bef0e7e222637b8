#include "render/pipeline.h"

#include <string>
#include <vector>

#include "render/gpu_image.h"

namespace cloth::render {

vk::Unique<VkRenderPass> makeRenderPass(const vk::Context& ctx,
                                        std::span<const AttachmentDesc> colours,
                                        std::optional<AttachmentDesc> depth,
                                        std::string_view name) {
    std::vector<VkAttachmentDescription> attachments;
    std::vector<VkAttachmentReference> colourRefs;
    auto describe = [&](const AttachmentDesc& a) {
        VkAttachmentDescription d{};
        d.format = a.format;
        d.samples = VK_SAMPLE_COUNT_1_BIT;
        d.loadOp = a.load;
        d.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        d.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        d.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        d.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        d.finalLayout = a.finalLayout;
        attachments.push_back(d);
    };
    for (const AttachmentDesc& c : colours) {
        colourRefs.push_back({static_cast<std::uint32_t>(attachments.size()),
                              VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
        describe(c);
    }
    VkAttachmentReference depthRef{};
    if (depth) {
        depthRef = {static_cast<std::uint32_t>(attachments.size()),
                    VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
        describe(*depth);
    }
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = static_cast<std::uint32_t>(colourRefs.size());
    subpass.pColorAttachments = colourRefs.data();
    subpass.pDepthStencilAttachment = depth ? &depthRef : nullptr;

    constexpr VkPipelineStageFlags kAttachmentStages =
        VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
        VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
    constexpr VkAccessFlags kAttachmentWrites =
        VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    constexpr VkAccessFlags kAttachmentAccess = kAttachmentWrites |
                                                VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                                                VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT;
    VkSubpassDependency deps[2]{};
    // In: after earlier reads (sampling, copies) and writes of these images.
    deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
    deps[0].dstSubpass = 0;
    deps[0].srcStageMask =
        kAttachmentStages | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    deps[0].srcAccessMask = kAttachmentWrites;
    deps[0].dstStageMask = kAttachmentStages;
    deps[0].dstAccessMask = kAttachmentAccess;
    // Out: writes visible to later sampling and copies.
    deps[1].srcSubpass = 0;
    deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
    deps[1].srcStageMask = kAttachmentStages;
    deps[1].srcAccessMask = kAttachmentWrites;
    deps[1].dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    deps[1].dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;

    VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    info.attachmentCount = static_cast<std::uint32_t>(attachments.size());
    info.pAttachments = attachments.data();
    info.subpassCount = 1;
    info.pSubpasses = &subpass;
    info.dependencyCount = 2;
    info.pDependencies = deps;
    VkRenderPass pass = VK_NULL_HANDLE;
    VK_CHECK(vkCreateRenderPass(ctx.device(), &info, nullptr, &pass));
    ctx.name(pass, name);
    return vk::Unique<VkRenderPass>(ctx.device(), pass);
}

vk::Unique<VkFramebuffer> makeFramebuffer(const vk::Context& ctx, VkRenderPass pass,
                                          std::span<const VkImageView> views, VkExtent2D extent,
                                          std::string_view name) {
    VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    info.renderPass = pass;
    info.attachmentCount = static_cast<std::uint32_t>(views.size());
    info.pAttachments = views.data();
    info.width = extent.width;
    info.height = extent.height;
    info.layers = 1;
    VkFramebuffer fb = VK_NULL_HANDLE;
    VK_CHECK(vkCreateFramebuffer(ctx.device(), &info, nullptr, &fb));
    ctx.name(fb, name);
    return vk::Unique<VkFramebuffer>(ctx.device(), fb);
}

vk::Unique<VkDescriptorSetLayout> makeSetLayout(const vk::Context& ctx,
                                                std::span<const BindingDesc> bindings,
                                                std::string_view name) {
    std::vector<VkDescriptorSetLayoutBinding> list;
    for (const BindingDesc& b : bindings) {
        VkDescriptorSetLayoutBinding l{};
        l.binding = b.binding;
        l.descriptorType = b.type;
        l.descriptorCount = 1;
        l.stageFlags = b.stages;
        list.push_back(l);
    }
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = static_cast<std::uint32_t>(list.size());
    info.pBindings = list.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    VK_CHECK(vkCreateDescriptorSetLayout(ctx.device(), &info, nullptr, &layout));
    ctx.name(layout, name);
    return vk::Unique<VkDescriptorSetLayout>(ctx.device(), layout);
}

vk::Unique<VkPipelineLayout> makePipelineLayout(const vk::Context& ctx, VkDescriptorSetLayout set,
                                                std::string_view name) {
    VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    info.setLayoutCount = 1;
    info.pSetLayouts = &set;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VK_CHECK(vkCreatePipelineLayout(ctx.device(), &info, nullptr, &layout));
    ctx.name(layout, name);
    return vk::Unique<VkPipelineLayout>(ctx.device(), layout);
}

vk::Unique<VkPipeline> makePipeline(const vk::Context& ctx, const PipelineDesc& desc) {
    vk::Unique<VkShaderModule> vert = shaderModule(ctx, desc.vertexShader);
    vk::Unique<VkShaderModule> frag;
    VkPipelineShaderStageCreateInfo stages[2]{};
    stages[0] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vert.get();
    stages[0].pName = "main";
    std::uint32_t stageCount = 1;
    if (!desc.fragmentShader.empty()) {
        frag = shaderModule(ctx, desc.fragmentShader);
        stages[1] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
        stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
        stages[1].module = frag.get();
        stages[1].pName = "main";
        stageCount = 2;
    }
    VkPipelineVertexInputStateCreateInfo vertexInput{
        VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo assembly{
        VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo viewport{
        VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo raster{
        VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = desc.cull;
    raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    raster.lineWidth = 1.0f;
    if (desc.depthBias) {
        raster.depthBiasEnable = VK_TRUE;
        raster.depthBiasConstantFactor = 1.0f;
        raster.depthBiasSlopeFactor = 1.5f;
    }
    VkPipelineMultisampleStateCreateInfo multisample{
        VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo depth{
        VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    depth.depthTestEnable = desc.depthTest ? VK_TRUE : VK_FALSE;
    depth.depthWriteEnable = desc.depthWrite ? VK_TRUE : VK_FALSE;
    depth.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    std::vector<VkPipelineColorBlendAttachmentState> blends(desc.colourAttachments);
    for (auto& b : blends)
        b.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                           VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    VkPipelineColorBlendStateCreateInfo blend{
        VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend.attachmentCount = desc.colourAttachments;
    blend.pAttachments = blends.data();
    const VkDynamicState dynamics[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dynamic.dynamicStateCount = 2;
    dynamic.pDynamicStates = dynamics;

    VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    info.stageCount = stageCount;
    info.pStages = stages;
    info.pVertexInputState = &vertexInput;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend;
    info.pDynamicState = &dynamic;
    info.layout = desc.layout;
    info.renderPass = desc.renderPass;
    info.subpass = 0;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VK_CHECK(vkCreateGraphicsPipelines(ctx.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
    ctx.name(pipeline, desc.name);
    return vk::Unique<VkPipeline>(ctx.device(), pipeline);
}

void setViewport(VkCommandBuffer cmd, VkExtent2D extent) {
    VkViewport vp{0.0f, 0.0f, float(extent.width), float(extent.height), 0.0f, 1.0f};
    VkRect2D scissor{{0, 0}, extent};
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
}

}  // namespace cloth::render
