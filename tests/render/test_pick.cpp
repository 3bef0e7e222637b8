// Ray picking against an independent brute force: every triangle, in double precision, by
// intersecting the triangle's plane and testing the point against the three edges.
#include <cmath>
#include <optional>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <glm/glm.hpp>

#include "render/pick.h"

namespace cloth::render {
namespace {

struct BruteHit {
    std::uint32_t triangle;
    double t;
    double edgeMargin;  // how far inside the triangle (relative), to skip ties on shared edges
};

std::optional<double> planeHit(const glm::dvec3& o, const glm::dvec3& d, const glm::dvec3& a,
                               const glm::dvec3& b, const glm::dvec3& c, double* margin) {
    const glm::dvec3 n = glm::cross(b - a, c - a);
    const double denom = glm::dot(n, d);
    if (std::abs(denom) < 1e-14 * glm::length(n)) return std::nullopt;
    const double t = glm::dot(n, a - o) / denom;
    if (t <= 0.0) return std::nullopt;
    const glm::dvec3 p = o + t * d;
    const double area2 = glm::dot(n, n);
    // Signed sub-areas relative to the whole: all >= 0 inside.
    const double w0 = glm::dot(glm::cross(c - b, p - b), n) / area2;
    const double w1 = glm::dot(glm::cross(a - c, p - c), n) / area2;
    const double w2 = glm::dot(glm::cross(b - a, p - a), n) / area2;
    *margin = std::min({w0, w1, w2});
    if (*margin < 0.0) return std::nullopt;
    return t;
}

std::optional<BruteHit> bruteForce(const Ray& ray, const std::vector<glm::vec4>& pos,
                                   const std::vector<glm::uvec3>& tris) {
    std::optional<BruteHit> best;
    const glm::dvec3 o(ray.origin), d(ray.direction);
    for (std::uint32_t i = 0; i < tris.size(); ++i) {
        double margin = 0.0;
        auto t = planeHit(o, d, glm::dvec3(glm::vec3(pos[tris[i].x])),
                          glm::dvec3(glm::vec3(pos[tris[i].y])),
                          glm::dvec3(glm::vec3(pos[tris[i].z])), &margin);
        if (t && (!best || *t < best->t)) best = BruteHit{i, *t, margin};
    }
    return best;
}

// A crumpled grid: a rough cloth folded over itself, so rays cross it several times.
void crumpledGrid(int n, std::vector<glm::vec4>& pos, std::vector<glm::uvec3>& tris) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> jitter(-0.01f, 0.01f);
    for (int r = 0; r <= n; ++r)
        for (int c = 0; c <= n; ++c) {
            const float u = float(c) / n, v = float(r) / n;
            // Folded in z like an accordion, rolled in y.
            pos.emplace_back(u + jitter(rng), std::sin(6.0f * v) * 0.3f + jitter(rng),
                             std::cos(9.0f * u) * 0.2f + v * 0.3f + jitter(rng), 1.0f);
        }
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            const std::uint32_t a = r * (n + 1) + c, b = a + 1, d = a + n + 1, e = d + 1;
            tris.emplace_back(a, d, b);
            tris.emplace_back(b, d, e);
        }
}

TEST(Pick, IntersectTriangleMatchesPlaneTest) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    int hits = 0;
    for (int i = 0; i < 2000; ++i) {
        const glm::vec3 a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng)),
            c(u(rng), u(rng), u(rng));
        Ray r{{u(rng), u(rng), 3.0f},
              glm::normalize(glm::vec3(u(rng) * 0.3f, u(rng) * 0.3f, -1.0f))};
        glm::vec3 bary;
        auto t = intersectTriangle(r, a, b, c, &bary);
        double margin = 0.0;
        auto ref = planeHit(glm::dvec3(r.origin), glm::dvec3(r.direction), glm::dvec3(a),
                            glm::dvec3(b), glm::dvec3(c), &margin);
        if (ref && margin < 1e-4) continue;  // too close to an edge to call
        ASSERT_EQ(t.has_value(), ref.has_value()) << "ray " << i;
        if (!t) continue;
        ++hits;
        EXPECT_NEAR(*t, *ref, 1e-4 * (1.0 + *ref));
        const glm::vec3 p = bary.x * a + bary.y * b + bary.z * c;
        EXPECT_LT(glm::distance(p, r.origin + *t * r.direction), 1e-4f);
    }
    EXPECT_GT(hits, 50);  // the sample exercises hits, not only misses
}

TEST(Pick, NearestTriangleMatchesBruteForce) {
    std::vector<glm::vec4> pos;
    std::vector<glm::uvec3> tris;
    crumpledGrid(40, pos, tris);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    int hits = 0, misses = 0;
    for (int i = 0; i < 400; ++i) {
        // From a random eye around the cloth towards a random point in (and a bit beyond) its box.
        const float az = 6.2831853f * u(rng), el = 1.2f * (u(rng) - 0.5f);
        const glm::vec3 eye = glm::vec3(0.5f, 0.0f, 0.2f) +
                              3.0f * glm::vec3(std::cos(el) * std::cos(az), std::sin(el),
                                               std::cos(el) * std::sin(az));
        const glm::vec3 aim(1.4f * u(rng) - 0.2f, 0.8f * u(rng) - 0.4f, 0.8f * u(rng) - 0.2f);
        const Ray r{eye, glm::normalize(aim - eye)};
        const auto got = pickTriangle(r, pos, tris);
        const auto ref = bruteForce(r, pos, tris);
        if (ref && ref->edgeMargin < 1e-4) continue;  // on a shared edge: either side is right
        ASSERT_EQ(got.has_value(), ref.has_value()) << "ray " << i;
        if (!got) {
            ++misses;
            continue;
        }
        ++hits;
        EXPECT_EQ(got->triangle, ref->triangle) << "ray " << i;
        EXPECT_NEAR(got->t, ref->t, 1e-4 * ref->t);
        // The nearest vertex is the triangle's vertex closest to the hit point.
        const glm::uvec3 tri = tris[got->triangle];
        for (int k = 0; k < 3; ++k)
            EXPECT_LE(glm::distance(glm::vec3(pos[got->nearestVertex]), got->point),
                      glm::distance(glm::vec3(pos[tri[k]]), got->point) + 1e-6f);
        EXPECT_TRUE(got->nearestVertex == tri.x || got->nearestVertex == tri.y ||
                    got->nearestVertex == tri.z);
    }
    EXPECT_GT(hits, 100);
    EXPECT_GT(misses, 10);
}

TEST(Pick, RayPointingAwayMisses) {
    std::vector<glm::vec4> pos{{0, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}};
    std::vector<glm::uvec3> tris{{0, 1, 2}};
    Ray towards{{0.2f, 0.2f, 1.0f}, {0.0f, 0.0f, -1.0f}};
    Ray away{{0.2f, 0.2f, 1.0f}, {0.0f, 0.0f, 1.0f}};
    ASSERT_TRUE(pickTriangle(towards, pos, tris).has_value());
    EXPECT_NEAR(pickTriangle(towards, pos, tris)->t, 1.0f, 1e-6f);
    EXPECT_FALSE(pickTriangle(away, pos, tris).has_value());
    // The back face is picked too (cloth is two-sided).
    Ray back{{0.2f, 0.2f, -1.0f}, {0.0f, 0.0f, 1.0f}};
    EXPECT_TRUE(pickTriangle(back, pos, tris).has_value());
    EXPECT_FALSE(pickTriangle(towards, pos, {}).has_value());
}

}  // namespace
}  // namespace cloth::render
