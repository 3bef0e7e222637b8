// Collider meshes (core/collider_mesh.h): closed, consistently oriented, outward meshes pass;
// open, misoriented, inside-out and flat ones are refused naming the first offending edge or
// triangle. Hand-written OBJ text, and the files in tests/data/colliders.
#include <string>

#include <gtest/gtest.h>

#include "core/collider_mesh.h"
#include "test_util.h"

using namespace cloth;
using cloth::test::throwsError;

namespace {

using test::collidersDir;

const char* kTetrahedron = R"(
v 0 0 0
v 1 0 0
v 0 1 0
v 0 0 1
f 1 3 2
f 1 2 4
f 1 4 3
f 2 3 4
)";

// The unit cube as outward quads (tinyobjloader splits each into two triangles).
const char* kCube = R"(
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 4 8 7 3
f 1 5 8 4
f 2 3 7 6
)";

void closedCheck(const std::string& obj) {
    validateClosedMesh(parseObjText(obj, "shape.obj"), "shape.obj");
}

}  // namespace

TEST(ColliderMesh, ClosedOutwardMeshesPass) {
    EXPECT_NO_THROW(closedCheck(kTetrahedron));
    EXPECT_NO_THROW(closedCheck(kCube));  // quads, triangulated
    const Mesh m = loadColliderMesh(collidersDir() + "/tetrahedron.obj");
    EXPECT_EQ(m.positions.size(), 4u);
    EXPECT_EQ(m.triangles.size(), 4u);
    // Two separate closed outward pieces make one collider.
    EXPECT_NO_THROW(closedCheck(std::string(kTetrahedron) + R"(
v 5 0 0
v 6 0 0
v 5 1 0
v 5 0 1
f 5 7 6
f 5 6 8
f 5 8 7
f 6 7 8
)"));
}

TEST(ColliderMesh, OpenMisorientedAndInsideOutMeshesFail) {
    // The tetrahedron without its slanted face.
    EXPECT_TRUE(throwsError(
        [] {
            closedCheck(
                "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                "f 1 3 2\nf 1 2 4\nf 1 4 3\n");
        },
        {"shape.obj: not a closed mesh: edge (2, 1) of triangle 0 (vertices "
         "0, 2, 1) belongs to no other triangle (a hole"}));
    // One triangle: every edge is a border.
    EXPECT_TRUE(throwsError([] { closedCheck("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"); },
                            {"shape.obj: not a closed mesh: edge (0, 1) of triangle 0"}));
    // The slanted face wound the other way: it runs its three edges the same way as its
    // neighbours.
    EXPECT_TRUE(throwsError(
        [] {
            closedCheck(
                "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 4 3\n");
        },
        {"shape.obj: inconsistently oriented: triangle 0 (vertices 0, 2, 1) "
         "and triangle 3 (vertices 1, 3, 2) both run edge (2, 1) from 2 to "
         "1"}));
    // Every face reversed: closed and consistent, but the normals point inward.
    EXPECT_TRUE(throwsError(
        [] {
            closedCheck(
                "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                "f 1 2 3\nf 1 4 2\nf 1 3 4\nf 2 4 3\n");
        },
        {"shape.obj: inside out: the signed volume is -0.166667",
         "triangle 0 (vertices 0, 1, 2)"}));
    // A triangle glued back to back with itself: closed, oriented, no volume.
    EXPECT_TRUE(throwsError([] { closedCheck("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 3 2\n"); },
                            {"shape.obj: encloses no volume"}));
    // What validateMesh refuses comes first (here an edge of three triangles).
    EXPECT_TRUE(throwsError([] { closedCheck(std::string(kTetrahedron) + "v 1 1 1\nf 1 2 5\n"); },
                            {"shape.obj: edge (0, 1) is shared by 3 triangles"}));
}

TEST(ColliderMesh, LoadNamesTheFile) {
    EXPECT_TRUE(throwsError([] { loadColliderMesh(collidersDir() + "/open_tetrahedron.obj"); },
                            {"open_tetrahedron.obj: not a closed mesh"}));
    EXPECT_TRUE(throwsError([] { loadColliderMesh(collidersDir() + "/missing.obj"); },
                            {"missing.obj", "cannot open file"}));
    EXPECT_TRUE(throwsError([] { loadColliderMesh(test::badPath("malformed.obj")); },
                            {"malformed.obj", "malformed face"}));
}
