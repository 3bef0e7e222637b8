#include "prep/rest_shape.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "prep/cloth_builder.h"

namespace cloth {

namespace {

glm::vec3 patternPoint(glm::vec2 uv, float scale) {
    return {uv.x * scale, (1.0f - uv.y) * scale, 0.0f};
}

// Index of the undirected edge (a, b) in topo.edges (sorted, x < y).
std::size_t edgeIndex(const Topology& topo, std::uint32_t a, std::uint32_t b) {
    const glm::uvec2 key(std::min(a, b), std::max(a, b));
    const auto it = std::lower_bound(topo.edges.begin(), topo.edges.end(), key,
                                     [](const glm::uvec2& e, const glm::uvec2& k) {
                                         return e.x < k.x || (e.x == k.x && e.y < k.y);
                                     });
    return std::size_t(it - topo.edges.begin());
}

// Triangle t's rest corner at vertex v.
glm::vec3 cornerAt(const Mesh& mesh, const RestShapeData& rest, std::uint32_t t, std::uint32_t v) {
    const glm::uvec3 tri = mesh.triangles[t];
    return rest.corners[t][tri.x == v ? 0 : tri.y == v ? 1 : 2];
}

}  // namespace

std::uint32_t triangleOf(const Mesh& mesh, const Topology& topo, std::uint32_t v0,
                         std::uint32_t v1, std::uint32_t v2) {
    for (std::uint32_t i = topo.vertexTriangleOffsets[v0]; i < topo.vertexTriangleOffsets[v0 + 1];
         ++i) {
        const std::uint32_t t = topo.vertexTriangles[i];
        const glm::uvec3 tri = mesh.triangles[t];
        auto has = [&](std::uint32_t v) { return tri.x == v || tri.y == v || tri.z == v; };
        if (has(v1) && has(v2)) return t;
    }
    throw Error("internal: a bending pair's triangle is not in the mesh");
}

RestShapeData restShapeOf(const ClothDesc& desc, const Mesh& mesh, const std::string& source) {
    RestShapeData rest;
    if (desc.restShape != RestShape::Uv) return rest;
    rest.fromPattern = true;
    const std::string where = source + ": rest_shape \"uv\"";
    if (!(desc.uvScale > 0.0f && desc.uvScale <= kMaxUvScale))
        throw Error(where + ": uv_scale must lie in (0, 10000] metres per UV unit");
    const bool perCorner = mesh.cornerUvs.size() == 3 * mesh.triangles.size();
    if (!perCorner && !(desc.grid && mesh.uvs.size() == mesh.positions.size()))
        throw Error(where + " needs a texture coordinate at every corner of every face (an OBJ "
                            "whose faces all give vt, or a grid)");
    const float s = desc.uvScale;
    rest.corners.resize(mesh.triangles.size());
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        for (int k = 0; k < 3; ++k) {
            const glm::vec2 uv = perCorner ? mesh.cornerUvs[3 * t + k] : mesh.uvs[mesh.triangles[t][k]];
            if (!std::isfinite(uv.x) || !std::isfinite(uv.y))
                throw Error(where + ": triangle " + std::to_string(t) +
                            " has a texture coordinate that is not a finite number");
            rest.corners[t][k] = patternPoint(uv, s);
        }
        // The same test validateMesh makes of the mesh itself.
        if (degenerateTriangle(rest.corners[t][0], rest.corners[t][1], rest.corners[t][2]))
            throw Error(where + ": triangle " + std::to_string(t) +
                        " is degenerate in the pattern (its texture coordinates are collinear "
                        "or coincide)");
    }
    rest.vertexPoints.resize(mesh.positions.size(), glm::vec3(0.0f));
    std::vector<bool> seen(mesh.positions.size(), false);
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t v = mesh.triangles[t][k];
            if (!seen[v]) rest.vertexPoints[v] = rest.corners[t][k];
            seen[v] = true;
        }
    return rest;
}

std::vector<float> restEdgeLengths(const Mesh& mesh, const Topology& topo,
                                   const RestShapeData& rest, const std::vector<glm::vec3>& world) {
    std::vector<float> out(topo.edges.size());
    if (!rest.fromPattern) {
        for (std::size_t e = 0; e < topo.edges.size(); ++e)
            out[e] = glm::length(world[topo.edges[e].x] - world[topo.edges[e].y]);
        return out;
    }
    std::vector<double> sum(topo.edges.size(), 0.0);
    std::vector<int> count(topo.edges.size(), 0);
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
        for (int k = 0; k < 3; ++k) {
            const int l = (k + 1) % 3;
            const std::size_t e = edgeIndex(topo, mesh.triangles[t][k], mesh.triangles[t][l]);
            sum[e] += glm::length(glm::dvec3(rest.corners[t][k]) - glm::dvec3(rest.corners[t][l]));
            ++count[e];
        }
    for (std::size_t e = 0; e < out.size(); ++e) out[e] = float(sum[e] / count[e]);
    return out;
}

std::array<glm::vec3, 4> restStencil(const Mesh& mesh, const Topology& topo,
                                     const RestShapeData& rest,
                                     const std::vector<glm::vec3>& world, std::size_t pair) {
    const BendingPair& p = topo.bendingPairs[pair];
    if (!rest.fromPattern) return {world[p.v0], world[p.v1], world[p.v2], world[p.v3]};
    const std::uint32_t a = triangleOf(mesh, topo, p.v0, p.v1, p.v2);
    const std::uint32_t b = triangleOf(mesh, topo, p.v0, p.v1, p.v3);
    return unfoldHinge(cornerAt(mesh, rest, a, p.v0), cornerAt(mesh, rest, a, p.v1),
                       cornerAt(mesh, rest, a, p.v2), cornerAt(mesh, rest, b, p.v0),
                       cornerAt(mesh, rest, b, p.v1), cornerAt(mesh, rest, b, p.v3));
}

