// Camera maths: checked by projecting points through the matrices, not against stored numbers.
#include <cmath>
#include <random>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "render/camera.h"

namespace cloth::render {
namespace {

constexpr float kW = 640.0f, kH = 480.0f;

OrbitCamera someCamera() {
    OrbitCamera c;
    c.target = {0.3f, 1.2f, -0.4f};
    c.distance = 2.5f;
    c.yaw = 0.7f;
    c.pitch = 0.3f;
    return c;
}

glm::mat4 viewProj(const OrbitCamera& c) {
    return c.projection(kW / kH) * c.view();
}

TEST(Camera, EyeOnSphereAroundTarget) {
    OrbitCamera c = someCamera();
    EXPECT_NEAR(glm::distance(c.eye(), c.target), c.distance, 1e-5f);
    const glm::vec3 t = glm::vec3(c.view() * glm::vec4(c.target, 1.0f));
    EXPECT_NEAR(t.x, 0.0f, 1e-5f);
    EXPECT_NEAR(t.y, 0.0f, 1e-5f);
    EXPECT_NEAR(t.z, -c.distance, 1e-5f);  // in front, looking down -z
    // yaw 0, pitch 0: the eye is on the +z side of the target.
    OrbitCamera front;
    front.target = glm::vec3(0.0f);
    EXPECT_NEAR(front.eye().z, front.distance, 1e-6f);
    EXPECT_NEAR(glm::length(front.forward() - glm::vec3(0, 0, -1)), 0.0f, 1e-6f);
}

TEST(Camera, ProjectionConventions) {
    OrbitCamera c;  // at the origin's +z side, looking along -z
    const glm::mat4 vp = viewProj(c);
    const glm::vec3 centre = projectToPixel(vp, c.target, kW, kH);
    EXPECT_NEAR(centre.x, kW / 2, 1e-3f);
    EXPECT_NEAR(centre.y, kH / 2, 1e-3f);
    // World up is image up (smaller row), world +x is image right.
    EXPECT_LT(projectToPixel(vp, c.target + glm::vec3(0, 0.1f, 0), kW, kH).y, centre.y);
    EXPECT_GT(projectToPixel(vp, c.target + glm::vec3(0.1f, 0, 0), kW, kH).x, centre.x);
    // Depth 0 at the near plane, 1 at the far plane.
    const glm::vec3 eye = c.eye();
    EXPECT_NEAR(projectToPixel(vp, eye + c.nearZ * c.forward(), kW, kH).z, 0.0f, 1e-5f);
    EXPECT_NEAR(projectToPixel(vp, eye + c.farZ * c.forward(), kW, kH).z, 1.0f, 1e-4f);
    // The vertical field of view spans the image height at the target's depth.
    const float halfHeight = c.distance * std::tan(0.5f * c.fovY);
    EXPECT_NEAR(projectToPixel(vp, c.target + glm::vec3(0, halfHeight, 0), kW, kH).y, 0.0f, 1e-2f);
}

TEST(Camera, OrbitKeepsTargetAndDistanceAndClampsPitch) {
    OrbitCamera c = someCamera();
    const glm::vec3 target = c.target;
    c.orbit(120.0f, -45.0f);
    EXPECT_EQ(c.target, target);
    EXPECT_NEAR(glm::distance(c.eye(), target), c.distance, 1e-5f);
    EXPECT_NEAR(c.yaw, 0.7f - 120.0f * OrbitCamera::kOrbitRadiansPerPixel, 1e-6f);
    c.orbit(0.0f, 1e6f);
    EXPECT_FLOAT_EQ(c.pitch, OrbitCamera::kMaxPitch);
    c.orbit(0.0f, -1e6f);
    EXPECT_FLOAT_EQ(c.pitch, -OrbitCamera::kMaxPitch);
    EXPECT_TRUE(std::isfinite(glm::length(c.view()[0])));
}

TEST(Camera, PanMovesPointsAtTargetDepthWithTheMouse) {
    OrbitCamera c = someCamera();
    const glm::vec3 p = c.target;
    const glm::vec3 before = projectToPixel(viewProj(c), p, kW, kH);
    c.pan(37.0f, -21.0f, kH);
    const glm::vec3 after = projectToPixel(viewProj(c), p, kW, kH);
    EXPECT_NEAR(after.x - before.x, 37.0f, 0.05f);
    EXPECT_NEAR(after.y - before.y, -21.0f, 0.05f);
    EXPECT_NEAR(glm::distance(c.eye(), c.target), c.distance, 1e-5f);
}

TEST(Camera, ZoomScalesDistance) {
    OrbitCamera c = someCamera();
    c.zoom(2.0f);
    EXPECT_NEAR(c.distance, 2.5f * 0.81f, 1e-5f);
    c.zoom(-2.0f);
    EXPECT_NEAR(c.distance, 2.5f, 1e-5f);
    c.zoom(1000.0f);
    EXPECT_GT(c.distance, c.nearZ);  // never through the near plane
}

TEST(Camera, RayThroughPixelPassesThroughProjectedPoint) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    OrbitCamera c = someCamera();
    const glm::mat4 vp = viewProj(c);
    for (int i = 0; i < 100; ++i) {
        const glm::vec3 p = c.target + glm::vec3(u(rng), u(rng), u(rng));
        const glm::vec3 px = projectToPixel(vp, p, kW, kH);
        const Ray r = c.rayThroughPixel(px.x, px.y, kW, kH);
        EXPECT_NEAR(glm::length(r.direction), 1.0f, 1e-5f);
        const float t = glm::dot(p - r.origin, r.direction);
        EXPECT_GT(t, 0.0f);
        EXPECT_LT(glm::distance(r.origin + t * r.direction, p), 1e-4f) << "point " << i;
    }
}

TEST(Camera, FramingShowsTheWholeBox) {
    const Bounds b{{-1.0f, 0.5f, -0.2f}, {1.0f, 2.0f, 0.3f}};
    const OrbitCamera c = OrbitCamera::framing(b, 4.0f / 3.0f);
    for (float aspect : {4.0f / 3.0f, 16.0f / 9.0f}) {
        const float h = 480.0f, w = h * aspect;
        const glm::mat4 vp = c.projection(aspect) * c.view();
        for (int k = 0; k < 8; ++k) {
            const glm::vec3 corner((k & 1) ? b.max.x : b.min.x, (k & 2) ? b.max.y : b.min.y,
                                   (k & 4) ? b.max.z : b.min.z);
            const glm::vec3 px = projectToPixel(vp, corner, w, h);
            EXPECT_GT(px.x, 0.0f);
            EXPECT_LT(px.x, w);
            EXPECT_GT(px.y, 0.0f);
            EXPECT_LT(px.y, h);
            EXPECT_GT(px.z, 0.0f);
            EXPECT_LT(px.z, 1.0f);
        }
    }
    // Tight: a little closer and some corner leaves the 4:3 picture.
    OrbitCamera closer = c;
    closer.distance *= 0.85f;
    const glm::mat4 vp = closer.projection(4.0f / 3.0f) * closer.view();
    bool outside = false;
    for (int k = 0; k < 8; ++k) {
        const glm::vec3 corner((k & 1) ? b.max.x : b.min.x, (k & 2) ? b.max.y : b.min.y,
                               (k & 4) ? b.max.z : b.min.z);
        const glm::vec3 px = projectToPixel(vp, corner, 640.0f, 480.0f);
        outside |= px.x < 0.0f || px.x > 640.0f || px.y < 0.0f || px.y > 480.0f;
    }
    EXPECT_TRUE(outside);
}

TEST(Camera, IntersectPlane) {
    Ray r{{0.0f, 2.0f, 0.0f}, glm::normalize(glm::vec3(1.0f, -1.0f, 0.0f))};
    const glm::vec3 hit = intersectPlane(r, {5.0f, 0.0f, 3.0f}, {0.0f, 1.0f, 0.0f});
    EXPECT_NEAR(glm::distance(hit, glm::vec3(2.0f, 0.0f, 0.0f)), 0.0f, 1e-5f);
    // Parallel, or behind the eye: the plane's point comes back.
    Ray flat{{0.0f, 2.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    EXPECT_EQ(intersectPlane(flat, {1.0f, 0.0f, 1.0f}, {0.0f, 1.0f, 0.0f}), glm::vec3(1, 0, 1));
    Ray up{{0.0f, 2.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};
    EXPECT_EQ(intersectPlane(up, {1.0f, 0.0f, 1.0f}, {0.0f, 1.0f, 0.0f}), glm::vec3(1, 0, 1));
}

}  // namespace
}  // namespace cloth::render
