#include "app/window_app.h"

#include <algorithm>
#include <chrono>
#include <ostream>

#include <imgui.h>
#include <imgui_impl_sdl.h>

#include "app/deferred_notices.h"
#include "app/frame_stats.h"
#include "app/hud.h"
#include "app/render_common.h"
#include "app/sdl_window.h"
#include "app/export_video.h"
#include "app/viewer_outputs.h"
#include "core/error.h"
#include "core/stopwatch.h"
#include "render/camera.h"
#include "render/frame_ring.h"
#include "render/image_file.h"
#include "render/imgui_vulkan.h"
#include "render/pick.h"
#include "render/scene_camera.h"
#include "render/readback.h"
#include "render/swapchain.h"

namespace cloth {

namespace {

constexpr int kMaxStepsPerRender = 4;
constexpr std::uint32_t kFramesInFlight = 2;

// The ImGui context and its SDL platform backend, for the window's lifetime.
struct ImGuiSdl {
    explicit ImGuiSdl(SDL_Window* window) {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini next to the user's files
        ImGui::StyleColorsDark();
        ImGui_ImplSDL2_InitForVulkan(window);
    }
    ~ImGuiSdl() {
        ImGui_ImplSDL2_Shutdown();
        ImGui::DestroyContext();
    }
};

enum class Drag { None, Orbit, Pan, Grab };

}  // namespace

struct WindowApp::Impl {
    Options options;
    std::ostream& out;
    std::ostream& notices;

    // Declaration order is destruction order reversed: the window outlives the surface (in the
    // context), the context outlives everything drawn or simulated on it.
    std::unique_ptr<SdlVideo> video;
    std::unique_ptr<SdlWindow> window;
    std::shared_ptr<vk::Context> ctx;
    std::unique_ptr<DeferredNotices> starting;  // the notices the simulation writes to
    std::unique_ptr<ViewerSim> sim;
    std::unique_ptr<ViewerOutputs> outputs;  // the exports, --metrics, the stretch check
    std::unique_ptr<VideoWriter> videoOut;   // --video (null without)
    std::string refused;  // why the last settings applied from the HUD were refused
    std::unique_ptr<render::Swapchain> swapchain;
    render::ShadingSettings shading;
    std::unique_ptr<render::SceneRenderer> renderer;
    std::unique_ptr<render::FrameRing> ring;
    std::unique_ptr<ImGuiSdl> imgui;
    std::unique_ptr<render::ImGuiVulkan> imguiVulkan;
    std::unique_ptr<render::Readback> readback;

    SceneLook look;
    render::ViewState view;
    ClothFeed feed;
    HudState hud;
    FrameStats simStats;
    RenderStats renderStats;

    bool quit = false;
    bool paused = false;
    bool stepOnce = false;
    bool swapchainDirty = false;
    bool lockStep = false;  // --record, --video: one simulated frame per rendered frame
    int renderedFrames = 0;
    bool screenshotTaken = false;
    double accumulator = 0.0;
    Clock::time_point lastTick = Clock::now();
    double fps = 0.0;
    double lastSimMs = 0.0;
    double cameraTime = 0.0;  // s: the simulated time the turntable last turned the view to

    Drag drag = Drag::None;
    std::uint32_t grabVertex = 0;
    glm::vec3 grabPlanePoint{0.0f};
    glm::vec3 grabOffset{0.0f};
    std::vector<glm::vec4> pickPositions, pickNormals;

