// Bron-Kerbosch against brute-force enumeration of maximal cliques on small graphs.
#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "prep/cliques.h"
#include "prep_test_util.h"

using namespace cloth;

namespace {

Cliques cliquesOf(const Graph& g, std::uint32_t minSize = 1) {
    const ConstraintVertices cv = edgeElements(g);
    // The element lists describe the same graph.
    const Graph again = buildConstraintGraph(cv, static_cast<std::uint32_t>(g.edgeCount()));
    EXPECT_EQ(again.edgeCount(), g.edgeCount());
    return maximalCliques(g, cv, degeneracyOrder(g), minSize);
}

using CliqueList = std::vector<std::vector<std::uint32_t>>;

std::vector<std::uint32_t> adjacencyMasks(const Graph& g) {
    std::vector<std::uint32_t> m(g.nodeCount(), 0);
    for (std::uint32_t a = 0; a < g.nodeCount(); ++a)
        for (std::uint32_t b : g.neighbours(a)) m[a] |= 1u << b;
    return m;
}

// All subsets that are cliques and to which no node can be added.
CliqueList bruteForceMaximalCliques(const Graph& g, std::uint32_t minSize) {
    const std::uint32_t n = g.nodeCount();
    const auto adj = adjacencyMasks(g);
    CliqueList out;
    for (std::uint32_t mask = 1; mask < (1u << n); ++mask) {
        bool clique = true;
        for (std::uint32_t a = 0; a < n && clique; ++a)
            if (mask >> a & 1) clique = (adj[a] | (1u << a) | ~mask) == ~0u;
        if (!clique) continue;
        bool maximal = true;
        for (std::uint32_t c = 0; c < n && maximal; ++c)
            if (!(mask >> c & 1) && (adj[c] & mask) == mask) maximal = false;
        if (!maximal || std::uint32_t(std::popcount(mask)) < minSize) continue;
        std::vector<std::uint32_t> members;
        for (std::uint32_t a = 0; a < n; ++a)
            if (mask >> a & 1) members.push_back(a);
        out.push_back(members);
    }
    std::sort(out.begin(), out.end());
    return out;
}

CliqueList listOf(const Cliques& c) {
    CliqueList out;
    for (std::uint32_t k = 0; k < c.count(); ++k) {
        const auto m = c.of(k);
        out.emplace_back(m.begin(), m.end());
        EXPECT_TRUE(std::is_sorted(out.back().begin(), out.back().end()));
    }
    std::sort(out.begin(), out.end());
    return out;
}

using test::randomGraph;

}  // namespace

TEST(BronKerbosch, FindsExactlyTheMaximalCliquesOfRandomGraphs) {
    std::mt19937 rng(17);
    for (int trial = 0; trial < 80; ++trial) {
        const std::uint32_t n = 1 + rng() % 16;
        const Graph g = randomGraph(n, 0.1 + 0.85 * (trial % 12) / 11.0, rng);
        for (std::uint32_t minSize : {1u, 3u, 5u}) {
            const Cliques c = cliquesOf(g, minSize);
            EXPECT_EQ(listOf(c), bruteForceMaximalCliques(g, minSize))
                << "trial " << trial << " n " << n << " minSize " << minSize;
        }
    }
}

TEST(BronKerbosch, KnownGraphs) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> k7;
    for (std::uint32_t a = 0; a < 7; ++a)
        for (std::uint32_t b = a + 1; b < 7; ++b) k7.emplace_back(a, b);
    const Graph complete = graphFromEdges(7, k7);
    EXPECT_EQ(listOf(cliquesOf(complete)), (CliqueList{{0, 1, 2, 3, 4, 5, 6}}));
    // Isolated nodes are maximal cliques of one.
    const Graph empty = graphFromEdges(3, {});
    EXPECT_EQ(listOf(cliquesOf(empty)), (CliqueList{{0}, {1}, {2}}));
    // Two triangles sharing node 2, plus a pendant edge.
    const Graph bowtie =
        graphFromEdges(6, {{0, 1}, {1, 2}, {0, 2}, {2, 3}, {3, 4}, {2, 4}, {4, 5}});
    EXPECT_EQ(listOf(cliquesOf(bowtie)), (CliqueList{{0, 1, 2}, {2, 3, 4}, {4, 5}}));
    EXPECT_EQ(listOf(cliquesOf(bowtie, 3)), (CliqueList{{0, 1, 2}, {2, 3, 4}}));
}

TEST(BronKerbosch, VertexStarsOfAGridAreCliques) {
    // Constraints around one interior vertex of a regular grid all share it: 6 edges and 12
    // bending pairs form a clique of 18, the largest one.
    GridDesc d;
    d.resX = d.resY = 6;
    const PreparedCloth p = fixtures::constraintsOf(makeGrid(d), true);
    ConstraintVertices cv;
    for (const auto& c : p.items<gpu::DistanceConstraint>()) cv.add({c.v0, c.v1});
    for (const auto& c : p.items<gpu::BendingConstraint>()) cv.add({c.v0, c.v1, c.v2, c.v3});
    const Graph g = buildConstraintGraph(cv, p.vertexCount());
    const Cliques all = maximalCliques(g, cv, degeneracyOrder(g), 1);
    const Cliques big = maximalCliques(g, cv, degeneracyOrder(g), 18);
    EXPECT_EQ(listOf(all), listOf(cliquesOf(g, 1)));  // vertex elements = edge elements
    std::uint32_t largest = 0;
    for (std::uint32_t k = 0; k < all.count(); ++k) {
        const auto m = all.of(k);
        largest = std::max<std::uint32_t>(largest, m.size());
        for (std::size_t i = 0; i < m.size(); ++i)  // pairwise adjacent
            for (std::size_t j = i + 1; j < m.size(); ++j) {
                const auto nb = g.neighbours(m[i]);
                ASSERT_NE(std::find(nb.begin(), nb.end(), m[j]), nb.end());
            }
    }
    EXPECT_EQ(largest, 18u);
    // One per vertex at least two rows and columns away from the border (nearer ones have
    // some of their opposite edges on the border, which carry no bending constraint).
    EXPECT_EQ(big.count(), 3u * 3u);
}

TEST(BronKerbosch, SameCliquesForAnyThreadCount) {
    GridDesc d;
    d.resX = d.resY = 40;
    d.pattern = GridPattern::Random;
    const PreparedCloth p = fixtures::constraintsOf(makeGrid(d), true);
    ConstraintVertices cv;
    for (const auto& c : p.items<gpu::DistanceConstraint>()) cv.add({c.v0, c.v1});
    for (const auto& c : p.items<gpu::BendingConstraint>()) cv.add({c.v0, c.v1, c.v2, c.v3});
    const Graph g = buildConstraintGraph(cv, p.vertexCount());
    const DegeneracyOrder order = degeneracyOrder(g);
    const Cliques one = maximalCliques(g, cv, order, 8, 1);
    for (unsigned threads : {2u, 3u}) {
        const Cliques many = maximalCliques(g, cv, order, 8, threads);
        EXPECT_EQ(many.offsets, one.offsets);
        EXPECT_EQ(many.members, one.members);
    }
    EXPECT_GT(one.count(), 1000u);
}
