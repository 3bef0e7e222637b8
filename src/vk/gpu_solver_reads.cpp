// GpuSolver's public face: construction, stepping, and reading its state back (one staging
// buffer, several device buffers per submission: vk/frame_sync.h).
#include <array>
#include <cstring>

#include "vk/gpu_solver.h"
#include "vk/gpu_solver_impl.h"

namespace cloth::vk {

void GpuSolver::Impl::readMany(const std::vector<detail::BufferRead>& reads) {
    wait();
    readback.read(once, reads);
}

void GpuSolver::Impl::readBuffer(int binding, std::size_t bytes, std::vector<glm::vec4>& out) {
    out.resize((bytes + sizeof(glm::vec4) - 1) / sizeof(glm::vec4));
    readMany({{buffers[binding].get(), bytes, out.data()}});
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
    FrameCounters c = impl_->rec.counters();
    if (impl_->self) {
        c.selfDispatches = impl_->self->dispatches();
        c.dispatches += c.selfDispatches;
        c.barriers += impl_->self->barriers();
    }
    c.submissions = impl_->submissions;
    c.hostWaits = impl_->hostWaits;
    c.redoneFrames = impl_->redone;
    c.recordings = impl_->recordings;
    return c;
}
std::uint32_t GpuSolver::workgroupSize() const {
    return impl_->policy.wg;
}
std::uint32_t GpuSolver::itemsPerInvocation() const {
    return impl_->policy.items;
}
bool GpuSolver::colorTypesTogether() const {
    return impl_->policy.together;
}
std::uint32_t GpuSolver::colorRunItems() const {
    return impl_->policy.runItems;
}
std::uint32_t GpuSolver::colorRunWorkgroupSize() const {
    return impl_->policy.runWg;
}
bool GpuSolver::wideMemoryAccess() const {
    return impl_->policy.wide;
}
void GpuSolver::sync() {
    impl_->wait();
}

void GpuSolver::stepFrame() {
    impl_->wait();
    impl_->submissions = impl_->hostWaits = impl_->redone = impl_->recordings = 0;
    impl_->recordFrame();
    impl_->submit();
    if (impl_->options.synchronous) impl_->wait();
}

bool GpuSolver::restart(const std::vector<glm::vec4>& positions,
                        const std::vector<glm::vec4>& velocities, double time) {
    const std::size_t n = impl_->plan.vertexCount;
    if (positions.size() != n || velocities.size() != n)
        throw Error("restart: " + std::to_string(positions.size()) + " positions and " +
                    std::to_string(velocities.size()) + " velocities for a cloth of " +
                    std::to_string(n) + " vertices");
    impl_->wait();
    detail::writeStartState(*impl_->ctx, impl_->once, impl_->buffers, positions, velocities,
                            impl_->rigid != nullptr, impl_->jacobi != nullptr);
    if (impl_->self) impl_->self->restart();
    impl_->time = time;
    return true;
}

void GpuSolver::readPositions(std::vector<glm::vec4>& out) {
    impl_->readBuffer(BINDING_POSITIONS, 16 * std::size_t(impl_->plan.vertexCount), out);
}

void GpuSolver::readVelocities(std::vector<glm::vec4>& out) {
    impl_->readBuffer(BINDING_VELOCITIES, 16 * std::size_t(impl_->plan.vertexCount), out);
}

Solver::SelfCounts GpuSolver::selfCounts() const {
    if (!impl_->self) return {};
    const gpu::SelfState st = impl_->self->state();
    Solver::SelfCounts c;
    c.candidatePairs = st.pairs;
    c.primitivePairs = st.tested;
    c.walkNodes = st.walkNodes;
    c.contacts = st.contacts;
    c.candidates = st.candidates;
    c.detections = st.detections;
    c.rebuilds = impl_->self->rebuilds();
    c.clamped = std::uint64_t(st.clampedTotal) + st.clamped;
    c.evaluated = st.evaluated;
    c.mostVertexContacts = st.mostVertexContacts;
    return c;
}

std::uint32_t GpuSolver::selfContactCapacity() const {
    return impl_->self ? impl_->self->capacity() : 0;
}

std::uint64_t GpuSolver::selfGrowths() const {
    impl_->wait();
    return impl_->self ? impl_->self->growths() : 0;
}

std::vector<Solver::ModelFigure> GpuSolver::backendFigures() const {
    return {{"frames_recorded", double(recordedFrames())}, {"frames_redone", double(selfGrowths())}};
}

std::uint64_t GpuSolver::recordedFrames() const { return impl_->recordedFrames; }

std::uint32_t GpuSolver::contactCount() const {
    if (!impl_->rigid) return 0;
    std::uint32_t n = 0;
    impl_->readMany({{impl_->rigid->countBuffer().get(), 4, &n}});
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

void GpuSolver::readMultipliers(std::size_t type, std::vector<glm::vec4>& out) {
    CLOTH_ASSERT(type < gpu::kConstraintTypeCount);
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        if (T::kIndex != type) return;
        std::vector<unsigned char> raw(
            impl_->plan.multiplierBytes(T::kIndex, sizeof(typename T::Lambda)));
        impl_->readMany({{impl_->buffers[BINDING_TYPE_LAMBDAS(T::kIndex)].get(), raw.size(),
                          raw.data()}});
        widenMultipliers<T>(raw, out);
    });
}