    Impl(const Options& o, std::ostream& outStream, std::ostream& noticeStream,
         std::shared_ptr<vk::MessageLog> log)
        : options(o), out(outStream), notices(noticeStream) {
        std::string why;
        video = SdlVideo::tryStart(&why);
        if (!video) throw Error("cannot open a window: " + why);
        const VkExtent2D size = requestedSize(options);
        window = std::make_unique<SdlWindow>("clothsim", int(size.width), int(size.height));
        WindowSurface surface;
        surface.instanceExtensions = window->instanceExtensions();
        SdlWindow* w = window.get();
        surface.createSurface = [w](VkInstance instance) { return w->createSurface(instance); };
        ctx = makeRenderContext(options, &surface, std::move(log));
        // The start's notices wait until the scene is loaded and its outputs open, so that an
        // error before is the only line (app/deferred_notices.h).
        starting = std::make_unique<DeferredNotices>(notices);
        sim = std::make_unique<ViewerSim>(options, ctx, *starting);
        outputs = std::make_unique<ViewerOutputs>(options, *sim, options.frames);
        outputs->started();
        starting->release();
        videoOut = makeVideoWriter(options, sim->scene().name, sim->prepared().sim);
        swapchain =
            std::make_unique<render::Swapchain>(*ctx, window->drawableSize(), !options.noVsync);
        if (!swapchain->usable()) throw Error("the window has no drawable area");
        shading.pattern = options.checkPattern.value_or(true);
        lockStep = !options.recordDir.empty() || videoOut;
        if ((!options.screenshot.empty() || lockStep) && !swapchain->readable())
            throw Error(
                "this window system's images cannot be read back for --screenshot, --record or "
                "--video; add --headless");
        renderer = std::make_unique<render::SceneRenderer>(
            ctx, render::OutputDesc{swapchain->format(), VK_IMAGE_LAYOUT_PRESENT_SRC_KHR}, shading,
            kFramesInFlight);
        ring = std::make_unique<render::FrameRing>(*ctx, kFramesInFlight);
        imgui = std::make_unique<ImGuiSdl>(window->get());
        imguiVulkan = std::make_unique<render::ImGuiVulkan>(
            *ctx, renderer->outputPass(), swapchain->minImageCount(), swapchain->imageCount());
        attachOutputs();
        newScene();
    }

    ~Impl() {
        if (ctx) ctx->waitIdle();
    }

    void attachOutputs() {
        const std::vector<VkImageView> views = swapchain->views();
        renderer->setOutputs(swapchain->extent(), views);
        readback =
            std::make_unique<render::Readback>(*ctx, swapchain->extent(), swapchain->format());
    }

    // The scene's camera (or the framing) turned by the turntable to the simulated time.
    void resetView() {
        cameraTime = sim->solver().simTime();
        view.camera = render::turntableAt(viewCamera(sim->scene(), look, swapchain->extent()),
                                          sim->scene().camera.turntableDegreesPerSecond,
                                          cameraTime);
    }

    // The turntable goes on turning the view as the simulated time advances, over the user's
    // orbits; a clock that restarted (reset, new settings) turns it from there.
    void turnTheTurntable() {
        const double t = sim->solver().simTime();
        if (t < cameraTime) cameraTime = 0.0;
        view.camera = render::turntableAt(
            view.camera, sim->scene().camera.turntableDegreesPerSecond, t - cameraTime);
        cameraTime = t;
    }

    void newScene() {
        look = makeLook(sim->prepared());
        view = render::ViewState{};
        resetView();
    }

    // ---- input ----------------------------------------------------------------------------

    render::Ray mouseRay(int x, int y) const {
        const float s = window->pixelScale();
        const VkExtent2D e = swapchain->extent();
        return view.camera.rayThroughPixel((float(x) + 0.5f) * s, (float(y) + 0.5f) * s,
                                           float(e.width), float(e.height));
    }

    void releaseGrab() {
        if (drag == Drag::Grab) sim->setGrab(std::nullopt);
        view.grabVertex.reset();
        drag = Drag::None;
    }

    bool tryGrab(int x, int y) {
        sim->read(pickPositions, pickNormals);
        const render::Ray ray = mouseRay(x, y);
        auto hit = render::pickTriangle(ray, pickPositions, sim->prepared().triangles);
        if (!hit) return false;
        grabVertex = hit->nearestVertex;
        grabPlanePoint = hit->point;
        const glm::vec3 vertex(pickPositions[grabVertex]);
        grabOffset = vertex - hit->point;
        view.grabVertex = grabVertex;
        view.grabTarget = vertex;
        sim->setGrab(Grab{grabVertex, vertex});
        drag = Drag::Grab;
        return true;
    }

    void moveGrab(int x, int y) {
        const glm::vec3 onPlane =
            render::intersectPlane(mouseRay(x, y), grabPlanePoint, view.camera.forward());
        view.grabTarget = onPlane + grabOffset;
        sim->setGrab(Grab{grabVertex, view.grabTarget});
    }

