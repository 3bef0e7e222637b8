#include "vk/gpu_solver.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <thread>

#include "sim/schedule.h"
#include "vk/buffer.h"
#include "vk/device_policy.h"
#include "vk/limits.h"
#include "vk/profiler.h"
#include "vk/self_collision_gpu.h"
#include "vk/solver_resources.h"

namespace cloth::vk {

namespace {

using detail::Kernel;
using namespace detail::policy;
using detail::LayoutKind;
using detail::PipelineRef;

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


std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
    return (a + b - 1) / b;
}

}  // namespace

struct GpuSolver::Impl {
    std::shared_ptr<Context> ctx;
    GpuSolverOptions options;
    SimSettings sim;
    std::uint32_t wg = 64;
    std::uint32_t items = 1;      // most items per invocation
    std::uint32_t minGroups = 1;  // fewest workgroups per dispatch (when there are enough items)
    bool together = true;         // both constraint types of a colour in one dispatch
    std::uint32_t togetherBelow = 0;  // ... or only for colours of fewer items than this
    std::uint32_t runItems = 0;       // colour runs: colours of at most this many items
    std::uint32_t runWg = 0;          // ... solved by a workgroup of this size
    bool wide = false;                // 64-bit memory accesses in the shaders

    // What the frame plan needs from the prepared data.
    std::uint32_t vertexCount = 0, originalVertexCount = 0, triangleCount = 0;
    std::uint32_t colorCount = 0;
    std::array<std::vector<std::uint32_t>, gpu::kConstraintTypeCount> offsets;  // per type
    // SPEC_VARIANT of the colour kernels that take several types: the types the cloth has, so
    // that the code of the others is compiled out (colors.glsl).
    std::uint32_t presentTypes = 0;
    // What each iteration records, in colour order: [begin, end) of a colour run (end - begin
    // >= 2, one dispatch) or of a single colour (end = begin + 1, its own dispatches).
    std::vector<glm::uvec2> colorGroups;
    std::uint32_t attachmentCount = 0, tetherCount = 0, phantomGroupCount = 0, segmentCount = 0;
    std::vector<gpu::PhantomGroup> phantomGroups;  // to find the group of a grabbed vertex
    std::vector<std::uint32_t> phantomMembers;
    bool rigidDamping = false;
    bool wind = false;  // sim.wind: the wind pass before each prediction (which it unfuses)
    // Colliders: the contact passes (collisions before each prediction, which they unfuse too).
    std::uint32_t colliderCount = 0;
    bool anyRestitution = false;
    bool features = false;  // a mesh collider has sharp features: their three passes
    float bounceBelow = 0.0f;  // m/s: restitutionThreshold
    // Self-collision (vk/self_collision_gpu.h): its passes, and the state at each frame's start
    // (positions, velocities, contact states) for a redo after its buffers overflowed.
    std::unique_ptr<GpuSelfCollision> self;
    int selfPasses = 0;
    Buffer snapPositions, snapVelocities, snapContacts;
    double frameStartTime = 0.0;

    // Jacobi and Chebyshev iterations (null with Gauss-Seidel): where each type's deltas and
    // previous multipliers start.
    std::unique_ptr<JacobiLayout> jacobi;

    detail::ChunkTable chunks;
    OneShot once;
    detail::SolverBuffers buffers;
    detail::SolverPipelines pipelines;
    Buffer readback;

    Unique<VkCommandPool> framePool;
    VkCommandBuffer frameCmd = VK_NULL_HANDLE;
    Unique<VkFence> frameFence;
    bool inFlight = false;
    detail::DispatchProfiler profiler;  // timestamps per dispatch (when the device has them)

    std::optional<Grab> grab;
    std::optional<std::uint32_t> grabGroup;  // phantom group whose original is grabbed
    double time = 0.0;
    FrameCounters counters;
    std::uint64_t frameIndex = 0;

    // Recording state.
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VkPipeline bound = VK_NULL_HANDLE;
    std::optional<LayoutKind> boundSets;  // the layout the bound descriptor sets were bound with
    bool needBarrier = false;

    Impl(const PreparedCloth& p, const GpuSolverOptions& o);
    bool timestamps() const { return options.timestampInterval > 0 && ctx->timestamps(); }