void GpuSolver::readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities,
                          std::vector<glm::vec4>* multipliers) {
    const std::uint32_t n = impl_->plan.vertexCount;
    const std::size_t vertexBytes = 16 * std::size_t(n);
    positions.resize(n);
    velocities.resize(n);
    const auto& b = impl_->buffers;
    std::vector<detail::BufferRead> reads{
        {b[BINDING_POSITIONS].get(), vertexBytes, positions.data()},
        {b[BINDING_VELOCITIES].get(), vertexBytes, velocities.data()}};
    // Per type its multipliers as stored, widened after the one read.
    std::array<std::vector<unsigned char>, gpu::kConstraintTypeCount> raw;
    if (multipliers)
        gpu::forEachConstraintType([&](auto t) {
            using T = decltype(t);
            raw[T::kIndex].resize(
                impl_->plan.multiplierBytes(T::kIndex, sizeof(typename T::Lambda)));
            reads.push_back({b[BINDING_TYPE_LAMBDAS(T::kIndex)].get(), raw[T::kIndex].size(),
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
    impl_->readBuffer(BINDING_NORMALS, 16 * std::size_t(impl_->plan.originalVertexCount), out);
}

std::vector<StageTime> GpuSolver::stageTimes() const {
    impl_->wait();
    std::vector<StageTime> out;
    for (int i = 0; i < kStageCount; ++i)
        out.push_back({kStageNames[i], impl_->profiler().stageMs()[i]});
    return out;
}

std::vector<StageTime> GpuSolver::dispatchGroupTimes() const {
    impl_->wait();
    return impl_->profiler().groups();
}

void GpuSolver::setGrab(std::optional<Grab> grab) {
    checkGrabVertex(grab, impl_->plan.originalVertexCount);
    impl_->grab = grab;
    impl_->grabGroup.reset();
    // A split vertex is pulled through all its copies (phantoms.glsl), as on the CPU.
    if (grab)
        impl_->grabGroup =
            phantomGroupOf(impl_->plan.phantomGroups, impl_->plan.phantomMembers, grab->vertex);
}

SharedBuffers GpuSolver::sharedBuffers() const {
    SharedBuffers s;
    s.positions = {impl_->buffers[BINDING_POSITIONS].get(), 0,
                   16 * VkDeviceSize(impl_->plan.vertexCount)};
    s.normals = {impl_->buffers[BINDING_NORMALS].get(), 0,
                 16 * VkDeviceSize(impl_->plan.originalVertexCount)};
    s.triangles = {impl_->buffers[BINDING_TRIANGLES].get(), 0,
                   12 * VkDeviceSize(impl_->plan.triangleCount)};
    s.originalVertexCount = impl_->plan.originalVertexCount;
    s.triangleCount = impl_->plan.triangleCount;
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

}  // namespace cloth::vk
