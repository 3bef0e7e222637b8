#include "app/headless_render.h"

#include <chrono>
#include <ostream>

#include "app/deferred_notices.h"
#include "app/export_video.h"
#include "app/frame_stats.h"
#include "app/progress.h"
#include "app/render_common.h"
#include "app/sdl_window.h"
#include "app/simulation.h"
#include "app/viewer_outputs.h"
#include "app/window_app.h"
#include "core/error.h"
#include "core/stopwatch.h"
#include "render/image_file.h"
#include "render/offscreen_renderer.h"
#include "render/scene_camera.h"

namespace cloth {

namespace {

bool wantsImages(const Options& o) {
    return !o.screenshot.empty() || !o.recordDir.empty() || !o.video.empty();
}

}  // namespace

int runHeadlessRendered(const Options& options, std::ostream& out, std::ostream& notices) {
    if (!options.video.empty()) checkVideoPath(options.video);  // before the device and the scene
    std::shared_ptr<vk::Context> ctx = makeRenderContext(options, nullptr);
    // The start's notices (the device, the phantoms' tuning) wait until the run has started, so
    // that an error before it is the only line (app/deferred_notices.h).
    DeferredNotices starting(notices);
    ViewerSim sim(options, ctx, starting);
    const std::unique_ptr<VideoWriter> video =
        makeVideoWriter(options, sim.scene().name, sim.prepared().sim);
    const int frames = options.frames.value_or(kDefaultHeadlessFrames);
    ViewerOutputs outputs(options, sim, frames);  // the exports, --metrics, the stretch check
    outputs.started();
    const SceneLook look = makeLook(sim.prepared());
    render::ViewState view;
    const VkExtent2D size = requestedSize(options);
    const render::OrbitCamera camera = viewCamera(sim.scene(), look, size);
    const float turntable = sim.scene().camera.turntableDegreesPerSecond;
    render::ShadingSettings shading;
    shading.pattern = options.checkPattern.value_or(true);
    render::OffscreenRenderer renderer(ctx, size, shading);
    ClothFeed feed;
    feed.sync(sim, renderer.scene());
    starting.release();

    const bool record = !options.recordDir.empty();
    FrameStats simStats;
    RenderStats renderStats;
    std::vector<glm::vec4> positions, normals;
    Progress progress = Progress::on(notices, "clothsim", frames, options.quiet);
    for (int frame = 0; frame <= frames; ++frame) {
        if (frame > 0) {
            const auto t0 = Clock::now();
            sim.step();
            simStats.add(msSince(t0), sim.solver().stageTimes());
            outputs.stepped(frames);
            progress.update(frame);
        }
        const bool exported = frame % options.exportEvery == 0;
        const bool recordThis = record && exported;
        const bool videoThis = video && exported;
        const bool shot = frame == frames && !options.screenshot.empty();
        if (!recordThis && !videoThis && !shot) continue;
        sim.read(positions, normals);
        checkFinite(positions, sim.prepared().vertexCount(), frame);
        view.camera = render::turntableAt(camera, turntable, sim.solver().simTime());
        render::UniformInputs in;
        in.stage = &look.stage;
        in.view = &view;
        in.shading = &shading;
        in.width = renderer.extent().width;
        in.height = renderer.extent().height;
        in.frame = std::uint32_t(frame);
        in.simTime = sim.solver().simTime();
        const render::ImageRgba8 image = renderer.render(makeFrameUniforms(in), positions, normals);
        renderStats.add(renderer.lastTimes());
        if (recordThis)
            render::writePng(
                render::framePath(options.recordDir, sim.prepared().sim.startFrame + frame), image);
        if (videoThis) video->add(image);
        if (shot) render::writeImage(options.screenshot, image);
    }

    progress.finish();
    const PreparedCloth& p = sim.prepared();
    out << "scene " << sim.scene().name << ": " << p.originalVertexCount << " vertices, " << frames
        << " frames on " << sim.solver().backendName() << ", " << renderStats.frames()
        << " rendered offscreen (" << renderer.extent().width << "x" << renderer.extent().height
        << " on " << ctx->info().name << ", " << renderStats.json()["total"].get<double>()
        << " ms GPU per frame)\n";
    if (!options.screenshot.empty()) out << "screenshot written to " << options.screenshot << "\n";
    if (record) out << "frames written to " << options.recordDir << "/\n";
    if (video) {
        const std::string written = video->finish();
        if (!written.empty()) out << written << "\n";
    }
    if (!options.statsFile.empty()) {
        nlohmann::json stats = statsJson(sim.scene().name, p, sim.solver(), simStats);
        addRenderStats(stats, renderStats, renderer.extent(), *ctx, shading);
        writeJsonFile(options.statsFile, stats);
    }
    outputs.finish(out, notices);
    failOnValidationMessages(*ctx);
    return 0;
}

namespace {

// Headless: the flags that only the window or images use would do nothing; refused by name
// rather than ignored.
void refuseFlagsWithoutEffect(const Options& o) {
    const bool images = wantsImages(o);
    if (o.size && !images)
        throw Error("--size sets the size of the window or of images: a headless run needs "
                    "--screenshot, --record or --video for it");
    if (o.noVsync)
        throw Error("--no-vsync applies to the window: a headless run presents nothing");
    for (auto [given, flag] : {std::pair{bool(o.cameraPosition), "--camera-position"},
                               std::pair{bool(o.cameraTarget), "--camera-target"},
                               std::pair{bool(o.fov), "--fov"},
                               std::pair{bool(o.turntable), "--turntable"}})
        if (given && !images)
            throw Error(std::string(flag) + " sets the camera of the window or of images: a "
                        "headless run needs --screenshot, --record or --video for it");
    if (o.checkPattern && !images)
        throw Error("--texture sets how the cloths look in the window or in images: a headless "
                    "run needs --screenshot, --record or --video for it");
    if (o.exportEvery != 1 && o.exportObjDir.empty() && o.exportGltf.empty() &&
        o.recordDir.empty() && o.video.empty())
        throw Error("--export-every needs --export-obj, --export-gltf, --record or --video (it "
                    "sets how often they write)");
}

}  // namespace

int runClothsim(Options options, bool noArguments, std::ostream& out, std::ostream& notices) {
    if (!options.headless) {
        std::string why;
        if (auto video = SdlVideo::tryStart(&why)) {
            video.reset();  // WindowApp starts its own
            if (!noArguments) return WindowApp(options, out, notices).run();
            try {
                return WindowApp(options, out, notices).run();
            } catch (const Error& e) {
                notices << "clothsim: cannot open the window (" << e.what()
                        << "); running headless\n";
            }
        } else if (noArguments) {
            notices << "clothsim: " << why << "; running headless\n";
        }
        if (noArguments) options.screenshot = kDefaultScreenshot;
    }
    refuseFlagsWithoutEffect(options);
    if (!wantsImages(options)) return runHeadless(options, out, notices);
    if (noArguments) {
        if (auto none = vk::noVulkanReason()) {
            notices << "clothsim: no Vulkan device (" << *none
                    << "): simulating on the CPU without an image\n";
            options.screenshot.clear();
            return runHeadless(options, out, notices);
        }
    }
    return runHeadlessRendered(options, out, notices);
}

}  // namespace cloth
