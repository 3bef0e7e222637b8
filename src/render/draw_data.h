// What the renderer needs from a PreparedCloth, gathered once at load: the triangle list, UVs,
// marker instances for pinned and kinematic vertices, and where the cloth starts out.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "prep/prepared.h"
#include "render/camera.h"
#include "render_types.h"  // shaders/shared

namespace cloth::render {

struct ClothDrawData {
    std::uint32_t vertexCount = 0;          // positions, phantom copies included
    std::uint32_t originalVertexCount = 0;  // normals and UVs
    std::vector<glm::uvec3> triangles;      // original vertex indices
    std::vector<glm::vec2> uvs;             // one per original vertex
    bool hasUvs = false;                    // any UV differs from (0, 0)
    std::vector<gpu::Marker> markers;       // MARKER_PIN and MARKER_KINEMATIC
    Bounds bounds;                          // of the original vertices as prepared
    float meanEdgeLength = 0.0f;
};

ClothDrawData makeDrawData(const PreparedCloth& prepared);

// Bounds of the first `count` positions (xyz).
Bounds boundsOf(const std::vector<glm::vec4>& positions, std::uint32_t count);

}  // namespace cloth::render
