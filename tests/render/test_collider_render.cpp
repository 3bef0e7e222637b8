// Rigid colliders on the Vulkan device (lavapipe here): drawn where colliderPose puts them at the
// frame's simulated time, in their own albedo, casting shadows onto the ground and other
// colliders, a plane collider as the floor. Checked by comparing images of one stage and camera
// with and without a collider, at pixels found by projecting analytic points.
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "app/viewer_sim.h"
#include "image_checks.h"
#include "render/draw_data.h"
#include "render/offscreen_renderer.h"
#include "render_test.h"
#include "synthetic_cloth.h"
#include "test_colliders.h"

namespace cloth::render {
namespace {

using test::RenderGpuTest;

constexpr VkExtent2D kColliderImageSize{320, 240};

using test::keep;

// A cloth, colliders, and the stage and camera all the images of a test share.
struct Scene {
    PreparedCloth prepared;
    std::vector<glm::vec4> normals;
    Stage stage;
    ViewState view;

    Scene(PreparedCloth p, std::vector<gpu::Collider> colliders) : prepared(std::move(p)) {
        prepared.colliders = std::move(colliders);
        prepared.colliderTriangles.assign(prepared.colliders.size(), glm::uvec2(0));
        normals = test::vertexNormals(prepared);
        stage = makeStage(makeDrawData(prepared));
        view.camera = OrbitCamera::framing(stage.view, float(kColliderImageSize.width) / float(kColliderImageSize.height));
    }
};

struct Shot {
    ImageRgba8 image;
    glm::mat4 viewProj{1.0f};
};

// Renders `s` with only the colliders `keepColliders` says (all by default), on the scene's own
// stage and camera, at simulated time `time`.
Shot render(const std::shared_ptr<vk::Context>& ctx, const Scene& s, double time = 0.0,
            std::optional<std::vector<gpu::Collider>> colliders = std::nullopt,
            VkExtent2D size = kColliderImageSize) {
    PreparedCloth p = s.prepared;
    if (colliders) {
        p.colliders = *colliders;
        p.colliderTriangles.assign(p.colliders.size(), glm::uvec2(0));
    }
    ShadingSettings shading;
    shading.shadowMapSize = 1024;
    OffscreenRenderer r(ctx, size, shading);
    const ClothDrawData data = makeDrawData(p);
    r.scene().setCloth(data, std::nullopt);
    UniformInputs in;
    in.stage = &s.stage;
    in.view = &s.view;
    in.shading = &shading;
    in.width = size.width;
    in.height = size.height;
    in.simTime = time;
    const gpu::FrameUniforms u = makeFrameUniforms(in);
    return {r.render(u, p.positions, s.normals), u.viewProj};
}

// The pixel a world point projects to (clamped into the image).
const std::uint8_t* pixelAt(const Shot& shot, glm::vec3 world) {
    const ImageRgba8& img = shot.image;
    const glm::vec3 q = projectToPixel(shot.viewProj, world, float(img.width), float(img.height));
    const int x = std::clamp(int(q.x), 0, img.width - 1),
              y = std::clamp(int(q.y), 0, img.height - 1);
    return &img.pixels[4 * (std::size_t(y) * img.width + x)];
}

double luma(const std::uint8_t* p) {
    return (0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]) / 255.0;
}

std::string rgb(const std::uint8_t* p) {
    const test::Hsv h = test::toHsv(p);
    return "rgb(" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ", " +
           std::to_string(p[2]) + ") hsv(" + std::to_string(h.h) + ", " + std::to_string(h.s) +
           ", " + std::to_string(h.v) + ")";
}

// Where a point's shadow falls on the plane y = planeY, along the stage's light.
glm::vec3 shadowOn(const Stage& stage, glm::vec3 p, float planeY) {
    return p - stage.lightDir * ((p.y - planeY) / stage.lightDir.y);
}

// Share of the sampled points of the sphere's visible disc that show a collider.
double colliderShareOnSphere(const Shot& shot, const OrbitCamera& cam, glm::vec3 c, float r) {
    const glm::vec3 f = cam.forward();
    const glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0, 1, 0)));
    const glm::vec3 up = glm::cross(right, f);
    int hits = 0, samples = 0;
    for (float a = -0.7f; a <= 0.71f; a += 0.1f)
        for (float b = -0.7f; b <= 0.71f; b += 0.1f) {
            if (a * a + b * b > 0.5f) continue;
            const glm::vec3 p = c + r * (a * right + b * up - std::sqrt(1.0f - a * a - b * b) * f);
            hits += test::isCollider(pixelAt(shot, p));
            ++samples;
        }
    return double(hits) / samples;
}