    std::uint32_t groupsFor(std::uint64_t n) const;
    detail::Spec spec(std::uint32_t variant = 0, std::uint32_t lambda = 0) const {
        return {variant, lambda, items > 1};
    }
    std::uint32_t colorItems(std::uint32_t c) const {
        std::uint32_t n = 0;
        for (const auto& o : offsets) n += o[c + 1] - o[c];
        return n;
    }
    void planColorGroups();
    void recordColors(const gpu::SolveParams& sp, std::uint32_t lambda);
    void recordColor(const gpu::SolveParams& sp, std::uint32_t lambda, std::uint32_t c);
    void recordColorRun(const gpu::SolveParams& sp, std::uint32_t lambda, std::uint32_t begin,
                        std::uint32_t end);
    void recordJacobi(const StepContext& c);
    void recordAttachments(const gpu::SolveParams& sp, std::uint32_t lambda);
    void recordPhantomsAndGrab(const gpu::SolveParams& sp);
    void recordFrame();
    void recordStep(const ScheduleEntry& e, const StepContext& c);
    void vertexPass(std::uint32_t stages, float dt);
    gpu::ContactPush contactPush(const StepContext& c) const;
    void contactPass(std::uint32_t job, const StepContext& c, std::uint32_t stages);
    template <typename F>
    void selfPass(F&& record);
    void recordSnapshot();
    void redoFrame();
    void featurePass(std::uint32_t job, std::uint32_t count, const StepContext& c,
                     std::uint32_t stages);
    template <typename Push>
    void dispatch(PipelineRef pipeline, const Push& push, std::uint32_t groups,
                  std::uint32_t stages);
    void barrier();
    void submit();
    void wait();
    void readBuffer(int binding, std::size_t bytes, std::vector<glm::vec4>& out);
    void readBytes(int binding, std::size_t bytes, void* dst);
    // Several buffers' first bytes at once (readBytes: one): packed into the read-back buffer
    // (grown to hold them all), one submission and one wait.
    struct Read {
        int binding;
        std::size_t bytes;
        void* dst;
    };
    void readMany(const std::vector<Read>& reads);
    // The bytes of a constraint type's stored multipliers (lambdaSize per item).
    std::size_t multiplierBytes(std::size_t type, std::size_t lambdaSize) const;
    bool keepMultipliers = false;  // GpuSolver::keepMultipliers
};

namespace {

std::shared_ptr<Context> contextFor(const GpuSolverOptions& o) {
    return o.context ? o.context : std::make_shared<Context>(o.contextOptions);
}

// Vertices per invocation of the per-vertex passes: up to `items`, keeping `minGroups` chunks.
std::uint32_t vertexItems(const PreparedCloth& p, std::uint32_t wg, std::uint32_t items,
                          std::uint32_t minGroups) {
    std::uint64_t perGroup = ceilDiv(p.positions.size(), std::uint64_t(minGroups));
    return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(perGroup / wg, 1, items));
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

}  // namespace