    void onMouseButton(const SDL_MouseButtonEvent& b, bool down) {
        if (!down) {
            releaseGrab();
            return;
        }
        if (ImGui::GetIO().WantCaptureMouse) return;
        const bool shift = (SDL_GetModState() & KMOD_SHIFT) != 0;
        if (b.button == SDL_BUTTON_LEFT && !shift) {
            if (!tryGrab(b.x, b.y)) drag = Drag::Orbit;
        } else if (b.button == SDL_BUTTON_RIGHT || b.button == SDL_BUTTON_MIDDLE ||
                   b.button == SDL_BUTTON_LEFT) {
            drag = Drag::Pan;
        }
    }

    void onMouseMotion(const SDL_MouseMotionEvent& m) {
        const float s = window->pixelScale();
        switch (drag) {
            case Drag::Orbit:
                view.camera.orbit(m.xrel * s, m.yrel * s);
                break;
            case Drag::Pan:
                view.camera.pan(m.xrel * s, m.yrel * s, float(swapchain->extent().height));
                break;
            case Drag::Grab:
                moveGrab(m.x, m.y);
                break;
            case Drag::None:
                break;
        }
    }

    void onKey(SDL_Keycode key) {
        switch (key) {
            case SDLK_SPACE:
                paused = !paused;
                break;
            case SDLK_n:
                stepOnce = true;
                break;
            case SDLK_r:
                resetScene();
                break;
            case SDLK_b:
                switchBackend();
                break;
            case SDLK_c:
                resetView();
                break;
            case SDLK_h:
                hud.visible = !hud.visible;
                break;
            case SDLK_ESCAPE:
            case SDLK_q:
                quit = true;
                break;
            default:
                break;
        }
    }

    void handleEvents() {
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            ImGui_ImplSDL2_ProcessEvent(&e);
            switch (e.type) {
                case SDL_QUIT:
                    quit = true;
                    break;
                case SDL_WINDOWEVENT:
                    if (e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED ||
                        e.window.event == SDL_WINDOWEVENT_RESIZED)
                        swapchainDirty = true;
                    break;
                case SDL_KEYDOWN:
                    if (!ImGui::GetIO().WantCaptureKeyboard) onKey(e.key.keysym.sym);
                    break;
                case SDL_MOUSEBUTTONDOWN:
                    onMouseButton(e.button, true);
                    break;
                case SDL_MOUSEBUTTONUP:
                    onMouseButton(e.button, false);
                    break;
                case SDL_MOUSEMOTION:
                    onMouseMotion(e.motion);
                    break;
                case SDL_MOUSEWHEEL:
                    if (!ImGui::GetIO().WantCaptureMouse) view.camera.zoom(float(e.wheel.y));
                    break;
                default:
                    break;
            }
        }
    }

    // ---- simulation -------------------------------------------------------------------------

    void resetScene() {
        releaseGrab();
        sim->reset();
        outputs->started();  // exports start again at frame 0
    }

    void switchBackend() {
        if (!sim->canUseGpu()) return;
        releaseGrab();
        sim->switchBackend();
        notices << "clothsim: backend " << sim->backend() << "\n";
    }

    void applyHud(const HudActions& a) {
        if (a.togglePause) paused = !paused;
        if (a.step) stepOnce = true;
        if (a.reset) resetScene();
        if (a.switchBackend) switchBackend();
        if (a.resetCamera) resetView();
        if (a.scene) {
            releaseGrab();
            sim->loadScene(*a.scene);
            outputs->started();
            newScene();
        }
        if (a.apply) {
            releaseGrab();
            try {
                sim->apply(*a.apply);
                refused.clear();
            } catch (const Error& e) {  // the run goes on as it was (ViewerSim::apply)
                refused = e.what();
                notices << "clothsim: " << refused << "\n";
                hud.editingGeneration = -1;  // the HUD shows the settings in force again
            }
        }
        if (a.metrics) sim->setMetrics(*a.metrics || outputs->wantsMetrics());  // --metrics: on
        renderer->setShading(shading);
    }

    bool framesDone() const { return options.frames && sim->frame() >= *options.frames; }

    void stepSimulation() {
        const auto t0 = Clock::now();
        sim->step();
        outputs->stepped(options.frames.value_or(-1));
        lastSimMs = msSince(t0);
        simStats.add(lastSimMs, sim->solver().stageTimes());
    }

