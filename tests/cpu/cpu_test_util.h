// Small helpers that several CPU test files use: one copy each (the test sources are compiled
// together in unity batches, where two files' anonymous namespaces are one).
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <glm/glm.hpp>

#include "core/scene.h"

namespace cloth::test {

// FNV-1a over the bytes of a position array: equal hashes for equal bits.
inline std::uint64_t fnv1a(const std::vector<glm::vec4>& v) {
    std::uint64_t h = 1469598103934665603ull;
    const auto* bytes = reinterpret_cast<const unsigned char*>(v.data());
    for (std::size_t i = 0; i < v.size() * sizeof(glm::vec4); ++i) {
        h ^= bytes[i];
        h *= 1099511628211ull;
    }
    return h;
}

// A point uniform in the cube [-r, r]^3.
inline glm::vec3 randomPoint(std::mt19937& rng, float r) {
    std::uniform_real_distribution<float> u(-r, r);
    return {u(rng), u(rng), u(rng)};
}

// The ground plane tilted by tiltDegrees about z, with static and kinetic friction muS and muK.
inline ColliderDesc plane(float tiltDegrees, float muS, float muK) {
    ColliderDesc d;
    d.name = "ground";
    d.shape = ColliderShape::Plane;
    d.transform.rotateDegrees = glm::vec3(0.0f, 0.0f, tiltDegrees);
    d.staticFriction = muS;
    d.kineticFriction = muK;
    return d;
}

}  // namespace cloth::test
