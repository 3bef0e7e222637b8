#include "app/viewer_sim.h"

#include <algorithm>
#include <ostream>
#include <string_view>

#include "app/backend.h"
#include "app/memory_estimate.h"
#include "app/phantom_tuning.h"
#include "app/sewing_step.h"
#include "core/error.h"
#include "cpu/backend.h"
#include "prep/prepare.h"
#include "prep/sewing.h"
#include "vk/backend.h"
#include "vk/gpu_solver.h"
#include "prep/model_checks.h"

namespace cloth {

namespace {

struct State {
    std::vector<glm::vec4> positions, velocities;
};

// Writes the positions and velocities of `from`'s original vertices into `to` (same mesh), and
// puts phantom copies where their original is.
void carryState(const State& from, std::uint32_t originals, PreparedCloth& to) {
    for (std::uint32_t i = 0; i < originals; ++i) {
        to.positions[i] = glm::vec4(glm::vec3(from.positions[i]), to.positions[i].w);
        to.velocities[i] = glm::vec4(glm::vec3(from.velocities[i]), 0.0f);
    }
    for (const gpu::PhantomGroup& g : to.phantomGroups) {
        const std::uint32_t original = to.phantomMembers[g.first];
        for (std::uint32_t k = 1; k < g.count; ++k) {
            const std::uint32_t copy = to.phantomMembers[g.first + k];
            to.positions[copy] = glm::vec4(glm::vec3(to.positions[original]), to.positions[copy].w);
            to.velocities[copy] = to.velocities[original];
        }
    }
}

}  // namespace

std::unique_ptr<Solver> makeViewerSolver(const std::string& backend, SharedCloth prepared,
                                         const std::shared_ptr<vk::Context>& ctx,
                                         std::optional<int> threads, bool fixedTeam) {
    if (backend == "gpu") {
        if (!ctx) throw Error("--backend gpu: no Vulkan device to run the GPU solver on");
        vk::GpuSolverOptions o;
        o.context = ctx;
        // Per-stage times for the HUD and the stats JSON, sampled every 30th frame (held in
        // between): on lavapipe timestamps every frame make the solver several times slower.
        o.timestampInterval = 30;
        return vk::makeGpuSolver(prepared, o);
    }
    return makeCpuSolver(std::move(prepared), threads.value_or(defaultThreadCount()), std::nullopt,
                         fixedTeam ? 0u : kCpuWorkPerThread);
}

ViewerSim::ViewerSim(const Options& options, std::shared_ptr<vk::Context> ctx,
                     std::ostream& notices)
    : options_(options), ctx_(std::move(ctx)), notices_(notices) {
    backend_ = options.backend;
    if (backend_ == "gpu" && !ctx_)
        throw Error("--backend gpu: no Vulkan device to run the GPU solver on");
    if (backend_ == "auto") {
        // As the plain runs decide (src/app/backend.h): a CPU-type Vulkan device such as
        // lavapipe is slower than the CPU reference, so auto takes the GPU only on a GPU (or
        // when --device names the device). B in the window still switches to it.
        const bool gpuDevice = ctx_ && (ctx_->info().type != VK_PHYSICAL_DEVICE_TYPE_CPU ||
                                        options.device.has_value());
        backend_ = gpuDevice ? "gpu" : "cpu";
        if (!ctx_)
            notices_ << "clothsim: no Vulkan device; using the CPU reference solver\n";
        else if (!gpuDevice)
            notices_ << cpuDeviceNotice(ctx_->info().name, true);
    }
    loadScene(options.scene);
}

ViewerSim::~ViewerSim() = default;

void ViewerSim::loadScene(const std::string& nameOrPath) {
    metrics_.clear();
    Scene scene = resolveScene(nameOrPath);
    applyOverrides(options_, scene);
    scene_ = std::move(scene);
    try {
        prepare(false);
    } catch (const Error& e) {
        // A scene file's refusals (too large, what its model lacks) name the file given first,
        // as the plain run's do (app/simulation.cpp).
        const std::string_view what = e.what();
        const bool sceneFile =
            nameOrPath.ends_with(".json") || nameOrPath.find('/') != std::string::npos;
        if (sceneFile && (what.starts_with("scene '") || what.starts_with("model ")))
            throw Error(nameOrPath + ": " + e.what());
        throw;
    }
}

void ViewerSim::prepare(bool keepState) {
    State state;
    const bool carry = keepState && solver_;
    std::vector<std::uint32_t> merged;  // seam pairs merged so far
    const std::size_t pairCount = prepared_->seamPairs.size();
    if (carry) {
        solver_->readPositions(state.positions);
        solver_->readVelocities(state.velocities);
        showMergedVertices(*prepared_, state.positions);
        showMergedVertices(*prepared_, state.velocities);
        for (std::uint32_t i = 0; i < pairCount; ++i)
            if (prepared_->seamPairs[i].merged) merged.push_back(i);
    }
    const std::uint32_t originals = prepared_->originalVertexCount;
    if (backend_ == "gpu") {
        // From the scene description, before a huge grid is built (as the plain runs do).
        try {
            checkSceneFitsDevice(*ctx_, scene_, vk::GpuSolverOptions{}.workgroupSize);
        } catch (const Error& e) {
            if (options_.backend != "auto") throw;
            notices_ << "clothsim: " << e.what() << "; using the CPU reference solver\n";
            backend_ = "cpu";
        }
    }
    checkSceneFitsMemory(scene_, options_.memoryLimit);
    PrepareOptions prep;
    prep.phantoms = scene_.phantoms;
    if (options_.phantomMethod) prep.phantomMethod = *options_.phantomMethod;
    // --phantoms auto: the target tuned for the current backend (B prepares again).
    const AutoPhantomContext tuning{"clothsim", tuningPath(options_.tuningFile), backend_,
                                    backend_ == "gpu" ? ctx_->info().name : cpuModelName()};
    prep.resolveAuto = [&](std::uint32_t vertices) {
        return resolveAutoPhantoms(tuning, vertices, notices_);
    };
    PreparedCloth next = prepareScene(scene_, prep);
    refuseWhatTheModelLacks(next, backend_ == "gpu" ? SolverBackend::Gpu : SolverBackend::Cpu);  // before the running solver goes
    solver_.reset();  // its device memory goes before the next solver's arrives
    *prepared_ = std::move(next);
    if (carry && prepared_->originalVertexCount == originals) {
        PreparedCloth start = *prepared_;  // the scene with the carried state: the solver's own
        carryState(state, originals, start);
        // Seam pairs merged before stay merged (the same scene has the same pairs).
        SharedCloth running;
        if (!merged.empty() && start.seamPairs.size() == pairCount) {
            *prepared_ = mergeSeamPairs(start, merged, {start.positions, start.velocities, 0.0});
            running = prepared_;
        } else {
            running = shareCloth(std::move(start));
        }
        solver_ = makeViewerSolver(backend_, std::move(running), ctx_, options_.threads,
                                   options_.team == TeamMode::Fixed);
    } else {
        solver_ = makeViewerSolver(backend_, prepared_, ctx_, options_.threads,
                                   options_.team == TeamMode::Fixed);
        frame_ = 0;
    }
    ++generation_;
}

void ViewerSim::reset() {
    metrics_.clear();
    if (!prepared_->seamPairs.empty()) {  // sewing replaced prepared_: start from the scene again
        prepare(false);
        return;
    }
    solver_.reset();
    solver_ = makeViewerSolver(backend_, prepared_, ctx_, options_.threads,
                               options_.team == TeamMode::Fixed);
    frame_ = 0;
    ++generation_;
}

void ViewerSim::setBackend(const std::string& backend) {
    if (backend == backend_) return;
    if (backend == "gpu" && !ctx_) throw Error("no Vulkan device to run the GPU solver on");
    if (scene_.phantoms.mode == PhantomMode::Auto) {
        // Each backend has its own tuned target: prepare again for the new one, carrying the
        // original vertices' state (as a settings change does; the clock restarts).
        const std::string previous = backend_;
        backend_ = backend;
        try {
            prepare(true);
        } catch (...) {
            backend_ = previous;
            throw;
        }
        return;
    }
    State state;
    solver_->readPositions(state.positions);
    solver_->readVelocities(state.velocities);
    PreparedCloth start = *prepared_;
    // Same PreparedCloth: every vertex, phantoms included, carries over exactly.
    for (std::size_t i = 0; i < start.positions.size(); ++i) {
        start.positions[i] = glm::vec4(glm::vec3(state.positions[i]), start.positions[i].w);
        start.velocities[i] = state.velocities[i];
    }
    solver_.reset();
    backend_ = backend;
    solver_ = makeViewerSolver(backend_, shareCloth(std::move(start)), ctx_, options_.threads,
                               options_.team == TeamMode::Fixed);
    ++generation_;
}

void ViewerSim::switchBackend() {
    setBackend(backend_ == "gpu" ? "cpu" : "gpu");
}

SimControls ViewerSim::controls() const {
    SimControls c;
    c.substeps = scene_.sim.substeps;
    c.iterations = scene_.sim.iterations;
    c.gravity = scene_.sim.gravity;
    c.iteration = scene_.sim.iteration;
    c.model = scene_.sim.model;
    if (!scene_.cloths.empty()) {
        const Material& m = scene_.cloths.front().material;
        c.stretchCompliance = m.stretchCompliance;
        c.bendRigidity = m.bendRigidity;
        c.linearDamping = m.linearDamping;
        c.rigidDamping = m.rigidDamping;
    }
    return c;
}

void ViewerSim::apply(const SimControls& c) {
    const Scene before = scene_;
    scene_.sim.model = c.model;
    scene_.sim.substeps = c.substeps;
    scene_.sim.iterations = c.iterations;
    scene_.sim.gravity = c.gravity;
    checkIterationSettings(c.iteration, "iteration");
    scene_.sim.iteration = c.iteration;
    for (ClothDesc& cloth : scene_.cloths) {
        cloth.material.stretchCompliance = c.stretchCompliance;
        Material& m = cloth.material;
        if (c.bendRigidity != before.cloths.front().material.bendRigidity) {
            // A new rigidity replaces the expert override (which would hide it).
            if (m.bendRigidityWarp) *m.bendRigidityWarp *= c.bendRigidity / m.bendRigidity;
            m.bendRigidity = c.bendRigidity;
            m.bendCompliance.reset();
        }
        cloth.material.linearDamping = c.linearDamping;
        cloth.material.rigidDamping = c.rigidDamping;
    }
    try {
        prepare(true);
    } catch (const Error&) {
        scene_ = before;  // prepare() throws before it replaces the solver: the run goes on
        throw;
    }
}

void ViewerSim::setMetrics(bool on, std::size_t frames) {
    metricsOn_ = on;
    metricsFrames_ = std::max<std::size_t>(1, frames);
    while (metrics_.size() > metricsFrames_) metrics_.pop_front();
    if (!on) metrics_.clear();
}

void ViewerSim::step() {
    if (metricsOn_) solver_->keepMultipliers(true);  // (solvers are re-created often)
    solver_->stepFrame();
    ++frame_;
    if (metricsOn_) {
        metrics_.push_back(measureFrame(*prepared_, *solver_));
        if (metrics_.size() > metricsFrames_) metrics_.pop_front();
    }
    // Sewing: pairs that came close enough merge; the renderer re-reads the new triangles.
    if (std::optional<PreparedCloth> sewn = sewCloseSeams(*prepared_, *solver_)) {
        solver_.reset();
        *prepared_ = std::move(*sewn);
        solver_ = makeViewerSolver(backend_, prepared_, ctx_, options_.threads,
                                   options_.team == TeamMode::Fixed);
        if (grab_) setGrab(grab_);
        ++generation_;
    }
}

std::optional<render::ExternalVertexBuffers> ViewerSim::gpuBuffers() const {
    auto* gpuSolver = dynamic_cast<vk::GpuSolver*>(solver_.get());
    if (!gpuSolver) return std::nullopt;
    const vk::SharedBuffers b = gpuSolver->sharedBuffers();
    render::ExternalVertexBuffers out;
    out.positions = {b.positions.buffer, b.positions.offset, b.positions.size};
    out.normals = {b.normals.buffer, b.normals.offset, b.normals.size};
    out.acquire = [](VkCommandBuffer cmd) {
        vk::GpuSolver::recordReadBarrier(cmd, VK_PIPELINE_STAGE_VERTEX_SHADER_BIT,
                                         VK_ACCESS_SHADER_READ_BIT);
    };
    return out;
}

void ViewerSim::read(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& normals) {
    solver_->readPositions(positions);
    showMergedVertices(*prepared_, positions);
    solver_->readNormals(normals);
}

void ViewerSim::setGrab(std::optional<Grab> grab) {
    // A vertex merged by sewing is moved through the vertex it was merged into.
    if (grab && grab->vertex < prepared_->shownAt.size())
        grab->vertex = prepared_->shownAt[grab->vertex];
    grab_ = grab;
    solver_->setGrab(grab);
}

}  // namespace cloth
