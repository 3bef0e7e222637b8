// The colliders in the renderer's data and stage (no device): solids and planes apart, each mesh
// collider from its own triangles, the bounds at t = 0 without planes, the floor plane as the
// ground, and the simulated time in the frame's uniforms.
#include <gtest/gtest.h>

#include "render/draw_data.h"
#include "render/stage.h"
#include "synthetic_cloth.h"
#include "test_colliders.h"

namespace cloth::render {
namespace {

PreparedCloth withColliders(std::vector<gpu::Collider> colliders) {
    PreparedCloth p = test::foldedSheet(8);  // x in [-0.5, 0.5], y in [1, 2]
    p.colliders = std::move(colliders);
    p.colliderTriangles.assign(p.colliders.size(), glm::uvec2(0));
    return p;
}

TEST(ColliderDrawData, SolidsAndPlanesApartEachMeshFromItsTriangles) {
    PreparedCloth p =
        withColliders({test::collider(gpu::SHAPE_SPHERE, {0, 0.5f, 0}, {0.2f, 0, 0, 0}),
                       test::collider(gpu::SHAPE_PLANE, {0, 0, 0}, {}),
                       test::collider(gpu::SHAPE_MESH, {1, 0, 0}, {}),
                       test::collider(gpu::SHAPE_BOX, {0, 0, 1}, {0.1f, 0.2f, 0.3f, 0.02f}),
                       test::collider(gpu::SHAPE_MESH, {-1, 0, 0}, {})});
    const std::vector<gpu::MeshTriangle> small = test::octahedron(0.1f),
                                         big = test::octahedron(0.4f);
    p.meshTriangles = small;
    p.meshTriangles.insert(p.meshTriangles.end(), big.begin(), big.end());
    p.colliderTriangles[2] = {0, 8};
    p.colliderTriangles[4] = {8, 16};
    const ColliderDrawData d = makeDrawData(p).colliders;
    ASSERT_EQ(d.colliders.size(), 5u);
    ASSERT_EQ(d.solids.size(), 4u);
    EXPECT_EQ(d.planes, std::vector<std::uint32_t>{1});
    EXPECT_EQ(d.floor, std::optional<std::uint32_t>(1));
    const std::uint32_t order[] = {0, 2, 3, 4};
    for (std::size_t i = 0; i < d.solids.size(); ++i) {
        const ColliderDraw& s = d.solids[i];
        EXPECT_EQ(s.collider, order[i]);
        ASSERT_LE(s.firstIndex + s.indexCount, d.indices.size());
        for (std::uint32_t k = s.firstIndex; k < s.firstIndex + s.indexCount; ++k)
            ASSERT_LT(d.indices[k] + s.vertexOffset, d.vertices.size());
    }
    // The two meshes: 8 triangles each, corners at 0.1 and 0.4 from their origins.
    for (std::size_t i : {1u, 3u}) {
        const ColliderDraw& s = d.solids[i];
        EXPECT_EQ(s.indexCount, 24u);
        const float h = i == 1 ? 0.1f : 0.4f;
        for (std::uint32_t k = 0; k < s.indexCount; ++k) {
            const glm::vec3 v(d.vertices[s.vertexOffset + d.indices[s.firstIndex + k]].position);
            EXPECT_NEAR(std::abs(v.x) + std::abs(v.y) + std::abs(v.z), h, 1e-6f);
        }
    }
    // Bounds: the solids at t = 0, not the plane.
    ASSERT_TRUE(d.bounds);
    EXPECT_NEAR(d.bounds->min.x, -1.4f, 1e-5f);
    EXPECT_NEAR(d.bounds->max.x, 1.1f, 1e-5f);
    EXPECT_NEAR(d.bounds->max.z, 1.3f, 1e-5f);
    EXPECT_NEAR(d.bounds->max.y, 0.7f, 1e-5f);
}

TEST(ColliderDrawData, FloorIsTheMostUpwardPlane) {
    const gpu::Collider flat = test::collider(gpu::SHAPE_PLANE, {0, -1, 0}, {});
    const gpu::Collider wall = test::turned(flat, {0, 0, 1}, 1.5707964f);
    const gpu::Collider slope = test::turned(flat, {1, 0, 0}, 0.5f);
    const gpu::Collider steep = test::turned(flat, {1, 0, 0}, 1.1f);  // > 60 degrees
    EXPECT_EQ(makeDrawData(withColliders({wall, slope, flat})).colliders.floor, 2u);
    EXPECT_EQ(makeDrawData(withColliders({slope, wall})).colliders.floor, 0u);
    EXPECT_FALSE(makeDrawData(withColliders({wall, steep})).colliders.floor);
    EXPECT_FALSE(makeDrawData(withColliders({})).colliders.floor);
}

TEST(ColliderStage, BoundsTakeInTheSolidsNotThePlanes) {
    const PreparedCloth cloth = withColliders({});
    const Stage alone = makeStage(makeDrawData(cloth));
    // A far, huge plane changes nothing but the ground's height.
    const gpu::Collider plane = test::collider(gpu::SHAPE_PLANE, {50, -3, 80}, {});
    const Stage withPlane = makeStage(makeDrawData(withColliders({plane})));
    EXPECT_EQ(withPlane.cloth.min, alone.cloth.min);
    EXPECT_EQ(withPlane.cloth.max, alone.cloth.max);
    EXPECT_FLOAT_EQ(withPlane.groundY, -3.0f);
    // A sphere below the cloth: framed, in the shadow frustum, the automatic ground below it.
    const glm::vec3 c(0.3f, 0.2f, 0.4f);
    const Stage withSphere = makeStage(
        makeDrawData(withColliders({test::collider(gpu::SHAPE_SPHERE, c, {0.5f, 0, 0, 0})})));
    EXPECT_NEAR(withSphere.cloth.min.y, c.y - 0.5f, 1e-5f);
    EXPECT_NEAR(withSphere.cloth.max.z, c.z + 0.5f, 1e-5f);
    EXPECT_LT(withSphere.groundY, c.y - 0.5f);
    EXPECT_LE(withSphere.view.min.y, c.y - 0.5f);
    for (glm::vec3 p : {c + glm::vec3(0, -0.5f, 0), c + glm::vec3(0.5f, 0, 0)}) {
        const glm::vec4 q = withSphere.lightViewProj * glm::vec4(p, 1.0f);
        EXPECT_LT(std::abs(q.x / q.w), 1.0f);
        EXPECT_LT(std::abs(q.y / q.w), 1.0f);
        EXPECT_GT(q.z / q.w, 0.0f);
        EXPECT_LT(q.z / q.w, 1.0f);
    }
}

TEST(ColliderStage, FloorPlaneSetsTheGroundUnderTheScene) {
    const gpu::Collider slope =
        test::turned(test::collider(gpu::SHAPE_PLANE, {0.2f, 0.3f, -0.1f}, {}), {1, 0, 0}, 0.3f);
    const ClothDrawData d = makeDrawData(withColliders({slope}));
    const Stage s = makeStage(d);
    const glm::vec3 centre = s.cloth.center();
    // (centre.x, groundY, centre.z) lies on the plane.
    const gpu::ColliderPose pose = gpu::colliderPose(slope, 0.0f);
    EXPECT_NEAR(gpu::poseToLocal(pose, {centre.x, s.groundY, centre.z}).y, 0.0f, 1e-5f);
}

TEST(ColliderStage, UniformsCarryTheSimulatedTime) {
    const Stage stage = makeStage(makeDrawData(withColliders({})));
    ViewState view;
    ShadingSettings shading;
    UniformInputs in;
    in.stage = &stage;
    in.view = &view;
    in.shading = &shading;
    in.simTime = 2.75;
    const gpu::FrameUniforms u = makeFrameUniforms(in);
    EXPECT_EQ(u.time.x, 2.75f);
    EXPECT_GT(u.colliders.r, u.colliders.b);  // warm: far from the teal back
}

}  // namespace
}  // namespace cloth::render
