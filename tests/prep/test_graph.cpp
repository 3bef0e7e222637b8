// The constraint graph against a brute-force pairwise comparison of vertex sets.
#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "prep/constraint_graph.h"

using namespace cloth;

namespace {

ConstraintVertices randomConstraints(std::uint32_t count, std::uint32_t vertexCount,
                                     std::mt19937& rng) {
    ConstraintVertices cv;
    std::uniform_int_distribution<std::uint32_t> vertex(0, vertexCount - 1);
    for (std::uint32_t c = 0; c < count; ++c) {
        std::vector<std::uint32_t> vs;
        const std::uint32_t arity = (rng() % 2) ? 2 : 4;
        while (vs.size() < arity) {
            const std::uint32_t v = vertex(rng);
            if (std::find(vs.begin(), vs.end(), v) == vs.end()) vs.push_back(v);
        }
        cv.vertices.insert(cv.vertices.end(), vs.begin(), vs.end());
        cv.offsets.push_back(static_cast<std::uint32_t>(cv.vertices.size()));
    }
    return cv;
}

bool shareVertex(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
    for (std::uint32_t x : a)
        for (std::uint32_t y : b)
            if (x == y) return true;
    return false;
}

}  // namespace

TEST(ConstraintGraph, MatchesPairwiseVertexSharing) {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 20; ++trial) {
        const std::uint32_t nv = 5 + rng() % 40;
        const ConstraintVertices cv = randomConstraints(1 + rng() % 60, nv, rng);
        const Graph g = buildConstraintGraph(cv, nv);
        ASSERT_EQ(g.nodeCount(), cv.count());
        std::uint64_t edges = 0;
        for (std::uint32_t a = 0; a < cv.count(); ++a) {
            std::vector<std::uint32_t> expected;
            for (std::uint32_t b = 0; b < cv.count(); ++b)
                if (a != b && shareVertex(cv.of(a), cv.of(b))) expected.push_back(b);
            const auto nb = g.neighbours(a);
            std::vector<std::uint32_t> got(nb.begin(), nb.end());
            std::sort(got.begin(), got.end());
            EXPECT_EQ(got, expected) << "trial " << trial << " node " << a;
            EXPECT_EQ(std::unique(got.begin(), got.end()), got.end()) << "duplicates";
            edges += expected.size();
        }
        EXPECT_EQ(g.edgeCount() * 2, edges);
    }
}

TEST(ConstraintGraph, IncidenceListsEachConstraintAtItsVertices) {
    ConstraintVertices cv;
    cv.add({0, 1});
    cv.add({1, 2, 3, 0});
    cv.add({3, 4});
    const Incidence inc = buildIncidence(cv, 6);
    auto at = [&](std::uint32_t v) {
        return std::vector<std::uint32_t>(inc.constraints.begin() + inc.offsets[v],
                                          inc.constraints.begin() + inc.offsets[v + 1]);
    };
    EXPECT_EQ(at(0), (std::vector<std::uint32_t>{0, 1}));
    EXPECT_EQ(at(3), (std::vector<std::uint32_t>{1, 2}));
    EXPECT_EQ(at(4), (std::vector<std::uint32_t>{2}));
    EXPECT_TRUE(at(5).empty());
}

TEST(ConstraintGraph, FromEdgesDropsLoopsAndDuplicates) {
    const Graph g = graphFromEdges(4, {{0, 1}, {1, 0}, {2, 2}, {3, 1}});
    EXPECT_EQ(g.edgeCount(), 2u);
    EXPECT_EQ(g.degree(1), 2u);
    EXPECT_EQ(g.degree(2), 0u);
}