GpuSolver::Impl::Impl(const PreparedCloth& p, const GpuSolverOptions& o)
    : ctx(checkedContext(p, o)),
      options(o),
      sim(p.sim),
      wg(o.workgroupSize),
      items(chooseItems(*ctx, o.itemsPerInvocation)),
      minGroups(minGroupsFor(items)),
      together(chooseTogether(*ctx, o.colorBatching)),
      togetherBelow(o.colorBatching == ColorBatching::Auto ? o.smallColorItems : 0),
      runItems(chooseRunItems(*ctx, o)),
      runWg(chooseRunWorkgroup(*ctx, o)),
      wide(chooseWide(*ctx, o.memoryAccess)),
      jacobi(p.sim.iteration.scheme == IterationScheme::GaussSeidel
                 ? nullptr
                 : std::make_unique<JacobiLayout>(buildJacobiLayout(p))),
      chunks(detail::buildChunks(
          p, o.workgroupSize * vertexItems(p, o.workgroupSize, items, minGroups))),
      once(*ctx, "solver transfers"),
      buffers(detail::createBuffers(*ctx, p, chunks, jacobi.get(), once)),
      pipelines(*ctx, buffers, o.workgroupSize, runWg, wide),
      readback(stagingBuffer(*ctx, std::max<std::size_t>(16, 16 * p.positions.size()),
                             "solver read-back")) {
    options.context.reset();  // the Impl's own `ctx` keeps it alive
    vertexCount = p.vertexCount();
    originalVertexCount = p.originalVertexCount;
    time = p.startTime;  // a solver re-created mid-run (sewing) keeps the clock
    triangleCount = static_cast<std::uint32_t>(p.triangles.size());
    colorCount = p.colorCount;
    gpu::forEachConstraintType([&](auto t) {
        offsets[t.kIndex] = p.set<typename decltype(t)::Item>().colorOffsets;
        CLOTH_ASSERT(offsets[t.kIndex].size() == colorCount + 1u);
        // Every item is in a colour (the Jacobi passes take them all by these offsets).
        CLOTH_ASSERT(offsets[t.kIndex].front() == 0u &&
                     offsets[t.kIndex].back() == p.items<typename decltype(t)::Item>().size());
        if (offsets[t.kIndex].back() > offsets[t.kIndex].front()) presentTypes |= 1u << t.kIndex;
    });
    attachmentCount = static_cast<std::uint32_t>(p.attachments.size());
    tetherCount = static_cast<std::uint32_t>(p.tethers.size());
    phantomGroupCount = static_cast<std::uint32_t>(p.phantomGroups.size());
    segmentCount = static_cast<std::uint32_t>(p.segments.size());
    phantomGroups = p.phantomGroups;
    phantomMembers = p.phantomMembers;
    for (const auto& s : p.segments) rigidDamping = rigidDamping || s.rigidDamping > 0.0f;
    wind = p.sim.wind.has_value();
    CLOTH_ASSERT(!wind || p.windVertices.size() == p.positions.size());
    colliderCount = static_cast<std::uint32_t>(p.colliders.size());
    for (const gpu::Collider& c : p.colliders) anyRestitution = anyRestitution || c.restitution > 0.0f;
    bounceBelow = restitutionThreshold(p.sim);
    features = !p.meshFeatures.empty();
    planColorGroups();
    if (p.sim.selfCollision && !p.triangles.empty()) {
        if (p.sim.selfCollision->order == SelfCollisionSettings::Order::Sequential)
            throw Error(
                "self_collision.order \"sequential\" is the CPU reference's one-thread "
                "Gauss-Seidel order; the GPU solves \"colored\" (Gauss-Seidel by colours) or "
                "\"jacobi\" passes");
        self = std::make_unique<GpuSelfCollision>(*ctx, p, buffers[BINDING_POSITIONS],
                                                  buffers[BINDING_PREDICTED],
                                                  buffers[BINDING_TRIANGLES],
                                                  o.selfContactCapacity);
        selfPasses = p.sim.selfCollision->passes;
        snapPositions = deviceBuffer(*ctx, buffers[BINDING_POSITIONS].size(), "snapshot positions");
        snapVelocities =
            deviceBuffer(*ctx, buffers[BINDING_VELOCITIES].size(), "snapshot velocities");
        if (colliderCount)
            snapContacts = deviceBuffer(*ctx, buffers[BINDING_CONTACTS].size(), "snapshot contacts");
    }

    VkDevice dev = ctx->device();
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = ctx->queueFamily();
    VkCommandPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateCommandPool(dev, &poolInfo, nullptr, &pool));
    framePool = Unique<VkCommandPool>(dev, pool);
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VK_CHECK(vkAllocateCommandBuffers(dev, &alloc, &frameCmd));
    ctx->name(frameCmd, "solver frame");
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    VK_CHECK(vkCreateFence(dev, &fenceInfo, nullptr, &fence));
    frameFence = Unique<VkFence>(dev, fence);
    ctx->name(fence, "solver frame fence");

    if (timestamps()) {
        // Upper bound of dispatches per frame, plus the starting timestamp: per colour one per
        // type and the phantom averaging; then attachments, tethers, contacts (four passes with
        // sharp features), phantoms and one spare.
        std::uint32_t perIteration =
            static_cast<std::uint32_t>(gpu::kConstraintTypeCount + 1) * colorCount + 8 +
            static_cast<std::uint32_t>(p.sim.selfCollision ? p.sim.selfCollision->passes : 0);
        profiler = detail::DispatchProfiler(
            *ctx, static_cast<std::uint32_t>(sim.substeps) *
                          (static_cast<std::uint32_t>(sim.iterations) * perIteration + 10 +
                           (p.sim.selfCollision ? 7u : 0u)) +
                      5);
    }
}

// ---- recording ----------------------------------------------------------------------------------

// Workgroups for n items: one item per invocation, fewer invocations (up to `items` each) on CPU
// devices while at least `minGroups` workgroups remain.
std::uint32_t GpuSolver::Impl::groupsFor(std::uint64_t n) const {
    std::uint64_t one = ceilDiv(n, wg);
    std::uint64_t packed = ceilDiv(n, std::uint64_t(wg) * items);
    return static_cast<std::uint32_t>(std::min(one, std::max<std::uint64_t>(packed, minGroups)));
}

void GpuSolver::Impl::barrier() {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
    ++counters.barriers;
    needBarrier = false;
}

template <typename Push>
void GpuSolver::Impl::dispatch(PipelineRef pipeline, const Push& push, std::uint32_t groups,
                               std::uint32_t stages) {
    if (groups == 0) return;
    if (needBarrier) barrier();
    if (pipeline.pipeline != bound) {
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
        bound = pipeline.pipeline;
    }
    // The two layouts share set 0 only: switching kinds re-binds the sets the new one uses.
    if (boundSets != pipeline.kind) {
        pipelines.bindSets(cb, pipeline.kind);
        boundSets = pipeline.kind;
    }
    vkCmdPushConstants(cb, pipelines.layout(pipeline.kind), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       sizeof(Push), &push);
    vkCmdDispatch(cb, groups, 1, 1);
    ++counters.dispatches;
    profiler.afterDispatch(cb, stages);
    needBarrier = true;
}

void GpuSolver::Impl::vertexPass(std::uint32_t stages, float dt) {
    gpu::VertexPush push{};
    push.gravity = glm::vec4(sim.gravity, 0.0f);
    push.dt = dt;
    push.invDt = 1.0f / dt;
    dispatch(pipelines.get(Kernel::Vertices, spec(stages)), push,
             static_cast<std::uint32_t>(chunks.chunks.size()), stageBitsOfVertexPass(stages));
}

