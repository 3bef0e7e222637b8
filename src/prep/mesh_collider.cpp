#include "prep/mesh_collider.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/error.h"

namespace cloth {

namespace {

using glm::dvec3;

struct PseudoNormals {
    std::vector<dvec3> face;    // per triangle
    std::vector<dvec3> edge;    // per half-edge 3 t + k (edge k of ab, bc, ca)
    std::vector<dvec3> vertex;  // per vertex
};

dvec3 corner(const Mesh& mesh, std::uint32_t t, int k) {
    return dvec3(mesh.positions[mesh.triangles[t][k]]);
}

dvec3 unit(dvec3 v) {
    double len = glm::length(v);
    CLOTH_ASSERT(len > 0.0 && std::isfinite(len));
    return v / len;
}

std::uint64_t edgeKey(std::uint32_t from, std::uint32_t to) {
    return (std::uint64_t(from) << 32) | to;
}

// The half-edge opposite each half-edge (3 t + k runs from corner k to corner k + 1 of t);
// asserts that every directed edge occurs once and its reverse once (closed, oriented).
std::vector<std::uint32_t> twinHalfEdges(const Mesh& mesh) {
    const std::size_t n = mesh.triangles.size() * 3;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> directed(n);
    for (std::size_t h = 0; h < n; ++h) {
        const glm::uvec3& tri = mesh.triangles[h / 3];
        directed[h] = {edgeKey(tri[h % 3], tri[(h + 1) % 3]), std::uint32_t(h)};
    }
    std::sort(directed.begin(), directed.end());
    for (std::size_t i = 1; i < n; ++i) CLOTH_ASSERT(directed[i - 1].first != directed[i].first);
    std::vector<std::uint32_t> twin(n);
    for (const auto& [key, h] : directed) {
        const std::uint64_t reverse = (key << 32) | (key >> 32);
        auto it = std::lower_bound(directed.begin(), directed.end(),
                                   std::make_pair(reverse, std::uint32_t(0)));
        CLOTH_ASSERT(it != directed.end() && it->first == reverse);
        twin[h] = it->second;
    }
    return twin;
}

// Face normals; edges: the sum of the two faces' normals (each face sees the edge at angle pi);
// corners: the sum of the faces' normals weighted by their angle at the corner. Baerentzen and
// Aanaes 2005. The same sum, normalised once, serves every triangle sharing the feature.
PseudoNormals pseudoNormals(const Mesh& mesh) {
    const auto triCount = static_cast<std::uint32_t>(mesh.triangles.size());
    PseudoNormals pn;
    pn.face.resize(triCount);
    pn.edge.resize(std::size_t(triCount) * 3);
    std::vector<dvec3> vertexSum(mesh.positions.size(), dvec3(0.0));
    for (std::uint32_t t = 0; t < triCount; ++t) {
        dvec3 p[3] = {corner(mesh, t, 0), corner(mesh, t, 1), corner(mesh, t, 2)};
        pn.face[t] = unit(glm::cross(p[1] - p[0], p[2] - p[0]));
        for (int k = 0; k < 3; ++k) {
            dvec3 u = p[(k + 1) % 3] - p[k], v = p[(k + 2) % 3] - p[k];
            double angle = std::atan2(glm::length(glm::cross(u, v)), glm::dot(u, v));
            vertexSum[mesh.triangles[t][k]] += angle * pn.face[t];
        }
    }
    const std::vector<std::uint32_t> twin = twinHalfEdges(mesh);
    for (std::size_t h = 0; h < pn.edge.size(); ++h)
        pn.edge[h] = unit(pn.face[h / 3] + pn.face[twin[h] / 3]);  // + commutes: same bits
    pn.vertex.resize(mesh.positions.size(), dvec3(0.0));           // unused vertices keep 0
    for (const glm::uvec3& tri : mesh.triangles)
        for (int k = 0; k < 3; ++k) pn.vertex[tri[k]] = unit(vertexSum[tri[k]]);
    return pn;
}

// Top-down median split over the items' boxes, nodes in depth-first order (a node, its left
// subtree, its right subtree).
class Builder {
  public:
    Builder(const std::vector<MeshItemBox>& boxes, std::vector<gpu::MeshNode>& nodes,
            std::uint32_t firstItem)
        : nodes_(nodes), boxes_(boxes), firstItem_(firstItem) {
        const std::size_t n = boxes.size();
        centres_.resize(n);
        order_.resize(n);
        std::iota(order_.begin(), order_.end(), 0u);
        for (std::size_t t = 0; t < n; ++t) centres_[t] = 0.5f * (boxes_[t].lo + boxes_[t].hi);
    }

