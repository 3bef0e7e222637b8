// Colouring of real constraint sets: grids of each pattern and irregular meshes, stretch only and
// stretch plus bending. Checked by brute force (batchesAreValid), not by the colouring code.
#include <gtest/gtest.h>

#include "prep/batches.h"
#include "prep_test_util.h"

using namespace cloth;
using namespace cloth::test;

namespace {

void checkColoring(const Mesh& mesh, bool bending, const std::string& what) {
    SCOPED_TRACE(what + (bending ? " stretch+bending" : " stretch"));
    PreparedCloth p = constraintsOf(mesh, bending);
    const auto before = constraintTuples(p);
    colorAndPack(p);
    EXPECT_TRUE(batchesAreValid(p));
    EXPECT_EQ(constraintTuples(p), before);  // every constraint exactly once, unchanged
    EXPECT_LE(p.colorCount, p.stats.degeneracy + 1);
    EXPECT_GE(p.colorCount, maxConstraintsAtVertex(p));
}

}  // namespace

TEST(MeshColoring, GridsOfEveryPatternAndSize) {
    for (GridPattern pattern :
         {GridPattern::Regular, GridPattern::Alternating, GridPattern::Random})
        for (auto [rx, ry] : {std::pair{1u, 1u}, {2u, 3u}, {8u, 8u}, {31u, 17u}, {64u, 64u}})
            for (bool bending : {false, true}) {
                GridDesc d;
                d.resX = rx;
                d.resY = ry;
                d.pattern = pattern;
                checkColoring(makeGrid(d), bending,
                              std::string(gridPatternName(pattern)) + " " + std::to_string(rx) +
                                  "x" + std::to_string(ry));
            }
}

TEST(MeshColoring, IrregularMeshes) {
    for (std::uint32_t seed : {1u, 2u, 3u})
        for (bool bending : {false, true}) {
            checkColoring(irregularMesh(40, 0.1, seed), bending,
                          "irregular seed " + std::to_string(seed));
        }
    for (bool bending : {false, true}) checkColoring(discMesh(12, 24), bending, "disc");
}

TEST(MeshColoring, RegularGridNeedsAboutSevenAndTwentyColours) {
    // Not a performance figure: the greedy colour counts the issue quotes for a regular grid.
    GridDesc d;
    d.resX = d.resY = 30;
    PreparedCloth stretch = constraintsOf(makeGrid(d), false);
    colorAndPack(stretch);
    EXPECT_GE(stretch.colorCount, 6u);  // six edges meet at an interior vertex
    EXPECT_LE(stretch.colorCount, 8u);
    PreparedCloth both = constraintsOf(makeGrid(d), true);
    colorAndPack(both);
    EXPECT_GE(both.colorCount, 18u);  // 6 edges + 12 bending pairs meet at an interior vertex
    EXPECT_LE(both.colorCount, 22u);
}

TEST(MeshColoring, PackedWithinColourBySmallestVertex) {
    GridDesc d;
    d.resX = d.resY = 16;
    d.pattern = GridPattern::Alternating;
    PreparedCloth p = constraintsOf(makeGrid(d), true);
    colorAndPack(p);
    for (std::uint32_t c = 0; c < p.colorCount; ++c) {
        for (std::uint32_t i = p.set<gpu::DistanceConstraint>().colorOffsets[c] + 1; i < p.set<gpu::DistanceConstraint>().colorOffsets[c + 1];
             ++i)
            EXPECT_LE(std::min(p.items<gpu::DistanceConstraint>()[i - 1].v0, p.items<gpu::DistanceConstraint>()[i - 1].v1),
                      std::min(p.items<gpu::DistanceConstraint>()[i].v0, p.items<gpu::DistanceConstraint>()[i].v1));
        for (std::uint32_t i = p.set<gpu::BendingConstraint>().colorOffsets[c] + 1; i < p.set<gpu::BendingConstraint>().colorOffsets[c + 1];
             ++i) {
            auto mn = [](const gpu::BendingConstraint& b) {
                return std::min(std::min(b.v0, b.v1), std::min(b.v2, b.v3));
            };
            EXPECT_LE(mn(p.items<gpu::BendingConstraint>()[i - 1]), mn(p.items<gpu::BendingConstraint>()[i]));
        }
    }
}

TEST(MeshColoring, Deterministic) {
    const Mesh mesh = irregularMesh(24, 0.05, 9);
    PreparedCloth a = constraintsOf(mesh, true), b = constraintsOf(mesh, true);
    colorAndPack(a);
    colorAndPack(b);
    EXPECT_EQ(a.colorCount, b.colorCount);
    EXPECT_EQ(a.set<gpu::DistanceConstraint>().colorOffsets, b.set<gpu::DistanceConstraint>().colorOffsets);
    EXPECT_EQ(a.set<gpu::BendingConstraint>().colorOffsets, b.set<gpu::BendingConstraint>().colorOffsets);
    ASSERT_EQ(a.items<gpu::DistanceConstraint>().size(), b.items<gpu::DistanceConstraint>().size());
    for (std::size_t i = 0; i < a.items<gpu::DistanceConstraint>().size(); ++i) {
        EXPECT_EQ(a.items<gpu::DistanceConstraint>()[i].v0, b.items<gpu::DistanceConstraint>()[i].v0);
        EXPECT_EQ(a.items<gpu::DistanceConstraint>()[i].v1, b.items<gpu::DistanceConstraint>()[i].v1);
    }
    for (std::size_t i = 0; i < a.items<gpu::BendingConstraint>().size(); ++i) EXPECT_EQ(a.items<gpu::BendingConstraint>()[i].v2, b.items<gpu::BendingConstraint>()[i].v2);
}
