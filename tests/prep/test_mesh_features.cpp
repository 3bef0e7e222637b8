// Sharp features of mesh colliders (prep/mesh_features.h) against meshes whose sharp edges and
// corners are known: a cube, an L-shaped prism with one concave edge, the table (five boxes),
// and a smooth blob.
#include <bit>
#include <string>

#include <gtest/gtest.h>

#include "core/collider_mesh.h"
#include "mesh_test_util.h"
#include "prep/mesh_collider.h"
#include "prep/mesh_features.h"
#include "prep_test_util.h"

using namespace cloth;

namespace {

struct Counted {
    int edges = 0, corners = 0;
};

Counted count(const Mesh& mesh) {
    std::vector<gpu::MeshNode> nodes;
    std::vector<gpu::MeshTriangle> tris;
    appendMeshCollider(mesh, nodes, tris);
    Counted c;
    for (std::uint32_t f : sharpMeshFeatures(tris)) {
        c.edges += std::popcount(f & kFeatureEdges);
        c.corners += std::popcount(f & kFeatureCorners);
    }
    return c;
}

Mesh cube() {
    Mesh m;
    for (int i = 0; i < 8; ++i)
        m.positions.push_back(glm::vec3(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f,
                                        i & 4 ? 1.0f : -1.0f));
    m.triangles = {{0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}, {0, 1, 5}, {0, 5, 4},
                   {2, 6, 7}, {2, 7, 3}, {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};
    return m;
}

// An L-shaped cross-section (one reflex corner) extruded along z.
Mesh lPrism() {
    const glm::vec2 l[6] = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};  // counter-clockwise
    Mesh m;
    for (float z : {0.0f, 1.0f})
        for (const glm::vec2& p : l) m.positions.push_back(glm::vec3(p, z));
    const std::uint32_t fan[4][3] = {{3, 4, 5}, {3, 5, 0}, {3, 0, 1}, {3, 1, 2}};
    for (const auto& t : fan) {
        m.triangles.push_back({t[0] + 6, t[1] + 6, t[2] + 6});  // top, facing +z
        m.triangles.push_back({t[0], t[2], t[1]});              // bottom, facing -z
    }
    for (std::uint32_t i = 0; i < 6; ++i) {
        const std::uint32_t j = (i + 1) % 6;
        m.triangles.push_back({i, j, j + 6});
        m.triangles.push_back({i, j + 6, i + 6});
    }
    test::makeOutward(m);
    return m;
}

}  // namespace

TEST(MeshFeatures, CubeHasTwelveSharpEdgesAndEightCorners) {
    const Counted c = count(cube());
    EXPECT_EQ(c.edges, 12);  // the face diagonals are flat
    EXPECT_EQ(c.corners, 8);
}

TEST(MeshFeatures, AConcaveEdgeIsNotSharp) {
    // 12 cap outline edges and 5 of the 6 vertical edges: the one at the reflex corner is concave.
    validateClosedMesh(lPrism(), "L prism");
    const Counted c = count(lPrism());
    EXPECT_EQ(c.edges, 17);
    EXPECT_EQ(c.corners, 12);
}

TEST(MeshFeatures, TheTableIsFiveBoxesAndTheBodyIsSmooth) {
    const std::string dir = test::sourceDir() + "/assets/meshes/";
    const Counted table = count(loadColliderMesh(dir + "table.obj"));
    EXPECT_EQ(table.edges, 5 * 12);
    EXPECT_EQ(table.corners, 5 * 8);
    const Counted body = count(loadColliderMesh(dir + "body.obj"));
    EXPECT_EQ(body.edges, 0);
    EXPECT_EQ(body.corners, 0);
}

TEST(MeshFeatures, AShallowerThresholdFindsMore) {
    // A sphere tessellated coarsely has no 30-degree edge, but its facets meet at a few degrees.
    std::vector<gpu::MeshNode> nodes;
    std::vector<gpu::MeshTriangle> tris;
    appendMeshCollider(loadColliderMesh(test::sourceDir() + "/assets/meshes/bumpy_sphere.obj"),
                       nodes, tris);
    int at30 = 0, at1 = 0;
    for (std::uint32_t f : sharpMeshFeatures(tris, 30.0f)) at30 += std::popcount(f & kFeatureEdges);
    for (std::uint32_t f : sharpMeshFeatures(tris, 1.0f)) at1 += std::popcount(f & kFeatureEdges);
    EXPECT_EQ(at30, 0);
    EXPECT_GT(at1, 1000);
}
