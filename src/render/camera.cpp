#include "render/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace cloth::render {

OrbitCamera OrbitCamera::framing(const Bounds& bounds, float minAspect, float fovY,
                                 std::optional<glm::vec3> target) {
    OrbitCamera c;
    const float radius = std::max(bounds.radius(), 1e-3f);
    c.target = target.value_or(bounds.center());
    c.fovY = fovY;
    c.yaw = 0.45f;
    c.pitch = 0.45f;
    c.distance = 1.0f;
    const glm::vec3 f = c.forward();
    const glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0.0f, 1.0f, 0.0f)));
    const glm::vec3 up = glm::cross(right, f);
    // A corner at offset d from the target is in view when its sideways offsets, over its depth
    // D + d.f, stay within the field of view's tangents: D >= |d.up| / tanY - d.f (and the same
    // with d.right and tanX), and it lies beyond the near plane. (Around the box's centre the
    // corners come in opposite pairs, so the sign of d.f does not matter there.)
    const float tanY = 0.9f * std::tan(0.5f * c.fovY);
    const float tanX = tanY * minAspect;
    const float nearZ = 0.02f * radius;
    float distance = 0.0f;
    for (int k = 0; k < 8; ++k) {
        const glm::vec3 p((k & 1) ? bounds.max.x : bounds.min.x,
                          (k & 2) ? bounds.max.y : bounds.min.y,
                          (k & 4) ? bounds.max.z : bounds.min.z);
        const glm::vec3 d = p - c.target;
        const float depthOffset = glm::dot(d, f);
        distance = std::max({distance, std::abs(glm::dot(d, up)) / tanY - depthOffset,
                             std::abs(glm::dot(d, right)) / tanX - depthOffset,
                             2.0f * nearZ - depthOffset});
    }
    c.distance = std::max(distance, 0.1f * radius);
    c.nearZ = nearZ;
    c.farZ = c.distance + glm::length(c.target - bounds.center()) + 60.0f * radius;
    return c;
}

OrbitCamera OrbitCamera::lookingAt(const glm::vec3& eye, const glm::vec3& target, float fovY,
                                   const Bounds& scene) {
    OrbitCamera c;
    const glm::vec3 d = eye - target;
    c.target = target;
    c.fovY = fovY;
    c.distance = std::max(glm::length(d), 1e-6f);
    c.yaw = std::atan2(d.x, d.z);
    c.pitch = std::clamp(std::atan2(d.y, std::sqrt(d.x * d.x + d.z * d.z)), -kMaxPitch, kMaxPitch);
    const float radius = std::max(scene.radius(), 1e-3f);
    c.nearZ = std::min(0.02f * radius, 0.5f * c.distance);
    c.farZ = glm::length(eye - scene.center()) + c.distance + 60.0f * radius;
    return c;
}

glm::vec3 OrbitCamera::eye() const {
    const float cp = std::cos(pitch);
    return target + distance * glm::vec3(cp * std::sin(yaw), std::sin(pitch), cp * std::cos(yaw));
}

glm::vec3 OrbitCamera::forward() const {
    return glm::normalize(target - eye());
}

glm::mat4 OrbitCamera::view() const {
    return glm::lookAt(eye(), target, glm::vec3(0.0f, 1.0f, 0.0f));
}

glm::mat4 OrbitCamera::projection(float aspect) const {
    glm::mat4 p = glm::perspective(fovY, aspect, nearZ, farZ);
    p[1][1] *= -1.0f;  // Vulkan: clip-space y points down
    return p;
}

void OrbitCamera::orbit(float dxPixels, float dyPixels) {
    yaw -= dxPixels * kOrbitRadiansPerPixel;
    pitch = std::clamp(pitch + dyPixels * kOrbitRadiansPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(float dxPixels, float dyPixels, float height) {
    const float worldPerPixel = 2.0f * distance * std::tan(0.5f * fovY) / height;
    const glm::vec3 f = forward();
    const glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0.0f, 1.0f, 0.0f)));
    const glm::vec3 up = glm::cross(right, f);
    // Dragging right moves the scene right (the target left); dragging down moves it down.
    target += worldPerPixel * (-dxPixels * right + dyPixels * up);
}

void OrbitCamera::zoom(float steps) {
    distance = std::clamp(distance * std::pow(0.9f, steps), 4.0f * nearZ, 0.5f * farZ);
}

Ray OrbitCamera::rayThroughPixel(float x, float y, float width, float height) const {
    // From the camera basis rather than an inverse matrix: exact for any near/far ratio.
    const float tanHalf = std::tan(0.5f * fovY);
    const float ndcX = 2.0f * x / width - 1.0f;
    const float ndcY = 2.0f * y / height - 1.0f;  // +1 at the bottom row
    const glm::vec3 f = forward();
    const glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0.0f, 1.0f, 0.0f)));
    const glm::vec3 up = glm::cross(right, f);
    Ray r;
    r.origin = eye();
    r.direction =
        glm::normalize(f + ndcX * tanHalf * (width / height) * right - ndcY * tanHalf * up);
    return r;
}

glm::vec3 projectToPixel(const glm::mat4& viewProj, const glm::vec3& p, float width, float height) {
    const glm::vec4 clip = viewProj * glm::vec4(p, 1.0f);
    const glm::vec3 ndc = glm::vec3(clip) / clip.w;
    return {0.5f * (ndc.x + 1.0f) * width, 0.5f * (ndc.y + 1.0f) * height, ndc.z};
}

glm::vec3 intersectPlane(const Ray& ray, const glm::vec3& point, const glm::vec3& normal) {
    const float denom = glm::dot(ray.direction, normal);
    if (std::abs(denom) < 1e-6f) return point;
    const float t = glm::dot(point - ray.origin, normal) / denom;
    if (t <= 0.0f) return point;
    return ray.origin + t * ray.direction;
}

}  // namespace cloth::render