// A curtain (y from 1 to 2) with a sphere below its hem, a little in front.
constexpr glm::vec3 kSphere{0.0f, 0.55f, 0.15f};
constexpr float kRadius = 0.3f;

Scene sphereUnderCurtain() {
    return Scene(test::foldedSheet(24),
                 {test::collider(gpu::SHAPE_SPHERE, kSphere, {kRadius, 0, 0, 0})});
}

TEST_F(RenderGpuTest, SphereColliderIsDrawnInItsAlbedoAndCastsAShadow) {
    const Scene s = sphereUnderCurtain();
    // The stage frames the sphere too: its bounds reach below the curtain.
    EXPECT_LE(s.stage.cloth.min.y, kSphere.y - kRadius + 1e-3f);
    const Shot with = render(ctx_, s);
    const Shot without = render(ctx_, s, 0.0, std::vector<gpu::Collider>{});
    keep(with.image, "collider_sphere");
    keep(without.image, "collider_sphere_none");

    const glm::vec3 front = kSphere + kRadius * -s.view.camera.forward();  // nearest the eye
    EXPECT_TRUE(test::isCollider(pixelAt(with, front))) << rgb(pixelAt(with, front));
    EXPECT_FALSE(test::isCollider(pixelAt(without, front))) << rgb(pixelAt(without, front));
    EXPECT_GT(colliderShareOnSphere(with, s.view.camera, kSphere, kRadius), 0.9);
    EXPECT_EQ(colliderShareOnSphere(without, s.view.camera, kSphere, kRadius), 0.0);
    const test::Coverage c = test::coverage(with.image);
    EXPECT_GT(c.front, 0.03);  // the curtain is still there

    // The ground where the sphere's centre casts its shadow: darker than without the sphere.
    const glm::vec3 shadow = shadowOn(s.stage, kSphere, s.stage.groundY);
    const std::uint8_t *dark = pixelAt(with, shadow), *lit = pixelAt(without, shadow);
    EXPECT_FALSE(test::isCollider(dark)) << "the shadow's centre is hidden by the sphere";
    EXPECT_LT(luma(dark), 0.7 * luma(lit)) << rgb(dark) << " vs " << rgb(lit);
}

// A collider moving at 0.8 m/s along x is drawn where its pose is at the frame's time.
TEST_F(RenderGpuTest, MovingColliderIsDrawnAtTheSimulatedTime) {
    gpu::Collider ball = test::collider(gpu::SHAPE_SPHERE, {-0.4f, 0.5f, 0.2f}, {0.2f, 0, 0, 0});
    ball.path.type = gpu::MOTION_LINEAR;
    ball.path.u = {0.8f, 0.0f, 0.0f, 0.0f};
    const Scene s(test::foldedSheet(16), {ball});
    const glm::vec3 start(ball.origin), later = start + glm::vec3(0.8f, 0.0f, 0.0f);
    const Shot atStart = render(ctx_, s, 0.0);
    const Shot atOne = render(ctx_, s, 1.0);
    keep(atOne.image, "collider_moved");
    const glm::vec3 towardEye = -0.2f * s.view.camera.forward();
    EXPECT_TRUE(test::isCollider(pixelAt(atStart, start + towardEye)));
    EXPECT_FALSE(test::isCollider(pixelAt(atStart, later + towardEye)));
    EXPECT_FALSE(test::isCollider(pixelAt(atOne, start + towardEye)));
    EXPECT_TRUE(test::isCollider(pixelAt(atOne, later + towardEye)));
}

// A rounded box (a table top) in the shadow of a sphere above it: the box receives the shadow.
TEST_F(RenderGpuTest, ColliderReceivesAnotherCollidersShadow) {
    const glm::vec3 top(0.0f, 0.4f, 0.0f), ball(0.0f, 0.9f, 0.2f);
    const gpu::Collider table =
        test::collider(gpu::SHAPE_BOX, top - glm::vec3(0, 0.08f, 0), {0.7f, 0.08f, 0.6f, 0.03f});
    const gpu::Collider sphere = test::collider(gpu::SHAPE_SPHERE, ball, {0.15f, 0, 0, 0});
    Scene s(test::foldedSheet(16), {table, sphere});
    s.view.camera.pitch = 0.8f;  // from above, to see the table's top
    const Shot with = render(ctx_, s);
    const Shot without = render(ctx_, s, 0.0, std::vector<gpu::Collider>{table});
    keep(with.image, "collider_box_shadowed");
    const glm::vec3 shadow = shadowOn(s.stage, ball, top.y);
    const std::uint8_t *dark = pixelAt(with, shadow), *lit = pixelAt(without, shadow);
    EXPECT_TRUE(test::isCollider(lit)) << rgb(lit);
    EXPECT_LT(luma(dark), 0.7 * luma(lit)) << rgb(dark) << " vs " << rgb(lit);
}

