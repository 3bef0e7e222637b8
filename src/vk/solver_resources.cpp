#include "vk/solver_resources.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "vk/compute_kernel.h"

namespace cloth::vk::detail {

namespace {

// Debug names, by binding (the constraint types' come from the table).
constexpr const char* kFixedBufferNames[] = {
    "positions",          "predicted positions", "velocities",         "normals",
    "attachments",        "motions",             "lambda attachments", "tethers",
    "phantom groups",     "phantom members",     "segments",           "vertex chunks",
    "segment sum chunks", "rigid partial sums",  "rigid motions",      "triangles",
    "vertex tri offsets", "vertex triangles",    "sum chunks",         "color ranges",
    "wind vertices"};
static_assert(std::size(kFixedBufferNames) == BINDING_TYPES_BASE, "one name per binding");

// Specialization constants by id (solver_io.h: SPEC_WORKGROUP_SIZE 0, SPEC_VARIANT 1,
// SPEC_LAMBDA 2, SPEC_STRIDED 3, SPEC_FAULT 4).
std::array<std::uint32_t, 5> specValues(std::uint32_t wg, Spec spec) {
    static_assert(SPEC_WORKGROUP_SIZE == 0 && SPEC_VARIANT == 1 && SPEC_LAMBDA == 2 &&
                  SPEC_STRIDED == 3 && SPEC_FAULT == 4);
    return {wg, spec.variant, spec.lambda, spec.strided ? VK_TRUE : VK_FALSE, spec.fault};
}

constexpr const char* kCollisionBufferNames[] = {"colliders", "contacts", "mesh nodes",
                                                  "mesh triangles", "contact count",
                                                  "mesh features", "triangle edges",
                                                  "feature sums"};
static_assert(std::size(kCollisionBufferNames) == BINDING_JACOBI_BASE - BINDING_COLLIDERS);

constexpr const char* kJacobiBufferNames[] = {"jacobi deltas", "jacobi vertices",
                                              "jacobi sources", "jacobi previous positions",
                                              "jacobi previous multipliers"};
static_assert(std::size(kJacobiBufferNames) == BINDING_CLOCK - BINDING_JACOBI_BASE);

std::string bufferName(int binding) {
    if (binding == BINDING_CLOCK) return "clock";
    if (binding < BINDING_TYPES_BASE) return kFixedBufferNames[binding];
    if (binding >= BINDING_JACOBI_BASE) return kJacobiBufferNames[binding - BINDING_JACOBI_BASE];
    if (binding >= BINDING_COLLIDERS) return kCollisionBufferNames[binding - BINDING_COLLIDERS];
    const int type = (binding - BINDING_TYPES_BASE) / 2;
    std::string name;
    gpu::forEachConstraintType([&](auto t) {
        if (static_cast<int>(t.kIndex) == type) name = t.kName;
    });
    return (binding - BINDING_TYPES_BASE) % 2 == 0 ? name : "lambda " + name;
}

template <typename T>
std::size_t bytesOf(const std::vector<T>& v) {
    return v.size() * sizeof(T);
}

}  // namespace

ChunkTable buildChunks(const PreparedCloth& p, std::uint32_t wg) {
    ChunkTable t;
    auto add = [](std::vector<gpu::VertexChunk>& out, std::uint32_t size, std::uint32_t seg,
                  std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t b = begin; b < end; b += size)
            out.push_back({seg, b, std::min(size, end - b), 0u});
    };
    for (std::uint32_t s = 0; s < p.segments.size(); ++s) {
        const auto& seg = p.segments[s];
        add(t.chunks, wg, s, seg.vertexBegin, seg.vertexEnd);
        add(t.chunks, wg, s, seg.phantomBegin, seg.phantomEnd);
        auto first = static_cast<std::uint32_t>(t.sumChunks.size());
        add(t.sumChunks, gpu::RIGID_SUM_CHUNK, s, seg.vertexBegin, seg.vertexEnd);
        add(t.sumChunks, gpu::RIGID_SUM_CHUNK, s, seg.phantomBegin, seg.phantomEnd);
        t.segmentSumChunks.push_back(
            {first, static_cast<std::uint32_t>(t.sumChunks.size()) - first});
    }
    return t;
}

