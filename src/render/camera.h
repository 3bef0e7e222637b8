// Orbit camera for the viewer: the eye sits on a sphere around a target point (yaw, pitch,
// distance); the mouse orbits, pans and zooms it. Matrices follow Vulkan's conventions:
// right-handed view space looking down -z, clip-space y pointing down, depth in [0, 1].
#pragma once

#include <optional>

#include <glm/glm.hpp>

namespace cloth::render {

struct Ray {
    glm::vec3 origin{0.0f};
    glm::vec3 direction{0.0f, 0.0f, -1.0f};  // unit length
};

struct Bounds {
    glm::vec3 min{0.0f};
    glm::vec3 max{0.0f};
    glm::vec3 center() const { return 0.5f * (min + max); }
    float radius() const { return 0.5f * glm::length(max - min); }
};

class OrbitCamera {
  public:
    glm::vec3 target{0.0f};
    float distance = 3.0f;
    float yaw = 0.0f;    // radians about +y; 0 looks along -z (the eye on the +z side)
    float pitch = 0.0f;  // radians; positive looks down on the target from above
    float fovY = glm::radians(45.0f);
    float nearZ = 0.01f;
    float farZ = 100.0f;

    // A view of `bounds` from the front, a little above and to the side: the closest distance at
    // which every corner of the box lies inside 90% of the field of view `fovY` (radians), for
    // images at least `minAspect` wide per unit of height. It looks at `target` when given, else
    // at the box's centre.
    static OrbitCamera framing(const Bounds& bounds, float minAspect = 4.0f / 3.0f,
                               float fovY = glm::radians(45.0f),
                               std::optional<glm::vec3> target = {});
    // The camera at `eye` looking at `target` (the pitch clamped to kMaxPitch), with near and far
    // planes that hold `scene` (and the target) from there.
    static OrbitCamera lookingAt(const glm::vec3& eye, const glm::vec3& target, float fovY,
                                 const Bounds& scene);

    glm::vec3 eye() const;
    glm::vec3 forward() const;  // unit, from the eye towards the target
    glm::mat4 view() const;
    glm::mat4 projection(float aspect) const;  // Vulkan clip space (y down, z in [0, 1])

    // Mouse motions in pixels, for a viewport `height` pixels tall.
    void orbit(float dxPixels, float dyPixels);
    // Moves the target in the view plane so that points at the target's depth follow the mouse.
    void pan(float dxPixels, float dyPixels, float height);
    // Positive steps move in: distance shrinks by 10% per step.
    void zoom(float steps);

    // The ray from the eye through pixel (x, y) (top-left origin, pixel centres at +0.5).
    Ray rayThroughPixel(float x, float y, float width, float height) const;

    static constexpr float kMaxPitch = 1.55f;  // just short of straight up or down
    static constexpr float kOrbitRadiansPerPixel = 0.005f;
};

// Window coordinates of a world point (top-left origin), and its depth in [0, 1].
glm::vec3 projectToPixel(const glm::mat4& viewProj, const glm::vec3& p, float width, float height);

// Where `ray` meets the plane through `point` with normal `normal`; `point` itself when the ray
// runs parallel to the plane or the plane lies behind the eye.
glm::vec3 intersectPlane(const Ray& ray, const glm::vec3& point, const glm::vec3& normal);

}  // namespace cloth::render
