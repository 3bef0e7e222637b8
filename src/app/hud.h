// The window's heads-up display (Dear ImGui). By default one compact bar at the top: frame rate,
// frame and simulated time, backend and device, pause or run, step, reset, the scene picker and
// the button that opens the details panel. The details panel holds the backend switch and the
// view reset, and collapsible sections, all closed at first: status counts, times (stages that
// took no time left out), settings (solver, shading, the cloth's check), convergence plots, keys.
#pragma once

#include <map>
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

// A widget's rectangle in window coordinates (pixels from the top left).
struct HudRect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// Keeps the edited settings and what is open between frames.
struct HudState {
    SimControls editing;
    int editingGeneration = -1;  // reload `editing` from the sim when its cloth changes
    bool visible = true;         // H: the bar and every panel
    bool details = false;        // the details panel, opened from the bar
    float barBottom = 40.0f;     // where the bar ended last frame (the panel opens below it)
    bool metricsShown = false;   // the panel was opened once for the convergence plots
    // Where this frame's buttons were drawn, by a name that does not change with their label
    // ("details", "pause", "step", "reset", "scene"; in the details panel "backend", "view"):
    // for tests that click them. Empty while hidden.
    std::map<std::string, HudRect> buttons;
};

// Builds the HUD's windows for this frame (between ImGui::NewFrame and ImGui::Render).
// `shading` is edited in place (shadows, SSAO, the check pattern).
HudActions drawHud(const HudInput& in, HudState& state, render::ShadingSettings& shading);

}  // namespace cloth