    std::uint32_t build() { return split(0, static_cast<std::uint32_t>(order_.size()), 0); }
    std::vector<std::uint32_t>& order() { return order_; }

  private:
    std::uint32_t split(std::uint32_t begin, std::uint32_t end, std::uint32_t depth) {
        CLOTH_ASSERT(depth <= gpu::MESH_STACK_SIZE);
        const auto index = static_cast<std::uint32_t>(nodes_.size());
        nodes_.emplace_back();
        MeshItemBox bounds, centres;
        for (std::uint32_t i = begin; i < end; ++i) {
            bounds.add(boxes_[order_[i]]);
            centres.add(centres_[order_[i]]);
        }
        std::uint32_t first, second;
        if (end - begin <= kMeshLeafTriangles) {
            std::sort(order_.begin() + begin, order_.begin() + end);
            first = firstItem_ + begin;
            second = gpu::MESH_LEAF | (end - begin);
        } else {
            const glm::vec3 extent = centres.hi - centres.lo;
            const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0
                             : extent.y >= extent.z                       ? 1
                                                                          : 2;
            const std::uint32_t mid = begin + (end - begin) / 2;
            std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                             [&](std::uint32_t a, std::uint32_t b) {
                                 float ca = centres_[a][axis], cb = centres_[b][axis];
                                 return ca < cb || (ca == cb && a < b);
                             });
            first = split(begin, mid, depth + 1);
            second = split(mid, end, depth + 1);
        }
        nodes_[index] = {bounds.lo.x, bounds.lo.y, bounds.lo.z, first,
                         bounds.hi.x, bounds.hi.y, bounds.hi.z, second};
        return index;
    }

    std::vector<gpu::MeshNode>& nodes_;
    const std::vector<MeshItemBox>& boxes_;
    std::uint32_t firstItem_;
    std::vector<glm::vec3> centres_;
    std::vector<std::uint32_t> order_;
};

glm::vec4 point4(glm::vec3 p) {
    return {p, 0.0f};
}

glm::vec4 normal4(dvec3 n) {
    return {glm::vec3(n), 0.0f};
}

void checkTriangles(const Mesh& mesh) {
    CLOTH_ASSERT(!mesh.triangles.empty());
    CLOTH_ASSERT(mesh.triangles.size() < (std::size_t(1) << 31));
    for (const glm::uvec3& t : mesh.triangles)
        for (int k = 0; k < 3; ++k) CLOTH_ASSERT(t[k] < mesh.positions.size());
}

}  // namespace

std::uint32_t appendMedianTree(const std::vector<MeshItemBox>& boxes, std::uint32_t firstItem,
                               std::vector<gpu::MeshNode>& nodes,
                               std::vector<std::uint32_t>& order) {
    CLOTH_ASSERT(!boxes.empty());
    Builder builder(boxes, nodes, firstItem);
    const std::uint32_t root = builder.build();
    CLOTH_ASSERT(nodes.size() < gpu::MESH_LEAF);
    order = std::move(builder.order());
    return root;
}

std::uint32_t appendMeshCollider(const Mesh& mesh, std::vector<gpu::MeshNode>& nodes,
                                 std::vector<gpu::MeshTriangle>& triangles) {
    checkTriangles(mesh);
    const PseudoNormals pn = pseudoNormals(mesh);
    const auto firstTriangle = static_cast<std::uint32_t>(triangles.size());
    CLOTH_ASSERT(triangles.size() + mesh.triangles.size() < gpu::MESH_LEAF);
    std::vector<MeshItemBox> boxes(mesh.triangles.size());
    for (std::size_t t = 0; t < boxes.size(); ++t)
        for (int k = 0; k < 3; ++k) boxes[t].add(mesh.positions[mesh.triangles[t][k]]);
    std::vector<std::uint32_t> order;
    const std::uint32_t root = appendMedianTree(boxes, firstTriangle, nodes, order);
    for (std::uint32_t t : order) {
        const glm::uvec3& v = mesh.triangles[t];
        gpu::MeshTriangle r{};
        r.a = point4(mesh.positions[v[0]]);
        r.b = point4(mesh.positions[v[1]]);
        r.c = point4(mesh.positions[v[2]]);
        r.faceNormal = normal4(pn.face[t]);
        for (int k = 0; k < 3; ++k) {
            r.edgeNormal[k] = normal4(pn.edge[std::size_t(t) * 3 + k]);
            r.vertexNormal[k] = normal4(pn.vertex[v[k]]);
        }
        triangles.push_back(r);
    }
    return root;
}

}  // namespace cloth