// A tilted plane collider is the floor: the stage's ground is its height under the scene, it is
// drawn where it is (a sphere's shadow falls on it where the tilted plane meets the light ray),
// and the automatic ground is not drawn.
TEST_F(RenderGpuTest, PlaneColliderIsTheFloorWhereItIs) {
    const float tilt = 0.25f;  // radians about z
    const gpu::Collider plane =
        test::turned(test::collider(gpu::SHAPE_PLANE, {0, 0.1f, 0}, {}), {0, 0, 1}, tilt);
    const glm::vec3 ball(0.1f, 0.6f, 0.3f);
    const gpu::Collider sphere = test::collider(gpu::SHAPE_SPHERE, ball, {0.12f, 0, 0, 0});
    const Scene s(test::foldedSheet(16), {plane, sphere});
    const glm::vec2 centre(s.stage.cloth.center().x, s.stage.cloth.center().z);
    EXPECT_NEAR(s.stage.groundY, 0.1f - std::tan(tilt) * centre.x, 1e-5f);
    const Shot with = render(ctx_, s);
    const Shot without = render(ctx_, s, 0.0, std::vector<gpu::Collider>{plane});
    keep(with.image, "collider_plane_floor");
    // Where the light ray through the ball's centre meets the tilted plane (n . (x - o) = 0).
    const glm::vec3 n(-std::sin(tilt), std::cos(tilt), 0.0f), o(0, 0.1f, 0);
    const float t = glm::dot(n, ball - o) / glm::dot(n, s.stage.lightDir);
    const glm::vec3 shadow = ball - t * s.stage.lightDir;
    const std::uint8_t *dark = pixelAt(with, shadow), *lit = pixelAt(without, shadow);
    EXPECT_FALSE(test::isCollider(lit));
    EXPECT_LT(test::toHsv(lit).s, 0.12) << "not the grey ground: " << rgb(lit);
    EXPECT_LT(luma(dark), 0.7 * luma(lit)) << rgb(dark) << " vs " << rgb(lit);
}

// Over a running simulation on either backend (vertices uploaded, or drawn from the GPU solver's
// buffers): the colliders are drawn where they are at the solver's simTime(). The moving ball is
// added to the draw data only (the solver does not see it), so the cloth falls as without it.
TEST_F(RenderGpuTest, CollidersDrawnAtTheSolversTimeOnBothBackends) {
    ImageRgba8 images[2];
    glm::vec3 expected(0.0f);
    for (int b = 0; b < 2; ++b) {
        Options options;
        options.scene = "drop";
        options.backend = b == 0 ? "cpu" : "gpu";
        options.threads = 2;
        std::ostringstream notices;
        ViewerSim sim(options, ctx_, notices);
        const Bounds cloth = boundsOf(sim.prepared().positions, sim.prepared().originalVertexCount);
        gpu::Collider ball = test::collider(
            gpu::SHAPE_SPHERE, {cloth.center().x - 0.3f, cloth.min.y - 0.6f, cloth.center().z},
            {0.2f, 0, 0, 0});
        ball.path.type = gpu::MOTION_LINEAR;
        ball.path.u = {1.2f, 0.0f, 0.0f, 0.0f};
        PreparedCloth withBall = sim.prepared();
        withBall.colliders = {ball};
        withBall.colliderTriangles = {glm::uvec2(0)};
        ClothDrawData data = makeDrawData(sim.prepared());
        data.colliders = makeColliderDrawData(withBall);
        const Stage stage = makeStage(data);
        ViewState view;
        view.camera = OrbitCamera::framing(stage.view, float(kColliderImageSize.width) / float(kColliderImageSize.height));
        ShadingSettings shading;
        shading.shadowMapSize = 1024;
        OffscreenRenderer r(ctx_, kColliderImageSize, shading);
        r.scene().setCloth(data, sim.gpuBuffers());
        EXPECT_EQ(r.scene().usesGpuVertices(), b == 1);
        for (int i = 0; i < 15; ++i) sim.step();
        std::vector<glm::vec4> positions, normals;
        if (b == 0) sim.read(positions, normals);
        UniformInputs in;
        in.stage = &stage;
        in.view = &view;
        in.shading = &shading;
        in.width = kColliderImageSize.width;
        in.height = kColliderImageSize.height;
        in.simTime = sim.solver().simTime();
        EXPECT_NEAR(in.simTime, 0.25, 1e-6);  // 15 frames of 1/60 s
        const gpu::FrameUniforms u = makeFrameUniforms(in);
        images[b] = r.render(u, positions, normals);
        keep(images[b], std::string("collider_backend_") + options.backend);
        expected = glm::vec3(ball.origin) + float(in.simTime) * glm::vec3(ball.path.u);
        const Shot shot{images[b], u.viewProj};
        const glm::vec3 near = expected - 0.2f * view.camera.forward();
        EXPECT_TRUE(test::isCollider(pixelAt(shot, near))) << options.backend;
        EXPECT_GT(colliderShareOnSphere(shot, view.camera, expected, 0.2f), 0.8) << options.backend;
    }
    std::size_t differ = 0;
    for (std::size_t i = 0; i < images[0].pixels.size(); i += 4)
        differ += test::isCollider(&images[0].pixels[i]) != test::isCollider(&images[1].pixels[i]);
    EXPECT_LT(differ, images[0].pixels.size() / 4 / 500) << "the backends' pictures differ";
}

