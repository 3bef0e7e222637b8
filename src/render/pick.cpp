#include "render/pick.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace cloth::render {

namespace {

constexpr std::uint32_t kChunk = 64;

// Entry distance of the ray into the box, or nothing when it misses (or the box is behind).
std::optional<float> slab(const Ray& ray, const glm::vec3& inv, const glm::vec3& lo,
                          const glm::vec3& hi) {
    float tNear = 0.0f;
    float tFar = std::numeric_limits<float>::infinity();
    for (int k = 0; k < 3; ++k) {
        if (ray.direction[k] == 0.0f) {
            if (ray.origin[k] < lo[k] || ray.origin[k] > hi[k]) return std::nullopt;
            continue;
        }
        float t0 = (lo[k] - ray.origin[k]) * inv[k];
        float t1 = (hi[k] - ray.origin[k]) * inv[k];
        if (t0 > t1) std::swap(t0, t1);
        tNear = std::max(tNear, t0);
        tFar = std::min(tFar, t1);
        if (tNear > tFar) return std::nullopt;
    }
    return tNear;
}

struct ChunkHit {
    float tEntry;
    std::uint32_t chunk;
};

}  // namespace

std::optional<float> intersectTriangle(const Ray& ray, const glm::vec3& a, const glm::vec3& b,
                                       const glm::vec3& c, glm::vec3* barycentric) {
    const glm::vec3 e1 = b - a;
    const glm::vec3 e2 = c - a;
    const glm::vec3 p = glm::cross(ray.direction, e2);
    const float det = glm::dot(e1, p);
    const float scale = glm::length(e1) * glm::length(e2);
    if (std::abs(det) <= 1e-12f * scale) return std::nullopt;  // parallel or degenerate
    const float invDet = 1.0f / det;
    const glm::vec3 s = ray.origin - a;
    const float u = glm::dot(s, p) * invDet;
    if (u < 0.0f || u > 1.0f) return std::nullopt;
    const glm::vec3 q = glm::cross(s, e1);
    const float v = glm::dot(ray.direction, q) * invDet;
    if (v < 0.0f || u + v > 1.0f) return std::nullopt;
    const float t = glm::dot(e2, q) * invDet;
    if (t <= 0.0f) return std::nullopt;
    if (barycentric) *barycentric = {1.0f - u - v, u, v};
    return t;
}

std::optional<PickHit> pickTriangle(const Ray& ray, std::span<const glm::vec4> positions,
                                    std::span<const glm::uvec3> triangles) {
    const auto count = static_cast<std::uint32_t>(triangles.size());
    const glm::vec3 inv = 1.0f / ray.direction;  // inf where a component is 0: slab() skips it
    std::vector<ChunkHit> hits;
    for (std::uint32_t begin = 0; begin < count; begin += kChunk) {
        glm::vec3 lo(std::numeric_limits<float>::max());
        glm::vec3 hi(-std::numeric_limits<float>::max());
        for (std::uint32_t i = begin; i < std::min(count, begin + kChunk); ++i)
            for (int k = 0; k < 3; ++k) {
                const glm::vec3 p(positions[triangles[i][k]]);
                lo = glm::min(lo, p);
                hi = glm::max(hi, p);
            }
        if (auto t = slab(ray, inv, lo, hi)) hits.push_back({*t, begin / kChunk});
    }
    std::sort(hits.begin(), hits.end(),
              [](const ChunkHit& a, const ChunkHit& b) { return a.tEntry < b.tEntry; });

    std::optional<PickHit> best;
    for (const ChunkHit& h : hits) {
        if (best && h.tEntry > best->t) break;  // every later box starts beyond the best hit
        const std::uint32_t begin = h.chunk * kChunk;
        for (std::uint32_t i = begin; i < std::min(count, begin + kChunk); ++i) {
            const glm::uvec3 tri = triangles[i];
            glm::vec3 bary;
            auto t =
                intersectTriangle(ray, glm::vec3(positions[tri.x]), glm::vec3(positions[tri.y]),
                                  glm::vec3(positions[tri.z]), &bary);
            if (!t || (best && *t >= best->t)) continue;
            best = PickHit{i, *t, ray.origin + *t * ray.direction, bary, 0};
        }
    }
    if (best) {
        const glm::uvec3 tri = triangles[best->triangle];
        auto dist = [&](int k) { return glm::distance(glm::vec3(positions[tri[k]]), best->point); };
        int k = 0;
        for (int j = 1; j < 3; ++j)
            if (dist(j) < dist(k)) k = j;
        best->nearestVertex = tri[k];
    }
    return best;
}

}  // namespace cloth::render
