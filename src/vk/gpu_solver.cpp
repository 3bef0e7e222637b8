// The GPU solver's construction and the recording of its frame: the shared schedule
// (sim/schedule.h) walked step by step, each step recorded as the dispatches of its stage.
#include "vk/gpu_solver.h"

#include <algorithm>
#include <bit>

#include "sim/schedule.h"
#include "vk/gpu_solver_impl.h"
#include "vk/limits.h"
#include "vk/transfer.h"
#include "prep/model_checks.h"

namespace cloth::vk {

namespace {

using detail::Kernel;
using namespace detail::policy;

// Stage bits, by position in kStageNames.
constexpr std::uint32_t kPredict = 1u << kStagePredict;
constexpr std::uint32_t kAttachments = 1u << kStageAttachments;
constexpr std::uint32_t kPhantoms = 1u << kStagePhantoms;
constexpr std::uint32_t kVelocities = 1u << kStageVelocities;
constexpr std::uint32_t kDamping = 1u << kStageDamping;
constexpr std::uint32_t typeStageBit(std::size_t type) {
    return 1u << (kStageFirstType + type);
}

std::uint32_t stageBitsOfVertexPass(std::uint32_t stages) {
    std::uint32_t bits = 0;
    if (stages & gpu::VERTEX_VELOCITY) bits |= kVelocities;
    if (stages & gpu::VERTEX_DAMP) bits |= kDamping;
    if (stages & gpu::VERTEX_PREDICT) bits |= kPredict;
    return bits;
}

std::shared_ptr<Context> contextFor(const GpuSolverOptions& o) {
    return o.context ? o.context : std::make_shared<Context>(o.contextOptions);
}

// Vertices per invocation of the per-vertex passes: up to `items`, keeping `minGroups` chunks.
std::uint32_t vertexItems(const PreparedCloth& p, const detail::DispatchPolicy& policy) {
    const std::uint64_t perGroup =
        (p.positions.size() + policy.minGroups - 1) / std::uint64_t(policy.minGroups);
    return static_cast<std::uint32_t>(
        std::clamp<std::uint64_t>(perGroup / policy.wg, 1, policy.items));
}

// Validates `p` against the device before anything is allocated, and returns the context.
std::shared_ptr<Context> checkedContext(const PreparedCloth& p, const GpuSolverOptions& o) {
    auto ctx = contextFor(o);
    checkWorkgroupSize(*ctx, o.workgroupSize);
    if (o.colorRunWorkgroupSize)
        checkWorkgroupSize(*ctx, o.colorRunWorkgroupSize, "colour-run workgroup size");
    checkFitsDevice(*ctx, countsOf(p), o.workgroupSize, "the scene");
    return ctx;
}

// Upper bound of the dispatches a frame records, plus the starting timestamp: per colour one per
// type and the phantom averaging; then attachments, tethers, contacts (four passes with sharp
// features), phantoms and one spare, per iteration; self-collision's passes.
std::uint32_t dispatchCapacity(const PreparedCloth& p) {
    const auto passes =
        static_cast<std::uint32_t>(p.sim.selfCollision ? p.sim.selfCollision->passes : 0);
    const std::uint32_t perIteration =
        static_cast<std::uint32_t>(gpu::kConstraintTypeCount + 1) * p.colorCount + 9 + passes;
    return static_cast<std::uint32_t>(p.timing.substeps) *
               (static_cast<std::uint32_t>(p.sim.iterations) * perIteration + 10 +
                (p.sim.selfCollision ? 7u : 0u)) +
           5;
}

}  // namespace

GpuSolver::Impl::Impl(const PreparedCloth& p, const GpuSolverOptions& o)
    : ctx(checkedContext(p, o)),
      options(o),
      sim(p.sim),
      timing(p.timing),
      policy(*ctx, o),
      data(p.solverData),
      jacobi(p.sim.iteration.scheme == IterationScheme::GaussSeidel
                 ? nullptr
                 : &jacobiLayout(p, "the GPU solver")),
      chunks(detail::buildChunks(p, o.workgroupSize * vertexItems(p, policy))),
      once(*ctx, "solver transfers"),
      buffers(detail::createBuffers(*ctx, p, chunks, jacobi, once)),
      pipelines(*ctx, buffers, o.workgroupSize, policy.runWg, policy.wide),
      plan(p, policy.runItems),
      rec(pipelines),
      sync(*ctx),
      readback(*ctx, 16 * p.positions.size()) {
    options.context.reset();  // the Impl's own `ctx` keeps it alive
    time = p.run.time;       // a solver re-created mid-run (sewing) keeps the clock
    if (!p.colliders.empty())
        rigid = std::make_unique<detail::GpuRigidContacts>(
            *ctx, p, buffers, pipelines, policy, static_cast<std::uint32_t>(chunks.chunks.size()));
    if (p.sim.selfCollision && !p.triangles.empty()) {
        refuseWhatTheModelLacks(p, SolverBackend::Gpu);  // the sequential order: the CPU's
        self = std::make_unique<GpuSelfCollision>(*ctx, p, buffers[BINDING_POSITIONS],
                                                  buffers[BINDING_PREDICTED],
                                                  buffers[BINDING_TRIANGLES],
                                                  o.selfContactCapacity);
        snapPositions = deviceBuffer(*ctx, buffers[BINDING_POSITIONS].size(), "snapshot positions");
        snapVelocities =
            deviceBuffer(*ctx, buffers[BINDING_VELOCITIES].size(), "snapshot velocities");
        if (rigid) rigid->keepSnapshots(*ctx);
    }
    if (timestamps()) profiler() = detail::DispatchProfiler(*ctx, dispatchCapacity(p));
}

// ---- recording ----------------------------------------------------------------------------------

void GpuSolver::Impl::vertexPass(std::uint32_t stages, float dt) {
    gpu::VertexPush push{};
    push.gravity = glm::vec4(sim.gravity, 0.0f);
    push.dt = dt;
    push.invDt = 1.0f / dt;
    rec.dispatch(pipelines.get(Kernel::Vertices, policy.spec(stages)), push,
                 static_cast<std::uint32_t>(chunks.chunks.size()), stageBitsOfVertexPass(stages));
}

void GpuSolver::Impl::recordColors(const gpu::SolveParams& sp, std::uint32_t lambda,
                                   const StepContext& c) {
    if (options.fault == GpuSolverOptions::Fault::SkipColour && c.substep == 0 &&
        c.iteration == 0) {  // the injected bug: colour 0 left out, the others one by one
        for (std::uint32_t colour = 1; colour < plan.colorGroups.back().y; ++colour)
            recordColor(sp, lambda, colour);
        return;
    }
    // The colours from `from` on, group by group: a run of two or more in one dispatch, a
    // colour alone in its own.
    const auto colorsFrom = [&](std::uint32_t from) {
        for (const glm::uvec2& g : plan.colorGroups) {
            const std::uint32_t begin = std::max(g.x, from);
            if (g.y >= begin + 2)
                recordColorRun(sp, lambda, begin, g.y);
            else if (g.y > begin)
                recordColor(sp, lambda, begin);
        }
    };
    if (options.fault == GpuSolverOptions::Fault::MissingBarrier && c.substep == 0 &&
        c.iteration == 0 && plan.colorGroups.back().y >= 2) {
        // The injected bug: colours 0 and 1 in one workgroup without the barrier between them,
        // the others as always.
        recordColorRun(sp, lambda, 0, 2, gpu::FAULT_MISSING_BARRIER);
        colorsFrom(2);
        return;
    }
    colorsFrom(0);
}

void GpuSolver::Impl::recordColorRun(const gpu::SolveParams& sp, std::uint32_t lambda,
                                     std::uint32_t begin, std::uint32_t end, std::uint32_t fault) {
    gpu::ColorPush push{};
    push.solve = sp;
    push.colorBegin = begin;
    push.colorEnd = end;
    std::uint32_t stages = 0;
    for (std::size_t t = 0; t < plan.offsets.size(); ++t)
        if (plan.offsets[t][end] > plan.offsets[t][begin]) stages |= typeStageBit(t);
    detail::Spec spec = policy.spec(plan.presentTypes, lambda);
    if (fault) spec.fault = fault;
    rec.dispatch(pipelines.get(Kernel::ColorRun, spec), push, 1, stages);
}

void GpuSolver::Impl::recordColor(const gpu::SolveParams& sp, std::uint32_t lambda,
                                  std::uint32_t c) {
    gpu::ColorPush push{};
    push.solve = sp;
    std::uint32_t items = 0, types = 0, stages = 0;
    for (std::size_t t = 0; t < plan.offsets.size(); ++t) {
        push.begin[t] = plan.offsets[t][c];
        push.count[t] = plan.offsets[t][c + 1] - plan.offsets[t][c];
        items += push.count[t];
        if (push.count[t]) {
            types |= 1u << t;
            stages |= typeStageBit(t);
        }
    }
    if ((policy.together || items < policy.togetherBelow) && std::popcount(types) > 1) {
        rec.dispatch(pipelines.get(Kernel::Colors, policy.spec(plan.presentTypes, lambda)), push,
                     policy.groupsFor(items), stages);
    } else {
        for (std::size_t t = 0; t < plan.offsets.size(); ++t)
            if (push.count[t])
                rec.dispatch(pipelines.get(Kernel::Colors, policy.spec(1u << t, lambda)), push,
                             policy.groupsFor(push.count[t]), typeStageBit(t));
    }
    if (sim.averagePhantomsEachColor && plan.phantomGroupCount) {
        gpu::PhantomPush average{};  // averaging only: the grab comes after the tethers
        average.solve = sp;
        average.count = plan.phantomGroupCount;
        rec.dispatch(pipelines.get(Kernel::Phantoms, policy.spec()), average,
                     policy.groupsFor(plan.phantomGroupCount), kPhantoms);
    }
}

// A Jacobi or Chebyshev iteration (shaders/solver/jacobi.glsl): each type's items, then every
// vertex.
void GpuSolver::Impl::recordJacobi(const StepContext& c) {
    gpu::JacobiPush push{};
    push.solve = c.solve;
    push.omega = c.omega;
    push.gamma = c.gamma;
    for (std::size_t t = 0; t < gpu::kConstraintTypeCount; ++t) {
        const std::uint32_t items = plan.offsets[t].back();  // all of the type's items
        if (!items) continue;
        push.count = items;
        push.deltaBase = jacobi->deltaBase[t];
        push.lambdaBase = jacobi->lambdaBase[t];
        rec.dispatch(pipelines.get(Kernel::Jacobi, policy.spec(1u << t)), push,
                     policy.groupsFor(items), typeStageBit(t));
    }
    push.count = plan.vertexCount;
    rec.dispatch(pipelines.get(Kernel::Jacobi, policy.spec(gpu::JACOBI_APPLY)), push,
                 policy.groupsFor(plan.vertexCount), 1u << kStageJacobiSums);
}

void GpuSolver::Impl::recordAttachments(const gpu::SolveParams& sp, std::uint32_t lambda,
                                        int substep) {
    gpu::AttachPush att{};
    att.solve = sp;
    att.count = plan.attachmentCount;
    att.substep = static_cast<std::uint32_t>(substep);
    if (plan.attachmentCount)
        rec.dispatch(pipelines.get(Kernel::Attach, policy.spec(0, lambda)), att,
                     policy.groupsFor(plan.attachmentCount), kAttachments);
}

// Phantom averaging, with the grab (after the tethers) in front of it: on the grabbed vertex's
// group when it was split, else as one more item.
void GpuSolver::Impl::recordPhantomsAndGrab(const gpu::SolveParams& sp) {
    gpu::PhantomPush push{};
    push.solve = sp;
    push.count = plan.phantomGroupCount;
    std::uint32_t n = plan.phantomGroupCount;
    if (grab) {
        push.grabTarget = glm::vec4(grab->target, 0.0f);
        push.grabVertex = grab->vertex;
        if (grabGroup) {
            push.grabMode = gpu::GRAB_WITH_GROUP;
            push.grabGroup = *grabGroup;
        } else {
            push.grabMode = gpu::GRAB_ALONE;
            ++n;
        }
    }
    // A grab on its own counts as an attachment (a hard one), averaging as the phantom stage.
    if (n)
        rec.dispatch(pipelines.get(Kernel::Phantoms, policy.spec()), push, policy.groupsFor(n),
                     plan.phantomGroupCount ? kPhantoms : kAttachments);
}

// Mueller's rigid-motion-preserving damping: sums over runs of vertices, their totals per
// segment, then the damping (which may also predict the next substep).
void GpuSolver::Impl::recordDamping(std::uint32_t stage, std::uint32_t predictNext, float dt) {
    const auto runs = static_cast<std::uint32_t>(chunks.sumChunks.size());
    rec.dispatch(pipelines.get(Kernel::RigidSums, policy.spec()), gpu::CountPush{runs},
                 policy.groupsFor(runs), stage);
    rec.dispatch(pipelines.get(Kernel::Rigid, policy.spec()), gpu::CountPush{plan.segmentCount},
                 policy.groupsFor(plan.segmentCount), stage);
    vertexPass(gpu::VERTEX_DAMP | predictNext, dt);
}

// One step of the shared schedule (sim/schedule.h). With fuseStages the velocity pass (or the
// damping pass after it) also predicts the next substep, and Predict records nothing after the
// first substep; not with wind, whose pass must come between the two (it reads the positions
// around each vertex, which the prediction moves), nor with colliders (pre-stabilisation comes
// between them).
void GpuSolver::Impl::recordStep(const ScheduleEntry& e, const StepContext& c) {
    const bool fuse = options.fuseStages && !plan.wind && !rigid && !self;
    const std::uint32_t predictNext = (fuse && !c.lastSubstep) ? gpu::VERTEX_PREDICT : 0u;
    // Multipliers: none kept with one iteration; otherwise carried between iterations.
    // With keepMultipliers, the last substep's last iteration stores them too (readMultipliers).
    const bool store = c.iteration + 1 < sim.iterations || (keepMultipliers && c.lastSubstep);
    const std::uint32_t lambda = (c.iteration > 0 ? gpu::LAMBDA_LOAD : 0u) |
                                 (store ? gpu::LAMBDA_STORE : 0u);
    const std::uint32_t stage = 1u << e.stage;
    auto timed = [&](int stageIndex) {
        return [this, stageIndex] { profiler().afterDispatch(rec.cb(), 1u << stageIndex); };
    };
    switch (e.step) {
        case Step::Wind:
            if (plan.wind)
                rec.dispatch(pipelines.get(Kernel::Wind, policy.spec()),
                             gpu::WindPush{c.wind, plan.vertexCount,
                                           static_cast<std::uint32_t>(c.substep)},
                             policy.groupsFor(plan.vertexCount), stage);
            break;
        case Step::Collisions:
            if (self)  // before pre-stabilising
                rec.foreign([&] {
                    self->recordStart(rec.cb());
                    timed(kStageSelfMotion)();
                });
            if (rigid) rigid->recordBegin(rec, c, stage);
            break;
        case Step::Predict:
            if (c.substep == 0 || !fuse) vertexPass(gpu::VERTEX_PREDICT, c.dt);
            break;
        case Step::Contacts:
            if (rigid) rigid->recordProject(rec, c, stage);
            break;
        case Step::Restitution:
            if (rigid) rigid->recordRestitute(rec, c, stage);
            break;
        case Step::SelfCollisions:
            if (self)
                rec.foreign([&] {
                    self->recordCollide(rec.cb(), c.substep == 0, [&](int selfStage) {
                        profiler().afterDispatch(rec.cb(), 1u << selfStage);
                    });
                });
            break;
        case Step::SelfContacts:
            if (self)
                rec.foreign([&] {
                    self->recordSolve(rec.cb());
                    timed(kStageSelfContacts)();
                });
            break;
        case Step::SelfBounds:
            if (self)
                rec.foreign([&] {
                    self->recordClamp(rec.cb());
                    timed(kStageSelfClamp)();
                });
            break;
        case Step::Colors:
            if (jacobi)
                recordJacobi(c);
            else
                recordColors(c.solve, lambda, c);
            break;
        case Step::Attachments:
            recordAttachments(c.solve, lambda, c.substep);
            break;
        case Step::Tethers:
            if (plan.tetherCount)
                rec.dispatch(pipelines.get(Kernel::Tethers, policy.spec()),
                             gpu::CountPush{plan.tetherCount}, policy.groupsFor(plan.tetherCount),
                             stage);
            break;
        case Step::Grab:
            break;  // in the phantom pass, in front of the averaging (recordPhantomsAndGrab)
        case Step::Phantoms:
            recordPhantomsAndGrab(c.solve);
            break;
        case Step::Velocities:
            vertexPass(gpu::VERTEX_VELOCITY | (plan.rigidDamping ? 0u : predictNext), c.dt);
            break;
        case Step::Damping:
            if (plan.rigidDamping) recordDamping(stage, predictNext, c.dt);
            break;
        case Step::Normals:
            rec.dispatch(pipelines.get(Kernel::Normals, policy.spec()),
                         gpu::CountPush{plan.originalVertexCount},
                         policy.groupsFor(plan.originalVertexCount), stage);
            break;
        case Step::SpringForces: case Step::SpringMove: case Step::PdLocal: case Step::PdGlobal:
        case Step::PdResult: case Step::FemForces: case Step::FemSolve: case Step::FemMove:
            throw Error("XPBD: step " + std::to_string(int(e.step)) + " is another model's");
    }
}

// The state a redo starts from: positions, velocities, contact states, self-collision's memory.
void GpuSolver::Impl::recordSnapshot() {
    VkCommandBuffer cb = rec.cb();
    detail::transferBarrier(cb);
    detail::copyWholeBuffer(cb, buffers[BINDING_POSITIONS], snapPositions);
    detail::copyWholeBuffer(cb, buffers[BINDING_VELOCITIES], snapVelocities);
    if (rigid) rigid->recordSnapshot(cb);
    detail::transferBarrier(cb);
    rec.countBarriers(2);
    self->recordFrameStart(cb);
}

// The frame just finished found more self-collision candidates than its buffers hold: the
// buffers grow, the state returns to the frame's start and the frame runs again (until nothing
// overflows).
void GpuSolver::Impl::redoFrame() {
    self->grow();  // (one transfer and wait of its own)
    once.run([&](VkCommandBuffer cmd) {
        detail::transferBarrier(cmd);
        detail::copyWholeBuffer(cmd, snapPositions, buffers[BINDING_POSITIONS]);
        detail::copyWholeBuffer(cmd, snapVelocities, buffers[BINDING_VELOCITIES]);
        if (rigid) rigid->recordRestore(cmd);
        self->recordRestore(cmd);
    });
    submissions += 2;
    hostWaits += 2;
    ++redone;
    time = frameStartTime;
    recordFrame();
    submit();
}

// The times of this frame's substeps into the clock buffer (BINDING_CLOCK), as forEachStep
// computes them for the CPU (the frame-loop entries carry no time).
void GpuSolver::Impl::writeClock() {
    auto* clock = static_cast<gpu::FrameClock*>(buffers[BINDING_CLOCK].mapped());
    forEachStep(sim, timing, time, [&](const ScheduleEntry& e, const StepContext& c) {
        if (e.loop == Loop::Frame) return;
        gpu::FrameClock& k = clock[c.substep];
        k.wind = c.wind.velocity;
        k.start = c.start;
        k.end = c.solve.time;
    });
}

// The frame's commands: recorded once and submitted again for as long as what they depend on
// holds (RecordingKey); the times, which change every frame, are read from the clock buffer.
void GpuSolver::Impl::recordFrame() {
    frameStartTime = time;
    if (self) self->beginFrame();
    writeClock();
    RecordingKey key;
    key.timed = profiler().enabled() && frameIndex % options.timestampInterval == 0;
    key.keepMultipliers = keepMultipliers;
    if (self) key.self = self->recordingKey();
    ++frameIndex;
    const double frameLength = static_cast<double>(substepDt(timing)) * timing.substeps;
    if (recorded && *recorded == key && !grab) {
        time += frameLength;
        return;  // the command buffer holds this frame's commands
    }
    ++recordings;
    ++recordedFrames;
    if (self) self->beginRecording();
    const bool timed = key.timed;
    VkCommandBuffer cb = sync.commandBuffer();
    rec.begin(cb);
    VK_CHECK(vkResetCommandBuffer(cb, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VK_CHECK(vkBeginCommandBuffer(cb, &begin));

    // Earlier work on the queue (uploads, read-backs, a renderer reading the positions) before
    // this frame's shaders read or write the buffers.
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                       VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                         1, &mb, 0, nullptr, 0, nullptr);
    rec.countBarriers(1);
    if (rigid) rigid->recordFrameStart(cb, rec);  // the contact count of this frame starts at 0
    if (self) recordSnapshot();
    rec.forgetBindings();  // a new command buffer has no sets bound
    profiler().beginFrame(cb, timed);

    // The steps with no time in their push constants: the kernels read their substep's clock.
    forEachStep(sim, timing, time, [&](const ScheduleEntry& e, const StepContext& c) {
        StepContext untimed = c;
        untimed.start = 0.0f;
        untimed.solve.time = 0.0f;
        untimed.wind.velocity = glm::vec4(0.0f);
        recordStep(e, untimed);
    });
    if (rigid) rigid->recordCount(rec, substepDt(timing), 1u << kStageContacts);
    time += frameLength;
    VK_CHECK(vkEndCommandBuffer(cb));
    rec.end();
    if (grab)
        recorded.reset();  // the grab's target is in the commands: the next frame records anew
    else
        recorded = key;
}

// ---- submission ---------------------------------------------------------------------------------

void GpuSolver::Impl::submit() {
    sync.submit();
    ++submissions;
    profiler().submitted();
}

void GpuSolver::Impl::wait() {
    if (!sync.wait()) return;
    ++hostWaits;
    profiler().collect();
    if (self && self->truncated())
        throw Error("self-collision: a loop on " + ctx->info().name +
                    " stopped before its end (flags " + std::to_string(self->truncated()) +
                    "; llvmpipe ends a shader invocation's loops after 65535 iterations): the "
                    "frame's contacts are incomplete");
    if (self && self->overflowed()) {
        redoFrame();
        wait();
        return;
    }
    if (self) self->endFrame();
}

}  // namespace cloth::vk
