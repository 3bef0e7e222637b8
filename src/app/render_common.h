// What the windowed and the rendered headless runs share: the Vulkan context for rendering,
// the output size, keeping the renderer's cloth in step with the simulation, and the render part
// of the stats JSON.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/options.h"
#include "app/render_stats.h"
#include "app/viewer_sim.h"
#include "render/draw_data.h"
#include "render/scene_renderer.h"
#include "render/stage.h"
#include "vk/context.h"

namespace cloth {

constexpr std::uint32_t kDefaultWidth = 1280;
constexpr std::uint32_t kDefaultHeight = 720;

VkExtent2D requestedSize(const Options& options);

struct WindowSurface {  // what a window adds to the context
    std::vector<std::string> instanceExtensions;
    std::function<VkSurfaceKHR(VkInstance)> createSurface;
};

// A context with a graphics queue (and presentation to `window` when given) on the device the
// options pick, with validation when asked for (messages counted in `log` when given).
std::shared_ptr<vk::Context> makeRenderContext(const Options& options, const WindowSurface* window,
                                               std::shared_ptr<vk::MessageLog> log = nullptr);

// The scene's look: stage (ground, light) and default view, from the cloth and the colliders as
// loaded.
struct SceneLook {
    render::Stage stage;
    render::ClothDrawData data;
};
SceneLook makeLook(const PreparedCloth& prepared);

// The scene's camera (its "camera" key, the camera flags applied) for images of `size`, before
// the turntable turns it (render::turntableAt): a missing position or target from framing the
// stage's view (render::sceneCamera). Throws cloth::Error when the position falls on the framed
// target or straight above or below it.
render::OrbitCamera viewCamera(const Scene& scene, const SceneLook& look, VkExtent2D size);

// Gives the renderer the simulation's cloth whenever the simulation replaced it, and (CPU
// backend) uploads this frame's vertices.
class ClothFeed {
  public:
    // True when the cloth was replaced (scene, reset, backend or settings change).
    bool sync(const ViewerSim& sim, render::SceneRenderer& renderer);
    void upload(ViewerSim& sim, render::SceneRenderer& renderer, std::uint32_t slot);

  private:
    int generation_ = -1;
    std::vector<glm::vec4> positions_, normals_;
};

// --validate: a validation message fails the run (cloth::Error), as in the plain runs.
void failOnValidationMessages(const vk::Context& ctx);

// "render_ms" and "render" entries for the stats JSON.
void addRenderStats(nlohmann::json& stats, const RenderStats& render, VkExtent2D extent,
                    const vk::Context& ctx, const render::ShadingSettings& shading);

}  // namespace cloth
