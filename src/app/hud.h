// The window's heads-up display (Dear ImGui): frame rate, simulation and render times, counts,
// device names, live solver settings, shading switches, scene picker and the key bindings.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/viewer_sim.h"
#include "render/gpu_timer.h"
#include "render/stage.h"

namespace cloth {

struct HudInput {
    const ViewerSim* sim = nullptr;
    double fps = 0.0;
    double simMsPerFrame = 0.0;  // wall time of the last simulated frame
    std::vector<render::PassTime> renderPasses;
    std::string renderDevice;
    VkExtent2D extent{};
    bool paused = false;
    bool vsync = true;
    std::string warning;  // shown in the status section when not empty (the stretch check)
};

// What the user asked for this frame.
struct HudActions {
    bool togglePause = false;
    bool step = false;
    bool reset = false;
    bool switchBackend = false;
    bool resetCamera = false;
    std::optional<std::string> scene;
    std::optional<SimControls> apply;  // settings changed (applied when an edit completes)
    std::optional<bool> metrics;       // the convergence plots switched on or off
};

// Keeps the edited settings between frames.
struct HudState {
    SimControls editing;
    int editingGeneration = -1;  // reload `editing` from the sim when its cloth changes
    bool visible = true;
};

// Builds the HUD's windows for this frame (between ImGui::NewFrame and ImGui::Render).
// `shading` is edited in place (shadows, SSAO).
HudActions drawHud(const HudInput& in, HudState& state, render::ShadingSettings& shading);

}  // namespace cloth
