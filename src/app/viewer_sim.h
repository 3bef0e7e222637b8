// The simulation behind the interactive viewer and the rendered headless runs: a scene, its
// PreparedCloth and a solver on either backend, with what the window's controls need (reset,
// backend switch, live settings, grab).
//
// Live settings (substeps, iterations, compliances, damping, gravity) edit the Scene, prepare it
// again and create a new solver, carrying over the positions and velocities of the original
// vertices (phantom copies start at their original's place). The new solver's clock starts at 0,
// so kinematic targets (the swirl scene's circles) restart their motion from the anchors. Seam
// pairs merged before a settings change stay merged; step() merges pairs that came close enough
// (prep/sewing.h), which replaces the solver and counts as a new generation.
#pragma once

#include <deque>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "app/metrics.h"
#include "app/options.h"
#include "core/scene.h"
#include "prep/prepared.h"
#include "render/scene_renderer.h"
#include "sim/solver.h"
#include "vk/context.h"

namespace cloth {

// The settings the HUD edits. Material values come from the first cloth and go to all of them.
struct SimControls {
    int substeps = 10;
    int iterations = 1;
    float stretchCompliance = 0.0f;
    float bendRigidity = 0.0f;  // N m, along the weft (the warp keeps its ratio to it)
    float linearDamping = 0.0f;
    float rigidDamping = 0.0f;
    glm::vec3 gravity{0.0f, -9.81f, 0.0f};
    IterationSettings iteration;  // scheme, relaxation, rho, warm-up
    ClothModel model = ClothModel::Xpbd;
    bool operator==(const SimControls&) const = default;
};

class ViewerSim {
  public:
    // `ctx`: the renderer's Vulkan context, shared with the GPU solver (null: CPU only).
    ViewerSim(const Options& options, std::shared_ptr<vk::Context> ctx, std::ostream& notices);
    ~ViewerSim();

    // Loads a built-in scene or a scene file (the command line's overrides apply again).
    void loadScene(const std::string& nameOrPath);
    void reset();                                 // the current scene from its initial state
    // cpu <-> gpu, keeping the current state exactly; with --phantoms auto the scene is
    // prepared again with the new backend's tuned target, keeping the original vertices' state.
    void switchBackend();
    void setBackend(const std::string& backend);  // "cpu" | "gpu"
    bool canUseGpu() const { return static_cast<bool>(ctx_); }
    void apply(const SimControls& controls);  // re-prepare, keeping the current state

    void step();  // one frame of 1/fps s
    int frame() const { return frame_; }

    // The HUD's convergence plots (app/metrics.h): when on, every step reads the state back
    // (multipliers included) and keeps the metrics of the last `frames` frames, oldest first.
    // Cleared by reset() and loadScene().
    static constexpr std::size_t kMetricsFrames = 300;
    void setMetrics(bool on, std::size_t frames = kMetricsFrames);
    bool metricsOn() const { return metricsOn_; }
    const std::deque<FrameMetrics>& metrics() const { return metrics_; }

    Solver& solver() { return *solver_; }
    const Solver& solver() const { return *solver_; }
    const Scene& scene() const { return scene_; }
    const PreparedCloth& prepared() const { return *prepared_; }
    const std::string& backend() const { return backend_; }
    SimControls controls() const;
    // How many times the cloth was replaced (scene, reset, backend, settings): the renderer
    // re-reads its geometry when this changes.
    int generation() const { return generation_; }

    // The GPU solver's buffers for the renderer (none with the CPU backend).
    std::optional<render::ExternalVertexBuffers> gpuBuffers() const;

    // Current positions (all vertices) and normals (original vertices); reads back on the GPU.
    void read(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& normals);
    void setGrab(std::optional<Grab> grab);

  private:
    void prepare(bool keepState);
    void createSolver();

    Options options_;
    std::shared_ptr<vk::Context> ctx_;
    std::ostream& notices_;
    Scene scene_;
    // One block, replaced in place (the exporters read it) once the solver sharing it is gone.
    std::shared_ptr<PreparedCloth> prepared_ = std::make_shared<PreparedCloth>();
    std::unique_ptr<Solver> solver_;
    std::string backend_;
    int frame_ = 0;
    int generation_ = 0;
    std::optional<Grab> grab_;  // applied again when sewing re-creates the solver
    bool metricsOn_ = false;
    std::size_t metricsFrames_ = kMetricsFrames;
    std::deque<FrameMetrics> metrics_;
};

// The solver for `backend` ("cpu" or "gpu"); the GPU one runs on `ctx` (shared with rendering).
std::unique_ptr<Solver> makeViewerSolver(const std::string& backend, SharedCloth prepared,
                                         const std::shared_ptr<vk::Context>& ctx,
                                         std::optional<int> threads, bool fixedTeam = false);

}  // namespace cloth
