#include "app/sdl_window.h"

#include <cstdlib>

#include "core/error.h"

namespace cloth {

std::unique_ptr<SdlVideo> SdlVideo::tryStart(std::string* why) {
    const char* x11 = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if ((!x11 || !*x11) && (!wayland || !*wayland)) {
        if (why) *why = "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)";
        return nullptr;
    }
    // SDL falls back to drivers without windows (offscreen, dummy) when it cannot reach the
    // display server: that is no display either. A display server that was started a moment
    // ago may refuse the first connection (seen under Xvfb in 1 of about 20 parallel test
    // runs), so that is tried a few times, a quarter of a second apart, before giving up.
    std::string driver;
    for (int attempt = 0; attempt < 5; ++attempt) {
        if (attempt > 0) SDL_Delay(250);
        if (SDL_Init(SDL_INIT_VIDEO) != 0) {
            if (why) *why = std::string("SDL cannot start its video subsystem: ") + SDL_GetError();
            return nullptr;
        }
        driver = SDL_GetCurrentVideoDriver() ? SDL_GetCurrentVideoDriver() : "";
        if (driver == "x11" || driver == "wayland") return std::unique_ptr<SdlVideo>(new SdlVideo());
        SDL_Quit();
    }
    if (why)
        *why = "SDL reaches no display server (video driver '" + driver +
               "'; is the display running?)";
    return nullptr;
}

SdlVideo::~SdlVideo() {
    SDL_Quit();
}

SdlWindow::SdlWindow(const std::string& title, int width, int height) {
    window_ = SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width,
                               height,
                               SDL_WINDOW_VULKAN | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!window_)
        throw Error(std::string("cannot open a window with Vulkan support: ") + SDL_GetError());
}

SdlWindow::~SdlWindow() {
    if (window_) SDL_DestroyWindow(window_);
}

std::vector<std::string> SdlWindow::instanceExtensions() const {
    unsigned int n = 0;
    if (!SDL_Vulkan_GetInstanceExtensions(window_, &n, nullptr))
        throw Error(std::string("SDL lists no Vulkan surface extensions: ") + SDL_GetError());
    std::vector<const char*> names(n);
    SDL_Vulkan_GetInstanceExtensions(window_, &n, names.data());
    return std::vector<std::string>(names.begin(), names.begin() + n);
}

VkSurfaceKHR SdlWindow::createSurface(VkInstance instance) const {
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    if (!SDL_Vulkan_CreateSurface(window_, instance, &surface)) return VK_NULL_HANDLE;
    return surface;
}

VkExtent2D SdlWindow::drawableSize() const {
    int w = 0, h = 0;
    SDL_Vulkan_GetDrawableSize(window_, &w, &h);
    return {static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h)};
}

float SdlWindow::pixelScale() const {
    int w = 0, h = 0;
    SDL_GetWindowSize(window_, &w, &h);
    return w > 0 ? float(drawableSize().width) / float(w) : 1.0f;
}

}  // namespace cloth
