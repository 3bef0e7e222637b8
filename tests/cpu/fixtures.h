// Hand-built PreparedCloth fixtures for solver tests that must not depend on prepareScene.
#pragma once

#include <vector>

#include "prep/prepared.h"

namespace cloth::test {

// One cloth segment over the given vertices (w = inverse mass), no constraints yet.
inline PreparedCloth bareCloth(const std::vector<glm::vec4>& vertices, int substeps = 10,
                               int iterations = 1) {
    PreparedCloth p;
    p.sim.substeps = substeps;  // at 60 fps: as many per frame
    p.timing.substeps = substeps;
    p.sim.iterations = iterations;
    p.originalVertexCount = static_cast<std::uint32_t>(vertices.size());
    p.positions = vertices;
    p.velocities.assign(vertices.size(), glm::vec4(0.0f));
    p.uvs.assign(vertices.size(), glm::vec2(0.0f));
    gpu::ClothSegment seg{};
    seg.vertexBegin = 0;
    seg.vertexEnd = p.originalVertexCount;
    seg.phantomBegin = seg.phantomEnd = p.originalVertexCount;
    p.segments.push_back(seg);
    p.vertexTriangleOffsets.assign(vertices.size() + 1, 0u);
    p.resetColors();
    return p;
}

// Appends a colour holding exactly the given distance constraints (caller ensures no shared
// vertices inside it).
inline void addDistanceColour(PreparedCloth& p, const std::vector<gpu::DistanceConstraint>& cs) {
    p.items<gpu::DistanceConstraint>().insert(p.items<gpu::DistanceConstraint>().end(), cs.begin(), cs.end());
    p.endColor();
}

}  // namespace cloth::test
