#include "render/swapchain.h"

#include <algorithm>
#include <string>

#include "render/gpu_image.h"

namespace cloth::render {

namespace {

VkSurfaceFormatKHR chooseFormat(VkPhysicalDevice pd, VkSurfaceKHR surface) {
    std::uint32_t n = 0;
    VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(pd, surface, &n, nullptr));
    std::vector<VkSurfaceFormatKHR> formats(n);
    VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(pd, surface, &n, formats.data()));
    if (formats.empty()) throw Error("the window surface offers no image formats");
    // sRGB first (the hardware encodes), then 8-bit UNORM (the lighting shader encodes).
    for (VkFormat want : {VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_SRGB,
                          VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM})
        for (const VkSurfaceFormatKHR& f : formats)
            if (f.format == want && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) return f;
    return formats[0];
}

VkPresentModeKHR choosePresentMode(VkPhysicalDevice pd, VkSurfaceKHR surface, bool vsync) {
    if (vsync) return VK_PRESENT_MODE_FIFO_KHR;  // always available
    std::uint32_t n = 0;
    VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(pd, surface, &n, nullptr));
    std::vector<VkPresentModeKHR> modes(n);
    VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(pd, surface, &n, modes.data()));
    for (VkPresentModeKHR want : {VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR})
        if (std::find(modes.begin(), modes.end(), want) != modes.end()) return want;
    return VK_PRESENT_MODE_FIFO_KHR;
}

}  // namespace

Swapchain::Swapchain(const vk::Context& ctx, VkExtent2D windowExtent, bool vsync)
    : ctx_(&ctx), vsync_(vsync) {
    const VkSurfaceFormatKHR f = chooseFormat(ctx.physicalDevice(), ctx.surface());
    format_ = f.format;
    colorSpace_ = f.colorSpace;
    presentMode_ = choosePresentMode(ctx.physicalDevice(), ctx.surface(), vsync);
    create(windowExtent);
}

Swapchain::~Swapchain() {
    if (swapchain_) ctx_->waitIdle();
}

void Swapchain::recreate(VkExtent2D windowExtent) {
    ctx_->waitIdle();
    create(windowExtent);
    ++recreations_;
}

void Swapchain::create(VkExtent2D windowExtent) {
    VkSurfaceCapabilitiesKHR caps{};
    VK_CHECK(
        vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx_->physicalDevice(), ctx_->surface(), &caps));
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) {
        extent.width =
            std::clamp(windowExtent.width, caps.minImageExtent.width, caps.maxImageExtent.width);
        extent.height =
            std::clamp(windowExtent.height, caps.minImageExtent.height, caps.maxImageExtent.height);
    }
    vk::Unique<VkSwapchainKHR> old = std::move(swapchain_);
    images_.clear();
    extent_ = extent;
    if (extent.width == 0 || extent.height == 0) return;  // minimised

    minImageCount_ = caps.minImageCount + 1;
    if (caps.maxImageCount > 0) minImageCount_ = std::min(minImageCount_, caps.maxImageCount);
    readable_ = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;

    VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    info.surface = ctx_->surface();
    info.minImageCount = minImageCount_;
    info.imageFormat = format_;
    info.imageColorSpace = colorSpace_;
    info.imageExtent = extent;
    info.imageArrayLayers = 1;
    info.imageUsage =
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | (readable_ ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0);
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = (caps.supportedTransforms & VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR)
                            ? VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR
                            : caps.currentTransform;
    info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    for (VkCompositeAlphaFlagBitsKHR a :
         {VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
          VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR, VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR})
        if (caps.supportedCompositeAlpha & a) {
            info.compositeAlpha = a;
            break;
        }
    info.presentMode = presentMode_;
    info.clipped = VK_TRUE;
    info.oldSwapchain = old.get();
    VkDevice dev = ctx_->device();
    VkSwapchainKHR sc = VK_NULL_HANDLE;
    VK_CHECK(vkCreateSwapchainKHR(dev, &info, nullptr, &sc));
    swapchain_ = vk::Unique<VkSwapchainKHR>(dev, sc);
    ctx_->name(sc, "swapchain");
    old.reset();

    std::uint32_t n = 0;
    VK_CHECK(vkGetSwapchainImagesKHR(dev, sc, &n, nullptr));
    std::vector<VkImage> images(n);
    VK_CHECK(vkGetSwapchainImagesKHR(dev, sc, &n, images.data()));
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::string suffix = " [" + std::to_string(i) + "]";
        SwapchainImage s;
        s.image = images[i];
        ctx_->name(images[i], "swapchain image" + suffix);
        s.view = makeView(*ctx_, images[i], format_, VK_IMAGE_ASPECT_COLOR_BIT,
                          "swapchain view" + suffix);
        VkSemaphoreCreateInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VkSemaphore sem = VK_NULL_HANDLE;
        VK_CHECK(vkCreateSemaphore(dev, &si, nullptr, &sem));
        s.renderFinished = vk::Unique<VkSemaphore>(dev, sem);
        ctx_->name(sem, "render finished" + suffix);
        images_.push_back(std::move(s));
    }
}

std::vector<VkImageView> Swapchain::views() const {
    std::vector<VkImageView> v;
    for (const SwapchainImage& s : images_) v.push_back(s.view.get());
    return v;
}

std::optional<std::uint32_t> Swapchain::acquire(VkSemaphore acquired) {
    std::uint32_t index = 0;
    const VkResult r = vkAcquireNextImageKHR(ctx_->device(), swapchain_.get(), UINT64_MAX, acquired,
                                             VK_NULL_HANDLE, &index);
    if (r == VK_ERROR_OUT_OF_DATE_KHR) return std::nullopt;
    if (r != VK_SUBOPTIMAL_KHR) VK_CHECK(r);  // suboptimal: use it, recreate after presenting
    return index;
}

bool Swapchain::present(std::uint32_t i) {
    VkSemaphore wait = images_.at(i).renderFinished.get();
    VkSwapchainKHR sc = swapchain_.get();
    VkPresentInfoKHR info{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    info.waitSemaphoreCount = 1;
    info.pWaitSemaphores = &wait;
    info.swapchainCount = 1;
    info.pSwapchains = &sc;
    info.pImageIndices = &i;
    const VkResult r = vkQueuePresentKHR(ctx_->queue(), &info);
    if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) return false;
    VK_CHECK(r);
    return true;
}

}  // namespace cloth::render
