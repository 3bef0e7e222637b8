// Mesh adjacency: unique edges, boundary edges, bending pairs and vertex -> triangle lists.
// Linear time: half-edges are bucketed by their smaller vertex (counting sort), and each bucket
// (a vertex's few neighbours) is sorted by the larger vertex. Both sorts are stable, so the
// triangles of one edge stay in ascending triangle order.
#include <algorithm>
#include <string>

#include "core/error.h"
#include "core/mesh.h"

namespace cloth {

namespace {

struct HalfEdge {
    std::uint32_t hi;      // larger vertex (the bucket is the smaller one)
    std::uint32_t tri;     // triangle index
    std::uint32_t corner;  // edge (t[corner], t[corner + 1 mod 3]) of the triangle
};

std::string vertexPair(std::uint32_t a, std::uint32_t b) {
    std::string s = "(";  // appended piecewise: gcc 12 warns falsely on "(" + std::string
    s += std::to_string(a);
    s += ", ";
    s += std::to_string(b);
    s += ")";
    return s;
}

void checkIndices(const Mesh& mesh, const std::string& source) {
    const std::size_t n = mesh.positions.size();
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        const glm::uvec3& tri = mesh.triangles[t];
        for (int k = 0; k < 3; ++k) {
            if (tri[k] >= n)
                throw Error(source + ": triangle " + std::to_string(t) + " has vertex index " +
                            std::to_string(tri[k]) + " out of range (the mesh has " +
                            std::to_string(n) + " vertices)");
        }
        if (tri.x == tri.y || tri.y == tri.z || tri.z == tri.x)
            throw Error(source + ": triangle " + std::to_string(t) +
                        " is degenerate (zero area): it uses vertex " +
                        std::to_string(tri.x == tri.y || tri.x == tri.z ? tri.x : tri.y) +
                        " twice");
    }
}

// Stable sort by `hi`: insertion sort for the usual handful of neighbours.
void sortBucket(HalfEdge* begin, HalfEdge* end) {
    auto byHi = [](const HalfEdge& x, const HalfEdge& y) { return x.hi < y.hi; };
    if (end - begin > 32) {
        std::stable_sort(begin, end, byHi);
        return;
    }
    for (HalfEdge* i = begin + 1; i < end; ++i) {
        HalfEdge h = *i;
        HalfEdge* j = i;
        for (; j > begin && byHi(h, *(j - 1)); --j) *j = *(j - 1);
        *j = h;
    }
}

// Half-edges bucketed by smaller vertex: offsets (size n + 1) and the sorted half-edges.
void sortHalfEdges(const Mesh& mesh, std::vector<std::uint32_t>& offsets,
                   std::vector<HalfEdge>& half) {
    const std::size_t n = mesh.positions.size();
    offsets.assign(n + 1, 0);
    for (const glm::uvec3& t : mesh.triangles)
        for (int k = 0; k < 3; ++k) ++offsets[std::min(t[k], t[(k + 1) % 3]) + 1];
    for (std::size_t v = 0; v < n; ++v) offsets[v + 1] += offsets[v];
    half.resize(mesh.triangles.size() * 3);
    std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
    for (std::uint32_t t = 0; t < mesh.triangles.size(); ++t) {
        const glm::uvec3& tri = mesh.triangles[t];
        for (std::uint32_t k = 0; k < 3; ++k) {
            std::uint32_t a = tri[k], b = tri[(k + 1) % 3];
            half[fill[std::min(a, b)]++] = {std::max(a, b), t, k};
        }
    }
    for (std::size_t v = 0; v < n; ++v)
        sortBucket(half.data() + offsets[v], half.data() + offsets[v + 1]);
}

BendingPair makePair(const Mesh& mesh, const HalfEdge& a, const HalfEdge& b) {
    const glm::uvec3& ta = mesh.triangles[a.tri];
    const glm::uvec3& tb = mesh.triangles[b.tri];
    BendingPair p;
    p.v0 = ta[a.corner];
    p.v1 = ta[(a.corner + 1) % 3];
    p.v2 = ta[(a.corner + 2) % 3];
    p.v3 = tb[(b.corner + 2) % 3];
    return p;
}

void buildEdges(const Mesh& mesh, const std::string& source, Topology& topo) {
    std::vector<std::uint32_t> offsets;
    std::vector<HalfEdge> half;
    sortHalfEdges(mesh, offsets, half);
    topo.edges.reserve(half.size() / 2 + 16);
    for (std::uint32_t lo = 0; lo + 1 < offsets.size(); ++lo) {
        std::uint32_t i = offsets[lo], end = offsets[lo + 1];
        while (i < end) {
            std::uint32_t j = i + 1;
            while (j < end && half[j].hi == half[i].hi) ++j;
            std::uint32_t count = j - i;
            if (count > 2)
                throw Error(source + ": edge " + vertexPair(lo, half[i].hi) + " is shared by " +
                            std::to_string(count) + " triangles (non-manifold edge)");
            auto edge = static_cast<std::uint32_t>(topo.edges.size());
            topo.edges.push_back({lo, half[i].hi});
            if (count == 1)
                topo.boundaryEdges.push_back(edge);
            else
                topo.bendingPairs.push_back(makePair(mesh, half[i], half[i + 1]));
            i = j;
        }
    }
}

void buildVertexTriangles(const Mesh& mesh, Topology& topo) {
    const std::size_t n = mesh.positions.size();
    topo.vertexTriangleOffsets.assign(n + 1, 0);
    for (const glm::uvec3& t : mesh.triangles)
        for (int k = 0; k < 3; ++k) ++topo.vertexTriangleOffsets[t[k] + 1];
    for (std::size_t v = 0; v < n; ++v)
        topo.vertexTriangleOffsets[v + 1] += topo.vertexTriangleOffsets[v];
    topo.vertexTriangles.resize(mesh.triangles.size() * 3);
    std::vector<std::uint32_t> fill(topo.vertexTriangleOffsets.begin(),
                                    topo.vertexTriangleOffsets.end() - 1);
    for (std::uint32_t t = 0; t < mesh.triangles.size(); ++t)
        for (int k = 0; k < 3; ++k) topo.vertexTriangles[fill[mesh.triangles[t][k]]++] = t;
}

}  // namespace

Topology buildTopology(const Mesh& mesh, const std::string& source) {
    checkIndices(mesh, source);
    Topology topo;
    buildEdges(mesh, source, topo);
    buildVertexTriangles(mesh, topo);
    return topo;
}

}  // namespace cloth
