#include "prep/jacobi_layout.h"

#include "core/error.h"

namespace cloth {

JacobiLayout buildJacobiLayout(const PreparedCloth& p) {
    JacobiLayout l;
    const std::uint32_t n = p.vertexCount();
    std::vector<std::uint32_t> counts(n + 1, 0);
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        const auto& items = p.items<typename T::Item>();
        l.deltaBase[T::kIndex] = l.deltaCount;
        l.lambdaBase[T::kIndex] = l.lambdaCount;
        const std::uint64_t deltas = std::uint64_t(l.deltaCount) + items.size() * T::kVertices;
        if (deltas > 0xffffffffull) throw Error("too many constraints for the Jacobi iteration");
        l.deltaCount = static_cast<std::uint32_t>(deltas);
        l.lambdaCount += static_cast<std::uint32_t>(items.size());
        for (const auto& c : items)
            for (int j = 0; j < T::kVertices; ++j) {
                const std::uint32_t v = gpu::itemVertex(c, j);
                CLOTH_ASSERT(v < n);
                ++counts[v + 1];
            }
    });
    l.vertices.resize(n);
    for (std::uint32_t v = 0; v < n; ++v) {
        counts[v + 1] += counts[v];
        const std::uint32_t k = counts[v + 1] - counts[v];
        l.vertices[v] = {counts[v], counts[v + 1], k ? static_cast<float>(k) : 1.0f,
                         k ? 1.0f / static_cast<float>(k) : 0.0f};
    }
    // Slots in increasing order per vertex: types in table order, items in order, then vertex.
    l.sources.resize(l.deltaCount);
    std::vector<std::uint32_t> fill(counts.begin(), counts.end() - 1);
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        const auto& items = p.items<typename T::Item>();
        for (std::uint32_t k = 0; k < items.size(); ++k)
            for (int j = 0; j < T::kVertices; ++j)
                l.sources[fill[gpu::itemVertex(items[k], j)]++] =
                    l.deltaBase[T::kIndex] + k * T::kVertices + static_cast<std::uint32_t>(j);
    });
    return l;
}

}  // namespace cloth
