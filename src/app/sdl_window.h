// SDL2: the video subsystem, a resizable window with Vulkan support (X11 or Wayland, as SDL
// finds them), the instance extensions it needs and its Vulkan surface.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <volk.h>  // before SDL_vulkan.h, so SDL uses Vulkan's own handle types

#include <SDL.h>
#include <SDL_vulkan.h>

namespace cloth {

// SDL's video subsystem, started for the lifetime of this object.
class SdlVideo {
  public:
    // Started when a display is configured (DISPLAY or WAYLAND_DISPLAY) and SDL's video
    // subsystem initialises; nothing otherwise (`why` says why).
    static std::unique_ptr<SdlVideo> tryStart(std::string* why);
    ~SdlVideo();

  private:
    SdlVideo() = default;
};

class SdlWindow {
  public:
    SdlWindow(const std::string& title, int width, int height);  // cloth::Error on failure
    ~SdlWindow();
    SdlWindow(const SdlWindow&) = delete;
    SdlWindow& operator=(const SdlWindow&) = delete;

    SDL_Window* get() const { return window_; }
    std::vector<std::string> instanceExtensions() const;
    VkSurfaceKHR createSurface(VkInstance instance) const;  // VK_NULL_HANDLE on failure
    VkExtent2D drawableSize() const;
    // Drawable pixels per window coordinate (mouse events are in window coordinates).
    float pixelScale() const;

  private:
    SDL_Window* window_ = nullptr;
};

}  // namespace cloth