SolverBuffers createBuffers(const Context& ctx, const PreparedCloth& p, const ChunkTable& chunks,
                            const JacobiLayout* jacobi, OneShot& once) {
    std::vector<std::uint32_t> triangles;
    triangles.reserve(3 * p.triangles.size());
    for (const auto& t : p.triangles) triangles.insert(triangles.end(), {t.x, t.y, t.z});

    std::array<std::size_t, BINDING_COUNT> bytes{};
    bytes[BINDING_POSITIONS] = bytesOf(p.positions);
    bytes[BINDING_PREDICTED] = bytesOf(p.positions);
    bytes[BINDING_VELOCITIES] = bytesOf(p.velocities);
    bytes[BINDING_NORMALS] = 16 * std::size_t(p.originalVertexCount);
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        const auto& items = p.items<typename T::Item>();
        bytes[BINDING_TYPE_ITEMS(T::kIndex)] = bytesOf(items);
        bytes[BINDING_TYPE_LAMBDAS(T::kIndex)] = sizeof(typename T::Lambda) * items.size();
    });
    bytes[BINDING_ATTACHMENTS] = bytesOf(p.attachments);
    bytes[BINDING_MOTIONS] = bytesOf(p.motions);
    bytes[BINDING_LAMBDA_ATTACH] = 4 * (p.attachments.size() + 1);
    bytes[BINDING_TETHERS] = bytesOf(p.tethers);
    bytes[BINDING_PHANTOM_GROUPS] = bytesOf(p.phantomGroups);
    bytes[BINDING_PHANTOM_MEMBERS] = bytesOf(p.phantomMembers);
    bytes[BINDING_SEGMENTS] = bytesOf(p.segments);
    bytes[BINDING_CHUNKS] = bytesOf(chunks.chunks);
    bytes[BINDING_SEGMENT_SUM_CHUNKS] = bytesOf(chunks.segmentSumChunks);
    bytes[BINDING_SUM_CHUNKS] = bytesOf(chunks.sumChunks);
    bytes[BINDING_RIGID_PARTIALS] = sizeof(gpu::RigidSums) * chunks.sumChunks.size();
    bytes[BINDING_RIGID_MOTIONS] = sizeof(gpu::RigidMotion) * p.segments.size();
    bytes[BINDING_TRIANGLES] = bytesOf(triangles);
    bytes[BINDING_VERTEX_TRI_OFFSETS] = bytesOf(p.vertexTriangleOffsets);
    bytes[BINDING_VERTEX_TRIANGLES] = bytesOf(p.vertexTriangles);
    std::vector<glm::uvec2> colorRanges;  // (begin, count) per colour and type
    for (std::uint32_t c = 0; c < p.colorCount; ++c)
        gpu::forEachConstraintType([&](auto t) {
            const auto& set = p.set<typename decltype(t)::Item>();
            colorRanges.push_back({set.colorOffsets[c], set.colorSize(c)});
        });
    bytes[BINDING_COLOR_RANGES] = bytesOf(colorRanges);
    bytes[BINDING_WIND_VERTICES] = bytesOf(p.windVertices);
    bytes[BINDING_COLLIDERS] = bytesOf(p.colliders);
    bytes[BINDING_CONTACTS] = p.colliders.empty() ? 0 : sizeof(gpu::ContactState) * p.positions.size();
    bytes[BINDING_MESH_NODES] = bytesOf(p.meshNodes);
    bytes[BINDING_MESH_TRIANGLES] = bytesOf(p.meshTriangles);
    bytes[BINDING_CONTACT_COUNT] = 4;
    bytes[BINDING_MESH_FEATURES] = bytesOf(p.meshFeatures);
    bytes[BINDING_TRIANGLE_EDGES] = p.meshFeatures.empty() ? 0 : bytesOf(p.triangleFeatureInfo);
    bytes[BINDING_FEATURE_SUMS] =
        p.meshFeatures.empty() ? 0 : 16 * (3 * p.triangles.size() + p.originalVertexCount);
    if (jacobi) {
        bytes[BINDING_JACOBI_DELTAS] = 16 * std::size_t(jacobi->deltaCount);
        bytes[BINDING_JACOBI_VERTICES] = bytesOf(jacobi->vertices);
        bytes[BINDING_JACOBI_SOURCES] = bytesOf(jacobi->sources);
        bytes[BINDING_JACOBI_PREV_POSITIONS] = bytesOf(p.positions);
        bytes[BINDING_JACOBI_PREV_LAMBDAS] = 16 * std::size_t(jacobi->lambdaCount);
    }
    bytes[BINDING_CLOCK] = sizeof(gpu::FrameClock) * std::size_t(p.timing.substeps);

    SolverBuffers b;
    for (int i = 0; i < BINDING_COUNT; ++i) {
        VkBufferUsageFlags extra = 0;
        if (i == BINDING_POSITIONS || i == BINDING_NORMALS)
            extra = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
        if (i == BINDING_TRIANGLES) extra = VK_BUFFER_USAGE_INDEX_BUFFER_BIT;
        // Empty arrays still get a (never read) buffer so every binding is valid.
        VkDeviceSize size = std::max<std::size_t>(bytes[i], 16);
        if (i == BINDING_CLOCK)  // written by the host before each frame's submission
            b.byBinding[i] = Buffer(ctx, size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "solver clock");
        else
            b.byBinding[i] = deviceBuffer(ctx, size, "solver " + bufferName(i), extra);
    }

    auto put = [&](int binding, const void* data, std::size_t n) {
        upload(ctx, once, b[binding], data, n);
    };
    gpu::forEachConstraintType([&](auto t) {
        const int binding = BINDING_TYPE_ITEMS(t.kIndex);
        put(binding, p.items<typename decltype(t)::Item>().data(), bytes[binding]);
    });
    put(BINDING_ATTACHMENTS, p.attachments.data(), bytes[BINDING_ATTACHMENTS]);
    put(BINDING_MOTIONS, p.motions.data(), bytes[BINDING_MOTIONS]);
    put(BINDING_TETHERS, p.tethers.data(), bytes[BINDING_TETHERS]);
    put(BINDING_PHANTOM_GROUPS, p.phantomGroups.data(), bytes[BINDING_PHANTOM_GROUPS]);
    put(BINDING_PHANTOM_MEMBERS, p.phantomMembers.data(), bytes[BINDING_PHANTOM_MEMBERS]);
    put(BINDING_SEGMENTS, p.segments.data(), bytes[BINDING_SEGMENTS]);
    put(BINDING_CHUNKS, chunks.chunks.data(), bytes[BINDING_CHUNKS]);
    put(BINDING_SEGMENT_SUM_CHUNKS, chunks.segmentSumChunks.data(),
        bytes[BINDING_SEGMENT_SUM_CHUNKS]);
    put(BINDING_SUM_CHUNKS, chunks.sumChunks.data(), bytes[BINDING_SUM_CHUNKS]);
    put(BINDING_TRIANGLES, triangles.data(), bytes[BINDING_TRIANGLES]);
    put(BINDING_VERTEX_TRI_OFFSETS, p.vertexTriangleOffsets.data(),
        bytes[BINDING_VERTEX_TRI_OFFSETS]);
    put(BINDING_VERTEX_TRIANGLES, p.vertexTriangles.data(), bytes[BINDING_VERTEX_TRIANGLES]);
    put(BINDING_COLOR_RANGES, colorRanges.data(), bytes[BINDING_COLOR_RANGES]);
    put(BINDING_WIND_VERTICES, p.windVertices.data(), bytes[BINDING_WIND_VERTICES]);
    put(BINDING_COLLIDERS, p.colliders.data(), bytes[BINDING_COLLIDERS]);
    put(BINDING_MESH_NODES, p.meshNodes.data(), bytes[BINDING_MESH_NODES]);
    put(BINDING_MESH_TRIANGLES, p.meshTriangles.data(), bytes[BINDING_MESH_TRIANGLES]);
    put(BINDING_MESH_FEATURES, p.meshFeatures.data(), bytes[BINDING_MESH_FEATURES]);
    put(BINDING_TRIANGLE_EDGES, p.triangleFeatureInfo.data(), bytes[BINDING_TRIANGLE_EDGES]);
    if (jacobi) {
        put(BINDING_JACOBI_VERTICES, jacobi->vertices.data(), bytes[BINDING_JACOBI_VERTICES]);
        put(BINDING_JACOBI_SOURCES, jacobi->sources.data(), bytes[BINDING_JACOBI_SOURCES]);
    }
    writeStartState(ctx, once, b, p.positions, p.velocities, !p.colliders.empty(),
                    jacobi != nullptr);
    return b;
}

