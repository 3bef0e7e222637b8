// selectVertices: exact index sets on grids, corners on irregular meshes, boxes, errors.
#include <gtest/gtest.h>

#include "core/scene.h"
#include "test_util.h"

using namespace cloth;
using cloth::test::throwsError;
using Ids = std::vector<std::uint32_t>;

namespace {

Mesh grid4x3() {  // 5 x 4 vertices, rows top to bottom
    GridDesc d;
    d.width = 2.0f, d.height = 1.0f, d.resX = 4, d.resY = 3;
    return makeGrid(d);
}

Ids select(const Mesh& m, std::vector<std::string> regions) {
    VertexSelection s;
    s.regions = std::move(regions);
    return selectVertices(m, s, "test");
}

}  // namespace

TEST(Selection, GridRegions) {
    Mesh m = grid4x3();
    EXPECT_EQ(select(m, {"top_edge"}), (Ids{0, 1, 2, 3, 4}));
    EXPECT_EQ(select(m, {"bottom_edge"}), (Ids{15, 16, 17, 18, 19}));
    EXPECT_EQ(select(m, {"left_edge"}), (Ids{0, 5, 10, 15}));
    EXPECT_EQ(select(m, {"right_edge"}), (Ids{4, 9, 14, 19}));
    EXPECT_EQ(select(m, {"top_corners"}), (Ids{0, 4}));
    EXPECT_EQ(select(m, {"bottom_corners"}), (Ids{15, 19}));
    EXPECT_EQ(select(m, {"all"}).size(), 20u);
    EXPECT_EQ(select(m, {"top_corners", "left_edge"}), (Ids{0, 4, 5, 10, 15}));
}

TEST(Selection, ToleranceIsRelativeToTheBoundingBox) {
    Mesh m = grid4x3();
    float diag = std::sqrt(5.0f);
    m.positions[2].y -= 0.5e-4f * diag;  // inside the tolerance: still on the top edge
    m.positions[3].y -= 2.0e-4f * diag;  // outside
    EXPECT_EQ(select(m, {"top_edge"}), (Ids{0, 1, 2, 4}));
    for (glm::vec3& p : m.positions) p *= 1000.0f;  // same at any scale
    EXPECT_EQ(select(m, {"top_edge"}), (Ids{0, 1, 2, 4}));
}

TEST(Selection, IndicesAndBoxesUnionSortedUnique) {
    Mesh m = grid4x3();
    VertexSelection s;
    s.indices = {7, 3, 7};
    s.boxes.push_back({{-1.1f, -0.6f, -1.0f}, {-0.4f, 0.0f, 1.0f}});  // columns 0-1, rows 2-3
    s.regions = {"top_corners"};
    EXPECT_EQ(selectVertices(m, s, "t"), (Ids{0, 3, 4, 7, 10, 11, 15, 16}));
}

TEST(Selection, Errors) {
    Mesh m = grid4x3();
    VertexSelection s;
    s.indices = {20};
    EXPECT_TRUE(throwsError([&] { selectVertices(m, s, "scene.json: pins"); },
                            {"scene.json: pins", "vertex index 20 out of range", "20 vertices"}));
    s = {};
    s.regions = {"middle"};
    EXPECT_TRUE(throwsError([&] { selectVertices(m, s, "src"); },
                            {"src", "unknown region 'middle'", "top_corners"}));
}

TEST(Selection, IrregularMeshCorners) {
    // flag.obj: a rectangle, irregular inside; its top corners are its top row's end vertices.
    Mesh flag = loadObj(test::assetPath("meshes/flag.obj"));
    Ids top = select(flag, {"top_edge"});
    ASSERT_GE(top.size(), 10u);
    Ids corners = select(flag, {"top_corners"});
    ASSERT_EQ(corners.size(), 2u);
    float minX = 1e9f, maxX = -1e9f;
    for (const glm::vec3& p : flag.positions)
        minX = std::min(minX, p.x), maxX = std::max(maxX, p.x);
    std::set<float> xs{flag.positions[corners[0]].x, flag.positions[corners[1]].x};
    EXPECT_EQ(xs, (std::set<float>{minX, maxX}));
    for (std::uint32_t c : corners) EXPECT_TRUE(std::count(top.begin(), top.end(), c));
    // disc.obj: a single top vertex, so both "corners" are that vertex.
    Mesh disc = loadObj(test::assetPath("meshes/disc.obj"));
    Ids discTop = select(disc, {"top_corners"});
    ASSERT_EQ(discTop.size(), 1u);
    for (const glm::vec3& p : disc.positions) EXPECT_LE(p.y, disc.positions[discTop[0]].y);
}

TEST(Selection, FlatHorizontalMeshCornerTiesGoToLowestIndex) {
    Mesh m = grid4x3();
    for (glm::vec3& p : m.positions) p = {p.x, 0.0f, p.y};  // lying in XZ: all "top"
    EXPECT_EQ(select(m, {"top_edge"}).size(), 20u);
    EXPECT_EQ(select(m, {"top_corners"}), (Ids{0, 4}));
}
