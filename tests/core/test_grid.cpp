// makeGrid: layout, counts, winding, area and the three triangulation patterns.
#include <set>

#include <gtest/gtest.h>

#include "core/mesh.h"
#include "test_util.h"

using namespace cloth;

namespace {

GridDesc grid(std::uint32_t rx, std::uint32_t ry, GridPattern p, std::uint32_t seed = 1) {
    GridDesc d;
    d.width = 2.0f;
    d.height = 1.5f;
    d.resX = rx;
    d.resY = ry;
    d.pattern = p;
    d.seed = seed;
    return d;
}

const GridPattern kPatterns[] = {GridPattern::Regular, GridPattern::Alternating,
                                 GridPattern::Random};

using test::signedAreaZ;

}  // namespace

TEST(Grid, CountsAndLayout) {
    for (GridPattern p : kPatterns) {
        GridDesc d = grid(5, 3, p);
        Mesh m = makeGrid(d);
        ASSERT_EQ(m.positions.size(), 6u * 4u);
        ASSERT_EQ(m.uvs.size(), m.positions.size());
        ASSERT_EQ(m.triangles.size(), 2u * 5u * 3u);
        for (std::uint32_t r = 0; r <= 3; ++r) {
            for (std::uint32_t c = 0; c <= 5; ++c) {
                std::uint32_t i = r * 6 + c;
                EXPECT_FLOAT_EQ(m.positions[i].x, -1.0f + 2.0f * float(c) / 5.0f);
                EXPECT_FLOAT_EQ(m.positions[i].y, 0.75f - 1.5f * float(r) / 3.0f);
                EXPECT_EQ(m.positions[i].z, 0.0f);
                EXPECT_FLOAT_EQ(m.uvs[i].x, float(c) / 5.0f);
                EXPECT_FLOAT_EQ(m.uvs[i].y, float(r) / 3.0f);
            }
        }
    }
}

TEST(Grid, EveryTriangleIsHalfAQuadAndFacesPlusZ) {
    for (GridPattern p : kPatterns) {
        GridDesc d = grid(7, 4, p, 3);
        Mesh m = makeGrid(d);
        std::vector<int> perQuad(7 * 4, 0);
        for (const glm::uvec3& t : m.triangles) {
            std::uint32_t r0 = 1000, r1 = 0, c0 = 1000, c1 = 0;
            for (int k = 0; k < 3; ++k) {
                r0 = std::min(r0, t[k] / 8), r1 = std::max(r1, t[k] / 8);
                c0 = std::min(c0, t[k] % 8), c1 = std::max(c1, t[k] % 8);
            }
            ASSERT_EQ(r1 - r0, 1u);
            ASSERT_EQ(c1 - c0, 1u);
            ++perQuad[r0 * 7 + c0];
            EXPECT_GT(signedAreaZ(m, t), 0.0) << gridPatternName(p);
        }
        for (int n : perQuad) EXPECT_EQ(n, 2);
    }
}

TEST(Grid, EveryPatternIsValidAndManifoldWithTotalArea) {
    for (GridPattern p : kPatterns) {
        for (auto [rx, ry] : {std::pair{1u, 1u}, {2u, 9u}, {16u, 16u}, {33u, 20u}}) {
            GridDesc d = grid(rx, ry, p, 42);
            Mesh m = makeGrid(d);
            EXPECT_NO_THROW(validateMesh(m, "grid"));
            double area = 0.0;
            for (const glm::uvec3& t : m.triangles) area += signedAreaZ(m, t);
            EXPECT_NEAR(area, double(d.width) * d.height, 1e-5);
        }
    }
}

TEST(Grid, PatternsDifferAndRandomIsReproducible) {
    Mesh reg = makeGrid(grid(16, 16, GridPattern::Regular));
    Mesh alt = makeGrid(grid(16, 16, GridPattern::Alternating));
    Mesh r1 = makeGrid(grid(16, 16, GridPattern::Random, 1));
    Mesh r1b = makeGrid(grid(16, 16, GridPattern::Random, 1));
    Mesh r2 = makeGrid(grid(16, 16, GridPattern::Random, 2));
    EXPECT_NE(reg.triangles, alt.triangles);
    EXPECT_NE(reg.triangles, r1.triangles);
    EXPECT_NE(alt.triangles, r1.triangles);
    EXPECT_EQ(r1.triangles, r1b.triangles);
    EXPECT_NE(r1.triangles, r2.triangles);
    // Roughly half of the random quads take each diagonal.
    std::size_t same = 0;
    for (std::size_t i = 0; i < reg.triangles.size(); i += 2)
        same += reg.triangles[i] == r1.triangles[i];
    EXPECT_GT(same, 256u / 4);
    EXPECT_LT(same, 256u * 3 / 4);
}

TEST(Grid, AlternatingIsACheckerboard) {
    Mesh m = makeGrid(grid(4, 4, GridPattern::Alternating));
    // Quad (r, c) on the main diagonal (tl-br) holds both tl and br in its first triangle.
    for (std::uint32_t r = 0; r < 4; ++r) {
        for (std::uint32_t c = 0; c < 4; ++c) {
            std::uint32_t tl = r * 5 + c, br = tl + 6;
            std::set<std::uint32_t> first{m.triangles[2 * (r * 4 + c)].x,
                                          m.triangles[2 * (r * 4 + c)].y,
                                          m.triangles[2 * (r * 4 + c)].z};
            bool main = first.count(tl) && first.count(br);
            EXPECT_EQ(main, (r + c) % 2 == 0);
        }
    }
}

TEST(Grid, BadDescriptionsAreErrors) {
    GridDesc d;
    d.resX = 0;
    EXPECT_TRUE(test::throwsError([&] { makeGrid(d); }, {"resolution"}));
    d = GridDesc{};
    d.width = -1.0f;
    EXPECT_TRUE(test::throwsError([&] { makeGrid(d); }, {"width"}));
    d = GridDesc{};
    d.resX = d.resY = 100000;
    EXPECT_TRUE(test::throwsError([&] { makeGrid(d); }, {"too large"}));
}

TEST(Grid, PatternNames) {
    for (GridPattern p : kPatterns) EXPECT_EQ(parseGridPattern(gridPatternName(p)), p);
    EXPECT_TRUE(test::throwsError([] { parseGridPattern("hexagonal"); }, {"hexagonal"}));
}