void writeStartState(const Context& ctx, OneShot& once, const SolverBuffers& b,
                     std::span<const glm::vec4> positions, std::span<const glm::vec4> velocities,
                     bool colliders, bool jacobi) {
    const std::size_t bytes = positions.size_bytes();
    CLOTH_ASSERT(velocities.size() == positions.size());
    upload(ctx, once, b[BINDING_POSITIONS], positions.data(), bytes);
    upload(ctx, once, b[BINDING_PREDICTED], positions.data(), bytes);
    upload(ctx, once, b[BINDING_VELOCITIES], velocities.data(), bytes);
    if (jacobi) upload(ctx, once, b[BINDING_JACOBI_PREV_POSITIONS], positions.data(), bytes);
    if (colliders) {  // every vertex's contact state starts where it is
        std::vector<gpu::ContactState> contacts(positions.size());
        for (std::size_t i = 0; i < contacts.size(); ++i)
            contacts[i] = gpu::contactStateNew(glm::vec3(positions[i]));
        upload(ctx, once, b[BINDING_CONTACTS], contacts.data(),
               sizeof(gpu::ContactState) * contacts.size());
    }
    // Defined contents for everything else (normals before the first frame, multipliers, ...).
    once.run([&](VkCommandBuffer cb) {
        for (int i : {BINDING_NORMALS, BINDING_LAMBDA_ATTACH, BINDING_RIGID_PARTIALS,
                      BINDING_RIGID_MOTIONS, BINDING_CONTACT_COUNT, BINDING_FEATURE_SUMS,
                      BINDING_JACOBI_DELTAS, BINDING_JACOBI_PREV_LAMBDAS})
            vkCmdFillBuffer(cb, b[i].get(), 0, VK_WHOLE_SIZE, 0);
        for (std::size_t t = 0; t < gpu::kConstraintTypeCount; ++t)
            vkCmdFillBuffer(cb, b[BINDING_TYPE_LAMBDAS(t)].get(), 0, VK_WHOLE_SIZE, 0);
    });
}

