// Smallest-last colouring and packing, checked against brute force on small graphs.
#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "prep/coloring.h"
#include "prep/packing.h"
#include "prep_test_util.h"

using namespace cloth;

namespace {

using test::randomGraph;

bool adjacent(const Graph& g, std::uint32_t a, std::uint32_t b) {
    const auto nb = g.neighbours(a);
    return std::find(nb.begin(), nb.end(), b) != nb.end();
}

// Degeneracy by definition: the largest minimum degree over all induced subgraphs.
std::uint32_t bruteForceDegeneracy(const Graph& g) {
    const std::uint32_t n = g.nodeCount();
    std::uint32_t best = 0;
    for (std::uint32_t mask = 1; mask < (1u << n); ++mask) {
        std::uint32_t minDegree = UINT32_MAX;
        for (std::uint32_t a = 0; a < n; ++a) {
            if (!(mask >> a & 1)) continue;
            std::uint32_t d = 0;
            for (std::uint32_t b = 0; b < n; ++b)
                if ((mask >> b & 1) && adjacent(g, a, b)) ++d;
            minDegree = std::min(minDegree, d);
        }
        best = std::max(best, minDegree);
    }
    return best;
}

void expectProperColoring(const Graph& g, const Coloring& c) {
    ASSERT_EQ(c.color.size(), g.nodeCount());
    std::vector<bool> used(c.colorCount, false);
    for (std::uint32_t a = 0; a < g.nodeCount(); ++a) {
        ASSERT_LT(c.color[a], c.colorCount);
        used[c.color[a]] = true;
        for (std::uint32_t b = 0; b < g.nodeCount(); ++b)
            if (a != b && adjacent(g, a, b)) {
                EXPECT_NE(c.color[a], c.color[b]) << a << "-" << b;
            }
    }
    for (std::uint32_t k = 0; k < c.colorCount; ++k) EXPECT_TRUE(used[k]) << "colour " << k;
}

}  // namespace

TEST(Degeneracy, EqualsBruteForceAndPeelsSmallestFirst) {
    std::mt19937 rng(11);
    for (int trial = 0; trial < 60; ++trial) {
        const std::uint32_t n = 1 + rng() % 12;
        const Graph g = randomGraph(n, 0.1 + 0.8 * (trial % 10) / 10.0, rng);
        const DegeneracyOrder order = degeneracyOrder(g);
        EXPECT_EQ(order.degeneracy, bruteForceDegeneracy(g)) << "trial " << trial;
        // Replay the removal: each node must have the minimum degree among those left.
        std::vector<bool> removed(n, false);
        for (std::uint32_t v : order.removal) {
            ASSERT_FALSE(removed[v]);
            auto remainingDegree = [&](std::uint32_t a) {
                std::uint32_t d = 0;
                for (std::uint32_t b = 0; b < n; ++b)
                    if (!removed[b] && b != a && adjacent(g, a, b)) ++d;
                return d;
            };
            for (std::uint32_t u = 0; u < n; ++u)
                if (!removed[u]) {
                    EXPECT_LE(remainingDegree(v), remainingDegree(u));
                }
            removed[v] = true;
        }
    }
}

TEST(SmallestLastColoring, ProperAndAtMostDegeneracyPlusOne) {
    std::mt19937 rng(5);
    for (int trial = 0; trial < 60; ++trial) {
        const std::uint32_t n = 1 + rng() % 12;
        const Graph g = randomGraph(n, 0.1 + 0.8 * (trial % 10) / 10.0, rng);
        const Coloring c = colorSmallestLast(g);
        expectProperColoring(g, c);
        EXPECT_LE(c.colorCount, bruteForceDegeneracy(g) + 1) << "trial " << trial;
    }
}

TEST(SmallestLastColoring, KnownGraphs) {
    // Complete graph K6: 6 colours. A path and a star (trees, degeneracy 1): 2 colours.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> k6, path, star;
    for (std::uint32_t a = 0; a < 6; ++a)
        for (std::uint32_t b = a + 1; b < 6; ++b) k6.emplace_back(a, b);
    for (std::uint32_t a = 0; a + 1 < 50; ++a) path.emplace_back(a, a + 1);
    for (std::uint32_t a = 1; a < 30; ++a) star.emplace_back(0, a);
    EXPECT_EQ(colorSmallestLast(graphFromEdges(6, k6)).colorCount, 6u);
    EXPECT_EQ(colorSmallestLast(graphFromEdges(50, path)).colorCount, 2u);
    EXPECT_EQ(colorSmallestLast(graphFromEdges(30, star)).colorCount, 2u);
    EXPECT_EQ(colorSmallestLast(graphFromEdges(5, {})).colorCount, 1u);
    EXPECT_EQ(colorSmallestLast(graphFromEdges(0, {})).colorCount, 0u);
}

TEST(SmallestLastColoring, LargerRandomGraphsStayProper) {
    std::mt19937 rng(3);
    for (int trial = 0; trial < 5; ++trial) {
        const Graph g = randomGraph(300, 0.02 + 0.05 * trial, rng);
        const Coloring c = colorSmallestLast(g);
        expectProperColoring(g, c);
        EXPECT_LE(c.colorCount, degeneracyOrder(g).degeneracy + 1);
    }
}

TEST(PackByColor, ContiguousColoursSortedBySmallestVertex) {
    ConstraintVertices cv;
    cv.add({9, 4});        // 0
    cv.add({1, 2});        // 1
    cv.add({7, 3, 8, 5});  // 2
    cv.add({6, 0});        // 3
    cv.add({2, 3});        // 4
    const std::vector<std::uint32_t> color = {1, 0, 1, 1, 0};
    // Pack constraints 1..4 (index relative to the range).
    const ColorBatches b = packByColor(cv, 1, 4, color, 2);
    EXPECT_EQ(b.colorOffsets, (std::vector<std::uint32_t>{0, 2, 4}));
    // Colour 0: {1,2} (min 1, local 0), {2,3} (min 2, local 3). Colour 1: {6,0} (min 0, local 2),
    // {7,3,8,5} (min 3, local 1).
    EXPECT_EQ(b.order, (std::vector<std::uint32_t>{0, 3, 2, 1}));
    const std::vector<char> items = {'a', 'b', 'c', 'd'};
    EXPECT_EQ(permuted(items, b.order), (std::vector<char>{'a', 'd', 'c', 'b'}));
}
