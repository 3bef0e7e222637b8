#include "prep/batches.h"

#include <chrono>

#include "prep/coloring.h"
#include "prep/packing.h"
#include "prep/phantom_vertices.h"

namespace cloth {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

ConstraintVertices constraintVertices(const PreparedCloth& p) {
    ConstraintVertices cv;
    cv.offsets.reserve(p.distance.size() + p.bending.size() + 1);
    cv.vertices.reserve(p.distance.size() * 2 + p.bending.size() * 4);
    for (const auto& c : p.distance) cv.add({c.v0, c.v1});
    for (const auto& c : p.bending) cv.add({c.v0, c.v1, c.v2, c.v3});
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
    const auto nd = static_cast<std::uint32_t>(p.distance.size());
    const auto nb = static_cast<std::uint32_t>(p.bending.size());
    const ColorBatches d = packByColor(cv, 0, nd, coloring.color, coloring.colorCount);
    const ColorBatches b = packByColor(cv, nd, nb, coloring.color, coloring.colorCount);
    p.distance = permuted(p.distance, d.order);
    p.bending = permuted(p.bending, b.order);
    p.distanceColorOffsets = d.colorOffsets;
    p.bendingColorOffsets = b.colorOffsets;
    p.colorCount = coloring.colorCount;
    p.stats.colorMs += msSince(t3);
}

}  // namespace cloth
