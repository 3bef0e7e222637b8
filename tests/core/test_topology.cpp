// buildTopology against brute force over the triangles.
#include <algorithm>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "core/mesh.h"
#include "test_util.h"

using namespace cloth;

namespace {

using EdgeKey = std::pair<std::uint32_t, std::uint32_t>;

// Brute force: every undirected edge with the triangles that use it.
std::map<EdgeKey, std::vector<std::uint32_t>> edgeTriangles(const Mesh& m) {
    std::map<EdgeKey, std::vector<std::uint32_t>> out;
    for (std::uint32_t t = 0; t < m.triangles.size(); ++t)
        for (int k = 0; k < 3; ++k) {
            std::uint32_t a = m.triangles[t][k], b = m.triangles[t][(k + 1) % 3];
            out[{std::min(a, b), std::max(a, b)}].push_back(t);
        }
    return out;
}

bool hasDirectedEdge(const glm::uvec3& t, std::uint32_t a, std::uint32_t b) {
    for (int k = 0; k < 3; ++k)
        if (t[k] == a && t[(k + 1) % 3] == b) return true;
    return false;
}

std::uint32_t opposite(const glm::uvec3& t, std::uint32_t a, std::uint32_t b) {
    for (int k = 0; k < 3; ++k)
        if (t[k] != a && t[k] != b) return t[k];
    return ~0u;
}

// Checks every part of `topo` against brute force; the mesh is consistently oriented.
void checkAgainstBruteForce(const Mesh& m, const Topology& topo) {
    auto all = edgeTriangles(m);
    ASSERT_EQ(topo.edges.size(), all.size());
    std::size_t i = 0, boundary = 0, pairs = 0;
    for (const auto& [key, tris] : all) {
        const glm::uvec2 e = topo.edges[i];
        ASSERT_EQ(e.x, key.first);
        ASSERT_EQ(e.y, key.second);
        if (tris.size() == 1) {
            ASSERT_LT(boundary, topo.boundaryEdges.size());
            EXPECT_EQ(topo.boundaryEdges[boundary++], i);
        } else {
            ASSERT_EQ(tris.size(), 2u);
            ASSERT_LT(pairs, topo.bendingPairs.size());
            const BendingPair& p = topo.bendingPairs[pairs++];
            EXPECT_EQ(std::min(p.v0, p.v1), e.x);
            EXPECT_EQ(std::max(p.v0, p.v1), e.y);
            const glm::uvec3& a = m.triangles[tris[0]];
            const glm::uvec3& b = m.triangles[tris[1]];
            EXPECT_TRUE(hasDirectedEdge(a, p.v0, p.v1));  // A = (v0, v1, v2) in A's winding
            EXPECT_EQ(p.v2, opposite(a, p.v0, p.v1));
            EXPECT_TRUE(hasDirectedEdge(b, p.v1, p.v0));
            EXPECT_EQ(p.v3, opposite(b, p.v0, p.v1));
        }
        ++i;
    }
    EXPECT_EQ(boundary, topo.boundaryEdges.size());
    EXPECT_EQ(pairs, topo.bendingPairs.size());

    ASSERT_EQ(topo.vertexTriangleOffsets.size(), m.positions.size() + 1);
    for (std::uint32_t v = 0; v < m.positions.size(); ++v) {
        std::vector<std::uint32_t> expect;
        for (std::uint32_t t = 0; t < m.triangles.size(); ++t)
            if (m.triangles[t].x == v || m.triangles[t].y == v || m.triangles[t].z == v)
                expect.push_back(t);
        std::vector<std::uint32_t> got(
            topo.vertexTriangles.begin() + topo.vertexTriangleOffsets[v],
            topo.vertexTriangles.begin() + topo.vertexTriangleOffsets[v + 1]);
        EXPECT_EQ(got, expect) << "vertex " << v;
    }
}

// A hexagon fan around vertex 0 plus a second ring: an irregular disc (valences 3 to 6).
Mesh fan() {
    Mesh m;
    m.positions.push_back({0, 0, 0});
    for (int i = 0; i < 6; ++i) {
        float a = float(i) * 3.14159265f / 3.0f;
        m.positions.push_back({std::cos(a), std::sin(a), 0.0f});
    }
    for (std::uint32_t i = 0; i < 6; ++i) m.triangles.push_back({0, 1 + i, 1 + (i + 1) % 6});
    m.positions.push_back({1.8f, 0.9f, 0.1f});  // 7: outside edge (1, 2)
    m.triangles.push_back({1, 7, 2});
    return m;
}

}  // namespace

TEST(Topology, GridCountsFollowEuler) {
    for (GridPattern p : {GridPattern::Regular, GridPattern::Alternating, GridPattern::Random}) {
        for (auto [rx, ry] : {std::pair{1u, 1u}, {3u, 2u}, {16u, 16u}, {40u, 7u}}) {
            GridDesc d;
            d.resX = rx, d.resY = ry, d.pattern = p, d.seed = 9;
            Mesh m = makeGrid(d);
            Topology t = buildTopology(m, "grid");
            std::size_t V = m.positions.size(), F = m.triangles.size();
            EXPECT_EQ(t.edges.size(), V + F - 1);  // Euler: V - E + F = 1 for a disc
            EXPECT_EQ(t.boundaryEdges.size(), 2u * (rx + ry));
            EXPECT_EQ(t.bendingPairs.size(), t.edges.size() - t.boundaryEdges.size());
        }
    }
}

TEST(Topology, GridsMatchBruteForce) {
    for (GridPattern p : {GridPattern::Regular, GridPattern::Alternating, GridPattern::Random}) {
        GridDesc d;
        d.resX = 9, d.resY = 6, d.pattern = p, d.seed = 5;
        Mesh m = makeGrid(d);
        checkAgainstBruteForce(m, buildTopology(m, "grid"));
    }
}

TEST(Topology, IrregularMeshMatchesBruteForce) {
    Mesh m = fan();
    Topology t = buildTopology(m, "fan");
    EXPECT_EQ(t.edges.size(), 14u);
    EXPECT_EQ(t.boundaryEdges.size(), 7u);
    EXPECT_EQ(t.bendingPairs.size(), 7u);
    checkAgainstBruteForce(m, t);
}

TEST(Topology, LargeGrid) {
    GridDesc d;
    d.resX = d.resY = 256;
    d.pattern = GridPattern::Random;
    Mesh m = makeGrid(d);
    Topology t = buildTopology(m, "grid");
    EXPECT_EQ(t.edges.size(), m.positions.size() + m.triangles.size() - 1);
    EXPECT_EQ(t.boundaryEdges.size(), 4u * 256u);
    EXPECT_EQ(t.vertexTriangles.size(), 3 * m.triangles.size());
}

TEST(Topology, NonManifoldEdgeIsAnError) {
    Mesh m = fan();
    m.positions.push_back({0.5f, 0.3f, 1.0f});  // 8: a fin on edge (0, 1)
    m.triangles.push_back({0, 8, 1});
    EXPECT_TRUE(test::throwsError([&] { buildTopology(m, "fin.obj"); },
                                  {"fin.obj", "edge (0, 1)", "3 triangles", "non-manifold"}));
}

TEST(Topology, IndexOutOfRangeIsAnError) {
    Mesh m = fan();
    m.triangles.push_back({0, 3, 99});
    EXPECT_TRUE(test::throwsError([&] { buildTopology(m, "m"); },
                                  {"m:", "triangle 7", "99", "out of range"}));
}