gpu::ContactPush GpuSolver::Impl::contactPush(const StepContext& c) const {
    gpu::ContactPush push{};
    push.start = c.start;
    push.end = c.solve.time;
    push.dt = c.dt;
    push.bounceBelow = bounceBelow;
    push.colliderCount = colliderCount;
    return push;
}

void GpuSolver::Impl::contactPass(std::uint32_t job, const StepContext& c, std::uint32_t stages) {
    dispatch(pipelines.get(Kernel::Contacts, spec(job)), contactPush(c),
             static_cast<std::uint32_t>(chunks.chunks.size()), stages);
}

// The sharp-feature passes (feature_contacts.h): over `count` items, not the chunk table.
void GpuSolver::Impl::featurePass(std::uint32_t job, std::uint32_t count, const StepContext& c,
                                  std::uint32_t stages) {
    gpu::ContactPush push = contactPush(c);
    push.count = count;
    push.triangleCount = triangleCount;
    dispatch(pipelines.get(Kernel::Contacts, spec(job)), push, groupsFor(count), stages);
}

void GpuSolver::Impl::planColorGroups() {
    // Phantom averaging after every colour needs a dispatch between colours: no runs then.
    const bool runs = runItems > 0 && !(sim.averagePhantomsEachColor && phantomGroupCount);
    colorGroups.clear();
    for (std::uint32_t c = 0; c < colorCount;) {
        std::uint32_t end = c;
        while (runs && end < colorCount && colorItems(end) <= runItems) ++end;
        if (end - c < 2) end = c + 1;
        colorGroups.push_back({c, end});
        c = end;
    }
}

void GpuSolver::Impl::recordColors(const gpu::SolveParams& sp, std::uint32_t lambda) {
    for (const glm::uvec2& g : colorGroups) {
        if (g.y - g.x >= 2)
            recordColorRun(sp, lambda, g.x, g.y);
        else
            recordColor(sp, lambda, g.x);
    }
}

void GpuSolver::Impl::recordColorRun(const gpu::SolveParams& sp, std::uint32_t lambda,
                                     std::uint32_t begin, std::uint32_t end) {
    gpu::ColorPush push{};
    push.solve = sp;
    push.colorBegin = begin;
    push.colorEnd = end;
    std::uint32_t stages = 0;
    for (std::size_t t = 0; t < offsets.size(); ++t)
        if (offsets[t][end] > offsets[t][begin]) stages |= typeStageBit(t);
    dispatch(pipelines.get(Kernel::ColorRun, spec(presentTypes, lambda)), push, 1, stages);
}

void GpuSolver::Impl::recordColor(const gpu::SolveParams& sp, std::uint32_t lambda,
                                  std::uint32_t c) {
    gpu::ColorPush push{};
    push.solve = sp;
    std::uint32_t items = 0, types = 0, stages = 0;
    for (std::size_t t = 0; t < offsets.size(); ++t) {
        push.begin[t] = offsets[t][c];
        push.count[t] = offsets[t][c + 1] - offsets[t][c];
        items += push.count[t];
        if (push.count[t]) {
            types |= 1u << t;
            stages |= typeStageBit(t);
        }
    }
    if ((together || items < togetherBelow) && std::popcount(types) > 1) {
        dispatch(pipelines.get(Kernel::Colors, spec(presentTypes, lambda)), push, groupsFor(items),
                 stages);
    } else {
        for (std::size_t t = 0; t < offsets.size(); ++t)
            if (push.count[t])
                dispatch(pipelines.get(Kernel::Colors, spec(1u << t, lambda)), push,
                         groupsFor(push.count[t]), typeStageBit(t));
    }
    if (sim.averagePhantomsEachColor && phantomGroupCount) {
        gpu::PhantomPush average{};  // averaging only: the grab comes after the tethers
        average.solve = sp;
        average.count = phantomGroupCount;
        dispatch(pipelines.get(Kernel::Phantoms, spec()), average, groupsFor(phantomGroupCount),
                 kPhantoms);
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
        const std::uint32_t items = offsets[t].back();  // all of the type's items
        if (!items) continue;
        push.count = items;
        push.deltaBase = jacobi->deltaBase[t];
        push.lambdaBase = jacobi->lambdaBase[t];
        dispatch(pipelines.get(Kernel::Jacobi, spec(1u << t)), push, groupsFor(items),
                 typeStageBit(t));
    }
    push.count = vertexCount;
    dispatch(pipelines.get(Kernel::Jacobi, spec(gpu::JACOBI_APPLY)), push, groupsFor(vertexCount),
             1u << kStageJacobiSums);
}

void GpuSolver::Impl::recordAttachments(const gpu::SolveParams& sp, std::uint32_t lambda) {
    gpu::AttachPush att{};
    att.solve = sp;
    att.count = attachmentCount;
    if (attachmentCount)
        dispatch(pipelines.get(Kernel::Attach, spec(0, lambda)), att, groupsFor(attachmentCount),
                 kAttachments);
}

