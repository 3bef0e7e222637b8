#include "prep/batches.h"

#include <chrono>
#include <span>

#include "core/stopwatch.h"
#include "prep/coloring.h"
#include "prep/packing.h"
#include "prep/phantom_vertices.h"

namespace cloth {

namespace {

}  // namespace

ConstraintVertices constraintVertices(const PreparedCloth& p) {
    ConstraintVertices cv;
    cv.offsets.reserve(p.coloredItemCount() + 1);
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        for (const auto& item : p.items<typename T::Item>()) {
            std::uint32_t vs[T::kVertices];
            for (int k = 0; k < T::kVertices; ++k) vs[k] = gpu::itemVertex(item, k);
            cv.add(std::span<const std::uint32_t>(vs, T::kVertices));
        }
    });
    return cv;
}

void colorAndPack(PreparedCloth& p, const std::optional<PhantomRequest>& phantoms) {
    const auto t0 = Clock::now();
    ConstraintVertices cv = constraintVertices(p);
    const Graph graph = buildConstraintGraph(cv, p.vertexCount());
    p.stats.graphMs = msSince(t0);
    const auto t1 = Clock::now();
    Coloring coloring = colorSmallestLast(graph);
    p.stats.colorMs = msSince(t1);
    p.stats.colorsBeforePhantoms = coloring.colorCount;
    p.stats.graphEdges = graph.edgeCount();
    p.stats.degeneracy = coloring.degeneracy;
    if (phantoms && coloring.colorCount > phantoms->targetColors) {
        const auto t2 = Clock::now();
        PhantomSplit split =
            splitForColors(cv, p.vertexCount(), coloring, phantoms->targetColors, phantoms->method);
        cv = addPhantomVertices(p, split);
        coloring.color = std::move(split.color);
        coloring.colorCount = split.colorCount;
        p.stats.cliquesFound = split.cliquesFound;
        p.stats.cliqueMs = split.cliqueMs;
        p.stats.phantomMs = msSince(t2);
    }
    const auto t3 = Clock::now();
    std::uint32_t first = 0;  // the type's first node in the graph
    gpu::forEachConstraintType([&](auto t) {
        auto& set = p.set<typename decltype(t)::Item>();
        const auto n = static_cast<std::uint32_t>(set.items.size());
        const ColorBatches b = packByColor(cv, first, n, coloring.color, coloring.colorCount);
        set.items = permuted(set.items, b.order);
        set.colorOffsets = b.colorOffsets;
        first += n;
    });
    p.colorCount = coloring.colorCount;
    p.stats.colorMs += msSince(t3);
}

}  // namespace cloth
