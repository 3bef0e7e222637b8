// The window's swapchain: format and present-mode choice, images and views, recreation on
// resize, and one "render finished" semaphore per image (what presentation waits for).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "vk/context.h"

namespace cloth::render {

struct SwapchainImage {
    VkImage image = VK_NULL_HANDLE;
    vk::Unique<VkImageView> view;
    vk::Unique<VkSemaphore> renderFinished;
};

class Swapchain {
  public:
    // `windowExtent`: the drawable size in pixels, used when the surface leaves it to us.
    Swapchain(const vk::Context& ctx, VkExtent2D windowExtent, bool vsync);
    ~Swapchain();

    // Rebuilds for a new window size (waits for the device to be idle). A zero extent (a
    // minimised window) leaves it unusable until the next recreate().
    void recreate(VkExtent2D windowExtent);

    bool usable() const { return static_cast<bool>(swapchain_); }
    VkFormat format() const { return format_; }
    VkExtent2D extent() const { return extent_; }
    VkPresentModeKHR presentMode() const { return presentMode_; }
    std::uint32_t imageCount() const { return static_cast<std::uint32_t>(images_.size()); }
    std::uint32_t minImageCount() const { return minImageCount_; }
    VkImage image(std::uint32_t i) const { return images_.at(i).image; }
    std::vector<VkImageView> views() const;
    VkSemaphore renderFinished(std::uint32_t i) const { return images_.at(i).renderFinished.get(); }
    // Whether images can be copied out (screenshots in a window).
    bool readable() const { return readable_; }
    std::uint32_t recreations() const { return recreations_; }

    // The next image, signalling `acquired`; nothing when the swapchain is out of date.
    std::optional<std::uint32_t> acquire(VkSemaphore acquired);
    // Presents image `i` after its renderFinished semaphore. False when out of date or
    // suboptimal (the caller recreates).
    bool present(std::uint32_t i);

  private:
    void create(VkExtent2D windowExtent);

    const vk::Context* ctx_;
    bool vsync_;
    vk::Unique<VkSwapchainKHR> swapchain_;
    std::vector<SwapchainImage> images_;
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    VkColorSpaceKHR colorSpace_ = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    VkExtent2D extent_{};
    VkPresentModeKHR presentMode_ = VK_PRESENT_MODE_FIFO_KHR;
    std::uint32_t minImageCount_ = 2;
    bool readable_ = false;
    std::uint32_t recreations_ = 0;
};

}  // namespace cloth::render