// Larger pictures for a person to look at (<build>/test_output/collider_gallery_*.png), each
// showing its colliders.
double colliderShare(const ImageRgba8& img) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < img.pixels.size(); i += 4) n += test::isCollider(&img.pixels[i]);
    return double(n) / (img.pixels.size() / 4);
}

constexpr VkExtent2D kGallerySize{960, 600};

TEST_F(RenderGpuTest, GallerySphereUnderADrapedClothOnAFloorPlane) {
    const glm::vec3 c(0.0f, 0.3f, 0.0f);  // resting on the floor
    const Scene s(test::drapedSheet(48, 0.75f, c, 0.3f),
                  {test::collider(gpu::SHAPE_SPHERE, c, {0.3f, 0, 0, 0}),
                   test::collider(gpu::SHAPE_PLANE, {0, 0, 0}, {})});
    EXPECT_FLOAT_EQ(s.stage.groundY, 0.0f);
    const Shot shot = render(ctx_, s, 0.0, std::nullopt, kGallerySize);
    keep(shot.image, "collider_gallery_sphere");
    EXPECT_GT(colliderShare(shot.image), 0.005);
    EXPECT_GT(test::coverage(shot.image).front, 0.05);
}

TEST_F(RenderGpuTest, GalleryRoundedBoxAndCapsule) {
    const gpu::Collider box =
        test::collider(gpu::SHAPE_BOX, {0.0f, 0.25f, 0.1f}, {0.45f, 0.25f, 0.3f, 0.08f});
    // A capsule lying across the box, turning about y (0.6 rad/s; drawn at t = 1.5 s).
    gpu::Collider capsule =
        test::turned(test::collider(gpu::SHAPE_CAPSULE, {0.0f, 0.62f, 0.1f}, {0.11f, 0.4f, 0, 0}),
                     {0, 0, 1}, 1.5707964f);
    capsule.spin = {0.0f, 1.0f, 0.0f, 0.6f};
    const Scene s(test::foldedSheet(32),
                  {box, capsule, test::collider(gpu::SHAPE_PLANE, {0, 0, 0}, {})});
    const Shot shot = render(ctx_, s, 1.5, std::nullopt, kGallerySize);
    keep(shot.image, "collider_gallery_box_capsule");
    EXPECT_GT(colliderShare(shot.image), 0.03);
}

TEST_F(RenderGpuTest, GalleryMeshColliders) {
    Scene s(
        test::foldedSheet(32),
        {test::turned(test::collider(gpu::SHAPE_MESH, {-0.25f, 0.3f, 0.2f}, {}), {1, 0, 0}, 0.5f),
         test::collider(gpu::SHAPE_MESH, {0.5f, 0.25f, 0.0f}, {}),
         test::collider(gpu::SHAPE_PLANE, {0, 0, 0}, {})});
    const std::vector<gpu::MeshTriangle> ring = test::torus(0.3f, 0.1f, 48, 24),
                                         gem = test::octahedron(0.25f);
    s.prepared.meshTriangles = ring;
    s.prepared.meshTriangles.insert(s.prepared.meshTriangles.end(), gem.begin(), gem.end());
    s.prepared.colliderTriangles = {glm::uvec2(0, ring.size()),
                                    glm::uvec2(ring.size(), ring.size() + gem.size()),
                                    glm::uvec2(0)};
    s.stage = makeStage(makeDrawData(s.prepared));
    s.view.camera = OrbitCamera::framing(s.stage.view, 1.6f);
    const Shot shot = render(ctx_, s, 0.0, std::nullopt, kGallerySize);
    keep(shot.image, "collider_gallery_mesh");
    EXPECT_GT(colliderShare(shot.image), 0.02);
}

}  // namespace
}  // namespace cloth::render
