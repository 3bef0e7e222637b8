#include "prep/mesh_features.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <utility>

#include "core/error.h"
#include "prep/mesh_collider.h"

namespace cloth {

namespace {

using Key = std::array<std::uint32_t, 3>;  // a corner's coordinates as bits

Key keyOf(const glm::vec4& p) {
    return {std::bit_cast<std::uint32_t>(p.x), std::bit_cast<std::uint32_t>(p.y),
            std::bit_cast<std::uint32_t>(p.z)};
}

std::array<glm::vec3, 3> corners(const gpu::MeshTriangle& t) {
    return {glm::vec3(t.a), glm::vec3(t.b), glm::vec3(t.c)};
}

// Edge e of triangle t is sharp: convex, and its faces' normals at least the angle apart (from
// the edge's pseudo-normal, the mean of the two face normals: n . m = cos(angle / 2)).
bool sharpEdge(const gpu::MeshTriangle& t, int e, float cosHalf) {
    const auto c = corners(t);
    const glm::vec3 p = c[e], q = c[(e + 1) % 3], opposite = c[(e + 2) % 3];
    const glm::vec3 n(t.faceNormal), m(t.edgeNormal[e]);
    const glm::vec3 dir = glm::normalize(q - p);
    glm::vec3 inward = opposite - p;
    inward -= dir * glm::dot(inward, dir);  // into the triangle, across the edge
    const bool convex = glm::dot(m, inward) < 0.0f;
    return convex && glm::dot(n, m) <= cosHalf;
}

}  // namespace

std::vector<std::uint32_t> sharpMeshFeatures(const std::vector<gpu::MeshTriangle>& triangles,
                                             float minAngleDegrees) {
    const float cosHalf = std::cos(0.5f * minAngleDegrees * 3.14159265f / 180.0f);
    std::vector<std::uint32_t> out(triangles.size(), 0u);
    // Each undirected edge, by its corners' keys in order: the triangles holding it.
    std::map<std::pair<Key, Key>, std::uint32_t> firstOwner;
    std::map<Key, std::uint32_t> cornerOwner;  // lowest triangle around each sharp corner
    for (std::uint32_t t = 0; t < triangles.size(); ++t) {
        const gpu::MeshTriangle& tri = triangles[t];
        const Key k[3] = {keyOf(tri.a), keyOf(tri.b), keyOf(tri.c)};
        for (int e = 0; e < 3; ++e) {
            if (!sharpEdge(tri, e, cosHalf)) continue;
            auto edge = std::minmax(k[e], k[(e + 1) % 3]);
            // Both triangles of an edge see the same pseudo-normal, so both call it sharp: the
            // first seen (the lower index) owns it.
            if (firstOwner.emplace(std::pair<Key, Key>(edge.first, edge.second), t).second)
                out[t] |= 1u << e;
            for (const Key& corner : {k[e], k[(e + 1) % 3]}) {
                auto [it, fresh] = cornerOwner.emplace(corner, t);
                if (!fresh) it->second = std::min(it->second, t);
            }
        }
    }
    // A sharp corner's owner is the lowest triangle holding it (not only among those whose
    // sharp edges reach it).
    for (std::uint32_t t = 0; t < triangles.size(); ++t) {
        const Key k[3] = {keyOf(triangles[t].a), keyOf(triangles[t].b), keyOf(triangles[t].c)};
        for (int c = 0; c < 3; ++c) {
            auto it = cornerOwner.find(k[c]);
            if (it != cornerOwner.end() && t < it->second) it->second = t;
        }
    }
    for (std::uint32_t t = 0; t < triangles.size(); ++t) {
        const Key k[3] = {keyOf(triangles[t].a), keyOf(triangles[t].b), keyOf(triangles[t].c)};
        for (int c = 0; c < 3; ++c) {
            auto it = cornerOwner.find(k[c]);
            if (it != cornerOwner.end() && it->second == t) {
                out[t] |= 1u << (3 + c);
                it->second = UINT32_MAX;  // owned once, even if t holds it twice (it cannot)
            }
        }
    }
    return out;
}

std::uint32_t appendMeshFeatures(const std::vector<gpu::MeshTriangle>& triangles,
                                 std::uint32_t begin, std::uint32_t end,
                                 std::vector<gpu::MeshNode>& nodes,
                                 std::vector<gpu::MeshFeature>& features,
                                 float minAngleDegrees) {
    CLOTH_ASSERT(begin <= end && end <= triangles.size());
    const std::vector<gpu::MeshTriangle> mesh(triangles.begin() + begin, triangles.begin() + end);
    const std::vector<std::uint32_t> owned = sharpMeshFeatures(mesh, minAngleDegrees);
    std::vector<gpu::MeshFeature> found;
    std::vector<MeshItemBox> boxes;
    for (std::size_t t = 0; t < mesh.size(); ++t) {
        const auto c = corners(mesh[t]);
        for (int e = 0; e < 3; ++e)
            if (owned[t] & (1u << e)) {
                found.push_back({glm::vec4(c[e], gpu::MESH_FEATURE_IS_EDGE),
                                 glm::vec4(c[(e + 1) % 3], 0.0f)});
                boxes.emplace_back();
                boxes.back().add(c[e]);
                boxes.back().add(c[(e + 1) % 3]);
            }
        for (int k = 0; k < 3; ++k)
            if (owned[t] & (1u << (3 + k))) {
                found.push_back({glm::vec4(c[k], gpu::MESH_FEATURE_IS_CORNER),
                                 glm::vec4(c[k], 0.0f)});
                boxes.emplace_back();
                boxes.back().add(c[k]);
            }
    }
    if (found.empty()) return gpu::MESH_NO_HINT;
    const auto first = static_cast<std::uint32_t>(features.size());
    std::vector<std::uint32_t> order;
    const std::uint32_t root = appendMedianTree(boxes, first, nodes, order);
    for (std::uint32_t i : order) features.push_back(found[i]);
    return root;
}

}  // namespace cloth