// Phantom averaging, with the grab (after the tethers) in front of it: on the grabbed vertex's
// group when it was split, else as one more item.
void GpuSolver::Impl::recordPhantomsAndGrab(const gpu::SolveParams& sp) {
    gpu::PhantomPush push{};
    push.solve = sp;
    push.count = phantomGroupCount;
    std::uint32_t n = phantomGroupCount;
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
        dispatch(pipelines.get(Kernel::Phantoms, spec()), push, groupsFor(n),
                 phantomGroupCount ? kPhantoms : kAttachments);
}

// One step of the shared schedule (sim/schedule.h). With fuseStages the velocity pass (or the
// damping pass after it) also predicts the next substep, and Predict records nothing after the
// first substep; not with wind, whose pass must come between the two (it reads the positions
// around each vertex, which the prediction moves), nor with colliders (pre-stabilisation comes
// between them).
void GpuSolver::Impl::recordStep(const ScheduleEntry& e, const StepContext& c) {
    const bool fuse = options.fuseStages && !wind && colliderCount == 0 && !self;
    const std::uint32_t predictNext = (fuse && !c.lastSubstep) ? gpu::VERTEX_PREDICT : 0u;
    // Multipliers: none kept with one iteration; otherwise carried between iterations.
    // With keepMultipliers, the last substep's last iteration stores them too (readMultipliers).
    const bool store = c.iteration + 1 < sim.iterations || (keepMultipliers && c.lastSubstep);
    const std::uint32_t lambda = (c.iteration > 0 ? gpu::LAMBDA_LOAD : 0u) |
                                 (store ? gpu::LAMBDA_STORE : 0u);
    const std::uint32_t stage = 1u << e.stage;
    switch (e.step) {
        case Step::Wind:
            if (wind)
                dispatch(pipelines.get(Kernel::Wind, spec()), gpu::WindPush{c.wind, vertexCount},
                         groupsFor(vertexCount), stage);
            break;
        case Step::Collisions:
            if (self)  // before pre-stabilising
                selfPass([&] {
                    self->recordStart(cb);
                    profiler.afterDispatch(cb, 1u << kStageSelfCodes);
                });
            if (colliderCount) contactPass(gpu::CONTACT_BEGIN, c, stage);
            break;
        case Step::Predict:
            if (c.substep == 0 || !fuse) vertexPass(gpu::VERTEX_PREDICT, c.dt);
            break;
        case Step::Contacts:
            if (colliderCount) contactPass(gpu::CONTACT_PROJECT, c, stage);
            if (features) {
                featurePass(gpu::CONTACT_FEATURES, triangleCount, c, stage);
                featurePass(gpu::CONTACT_FEATURE_MOVE, originalVertexCount, c, stage);
                featurePass(gpu::CONTACT_FEATURE_COPIES, phantomGroupCount, c, stage);
            }
            break;
        case Step::Restitution:
            if (anyRestitution) contactPass(gpu::CONTACT_RESTITUTE, c, stage);
            break;
        case Step::SelfCollisions:
            if (self)
                selfPass([&] {
                    self->recordDetect(cb, [&](int phase) {
                        profiler.afterDispatch(cb, 1u << (kStageSelfCodes + phase));
                    });
                });
            break;
        case Step::SelfContacts:
            if (self)
                for (int k = 0; k < selfPasses; ++k)
                    selfPass([&] {
                        self->recordSolve(cb);
                        profiler.afterDispatch(cb, 1u << kStageSelfContacts);
                    });
            break;
        case Step::Colors:
            if (jacobi)
                recordJacobi(c);
            else
                recordColors(c.solve, lambda);
            break;
        case Step::Attachments:
            recordAttachments(c.solve, lambda);
            break;
        case Step::Tethers:
            if (tetherCount)
                dispatch(pipelines.get(Kernel::Tethers, spec()), gpu::CountPush{tetherCount},
                         groupsFor(tetherCount), stage);
            break;
        case Step::Grab:
            break;  // in the phantom pass, in front of the averaging (recordPhantomsAndGrab)
        case Step::Phantoms:
            recordPhantomsAndGrab(c.solve);
            break;
        case Step::Velocities:
            vertexPass(gpu::VERTEX_VELOCITY | (rigidDamping ? 0u : predictNext), c.dt);
            break;
        case Step::Damping: {
            if (!rigidDamping) break;
            // Sums over runs of vertices, their totals per segment, then the damping.
            const auto runs = static_cast<std::uint32_t>(chunks.sumChunks.size());
            dispatch(pipelines.get(Kernel::RigidSums, spec()), gpu::CountPush{runs},
                     groupsFor(runs), stage);
            dispatch(pipelines.get(Kernel::Rigid, spec()), gpu::CountPush{segmentCount},
                     groupsFor(segmentCount), stage);
            vertexPass(gpu::VERTEX_DAMP | predictNext, c.dt);
            break;
        }
        case Step::Normals:
            dispatch(pipelines.get(Kernel::Normals, spec()), gpu::CountPush{originalVertexCount},
                     groupsFor(originalVertexCount), stage);
            break;
    }
}

