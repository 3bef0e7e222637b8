#include "render/imgui_vulkan.h"

#include <imgui.h>
#include <imgui_impl_vulkan.h>

#include "vk/buffer.h"

namespace cloth::render {

namespace {

void checkResult(VkResult r) {
    if (r != VK_SUCCESS) ::cloth::vk::checkFailed(r, "ImGui Vulkan backend", __FILE__, __LINE__);
}

}  // namespace

ImGuiVulkan::ImGuiVulkan(const vk::Context& ctx, VkRenderPass pass, std::uint32_t minImageCount,
                         std::uint32_t imageCount)
    : ctx_(&ctx) {
    VkInstance instance = ctx.instance();
    const bool loaded = ImGui_ImplVulkan_LoadFunctions(
        [](const char* name, void* user) {
            return vkGetInstanceProcAddr(static_cast<VkInstance>(user), name);
        },
        instance);
    if (!loaded) throw Error("the ImGui Vulkan backend could not load its Vulkan functions");

    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    poolInfo.maxSets = 4;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &size;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateDescriptorPool(ctx.device(), &poolInfo, nullptr, &pool));
    pool_ = vk::Unique<VkDescriptorPool>(ctx.device(), pool);
    ctx.name(pool, "imgui descriptor pool");

    ImGui_ImplVulkan_InitInfo info{};
    info.Instance = instance;
    info.PhysicalDevice = ctx.physicalDevice();
    info.Device = ctx.device();
    info.QueueFamily = ctx.queueFamily();
    info.Queue = ctx.queue();
    info.DescriptorPool = pool;
    info.Subpass = 0;
    info.MinImageCount = std::max(2u, minImageCount);
    info.ImageCount = std::max(info.MinImageCount, imageCount);
    info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    info.CheckVkResultFn = checkResult;
    if (!ImGui_ImplVulkan_Init(&info, pass))
        throw Error("the ImGui Vulkan backend failed to initialise");

    vk::OneShot once(ctx, "imgui fonts upload");
    once.run([](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
    ImGui_ImplVulkan_DestroyFontUploadObjects();
}

ImGuiVulkan::~ImGuiVulkan() {
    ctx_->waitIdle();
    ImGui_ImplVulkan_Shutdown();
}

void ImGuiVulkan::newFrame() {
    ImGui_ImplVulkan_NewFrame();
}

void ImGuiVulkan::draw(VkCommandBuffer cmd) {
    if (ImDrawData* data = ImGui::GetDrawData()) ImGui_ImplVulkan_RenderDrawData(data, cmd);
}

void ImGuiVulkan::setMinImageCount(std::uint32_t count) {
    ImGui_ImplVulkan_SetMinImageCount(std::max(2u, count));
}

}  // namespace cloth::render