namespace {

constexpr std::uint32_t kPushBytes =
    std::max({sizeof(gpu::ColorPush), sizeof(gpu::AttachPush), sizeof(gpu::PhantomPush),
              sizeof(gpu::VertexPush), sizeof(gpu::CountPush), sizeof(gpu::WindPush),
              sizeof(gpu::ContactPush), sizeof(gpu::JacobiPush)});

}  // namespace

SolverPipelines::SolverPipelines(const Context& ctx, const SolverBuffers& buffers, std::uint32_t wg,
                                 std::uint32_t runWg, bool wide)
    : ctx_(&ctx), workgroupSize_(wg), runWorkgroupSize_(runWg), wide_(wide) {
    // Each group's bindings keep their numbers across the sets (solver_io.h).
    std::array<std::vector<std::uint32_t>, SET_COUNT> bindings;
    std::vector<StorageWrite> writes;
    static const char* const kSetNames[SET_COUNT] = {"state", "vertex", "constraints",
                                                     "collisions"};
    for (int g = 0; g < SET_COUNT; ++g) {
        for (std::uint32_t b = 0; b < BINDING_COUNT; ++b)
            if (bindingSet(static_cast<int>(b)) == g) bindings[g].push_back(b);
        setLayouts_[g] = storageSetLayout(ctx, bindings[g],
                                          std::string("solver ") + kSetNames[g] + " set layout");
    }
    emptyLayout_ = storageSetLayout(ctx, {}, "solver empty set layout");
    pool_ = storagePool(ctx, SET_COUNT, BINDING_COUNT);
    std::array<VkDescriptorSetLayout, SET_COUNT> raw{};
    for (int g = 0; g < SET_COUNT; ++g) raw[g] = setLayouts_[g].get();
    allocateSets(ctx, pool_.get(), raw, sets_.data());
    for (int g = 0; g < SET_COUNT; ++g) {
        ctx.name(sets_[g], std::string("solver ") + kSetNames[g] + " buffers");
        for (std::uint32_t b : bindings[g]) writes.push_back({sets_[g], b, buffers[int(b)].get()});
    }
    writeStorage(ctx, writes);

    const VkDescriptorSetLayout vertexSets[] = {raw[SET_STATE], raw[SET_VERTEX]};
    const VkDescriptorSetLayout colourSets[] = {raw[SET_STATE], emptyLayout_.get(),
                                                raw[SET_CONSTRAINTS]};
    layouts_[static_cast<int>(LayoutKind::Vertex)] =
        computePipelineLayout(ctx, vertexSets, kPushBytes, "solver vertex pipeline layout");
    layouts_[static_cast<int>(LayoutKind::Colors)] =
        computePipelineLayout(ctx, colourSets, kPushBytes, "solver colour pipeline layout");
    const VkDescriptorSetLayout collisionSets[] = {raw[SET_STATE], raw[SET_VERTEX],
                                                   emptyLayout_.get(), raw[SET_COLLISIONS]};
    layouts_[static_cast<int>(LayoutKind::Collisions)] = computePipelineLayout(
        ctx, collisionSets, kPushBytes, "solver collision pipeline layout");
}