    void advanceSimulation(double realSeconds) {
        if (lockStep) {
            // Frame 0 (the initial state) is rendered before the first step.
            if ((!paused || stepOnce) && renderedFrames > 0 && !framesDone()) stepSimulation();
            stepOnce = false;
            return;
        }
        if (paused) {
            accumulator = 0.0;
            if (stepOnce && !framesDone()) stepSimulation();
            stepOnce = false;
            return;
        }
        accumulator += realSeconds;
        // One simulated frame per 1/fps s of real time (the scene's frame rate).
        const double frameSeconds = 1.0 / double(sim->prepared().sim.fps);
        int steps = 0;
        while (accumulator >= frameSeconds && steps < kMaxStepsPerRender && !framesDone()) {
            stepSimulation();
            accumulator -= frameSeconds;
            ++steps;
        }
        if (steps == kMaxStepsPerRender) accumulator = std::min(accumulator, frameSeconds);
    }

    // ---- rendering --------------------------------------------------------------------------

    void recreateSwapchain() {
        swapchainDirty = false;
        const VkExtent2D size = window->drawableSize();
        swapchain->recreate(size);
        if (!swapchain->usable()) return;  // minimised
        imguiVulkan->setMinImageCount(swapchain->minImageCount());
        attachOutputs();
    }

    gpu::FrameUniforms uniforms() const {
        render::UniformInputs in;
        in.stage = &look.stage;
        in.view = &view;
        in.shading = &shading;
        in.width = swapchain->extent().width;
        in.height = swapchain->extent().height;
        in.manualSrgb = renderer->manualSrgb();
        in.frame = std::uint32_t(renderedFrames);
        in.simTime = sim->solver().simTime();
        return makeFrameUniforms(in);
    }

    void buildHud() {
        imguiVulkan->newFrame();
        ImGui_ImplSDL2_NewFrame();
        ImGui::NewFrame();
        HudInput in;
        in.sim = sim.get();
        in.fps = fps;
        in.simMsPerFrame = lastSimMs;
        in.renderPasses = renderStats.last();
        in.renderDevice = ctx->info().name;
        in.extent = swapchain->extent();
        in.paused = paused;
        in.vsync = !options.noVsync;
        if (!refused.empty()) in.warning = refused;
        else if (outputs->stretch().latest() > kStretchWarningLimit)
            in.warning = "edges stretched " +
                         std::to_string(int(100.0 * outputs->stretch().latest())) +
                         "% (more iterations, substeps or tethers)";
        const HudActions actions = drawHud(in, hud, shading);
        ImGui::Render();
        applyHud(actions);
    }

    bool wantsRecord() const { return lockStep && sim->frame() % options.exportEvery == 0; }

