// clothcheck's deviation figures against hand-computed values.
#include <cmath>

#include <gtest/gtest.h>

#include "deviation.h"

using namespace cloth;

namespace {

// Two cloths: a 2 m x 1 m rectangle (4 vertices) and a unit square (4 vertices), plus a phantom.
PreparedCloth twoCloths() {
    PreparedCloth p;
    p.positions = {{0, 0, 0, 1}, {2, 0, 0, 1}, {0, 1, 0, 1}, {2, 1, 0, 1}, {5, 0, 0, 1},
                   {6, 0, 0, 1}, {5, 0, 1, 1}, {6, 0, 1, 1}, {9, 9, 9, 1}};
    p.originalVertexCount = 8;
    gpu::ClothSegment a{}, b{};
    a.vertexBegin = 0;
    a.vertexEnd = 4;
    a.phantomBegin = a.phantomEnd = 8;
    b.vertexBegin = 4;
    b.vertexEnd = 8;
    b.phantomBegin = 8;
    b.phantomEnd = 9;
    p.segments = {a, b};
    return p;
}

}  // namespace

TEST(ClothcheckDeviation, DiagonalsPerCloth) {
    PreparedCloth p = twoCloths();
    auto d = check::segmentDiagonals(p, p.positions);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_NEAR(d[0], std::sqrt(5.0), 1e-12);
    EXPECT_NEAR(d[1], std::sqrt(2.0), 1e-12);
}

TEST(ClothcheckDeviation, MaxAndRmsAbsoluteAndRelative) {
    PreparedCloth p = twoCloths();
    auto diag = check::segmentDiagonals(p, p.positions);
    auto moved = p.positions;
    moved[1].x += 0.3f;   // cloth 0: 0.3 m
    moved[6].y += 0.4f;   // cloth 1: 0.4 m
    moved[8].z += 100.f;  // a phantom: ignored
    auto d = check::compare(p, diag, p.positions, moved);
    EXPECT_NEAR(d.maxAbs, 0.4, 1e-6);
    EXPECT_NEAR(d.rmsAbs, std::sqrt((0.09 + 0.16) / 8.0), 1e-6);
    EXPECT_NEAR(d.maxRel, 0.4 / std::sqrt(2.0), 1e-6);
    EXPECT_NEAR(d.rmsRel, std::sqrt((0.09 / 5.0 + 0.16 / 2.0) / 8.0), 1e-6);
    EXPECT_EQ(d.worstVertex, 6u);
}

TEST(ClothcheckDeviation, NanIsTheWorstDeviation) {
    PreparedCloth p = twoCloths();
    auto diag = check::segmentDiagonals(p, p.positions);
    auto broken = p.positions;
    broken[2].x = NAN;
    auto d = check::compare(p, diag, p.positions, broken);
    EXPECT_TRUE(std::isinf(d.maxRel));
    EXPECT_FALSE(d.maxRel <= 1e-4);
}