// Self-collision's passes bind their own pipeline and set, and end with a barrier.
template <typename F>
void GpuSolver::Impl::selfPass(F&& record) {
    if (needBarrier) barrier();
    record();
    bound = VK_NULL_HANDLE;
    boundSets.reset();
    needBarrier = false;
}

namespace {

void copyBuffer(VkCommandBuffer cb, const Buffer& from, const Buffer& to) {
    const VkBufferCopy copy{0, 0, from.size()};
    vkCmdCopyBuffer(cb, from.get(), to.get(), 1, &copy);
}

// Between shader work and copies, both ways.
void transferBarrier(VkCommandBuffer cb) {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                       VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    const VkPipelineStageFlags stages =
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    vkCmdPipelineBarrier(cb, stages, stages, 0, 1, &mb, 0, nullptr, 0, nullptr);
}

}  // namespace

// The state a redo starts from: positions, velocities, contact states, self-collision's memory.
void GpuSolver::Impl::recordSnapshot() {
    transferBarrier(cb);
    copyBuffer(cb, buffers[BINDING_POSITIONS], snapPositions);
    copyBuffer(cb, buffers[BINDING_VELOCITIES], snapVelocities);
    if (snapContacts) copyBuffer(cb, buffers[BINDING_CONTACTS], snapContacts);
    self->recordSnapshot(cb);
    transferBarrier(cb);
    counters.barriers += 2;
}

// The frame just finished stored fewer self-collision contacts than it found: the buffers grow,
// the state returns to the frame's start and the frame runs again (until nothing overflows).
void GpuSolver::Impl::redoFrame() {
    self->grow();
    once.run([&](VkCommandBuffer cmd) {
        transferBarrier(cmd);
        copyBuffer(cmd, snapPositions, buffers[BINDING_POSITIONS]);
        copyBuffer(cmd, snapVelocities, buffers[BINDING_VELOCITIES]);
        if (snapContacts) copyBuffer(cmd, snapContacts, buffers[BINDING_CONTACTS]);
        transferBarrier(cmd);
        self->recordRestore(cmd);
    });
    self->finishGrowth();
    time = frameStartTime;
    recordFrame();
    submit();
}

void GpuSolver::Impl::recordFrame() {
    counters = {};
    frameStartTime = time;
    if (self) self->beginFrame();
    bound = VK_NULL_HANDLE;
    cb = frameCmd;
    VK_CHECK(vkResetCommandBuffer(cb, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(cb, &begin));
    const bool timed = profiler.enabled() && frameIndex % options.timestampInterval == 0;
    ++frameIndex;

    // Earlier work on the queue (uploads, read-backs, a renderer reading the positions) before
    // this frame's shaders read or write the buffers.
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                       VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                         1, &mb, 0, nullptr, 0, nullptr);
    ++counters.barriers;
    if (colliderCount) {  // the contact count of this frame starts at 0
        vkCmdFillBuffer(cb, buffers[BINDING_CONTACT_COUNT].get(), 0, VK_WHOLE_SIZE, 0);
        VkMemoryBarrier fill{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        fill.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        fill.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &fill, 0, nullptr, 0,
                             nullptr);
        ++counters.barriers;
    }
    if (self) recordSnapshot();
    boundSets.reset();  // a new command buffer has no sets bound
    profiler.beginFrame(cb, timed);
    needBarrier = false;

    // Times as the CPU reference computes them (double accumulation, float per substep).
    forEachStep(sim, time, [&](const ScheduleEntry& e, const StepContext& c) { recordStep(e, c); });
    if (colliderCount) {  // the vertices in contact in the last substep
        StepContext last;
        last.dt = substepDt(sim);
        contactPass(gpu::CONTACT_COUNT, last, 1u << kStageContacts);
    }
    time += static_cast<double>(substepDt(sim)) * sim.substeps;
    VK_CHECK(vkEndCommandBuffer(cb));
    cb = VK_NULL_HANDLE;
}

// ---- submission and results ---------------------------------------------------------------------

void GpuSolver::Impl::submit() {
    VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    info.commandBufferCount = 1;
    info.pCommandBuffers = &frameCmd;
    VK_CHECK(vkQueueSubmit(ctx->queue(), 1, &info, frameFence.get()));
    inFlight = true;
    profiler.submitted();
}

void GpuSolver::Impl::wait() {
    if (!inFlight) return;
    VkFence fence = frameFence.get();
    VK_CHECK(vkWaitForFences(ctx->device(), 1, &fence, VK_TRUE, UINT64_MAX));
    VK_CHECK(vkResetFences(ctx->device(), 1, &fence));
    inFlight = false;
    profiler.collect();
    if (self && self->truncated())
        throw Error("self-collision: a loop on " + ctx->info().name +
                    " stopped before its end (flags " + std::to_string(self->truncated()) +
                    "; llvmpipe ends a shader invocation's loops after 65535 iterations): the "
                    "frame's contacts are incomplete");
    if (self && self->overflowed()) {
        redoFrame();
        wait();
    }
}

