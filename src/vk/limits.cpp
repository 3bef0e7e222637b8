#include "vk/limits.h"

#include <algorithm>
#include <cstdio>

#include "prep/cloth_builder.h"

namespace cloth::vk {

namespace {

std::string mib(std::uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
    return buf;
}

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
    return (a + b - 1) / b;
}

// Largest device-local heap.
std::uint64_t deviceHeapBytes(const Context& ctx) {
    std::uint64_t best = 0;
    const auto& mem = ctx.memory();
    for (std::uint32_t i = 0; i < mem.memoryHeapCount; ++i)
        if (mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            best = std::max<std::uint64_t>(best, mem.memoryHeaps[i].size);
    return best;
}

}  // namespace

SolverCounts countsOf(const PreparedCloth& p) {
    SolverCounts c;
    c.vertices = p.positions.size();
    c.originalVertices = p.originalVertexCount;
    c.triangles = p.triangles.size();
    gpu::forEachConstraintType([&](auto t) {
        c.items[t.kIndex] = p.items<typename decltype(t)::Item>().size();
    });
    c.attachments = p.attachments.size();
    c.motions = p.motions.size();
    c.tethers = p.tethers.size();
    c.phantomGroups = p.phantomGroups.size();
    c.phantomMembers = p.phantomMembers.size();
    c.segments = p.segments.size();
    c.windVertices = p.windVertices.size();
    c.colliders = p.colliders.size();
    c.contactVertices = p.colliders.empty() ? 0 : p.positions.size();
    c.meshNodes = p.meshNodes.size();
    c.meshTriangles = p.meshTriangles.size();
    c.meshFeatures = p.meshFeatures.size();
    if (!p.meshFeatures.empty()) c.featureSums = 3 * p.triangles.size() + p.originalVertexCount;
    for (std::uint32_t k = 0; k < p.colorCount; ++k) {
        c.largestColor = std::max<std::uint64_t>(c.largestColor, p.colorItems(k));
    }
    c.jacobi = p.sim.iteration.scheme != IterationScheme::GaussSeidel;
    return c;
}

SolverCounts estimateCounts(const Scene& scene) {
    SolverCounts c;
    for (const auto& cloth : scene.cloths) {
        ++c.segments;
        if (!cloth.grid) continue;
        std::uint64_t rx = cloth.grid->resX, ry = cloth.grid->resY;
        std::uint64_t v = (rx + 1) * (ry + 1);
        c.vertices += v;
        c.originalVertices += v;
        c.triangles += 2 * rx * ry;
        const auto items = gridItemCounts(cloth, rx, ry);
        for (std::size_t t = 0; t < items.size(); ++t) c.items[t] += items[t];
        c.tethers += v;
    }
    if (scene.sim.wind) c.windVertices = c.vertices;
    c.jacobi = scene.sim.iteration.scheme != IterationScheme::GaussSeidel;
    c.colliders = scene.colliders.size();
    if (!scene.colliders.empty()) c.contactVertices = c.vertices;
    return c;
}

std::vector<BufferNeed> bufferNeeds(const SolverCounts& c, std::uint32_t wg) {
    std::uint64_t chunks = ceilDiv(c.vertices, wg) + 2 * c.segments;
    std::vector<BufferNeed> needs;
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        const std::uint64_t n = c.items[T::kIndex];
        needs.push_back({std::string(T::kName) + " constraints", sizeof(typename T::Item) * n});
        needs.push_back({std::string(T::kName) + " multipliers", sizeof(typename T::Lambda) * n});
    });
    std::vector<BufferNeed> fixed = {
        {"positions", 16 * c.vertices},
        {"previous positions", 16 * c.vertices},
        {"velocities", 16 * c.vertices},
        {"normals", 16 * c.originalVertices},
        {"attachments", 32 * c.attachments},
        {"motions", 48 * c.motions},
        {"attachment multipliers", 4 * (c.attachments + 1)},
        {"tethers", 16 * c.tethers},
        {"phantom groups", 8 * c.phantomGroups},
        {"phantom members", 4 * c.phantomMembers},
        {"segments", 32 * c.segments},
        {"vertex chunks", 16 * chunks},
        {"segment sum chunks", 8 * c.segments},
        {"sum chunks", 16 * (ceilDiv(c.vertices, 256) + 2 * c.segments)},
        {"rigid partial sums", 80 * (ceilDiv(c.vertices, 256) + 2 * c.segments)},
        {"rigid motions", 48 * c.segments},
        {"triangles", 12 * c.triangles},
        {"vertex triangle offsets", 4 * (c.originalVertices + 1)},
        {"vertex triangles", 12 * c.triangles},
        {"wind vertices", 8 * c.windVertices},
        {"colliders", sizeof(gpu::Collider) * c.colliders},
        {"contacts", sizeof(gpu::ContactState) * c.contactVertices},
        {"mesh nodes", sizeof(gpu::MeshNode) * c.meshNodes},
        {"mesh triangles", sizeof(gpu::MeshTriangle) * c.meshTriangles},
        {"mesh features", sizeof(gpu::MeshFeature) * c.meshFeatures},
        {"triangle edges", c.meshFeatures ? 4 * c.triangles : 0},
        {"feature sums", 16 * c.featureSums},
    };
    needs.insert(needs.end(), fixed.begin(), fixed.end());
    if (c.jacobi) {  // src/kernels/jacobi.h: a slot per item vertex, a list entry per slot
        std::uint64_t slots = 0, items = 0;
        gpu::forEachConstraintType([&](auto t) {
            slots += std::uint64_t(decltype(t)::kVertices) * c.items[decltype(t)::kIndex];
            items += c.items[decltype(t)::kIndex];
        });
        needs.push_back({"jacobi deltas", 16 * slots});
        needs.push_back({"jacobi vertices", 16 * c.vertices});
        needs.push_back({"jacobi sources", 4 * slots});
        needs.push_back({"jacobi previous positions", 16 * c.vertices});
        needs.push_back({"jacobi previous multipliers", 16 * items});
    }
    return needs;
}

