// clothsim with a window: SDL2 + Vulkan swapchain, the renderer, the HUD and mouse and key
// controls. The simulation advances in fixed 1/fps s frames, decoupled from rendering (up to four
// frames per rendered frame to catch up with real time, fewer when the renderer is fast). With
// --record every simulated frame is rendered (lock-step), so every recorded frame exists.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "app/options.h"
#include "vk/context.h"

struct SDL_Window;

namespace cloth {

struct HudRect;  // app/hud.h

class WindowApp {
  public:
    // Opens the window (cloth::Error when it cannot: no display, no Vulkan device that can
    // present to it).
    // `log` (tests): where validation messages are counted, also after the window is gone.
    WindowApp(const Options& options, std::ostream& out, std::ostream& notices,
              std::shared_ptr<vk::MessageLog> log = nullptr);
    ~WindowApp();

    // Runs until the window closes or --frames is reached, then writes --screenshot and --stats.
    // Returns the exit code.
    int run();

    // ---- one frame at a time, for tests ----
    bool running() const;
    void frame();  // events, simulation, render and present
    int finish();  // what run() does after its loop

    SDL_Window* window() const;
    std::uint32_t swapchainRecreations() const;
    std::uint32_t swapchainWidth() const;
    std::uint32_t swapchainHeight() const;
    int simFrame() const;
    int renderedFrames() const;
    std::uint64_t validationMessages() const;
    const class ViewerSim& sim() const;
    std::optional<std::uint32_t> grabbedVertex() const;
    // Where the HUD drew the button `name` in the last frame (HudState::buttons), if it did.
    std::optional<HudRect> hudButton(const std::string& name) const;
    // Window coordinates (as in mouse events) where `world` appears with the current camera.
    std::pair<int, int> windowPointOf(float x, float y, float z) const;

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace cloth