void GpuSolver::Impl::readBuffer(int binding, std::size_t bytes, std::vector<glm::vec4>& out) {
    out.resize((bytes + sizeof(glm::vec4) - 1) / sizeof(glm::vec4));
    readBytes(binding, bytes, out.data());
}

void GpuSolver::Impl::readMany(const std::vector<Read>& reads) {
    std::size_t total = 0;
    for (const Read& r : reads) total += r.bytes;
    if (total == 0) return;
    wait();
    if (total > readback.size()) readback = stagingBuffer(*ctx, total, "solver read-back");
    once.run([&](VkCommandBuffer cmd) {
        VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        before.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        before.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, 0, nullptr, 0,
                             nullptr);
        std::size_t at = 0;
        for (const Read& r : reads) {
            if (r.bytes == 0) continue;
            VkBufferCopy copy{0, at, r.bytes};
            vkCmdCopyBuffer(cmd, buffers[r.binding].get(), readback.get(), 1, &copy);
            at += r.bytes;
        }
        VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        after.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        after.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                             1, &after, 0, nullptr, 0, nullptr);
    });
    std::size_t at = 0;
    for (const Read& r : reads) {
        if (r.bytes == 0) continue;  // (an empty vector's data() may be null)
        std::memcpy(r.dst, static_cast<const char*>(readback.mapped()) + at, r.bytes);
        at += r.bytes;
    }
}

void GpuSolver::Impl::readBytes(int binding, std::size_t bytes, void* dst) {
    readMany({{binding, bytes, dst}});
}

// ---- GpuSolver ----------------------------------------------------------------------------------

GpuSolver::GpuSolver(const PreparedCloth& prepared, const GpuSolverOptions& options)
    : impl_(std::make_unique<Impl>(prepared, options)) {}

GpuSolver::~GpuSolver() {
    // Nothing may be destroyed while the GPU (this solver's frames, or a renderer reading its
    // buffers on the shared queue) still uses it.
    if (impl_) vkDeviceWaitIdle(impl_->ctx->device());
}

std::string GpuSolver::deviceName() const {
    return impl_->ctx->info().name;
}
double GpuSolver::simTime() const {
    return impl_->time;
}
const std::shared_ptr<Context>& GpuSolver::context() const {
    return impl_->ctx;
}
FrameCounters GpuSolver::counters() const {
    return impl_->counters;
}
std::uint32_t GpuSolver::workgroupSize() const {
    return impl_->wg;
}
std::uint32_t GpuSolver::itemsPerInvocation() const {
    return impl_->items;
}
bool GpuSolver::colorTypesTogether() const {
    return impl_->together;
}
std::uint32_t GpuSolver::colorRunItems() const {
    return impl_->runItems;
}
std::uint32_t GpuSolver::colorRunWorkgroupSize() const {
    return impl_->runWg;
}
bool GpuSolver::wideMemoryAccess() const {
    return impl_->wide;
}
void GpuSolver::sync() {
    impl_->wait();
}

void GpuSolver::stepFrame() {
    impl_->wait();
    impl_->recordFrame();
    impl_->submit();
    if (impl_->options.synchronous) impl_->wait();
}

void GpuSolver::readPositions(std::vector<glm::vec4>& out) {
    impl_->readBuffer(BINDING_POSITIONS, 16 * std::size_t(impl_->vertexCount), out);
}

void GpuSolver::readVelocities(std::vector<glm::vec4>& out) {
    impl_->readBuffer(BINDING_VELOCITIES, 16 * std::size_t(impl_->vertexCount), out);
}

Solver::SelfCounts GpuSolver::selfCounts() const {
    if (!impl_->self) return {};
    impl_->wait();
    return {impl_->self->candidatePairs(), impl_->self->primitivePairs(),
            impl_->self->contactCount()};
}

std::uint32_t GpuSolver::selfContactCapacity() const {
    return impl_->self ? impl_->self->capacity() : 0;
}

std::uint32_t GpuSolver::selfColorsRecorded() const {
    impl_->wait();
    return impl_->self ? impl_->self->colorsRecorded() : 0;
}

std::uint64_t GpuSolver::selfGrowths() const {
    impl_->wait();
    return impl_->self ? impl_->self->growths() : 0;
}

std::uint32_t GpuSolver::contactCount() const {
    if (impl_->colliderCount == 0) return 0;
    std::vector<glm::vec4> word;
    impl_->readBuffer(BINDING_CONTACT_COUNT, 4, word);
    std::uint32_t n = 0;
    std::memcpy(&n, &word[0], 4);
    return n;
}

