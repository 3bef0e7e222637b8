#include "render/cloth_look.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace cloth::render {

namespace {

struct Entry {
    glm::vec3 front, back;
};

// Linear RGB. Fronts far apart in hue and all saturated, so that cloths lying on each other
// read apart; none is the colliders' pale wood or the ground's grey.
constexpr std::array<Entry, kPaletteSize> kPalette{{
    {{0.45f, 0.035f, 0.03f}, {0.02f, 0.22f, 0.15f}},  // red, teal back
    {{0.03f, 0.10f, 0.45f}, {0.40f, 0.18f, 0.01f}},   // blue, amber back
    {{0.50f, 0.36f, 0.02f}, {0.15f, 0.04f, 0.30f}},   // yellow, violet back
    {{0.05f, 0.28f, 0.04f}, {0.35f, 0.03f, 0.22f}},   // green, magenta back
    {{0.20f, 0.04f, 0.38f}, {0.22f, 0.35f, 0.03f}},   // purple, lime back
    {{0.55f, 0.14f, 0.01f}, {0.03f, 0.12f, 0.35f}},   // orange, blue back
    {{0.02f, 0.30f, 0.38f}, {0.40f, 0.06f, 0.02f}},   // cyan, red back
    {{0.50f, 0.08f, 0.22f}, {0.04f, 0.25f, 0.10f}},   // pink, green back
}};

constexpr float kMaterialBack = 0.35f;

}  // namespace

gpu::ClothLook paletteLook(std::size_t index) {
    const Entry& e = kPalette[index % kPaletteSize];
    return {glm::vec4(e.front, 0.0f), glm::vec4(e.back, 0.0f)};
}

gpu::ClothLook clothLook(std::size_t index, const std::optional<glm::vec3>& color) {
    if (!color) return paletteLook(index);
    return {glm::vec4(*color, 0.0f), glm::vec4(kMaterialBack * *color, 0.0f)};
}

std::vector<glm::vec2> projectedUvs(std::span<const glm::vec4> positions,
                                    std::span<const glm::uvec3> triangles,
                                    std::uint32_t vertexBegin) {
    std::vector<glm::vec2> uvs(positions.size(), glm::vec2(0.0f));
    if (positions.empty()) return uvs;
    glm::vec3 lo(positions[0]), hi(positions[0]);
    for (const glm::vec4& p : positions) {
        lo = glm::min(lo, glm::vec3(p));
        hi = glm::max(hi, glm::vec3(p));
    }
    glm::dvec3 normalSum(0.0);
    double areaSum = 0.0;
    const auto inside = [&](std::uint32_t v) {
        return v >= vertexBegin && v - vertexBegin < positions.size();
    };
    for (const glm::uvec3& t : triangles) {
        // Sewing may have merged a vertex into another cloth's: such a triangle is left out.
        if (!inside(t.x) || !inside(t.y) || !inside(t.z)) continue;
        const glm::vec3 a(positions[t.x - vertexBegin]), b(positions[t.y - vertexBegin]),
            c(positions[t.z - vertexBegin]);
        const glm::dvec3 n(glm::cross(b - a, c - a));
        normalSum += n;
        areaSum += glm::length(n);
    }
    const glm::vec3 extent = hi - lo;
    glm::vec3 n;
    if (areaSum > 0.0 && glm::length(normalSum) > 0.5 * areaSum) {
        n = glm::vec3(glm::normalize(normalSum));
    } else {
        const int thin = extent.x <= extent.y && extent.x <= extent.z ? 0
                         : extent.y <= extent.z                        ? 1
                                                                       : 2;
        n = glm::vec3(0.0f);
        n[thin] = 1.0f;
    }
    // The axis least aligned with the normal gives the first direction in the plane.
    const glm::vec3 a = std::abs(n.x) < 0.57f ? glm::vec3(1, 0, 0)
                        : std::abs(n.y) < 0.57f ? glm::vec3(0, 1, 0)
                                                : glm::vec3(0, 0, 1);
    const glm::vec3 u = glm::normalize(glm::cross(n, a)), v = glm::cross(n, u);
    const float size = std::max({extent.x, extent.y, extent.z, 1e-6f});
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const glm::vec3 d = glm::vec3(positions[i]) - lo;
        uvs[i] = {glm::dot(d, u) / size, glm::dot(d, v) / size};
    }
    return uvs;
}

}  // namespace cloth::render