void SolverPipelines::bindSets(VkCommandBuffer cb, LayoutKind kind) const {
    const VkPipelineLayout layout = this->layout(kind);
    if (kind == LayoutKind::Vertex || kind == LayoutKind::Collisions) {
        const VkDescriptorSet sets[2] = {sets_[SET_STATE], sets_[SET_VERTEX]};
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, sets, 0, nullptr);
        if (kind == LayoutKind::Collisions)
            vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, SET_COLLISIONS, 1,
                                    &sets_[SET_COLLISIONS], 0, nullptr);
    } else {
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, SET_STATE, 1,
                                &sets_[SET_STATE], 0, nullptr);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, SET_CONSTRAINTS, 1,
                                &sets_[SET_CONSTRAINTS], 0, nullptr);
    }
}

PipelineRef SolverPipelines::get(Kernel kernel, Spec spec) {
    // By Kernel.
    static const char* const kShaders[] = {"colors",     "colors_run", "attach",  "tethers",
                                           "phantoms",   "rigid_sums", "rigid",   "normals",
                                           "vertices",   "wind",       "contacts",
                                           "jacobi"};
    static_assert(std::size(kShaders) == static_cast<std::size_t>(Kernel::Jacobi) + 1);
    const LayoutKind kind = kernel == Kernel::Colors || kernel == Kernel::ColorRun ||
                                    kernel == Kernel::Jacobi
                                ? LayoutKind::Colors
                            : kernel == Kernel::Contacts ? LayoutKind::Collisions
                                                         : LayoutKind::Vertex;
    auto key = std::make_pair(kernel, spec);
    auto it = pipelines_.find(key);
    if (it == pipelines_.end()) {
        std::string file =
            std::string(kShaders[static_cast<int>(kernel)]) + (wide_ ? "_wide.comp" : ".comp");
        const char* shader = file.c_str();
        std::string name = std::string("solver ") + shader + " variant " +
                           std::to_string(spec.variant) + " lambda " + std::to_string(spec.lambda) +
                           (spec.strided ? " strided" : "");
        it = pipelines_
                 .emplace(key, computePipeline(*ctx_, layout(kind), file,
                                               specValues(kernel == Kernel::ColorRun
                                                              ? runWorkgroupSize_
                                                              : workgroupSize_,
                                                          spec),
                                               name))
                 .first;
    }
    return {it->second.get(), kind};
}

}  // namespace cloth::vk::detail
