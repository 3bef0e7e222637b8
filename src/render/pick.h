// Ray picking of the cloth on the CPU, against the current positions (the viewer's grab).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include <glm/glm.hpp>

#include "render/camera.h"

namespace cloth::render {

struct PickHit {
    std::uint32_t triangle = 0;
    float t = 0.0f;                   // distance along the ray (the ray direction is unit length)
    glm::vec3 point{0.0f};            // ray.origin + t * ray.direction
    glm::vec3 barycentric{0.0f};      // weights of the triangle's three vertices at `point`
    std::uint32_t nearestVertex = 0;  // the triangle's vertex closest to `point`
};

// Möller–Trumbore, both faces; the distance along the ray when it crosses the triangle ahead of
// the origin, with the barycentric weights of the crossing.
std::optional<float> intersectTriangle(const Ray& ray, const glm::vec3& a, const glm::vec3& b,
                                       const glm::vec3& c, glm::vec3* barycentric = nullptr);

// The nearest triangle the ray crosses (either face), or nothing. positions[i] holds vertex i in
// xyz (w is ignored). Triangles are tested in chunks of consecutive triangles, each with a bounding
// box, nearest box first, so a click costs one pass over the positions and few exact tests.
std::optional<PickHit> pickTriangle(const Ray& ray, std::span<const glm::vec4> positions,
                                    std::span<const glm::uvec3> triangles);

}  // namespace cloth::render
