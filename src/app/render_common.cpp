#include "app/render_common.h"

#include <sstream>

#include "core/error.h"
#include "render/scene_camera.h"

namespace cloth {

VkExtent2D requestedSize(const Options& o) {
    if (o.size) return {std::uint32_t(o.size->first), std::uint32_t(o.size->second)};
    return {kDefaultWidth, kDefaultHeight};
}

std::shared_ptr<vk::Context> makeRenderContext(const Options& options, const WindowSurface* window,
                                               std::shared_ptr<vk::MessageLog> log) {
    vk::ContextOptions o;
    o.validation = options.validate;
    o.messageLog = std::move(log);
    if (options.device) o.deviceIndex = static_cast<std::uint32_t>(*options.device);
    o.graphicsQueue = true;
    if (window) {
        o.instanceExtensions = window->instanceExtensions;
        o.deviceExtensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
        o.createSurface = window->createSurface;
    }
    try {
        return std::make_shared<vk::Context>(o);
    } catch (const Error& e) {
        throw Error(std::string(window ? "the window" : "rendering") +
                    " needs a Vulkan device with a graphics queue: " + e.what());
    }
}

SceneLook makeLook(const PreparedCloth& prepared) {
    SceneLook look;
    look.data = render::makeDrawData(prepared);
    look.stage = render::makeStage(look.data);
    return look;
}

render::OrbitCamera viewCamera(const Scene& scene, const SceneLook& look, VkExtent2D size) {
    const float aspect = float(size.width) / float(size.height);
    CameraDesc camera = scene.camera;
    if (camera.position && !camera.target) {
        camera.target = look.stage.view.center();
        if (const std::optional<std::string> problem = cameraProblem(camera))
        {
            std::ostringstream centre;
            centre << camera.target->x << "," << camera.target->y << "," << camera.target->z;
            throw Error("the camera's position and the framed scene's centre " + centre.str() +
                        " (give a target): " + *problem);
        }
    }
    return render::sceneCamera(camera, look.stage.view, aspect);
}

bool ClothFeed::sync(const ViewerSim& sim, render::SceneRenderer& renderer) {
    if (generation_ == sim.generation()) return false;
    renderer.setCloth(render::makeDrawData(sim.prepared()), sim.gpuBuffers());
    generation_ = sim.generation();
    return true;
}

void ClothFeed::upload(ViewerSim& sim, render::SceneRenderer& renderer, std::uint32_t slot) {
    if (renderer.usesGpuVertices()) return;
    sim.read(positions_, normals_);
    renderer.uploadVertices(slot, positions_, normals_);
}

void failOnValidationMessages(const vk::Context& ctx) {
    const std::uint64_t count = ctx.validationMessages();
    if (ctx.validation() && count > 0)
        throw Error(std::to_string(count) + " Vulkan validation message(s), printed above");
}

void addRenderStats(nlohmann::json& stats, const RenderStats& render, VkExtent2D extent,
                    const vk::Context& ctx, const render::ShadingSettings& shading) {
    stats["render_ms"] = render.json();
    stats["render_first_frame_ms"] = render.firstFrameMs();
    stats["render"] = {{"frames", render.frames()},
                       {"width", extent.width},
                       {"height", extent.height},
                       {"device", ctx.info().name},
                       {"shadow_map", shading.shadowMapSize},
                       {"ssao_samples", shading.ssaoSamples},
                       {"validation", ctx.validation()},
                       {"validation_messages", ctx.validationMessages()}};
}

}  // namespace cloth
