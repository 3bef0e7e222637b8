// The scene's camera (render/scene_camera.h): framing with a field of view and a target, a camera
// placed by position and target, and the turntable, each checked by projecting points through the
// matrices or against the rotation written out by hand.
#include <cmath>

#include <gtest/gtest.h>

#include "render/scene_camera.h"

namespace cloth::render {
namespace {

glm::vec3 corner(const Bounds& b, int k) {
    return {(k & 1) ? b.max.x : b.min.x, (k & 2) ? b.max.y : b.min.y, (k & 4) ? b.max.z : b.min.z};
}

// Every corner of `b` inside the view frustum of `c` for images `aspect` wide: clip coordinates
// within w (x, y) and depth in [0, 1].
::testing::AssertionResult cornersInFrustum(const OrbitCamera& c, const Bounds& b, float aspect) {
    const glm::mat4 vp = c.projection(aspect) * c.view();
    for (int k = 0; k < 8; ++k) {
        const glm::vec4 clip = vp * glm::vec4(corner(b, k), 1.0f);
        if (!(clip.w > 0.0f && std::abs(clip.x) <= clip.w && std::abs(clip.y) <= clip.w &&
              clip.z >= 0.0f && clip.z <= clip.w))
            return ::testing::AssertionFailure()
                   << "corner " << k << " at clip (" << clip.x << ", " << clip.y << ", " << clip.z
                   << ", " << clip.w << ")";
    }
    return ::testing::AssertionSuccess();
}

const Bounds kBoxes[] = {
    {{-1.0f, 0.5f, -0.2f}, {1.0f, 2.0f, 0.3f}},   // a wide panel
    {{-0.5f, 0.0f, -0.5f}, {0.5f, 2.0f, 0.5f}},   // a drop: tall
    {{3.0f, -1.0f, 7.0f}, {3.2f, 4.0f, 7.1f}},    // far from the origin, a thin pole
    {{-20.0f, 0.0f, -5.0f}, {20.0f, 0.1f, 5.0f}}, // a flat floor-like slab
};

TEST(SceneCamera, FramingHoldsEveryCornerForAnyFovAspectAndTarget) {
    for (const Bounds& b : kBoxes)
        for (float fov : {10.0f, 45.0f, 90.0f, 150.0f})
            for (float aspect : {16.0f / 9.0f, 1.0f, 0.5f}) {
                CameraDesc d;
                d.fovDegrees = fov;
                const OrbitCamera c = sceneCamera(d, b, aspect);
                EXPECT_NEAR(c.fovY, glm::radians(fov), 1e-6f);
                EXPECT_TRUE(cornersInFrustum(c, b, aspect)) << fov << " " << aspect;
                // Looking at a point off the box's centre still holds the whole box.
                d.target = b.min + 0.2f * (b.max - b.min);
                const OrbitCamera off = sceneCamera(d, b, aspect);
                EXPECT_EQ(off.target, *d.target);
                EXPECT_TRUE(cornersInFrustum(off, b, aspect)) << fov << " " << aspect;
            }
}

TEST(SceneCamera, PositionAndTargetAreUsedAsGiven) {
    const Bounds b = kBoxes[0];
    CameraDesc d;
    d.position = glm::vec3(2.0f, 3.0f, -4.0f);
    d.target = glm::vec3(0.5f, 1.0f, 0.0f);
    d.fovDegrees = 30.0f;
    const OrbitCamera c = sceneCamera(d, b, 16.0f / 9.0f);
    EXPECT_NEAR(glm::distance(c.eye(), *d.position), 0.0f, 1e-5f);
    EXPECT_EQ(c.target, *d.target);
    EXPECT_NEAR(glm::length(c.forward() - glm::normalize(*d.target - *d.position)), 0.0f, 1e-6f);
    // The target projects to the image's centre, the box lies between the near and far planes.
    const glm::vec3 centre = projectToPixel(c.projection(2.0f) * c.view(), *d.target, 200, 100);
    EXPECT_NEAR(centre.x, 100.0f, 1e-3f);
    EXPECT_NEAR(centre.y, 50.0f, 1e-3f);
    for (int k = 0; k < 8; ++k) {
        const float depth = -(c.view() * glm::vec4(corner(b, k), 1.0f)).z;
        EXPECT_GT(depth, c.nearZ);
        EXPECT_LT(depth, c.farZ);
    }
    // Without a target it looks at the box's centre.
    d.target.reset();
    EXPECT_EQ(sceneCamera(d, b, 1.0f).target, b.center());
}

// The eye after t seconds is the first eye turned about the vertical through the target by
// rate * t, written out: x' = x cos a + z sin a, z' = -x sin a + z cos a (counter-clockwise seen
// from above, +y towards the viewer), in double precision.
TEST(SceneCamera, TurntableTurnsTheEyeByRateTimesTime) {
    CameraDesc d;
    d.position = glm::vec3(1.0f, 2.5f, 4.0f);
    d.target = glm::vec3(0.2f, 1.0f, -0.3f);
    const OrbitCamera base = sceneCamera(d, kBoxes[0], 1.5f);
    for (float rate : {20.0f, -45.0f, 3600.0f})
        for (double t : {0.0, 0.25, 1.5, 7.0, 100.0 / 60.0}) {
            const double a = double(rate) * t * 3.14159265358979323846 / 180.0;
            const glm::dvec3 r = glm::dvec3(*d.position) - glm::dvec3(*d.target);
            const glm::dvec3 expected =
                glm::dvec3(*d.target) + glm::dvec3(r.x * std::cos(a) + r.z * std::sin(a), r.y,
                                                   -r.x * std::sin(a) + r.z * std::cos(a));
            const OrbitCamera c = turntableAt(base, rate, t);
            EXPECT_NEAR(glm::distance(glm::dvec3(c.eye()), expected), 0.0, 2e-5) << rate << " " << t;
            EXPECT_EQ(c.target, base.target);
        }
    // Counter-clockwise seen from above: a quarter turn takes an eye on +z to +x.
    CameraDesc front;
    front.position = glm::vec3(0.0f, 0.0f, 2.0f);
    front.target = glm::vec3(0.0f);
    const OrbitCamera q = turntableAt(sceneCamera(front, kBoxes[0], 1.0f), 90.0f, 1.0);
    EXPECT_NEAR(glm::distance(q.eye(), glm::vec3(2.0f, 0.0f, 0.0f)), 0.0f, 1e-5f);
}

}  // namespace
}  // namespace cloth::render