    // Renders and presents one frame; reads it back when `capture`. False when the swapchain
    // must be recreated first.
    bool render(bool capture) {
        const render::FrameSlot& slot = ring->next();
        renderStats.add(renderer->readTimes(slot.index));
        const auto image = swapchain->acquire(slot.imageAcquired);
        if (!image) {
            swapchainDirty = true;
            return false;
        }
        buildHud();  // may replace the cloth (scene, backend, settings)
        feed.sync(*sim, *renderer);
        feed.upload(*sim, *renderer, slot.index);
        VkCommandBuffer cmd = ring->begin();
        renderer->record(cmd, slot.index, *image, uniforms(),
                         [this](VkCommandBuffer c) { imguiVulkan->draw(c); });
        if (capture)
            readback->record(cmd, swapchain->image(*image), VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
        ring->submit(slot.imageAcquired, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                     swapchain->renderFinished(*image));
        if (!swapchain->present(*image)) swapchainDirty = true;
        ++renderedFrames;
        if (capture) {
            ring->waitCurrent();
            renderStats.add(renderer->readTimes(slot.index));
        }
        return true;
    }

    void save(const std::string& path) { render::writeImage(path, readback->image()); }

    void frame() {
        const auto now = Clock::now();
        const double dt = std::chrono::duration<double>(now - lastTick).count();
        lastTick = now;
        fps = fps == 0.0 ? 1.0 / std::max(dt, 1e-6) : 0.9 * fps + 0.1 / std::max(dt, 1e-6);
        handleEvents();
        if (quit) return;
        if (swapchainDirty) recreateSwapchain();
        if (!swapchain->usable()) {
            SDL_Delay(16);
            return;
        }
        advanceSimulation(dt);
        turnTheTurntable();
        const bool last = framesDone();
        const bool record = wantsRecord();
        const bool shot = last && !options.screenshot.empty();
        if (!render(record || shot)) return;
        if (record && !options.recordDir.empty())
            save(render::framePath(options.recordDir,
                                   sim->prepared().sim.startFrame + sim->frame()));
        if (record && videoOut) videoOut->add(readback->image());
        if (shot) {
            save(options.screenshot);
            screenshotTaken = true;
        }
        if (last) quit = true;
    }

    int finish() {
        if (!options.screenshot.empty() && !screenshotTaken && swapchain->usable()) {
            while (!render(true) && swapchain->usable()) recreateSwapchain();
            save(options.screenshot);
        }
        ring->waitAll();
        for (std::uint32_t i = 0; i < ring->count(); ++i) renderStats.add(renderer->readTimes(i));
        ctx->waitIdle();
        if (videoOut) {
            const std::string written = videoOut->finish();
            if (!written.empty()) out << written << "\n";
        }
        if (!options.screenshot.empty())
            out << "screenshot written to " << options.screenshot << "\n";
        const PreparedCloth& p = sim->prepared();
        out << "scene " << sim->scene().name << ": " << p.originalVertexCount << " vertices, "
            << sim->frame() << " frames simulated, " << renderedFrames << " rendered ("
            << swapchain->extent().width << "x" << swapchain->extent().height << ", "
            << renderStats.json()["total"].get<double>() << " ms GPU per frame)\n";
        if (!options.statsFile.empty()) {
            nlohmann::json stats = statsJson(sim->scene().name, p, sim->solver(), simStats);
            addRenderStats(stats, renderStats, swapchain->extent(), *ctx, shading);
            stats["swapchain_recreations"] = swapchain->recreations();
            writeJsonFile(options.statsFile, stats);
        }
        outputs->finish(out, notices);
        failOnValidationMessages(*ctx);
        return 0;
    }
};

WindowApp::WindowApp(const Options& options, std::ostream& out, std::ostream& notices,
                     std::shared_ptr<vk::MessageLog> log)
    : impl_(std::make_unique<Impl>(options, out, notices, std::move(log))) {}

WindowApp::~WindowApp() = default;

int WindowApp::run() {
    while (running()) frame();
    return finish();
}

bool WindowApp::running() const {
    return !impl_->quit;
}
void WindowApp::frame() {
    impl_->frame();
}
int WindowApp::finish() {
    return impl_->finish();
}
SDL_Window* WindowApp::window() const {
    return impl_->window->get();
}
std::uint32_t WindowApp::swapchainRecreations() const {
    return impl_->swapchain->recreations();
}
std::uint32_t WindowApp::swapchainWidth() const {
    return impl_->swapchain->extent().width;
}
std::uint32_t WindowApp::swapchainHeight() const {
    return impl_->swapchain->extent().height;
}
int WindowApp::simFrame() const {
    return impl_->sim->frame();
}
int WindowApp::renderedFrames() const {
    return impl_->renderedFrames;
}
std::uint64_t WindowApp::validationMessages() const {
    return impl_->ctx->validationMessages();
}

}  // namespace cloth

namespace cloth {
const ViewerSim& WindowApp::sim() const {
    return *impl_->sim;
}
std::optional<std::uint32_t> WindowApp::grabbedVertex() const {
    return impl_->view.grabVertex;
}
std::optional<HudRect> WindowApp::hudButton(const std::string& name) const {
    const auto it = impl_->hud.buttons.find(name);
    return it == impl_->hud.buttons.end() ? std::nullopt : std::optional(it->second);
}
}  // namespace cloth

namespace cloth {
std::pair<int, int> WindowApp::windowPointOf(float x, float y, float z) const {
    const VkExtent2D e = impl_->swapchain->extent();
    const float w = float(e.width), h = float(e.height);
    const render::OrbitCamera& c = impl_->view.camera;
    const glm::vec3 px =
        render::projectToPixel(c.projection(w / h) * c.view(), glm::vec3(x, y, z), w, h);
    const float s = impl_->window->pixelScale();
    return {int(px.x / s), int(px.y / s)};
}
}  // namespace cloth
