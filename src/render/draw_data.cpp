#include "render/draw_data.h"

#include <algorithm>
#include <limits>

#include "core/error.h"

namespace cloth::render {

Bounds boundsOf(const std::vector<glm::vec4>& positions, std::uint32_t count) {
    Bounds b{glm::vec3(std::numeric_limits<float>::max()),
             glm::vec3(-std::numeric_limits<float>::max())};
    for (std::uint32_t i = 0; i < count; ++i) {
        b.min = glm::min(b.min, glm::vec3(positions[i]));
        b.max = glm::max(b.max, glm::vec3(positions[i]));
    }
    if (count == 0) b = Bounds{};
    return b;
}

ClothDrawData makeDrawData(const PreparedCloth& p) {
    ClothDrawData d;
    d.vertexCount = p.vertexCount();
    d.originalVertexCount = p.originalVertexCount;
    d.triangles = p.triangles;
    d.uvs = p.uvs;
    d.uvs.resize(p.originalVertexCount, glm::vec2(0.0f));
    d.hasUvs = std::any_of(d.uvs.begin(), d.uvs.end(),
                           [](const glm::vec2& uv) { return uv != glm::vec2(0.0f); });
    d.bounds = boundsOf(p.positions, p.originalVertexCount);

    std::vector<bool> kinematic(p.vertexCount(), false);
    for (const gpu::Attachment& a : p.attachments) {
        CLOTH_ASSERT(a.vertex < p.vertexCount());
        kinematic[a.vertex] = true;
    }
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v) {
        if (kinematic[v])
            d.markers.push_back({v, gpu::MARKER_KINEMATIC});
        else if (p.positions[v].w == 0.0f)
            d.markers.push_back({v, gpu::MARKER_PIN});
    }

    double total = 0.0;
    for (const glm::uvec3& t : p.triangles)
        for (int k = 0; k < 3; ++k)
            total +=
                glm::distance(glm::vec3(p.positions[t[k]]), glm::vec3(p.positions[t[(k + 1) % 3]]));
    d.meanEdgeLength = p.triangles.empty() ? 0.0f : float(total / (3.0 * p.triangles.size()));
    return d;
}

}  // namespace cloth::render
