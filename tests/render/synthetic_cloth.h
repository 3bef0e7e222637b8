// A folded sheet with analytic shape, for renderer tests that need no solver: a curtain in the
// XY plane (top edge at y = 2) with vertical folds that deepen towards the bottom.
#pragma once

#include <cmath>
#include <vector>

#include <glm/glm.hpp>

#include "prep/prepared.h"

namespace cloth::test {

// n x n quads, top corners pinned (w = 0), UVs from (0, 0) top-left to (1, 1) bottom-right.
inline PreparedCloth foldedSheet(std::uint32_t n) {
    PreparedCloth p;
    p.originalVertexCount = (n + 1) * (n + 1);
    for (std::uint32_t r = 0; r <= n; ++r)
        for (std::uint32_t c = 0; c <= n; ++c) {
            const float u = float(c) / n, v = float(r) / n;
            const float x = u - 0.5f, y = 2.0f - v;
            const float z = 0.09f * v * std::sin(u * 6.2831853f * 3.0f);
            const bool pinned = r == 0 && (c == 0 || c == n);
            p.positions.emplace_back(x, y, z, pinned ? 0.0f : 1.0f);
            p.uvs.emplace_back(u, v);
        }
    p.velocities.assign(p.positions.size(), glm::vec4(0.0f));
    for (std::uint32_t r = 0; r < n; ++r)
        for (std::uint32_t c = 0; c < n; ++c) {
            const std::uint32_t a = r * (n + 1) + c, b = a + 1, d = a + n + 1, e = d + 1;
            p.triangles.emplace_back(a, d, b);  // counter-clockwise seen from +z
            p.triangles.emplace_back(b, d, e);
        }
    return p;
}

// An n x n sheet of side `side` draped over a sphere (centre c, radius r): on the sphere's cap
// (0.01 above it) out to 0.7 of its radius from the axis, then straight down the cap's tangent
// cone, as a cloth resting on a ball looks. Front (counter-clockwise) up; UVs over the sheet.
inline PreparedCloth drapedSheet(std::uint32_t n, float side, glm::vec3 c, float r) {
    PreparedCloth p;
    p.originalVertexCount = (n + 1) * (n + 1);
    const float rr = r + 0.01f, d0 = 0.7f * rr;
    const float y0 = std::sqrt(rr * rr - d0 * d0), slope = d0 / y0;
    for (std::uint32_t row = 0; row <= n; ++row)
        for (std::uint32_t col = 0; col <= n; ++col) {
            const float u = float(col) / n, v = float(row) / n;
            const float x = (u - 0.5f) * side, z = (v - 0.5f) * side;
            const float d = std::sqrt(x * x + z * z);
            const float y = d < d0 ? std::sqrt(rr * rr - d * d) : y0 - slope * (d - d0);
            p.positions.emplace_back(c.x + x, c.y + y, c.z + z, 1.0f);
            p.uvs.emplace_back(u, v);
        }
    p.velocities.assign(p.positions.size(), glm::vec4(0.0f));
    for (std::uint32_t row = 0; row < n; ++row)
        for (std::uint32_t col = 0; col < n; ++col) {
            const std::uint32_t a = row * (n + 1) + col, b = a + 1, d = a + n + 1, e = d + 1;
            p.triangles.emplace_back(a, d, b);  // counter-clockwise seen from +y
            p.triangles.emplace_back(b, d, e);
        }
    return p;
}

// Area-weighted vertex normals (the solvers' definition).
inline std::vector<glm::vec4> vertexNormals(const PreparedCloth& p) {
    std::vector<glm::vec3> n(p.originalVertexCount, glm::vec3(0.0f));
    for (const glm::uvec3& t : p.triangles) {
        const glm::vec3 a(p.positions[t.x]), b(p.positions[t.y]), c(p.positions[t.z]);
        const glm::vec3 f = glm::cross(b - a, c - a);
        for (int k = 0; k < 3; ++k) n[t[k]] += f;
    }
    std::vector<glm::vec4> out;
    for (const glm::vec3& v : n) out.emplace_back(glm::normalize(v), 0.0f);
    return out;
}

}  // namespace cloth::test
