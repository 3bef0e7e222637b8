#include "render/gpu_image.h"

#include <string>

#include "vk/spirv.h"

namespace cloth::render {

bool isDepthFormat(VkFormat format) {
    return format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D16_UNORM ||
           format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT ||
           format == VK_FORMAT_X8_D24_UNORM_PACK32;
}

Image::Image(const vk::Context& ctx, VkExtent2D extent, VkFormat format, VkImageUsageFlags usage,
             std::string_view name)
    : format_(format),
      extent_(extent),
      aspect_(isDepthFormat(format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT) {
    VkDevice dev = ctx.device();
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {extent.width, extent.height, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImage image = VK_NULL_HANDLE;
    VK_CHECK(vkCreateImage(dev, &info, nullptr, &image));
    image_ = vk::Unique<VkImage>(dev, image);
    ctx.name(image, name);

    VkMemoryRequirements req{};
    vkGetImageMemoryRequirements(dev, image, &req);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = ctx.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VK_CHECK(vkAllocateMemory(dev, &alloc, nullptr, &memory));
    memory_ = vk::Unique<VkDeviceMemory>(dev, memory);
    ctx.name(memory, name);
    VK_CHECK(vkBindImageMemory(dev, image, memory, 0));
    view_ = makeView(ctx, image, format, aspect_, name);
}

vk::Unique<VkImageView> makeView(const vk::Context& ctx, VkImage image, VkFormat format,
                                 VkImageAspectFlags aspect, std::string_view name) {
    VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    info.image = image;
    info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    info.format = format;
    info.subresourceRange = {aspect, 0, 1, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    VK_CHECK(vkCreateImageView(ctx.device(), &info, nullptr, &view));
    ctx.name(view, name);
    return vk::Unique<VkImageView>(ctx.device(), view);
}

vk::Unique<VkShaderModule> shaderModule(const vk::Context& ctx, std::string_view name) {
    auto code = shaders::spirv(name);
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = code.size_bytes();
    info.pCode = code.data();
    VkShaderModule module = VK_NULL_HANDLE;
    VK_CHECK(vkCreateShaderModule(ctx.device(), &info, nullptr, &module));
    ctx.name(module, name);
    return vk::Unique<VkShaderModule>(ctx.device(), module);
}

vk::Unique<VkSampler> makeSampler(const vk::Context& ctx, Filter filter, bool compare,
                                  std::string_view name) {
    VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    const VkFilter f = filter == Filter::Linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    info.magFilter = f;
    info.minFilter = f;
    info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    info.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    info.compareEnable = compare ? VK_TRUE : VK_FALSE;
    info.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    info.maxLod = 0.0f;
    info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
    VkSampler sampler = VK_NULL_HANDLE;
    VK_CHECK(vkCreateSampler(ctx.device(), &info, nullptr, &sampler));
    ctx.name(sampler, name);
    return vk::Unique<VkSampler>(ctx.device(), sampler);
}

bool formatSupports(const vk::Context& ctx, VkFormat format, VkFormatFeatureFlags features) {
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(ctx.physicalDevice(), format, &props);
    return (props.optimalTilingFeatures & features) == features;
}

}  // namespace cloth::render