void GpuSolver::keepMultipliers(bool keep) { impl_->keepMultipliers = keep; }

namespace {

// A type's multipliers as the GPU stores them (T::Lambda: a float or a vec4 per item), widened
// to a vec4 per item.
template <class T>
void widenMultipliers(const std::vector<unsigned char>& raw, std::vector<glm::vec4>& out) {
    using Lambda = typename T::Lambda;
    const std::size_t items = raw.size() / sizeof(Lambda);
    out.assign(items, glm::vec4(0.0f));
    for (std::size_t i = 0; i < items; ++i) {
        Lambda l;
        std::memcpy(&l, raw.data() + sizeof(Lambda) * i, sizeof(Lambda));
        out[i] = glm::vec4(l);
    }
}

}  // namespace

std::size_t GpuSolver::Impl::multiplierBytes(std::size_t type, std::size_t lambdaSize) const {
    const auto& perColour = offsets[type];  // per colour: the items are all of them
    return lambdaSize * (perColour.empty() ? 0 : perColour.back());
}

void GpuSolver::readMultipliers(std::size_t type, std::vector<glm::vec4>& out) {
    CLOTH_ASSERT(type < gpu::kConstraintTypeCount);
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        if (T::kIndex != type) return;
        std::vector<unsigned char> raw(
            impl_->multiplierBytes(T::kIndex, sizeof(typename T::Lambda)));
        impl_->readBytes(BINDING_TYPE_LAMBDAS(T::kIndex), raw.size(), raw.data());
        widenMultipliers<T>(raw, out);
    });
}

void GpuSolver::readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities,
                          std::vector<glm::vec4>* multipliers) {
    const std::size_t vertexBytes = 16 * std::size_t(impl_->vertexCount);
    positions.resize(impl_->vertexCount);
    velocities.resize(impl_->vertexCount);
    std::vector<Impl::Read> reads{{BINDING_POSITIONS, vertexBytes, positions.data()},
                                  {BINDING_VELOCITIES, vertexBytes, velocities.data()}};
    // Per type its multipliers as stored, widened after the one read.
    std::array<std::vector<unsigned char>, gpu::kConstraintTypeCount> raw;
    if (multipliers)
        gpu::forEachConstraintType([&](auto t) {
            using T = decltype(t);
            raw[T::kIndex].resize(impl_->multiplierBytes(T::kIndex, sizeof(typename T::Lambda)));
            reads.push_back({BINDING_TYPE_LAMBDAS(T::kIndex), raw[T::kIndex].size(),
                             raw[T::kIndex].data()});
        });
    impl_->readMany(reads);
    if (!multipliers) return;
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        widenMultipliers<T>(raw[T::kIndex], multipliers[T::kIndex]);
    });
}

void GpuSolver::readNormals(std::vector<glm::vec4>& out) {
    impl_->readBuffer(BINDING_NORMALS, 16 * std::size_t(impl_->originalVertexCount), out);
}

std::vector<StageTime> GpuSolver::stageTimes() const {
    impl_->wait();
    std::vector<StageTime> out;
    for (int i = 0; i < kStageCount; ++i) out.push_back({kStageNames[i], impl_->profiler.stageMs()[i]});
    return out;
}

std::vector<StageTime> GpuSolver::dispatchGroupTimes() const {
    impl_->wait();
    return impl_->profiler.groups();
}

void GpuSolver::setGrab(std::optional<Grab> grab) {
    checkGrabVertex(grab, impl_->originalVertexCount);
    impl_->grab = grab;
    impl_->grabGroup.reset();
    // A split vertex is pulled through all its copies (phantoms.glsl), as on the CPU.
    if (grab) impl_->grabGroup = phantomGroupOf(impl_->phantomGroups, impl_->phantomMembers, grab->vertex);
}

SharedBuffers GpuSolver::sharedBuffers() const {
    SharedBuffers s;
    s.positions = {impl_->buffers[BINDING_POSITIONS].get(), 0,
                   16 * VkDeviceSize(impl_->vertexCount)};
    s.normals = {impl_->buffers[BINDING_NORMALS].get(), 0,
                 16 * VkDeviceSize(impl_->originalVertexCount)};
    s.triangles = {impl_->buffers[BINDING_TRIANGLES].get(), 0,
                   12 * VkDeviceSize(impl_->triangleCount)};
    s.originalVertexCount = impl_->originalVertexCount;
    s.triangleCount = impl_->triangleCount;
    return s;
}

void GpuSolver::recordReadBarrier(VkCommandBuffer cmd, VkPipelineStageFlags dstStage,
                                  VkAccessFlags dstAccess) {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = dstAccess;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, dstStage, 0, 1, &mb, 0, nullptr,
                         0, nullptr);
}

std::unique_ptr<Solver> makeGpuSolver(const PreparedCloth& prepared,
                                      const GpuSolverOptions& options) {
    return std::make_unique<GpuSolver>(prepared, options);
}

}  // namespace cloth::vk
