// validateMesh: each problem gives an error naming the source and the problem.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "core/mesh.h"
#include "test_util.h"

using namespace cloth;
using cloth::test::throwsError;

namespace {

Mesh twoTriangles() {  // a unit square
    Mesh m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    m.triangles = {{0, 1, 2}, {0, 2, 3}};
    return m;
}

}  // namespace

TEST(Validate, GoodMeshPasses) {
    EXPECT_NO_THROW(validateMesh(twoTriangles(), "sq"));
}

TEST(Validate, Empty) {
    Mesh m;
    EXPECT_TRUE(throwsError([&] { validateMesh(m, "e.obj"); }, {"e.obj", "empty mesh"}));
    m = twoTriangles();
    m.triangles.clear();
    EXPECT_TRUE(throwsError([&] { validateMesh(m, "e.obj"); }, {"e.obj", "no triangles"}));
}

TEST(Validate, NonFiniteCoordinates) {
    Mesh m = twoTriangles();
    m.positions[2].y = std::numeric_limits<float>::quiet_NaN();
    EXPECT_TRUE(throwsError([&] { validateMesh(m, "n"); }, {"n:", "vertex 2", "NaN"}));
    m.positions[2].y = -std::numeric_limits<float>::infinity();
    EXPECT_TRUE(throwsError([&] { validateMesh(m, "n"); }, {"vertex 2", "infinite"}));
}

TEST(Validate, IndexOutOfRange) {
    Mesh m = twoTriangles();
    m.triangles[1].z = 4;
    EXPECT_TRUE(throwsError([&] { validateMesh(m, "r"); },
                            {"r:", "triangle 1", "index 4", "out of range"}));
}

TEST(Validate, DegenerateTriangles) {
    Mesh m = twoTriangles();
    m.positions.push_back({2, 2, 0});  // 4: collinear with 0 and 2
    m.triangles.push_back({0, 2, 4});
    EXPECT_TRUE(throwsError([&] { validateMesh(m, "d"); },
                            {"d:", "triangle 2", "degenerate", "zero area"}));
    m = twoTriangles();
    m.positions.push_back({1, 1, 0});  // 4: coincides with 2
    m.triangles.push_back({1, 4, 2});
    EXPECT_TRUE(throwsError([&] { validateMesh(m, "d"); }, {"triangle 2", "degenerate"}));
    m = twoTriangles();
    m.triangles[1] = {0, 2, 2};
    EXPECT_TRUE(throwsError([&] { validateMesh(m, "d"); }, {"triangle 1", "degenerate"}));
}

TEST(Validate, ThinButValidTriangle) {
    Mesh m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0.5f, 1e-4f, 0}};
    m.triangles = {{0, 1, 2}};
    EXPECT_NO_THROW(validateMesh(m, "thin"));
}

TEST(Validate, NonManifoldEdge) {
    Mesh m = twoTriangles();
    m.positions.push_back({0.5f, 0.5f, 1.0f});
    m.triangles.push_back({0, 4, 2});
    EXPECT_TRUE(throwsError([&] { validateMesh(m, "nm"); }, {"nm:", "edge (0, 2)", "3 triangles"}));
}

TEST(Validate, UnusedVertex) {
    Mesh m = twoTriangles();
    m.positions.push_back({5, 5, 5});
    EXPECT_TRUE(throwsError([&] { validateMesh(m, "u"); }, {"vertex 4", "not used"}));
}

TEST(Validate, UvCountMismatch) {
    Mesh m = twoTriangles();
    m.uvs.resize(3);
    EXPECT_TRUE(throwsError([&] { validateMesh(m, "uv"); }, {"3 UVs for 4 vertices"}));
}
