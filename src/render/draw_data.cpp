#include "render/draw_data.h"

#include <algorithm>
#include <limits>
#include <span>

#include "core/error.h"
#include "render/cloth_look.h"

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

namespace {

// Each cloth's triangle range and look, and check coordinates for those without UVs. A prepared
// cloth that lists no cloths (built by hand in tests) is one cloth, the palette's first.
void addCloths(const PreparedCloth& p, ClothDrawData& d) {
    if (p.cloths.empty()) {
        d.cloths.push_back({0, static_cast<std::uint32_t>(p.triangles.size())});
        d.looks.push_back(clothLook(0, std::nullopt));
        return;
    }
    for (std::size_t i = 0; i < p.cloths.size(); ++i) {
        const ClothInfo& c = p.cloths[i];
        CLOTH_ASSERT(c.triangleBegin <= c.triangleEnd && c.triangleEnd <= p.triangles.size());
        CLOTH_ASSERT(c.vertexBegin <= c.vertexEnd && c.vertexEnd <= p.originalVertexCount);
        d.cloths.push_back({c.triangleBegin, c.triangleEnd - c.triangleBegin});
        d.looks.push_back(clothLook(i, c.color));
        if (c.hasUvs) continue;
        const std::vector<glm::vec2> uvs = projectedUvs(
            std::span(p.positions).subspan(c.vertexBegin, c.vertexEnd - c.vertexBegin),
            std::span(p.triangles).subspan(c.triangleBegin, c.triangleEnd - c.triangleBegin),
            c.vertexBegin);
        std::copy(uvs.begin(), uvs.end(), d.uvs.begin() + c.vertexBegin);
    }
}

}  // namespace

ColliderDrawData makeColliderDrawData(const PreparedCloth& p) {
    ColliderDrawData d;
    d.colliders = p.colliders;
    float floorUp = 0.5f;  // cos 60 degrees
    for (std::uint32_t i = 0; i < p.colliders.size(); ++i) {
        const gpu::Collider& c = p.colliders[i];
        if (c.shape == gpu::SHAPE_PLANE) {
            d.planes.push_back(i);
            const float up = gpu::colliderPose(c, 0.0f).ay.y;
            if (up >= floorUp) {
                floorUp = up;
                d.floor = i;
            }
            continue;
        }
        std::span<const gpu::MeshTriangle> triangles;
        if (c.shape == gpu::SHAPE_MESH) {
            CLOTH_ASSERT(i < p.colliderTriangles.size());
            const glm::uvec2 range = p.colliderTriangles[i];
            CLOTH_ASSERT(range.x <= range.y && range.y <= p.meshTriangles.size());
            triangles = std::span(p.meshTriangles).subspan(range.x, range.y - range.x);
        }
        const ColliderMesh mesh = colliderMesh(c, triangles);
        if (mesh.indices.empty()) continue;
        ColliderDraw draw;
        draw.collider = i;
        draw.firstIndex = static_cast<std::uint32_t>(d.indices.size());
        draw.indexCount = static_cast<std::uint32_t>(mesh.indices.size());
        draw.vertexOffset = static_cast<std::int32_t>(d.vertices.size());
        d.solids.push_back(draw);
        d.vertices.insert(d.vertices.end(), mesh.vertices.begin(), mesh.vertices.end());
        d.indices.insert(d.indices.end(), mesh.indices.begin(), mesh.indices.end());
        const Bounds b = meshBounds(mesh, colliderModel(c, 0.0f));
        d.bounds =
            d.bounds ? Bounds{glm::min(d.bounds->min, b.min), glm::max(d.bounds->max, b.max)} : b;
    }
    return d;
}

ClothDrawData makeDrawData(const PreparedCloth& p) {
    ClothDrawData d;
    d.vertexCount = p.vertexCount();
    d.originalVertexCount = p.originalVertexCount;
    d.triangles = p.triangles;
    d.uvs = p.uvs;
    d.uvs.resize(p.originalVertexCount, glm::vec2(0.0f));
    addCloths(p, d);
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
    d.colliders = makeColliderDrawData(p);
    return d;
}

}  // namespace cloth::render