std::array<glm::vec3, 4> unfoldHinge(glm::vec3 a0, glm::vec3 a1, glm::vec3 a2, glm::vec3 b0,
                                     glm::vec3 b1, glm::vec3 b3) {
    const glm::dvec3 x0(a0), x1(a1), x2(a2);
    // v3 where triangle b puts it relative to the shared edge: `along` the edge and `across` it
    // (in edge lengths), then on the far side of the edge from v2 in a's frame.
    const glm::dvec3 q0(b0), q1(b1), q3(b3);
    const glm::dvec3 f = q1 - q0, g = q3 - q0;
    const double ff = glm::dot(f, f);
    const double along = glm::dot(g, f) / ff;
    const double across = std::abs(f.x * g.y - f.y * g.x) / ff;
    const glm::dvec3 e = x1 - x0;
    glm::dvec3 side(-e.y, e.x, 0.0);  // e turned a quarter in the pattern's plane
    if (glm::dot(side, x2 - x0) > 0.0) side = -side;
    const glm::dvec3 x3 = x0 + along * e + across * side;
    return {glm::vec3(x0), glm::vec3(x1), glm::vec3(x2), glm::vec3(x3)};
}

std::vector<float> restMasses(const Mesh& mesh, const RestShapeData& rest,
                              const std::vector<glm::vec3>& world, float density) {
    if (!rest.fromPattern) return lumpMasses(world, mesh.triangles, density);
    std::vector<float> mass(mesh.positions.size(), 0.0f);
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        const glm::vec3* c = rest.corners[t].data();
        const float area = 0.5f * glm::length(glm::cross(c[1] - c[0], c[2] - c[0]));
        const float third = density * area / 3.0f;
        for (int k = 0; k < 3; ++k) mass[mesh.triangles[t][k]] += third;
    }
    return mass;
}

// ---- the prepared cloth's rest state (PreparedCloth::restCorners) ----

namespace {

bool fromPattern(const PreparedCloth& p, std::uint32_t v) {
    for (const ClothInfo& c : p.cloths)
        if (v >= c.vertexBegin && v < c.vertexEnd) return c.restFromPattern;
    return false;
}

// The triangle of p holding v0, v1 and v2 (one of v0's), or UINT32_MAX.
std::uint32_t preparedTriangleOf(const PreparedCloth& p, std::uint32_t v0, std::uint32_t v1,
                                 std::uint32_t v2) {
    for (std::uint32_t i = p.vertexTriangleOffsets[v0]; i < p.vertexTriangleOffsets[v0 + 1]; ++i) {
        const std::uint32_t t = p.vertexTriangles[i];
        const glm::uvec3 tri = p.triangles[t];
        auto has = [&](std::uint32_t v) { return tri.x == v || tri.y == v || tri.z == v; };
        if (has(v1) && has(v2)) return t;
    }
    return UINT32_MAX;
}

glm::vec3 restCornerAt(const PreparedCloth& p, std::uint32_t t, std::uint32_t v) {
    const glm::uvec3 tri = p.triangles[t];
    return p.restCorners[t][tri.x == v ? 0 : tri.y == v ? 1 : 2];
}

}  // namespace

std::array<glm::vec3, 3> restTriangle(const PreparedCloth& p, std::uint32_t t) {
    if (t < p.restCorners.size()) return p.restCorners[t];
    const glm::uvec3 tri = p.triangles[t];
    return {glm::vec3(p.positions[tri.x]), glm::vec3(p.positions[tri.y]),
            glm::vec3(p.positions[tri.z])};
}

std::array<glm::vec3, 4> restHinge(const PreparedCloth& p, std::uint32_t v0, std::uint32_t v1,
                                   std::uint32_t v2, std::uint32_t v3) {
    auto at = [&](std::uint32_t v) { return glm::vec3(p.positions[v]); };
    if (!fromPattern(p, v0) || p.restCorners.empty()) return {at(v0), at(v1), at(v2), at(v3)};
    const std::uint32_t a = preparedTriangleOf(p, v0, v1, v2), b = preparedTriangleOf(p, v0, v1, v3);
    if (a == UINT32_MAX || b == UINT32_MAX)
        throw Error("internal: a hinge's triangle is not in the prepared cloth");
    return unfoldHinge(restCornerAt(p, a, v0), restCornerAt(p, a, v1), restCornerAt(p, a, v2),
                       restCornerAt(p, b, v0), restCornerAt(p, b, v1), restCornerAt(p, b, v3));
}

std::vector<glm::vec3> restVertexPoints(const PreparedCloth& p, std::uint32_t begin,
                                        std::uint32_t end) {
    std::vector<glm::vec3> out(end - begin);
    std::vector<bool> seen(end - begin, false);
    for (std::uint32_t v = begin; v < end; ++v) out[v - begin] = glm::vec3(p.positions[v]);
    if (!fromPattern(p, begin) || p.restCorners.empty()) return out;
    for (std::uint32_t t = 0; t < p.triangles.size(); ++t)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t v = p.triangles[t][k];
            if (v < begin || v >= end || seen[v - begin]) continue;
            out[v - begin] = p.restCorners[t][k];
            seen[v - begin] = true;
        }
    return out;
}

}  // namespace cloth
