// Brute force for the self-collision tests: the pairs of triangles that share no vertex and
// intersect, found by testing every pair whose bounding boxes overlap (sweep and prune along x:
// every such pair, nothing else skipped) in double precision. Two triangles intersect when an edge of one crosses the other: the edge's ends lie
// on opposite sides of (or on) the other's plane, and the crossing point lies inside it
// (barycentric coordinates all >= 0). Coplanar pairs are not counted.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace cloth::test {

inline bool segmentCrossesTriangle(glm::dvec3 a, glm::dvec3 b, glm::dvec3 p, glm::dvec3 q,
                                   glm::dvec3 r) {
    const glm::dvec3 n = glm::cross(q - p, r - p);
    const double da = glm::dot(n, a - p), db = glm::dot(n, b - p);
    if ((da > 0.0 && db > 0.0) || (da < 0.0 && db < 0.0) || da == db) return false;
    const glm::dvec3 x = a + (b - a) * (da / (da - db));
    // Signed areas of the sub-triangles against the normal: all >= 0 inside.
    const double u = glm::dot(glm::cross(q - x, r - x), n);
    const double v = glm::dot(glm::cross(r - x, p - x), n);
    const double w = glm::dot(glm::cross(p - x, q - x), n);
    return u >= 0.0 && v >= 0.0 && w >= 0.0;
}

inline bool trianglesIntersect(const std::array<glm::dvec3, 3>& s,
                               const std::array<glm::dvec3, 3>& t) {
    for (int k = 0; k < 3; ++k) {
        if (segmentCrossesTriangle(s[k], s[(k + 1) % 3], t[0], t[1], t[2])) return true;
        if (segmentCrossesTriangle(t[k], t[(k + 1) % 3], s[0], s[1], s[2])) return true;
    }
    return false;
}

// Pairs (i < j) of triangles sharing no vertex that intersect, at positions x.
inline std::vector<glm::uvec2> intersectingTrianglePairs(const std::vector<glm::uvec3>& tris,
                                                         const std::vector<glm::vec4>& x) {
    const std::size_t n = tris.size();
    std::vector<std::array<glm::dvec3, 3>> pts(n);
    std::vector<glm::dvec3> lo(n), hi(n);
    for (std::size_t i = 0; i < n; ++i) {
        for (int k = 0; k < 3; ++k) pts[i][k] = glm::dvec3(glm::vec3(x[tris[i][k]]));
        lo[i] = glm::min(pts[i][0], glm::min(pts[i][1], pts[i][2]));
        hi[i] = glm::max(pts[i][0], glm::max(pts[i][1], pts[i][2]));
    }
    std::vector<std::uint32_t> byX(n);
    for (std::uint32_t i = 0; i < n; ++i) byX[i] = i;
    std::sort(byX.begin(), byX.end(), [&](std::uint32_t a, std::uint32_t b) {
        return lo[a].x < lo[b].x || (lo[a].x == lo[b].x && a < b);
    });
    std::vector<glm::uvec2> out;
    for (std::size_t ii = 0; ii < n; ++ii)
        for (std::size_t jj = ii + 1; jj < n && lo[byX[jj]].x <= hi[byX[ii]].x; ++jj) {
            const std::uint32_t i = std::min(byX[ii], byX[jj]), j = std::max(byX[ii], byX[jj]);
            if (glm::any(glm::greaterThan(lo[i], hi[j])) || glm::any(glm::greaterThan(lo[j], hi[i])))
                continue;
            const glm::uvec3 a = tris[i], b = tris[j];
            bool shared = false;
            for (int p = 0; p < 3; ++p)
                for (int q = 0; q < 3; ++q) shared = shared || a[p] == b[q];
            if (shared) continue;
            if (trianglesIntersect(pts[i], pts[j])) out.push_back({i, j});
        }
    std::sort(out.begin(), out.end(), [](glm::uvec2 a, glm::uvec2 b) {
        return a.x < b.x || (a.x == b.x && a.y < b.y);
    });
    return out;
}

}  // namespace cloth::test