void checkFitsDevice(const Context& ctx, const SolverCounts& c, std::uint32_t wg,
                     const std::string& what) {
    const auto& lim = ctx.limits();
    const std::string device = ctx.info().name;
    std::uint64_t total = 0;
    for (const auto& need : bufferNeeds(c, wg)) {
        total += need.bytes;
        if (need.bytes > lim.maxStorageBufferRange)
            throw Error(what + " is too large for the GPU " + device + ": its " + need.name +
                        " need " + mib(need.bytes) + " but the device allows at most " +
                        mib(lim.maxStorageBufferRange) + " per storage buffer");
    }
    std::uint64_t heap = deviceHeapBytes(ctx);
    if (total > heap)
        throw Error(what + " is too large for the GPU " + device + ": the solver needs " +
                    mib(total) + " of buffers but the device memory heap holds " + mib(heap));
    std::uint64_t maxGroups = lim.maxComputeWorkGroupCount[0];
    std::uint64_t items = std::max({ceilDiv(c.vertices, wg) + 2 * c.segments,
                                    ceilDiv(c.largestColor, wg), ceilDiv(c.tethers, wg),
                                    ceilDiv(c.attachments + 1, wg), ceilDiv(c.phantomGroups, wg)});
    if (c.jacobi)  // a Jacobi pass takes all items of a type in one dispatch
        for (std::uint64_t n : c.items) items = std::max(items, ceilDiv(n, wg));
    if (items > maxGroups)
        throw Error(what + " is too large for the GPU " + device + ": a dispatch would need " +
                    std::to_string(items) + " workgroups of " + std::to_string(wg) +
                    " but the device allows " + std::to_string(maxGroups) +
                    " (try a larger --workgroup-size)");
}

}  // namespace cloth::vk
