// Self-collision and cloth-cloth collision on the CPU reference (cpu/self_collision.h,
// src/kernels/self_contacts.h):
//  - the closest point of a triangle against a dense barycentric grid;
//  - each contact's projection against its constraint: it lands on C = 0, keeps the momentum,
//    pushes a crossed vertex or edge back to the side it started on, and friction keeps or
//    takes the slide as computed by hand;
//  - the contacts found through the hierarchy and the representative triangles against brute
//    force over every vertex-triangle and edge-edge pair, on an accordion-folded cloth and on
//    two cloths across each other, for 1 to 3 threads;
//  - end to end: a strip dropped in coils and three cloths dropped on a cube never have two
//    triangles (sharing no vertex) through each other in any checked frame (a brute-force
//    triangle-triangle test), while the same scenes without self-collision do;
//  - any thread count gives the same bits.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <tuple>

#include <gtest/gtest.h>

#include "../common/scene_stretch.h"
#include "prep/edge_stretch.h"
#include "fixtures/triangle_intersections.h"
#include "core/scene.h"
#include "cpu/backend.h"
#include "cpu/self/self_collision.h"
#include "kernels/self_solve.h"
#include "prep/prepare.h"
#include "kernels/self_contacts.h"
#include "kernels/self_motion.h"
#include "cpu_test_util.h"

using namespace cloth;

namespace {

std::uint64_t edgeKey(std::uint32_t a, std::uint32_t b) {
    return (std::uint64_t(std::min(a, b)) << 32) | std::max(a, b);
}

// A lone triangle owns all its edges and corners (self_contacts.h's selfClosestFeatureOwned).
constexpr std::uint32_t kAllOwned = 0x3Fu;

using test::randomPoint;

// The constraint value of a contact at positions x0..x3.
double contactValue(const gpu::SelfContact& c, const std::array<glm::vec4, 4>& x) {
    glm::dvec3 r(0.0);
    for (int k = 0; k < 4; ++k) r += glm::dvec3(glm::vec3(x[k])) * double(c.weights[k]);
    return glm::dot(glm::dvec3(glm::vec3(c.normal)), r) - double(c.normal.w);
}

// Applies one contact's corrections to x as the solve does for vertices with only this contact:
// each moves by its weighted mean, the correction itself.
std::array<glm::vec4, 4> project(const gpu::SelfContact& c, std::array<glm::vec4, 4> x,
                                 const std::array<glm::vec3, 4>& s, float muS, float muK) {
    glm::vec4 d[4];
    gpu::selfContactCorrections(c, x[0], x[1], x[2], x[3], s[0], s[1], s[2], s[3], muS, muK, d[0],
                                d[1], d[2], d[3]);
    for (int k = 0; k < 4; ++k) x[k] += glm::vec4(glm::vec3(gpu::featureMean(d[k])), 0.0f);
    return x;
}

Scene gridScene(const char* name, std::uint32_t n, float size) {
    Scene s;
    s.name = name;
    ClothDesc c;
    c.name = "cloth";
    GridDesc g;
    g.width = g.height = size;
    g.resX = g.resY = n;
    c.grid = g;
    c.tethers = false;
    s.cloths.push_back(c);
    s.sim.selfCollision = SelfCollisionSettings{};
    return s;
}

}  // namespace

TEST(SelfContacts, ClosestBarycentricMatchesADenseGrid) {
    std::mt19937 rng(11);
    const int n = 300;
    for (int trial = 0; trial < 300; ++trial) {
        const glm::vec3 a = randomPoint(rng, 1.0f), b = randomPoint(rng, 1.0f);
        const glm::vec3 c = randomPoint(rng, 1.0f), p = randomPoint(rng, 1.5f);
        const glm::vec3 w = gpu::selfClosestBarycentric(p, a, b, c);
        ASSERT_TRUE(w.x >= -1e-6f && w.y >= -1e-6f && w.z >= -1e-6f) << trial;
        ASSERT_NEAR(w.x + w.y + w.z, 1.0f, 1e-5f);
        const glm::dvec3 q = glm::dvec3(a) * double(w.x) + glm::dvec3(b) * double(w.y) +
                             glm::dvec3(c) * double(w.z);
        const double found = glm::length(glm::dvec3(p) - q);
        double grid = 1e30;
        for (int i = 0; i <= n; ++i)
            for (int j = 0; i + j <= n; ++j) {
                const double u = double(i) / n, v = double(j) / n;
                const glm::dvec3 x = glm::dvec3(a) * (1.0 - u - v) + glm::dvec3(b) * u +
                                     glm::dvec3(c) * v;
                grid = std::min(grid, glm::length(glm::dvec3(p) - x));
            }
        const double spacing = (glm::length(b - a) + glm::length(c - a)) / n;
        EXPECT_LE(found, grid + 1e-5) << trial;
        EXPECT_GE(found, grid - spacing - 1e-5) << trial;
        // The same point as the mesh colliders' closest point.
        std::uint32_t feature;
        const glm::vec3 m = gpu::meshClosestPoint(p, a, b, c, feature);
        EXPECT_LT(glm::length(glm::dvec3(m) - q), 1e-5) << trial;
    }
}

TEST(SelfContacts, VertexTriangleProjectionLandsOnItsConstraintAndKeepsMomentum) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> mass(0.2f, 3.0f);
    int found = 0;
    for (int trial = 0; trial < 200; ++trial) {
        // A well-shaped triangle (10 cm sides, +-1 cm), turned at random.
        const glm::vec3 e1 = glm::normalize(randomPoint(rng, 1.0f));
        const glm::vec3 e2 = glm::normalize(glm::cross(e1, randomPoint(rng, 1.0f)));
        const glm::vec3 t0 = randomPoint(rng, 0.01f);
        const glm::vec3 t1 = t0 + 0.1f * e1 + randomPoint(rng, 0.01f);
        const glm::vec3 t2 = t0 + 0.05f * e1 + 0.0866f * e2 + randomPoint(rng, 0.01f);
        const glm::vec3 nrm = glm::normalize(glm::cross(t1 - t0, t2 - t0));
        const glm::vec3 centre = (t0 + t1 + t2) / 3.0f;
        // Starts 8 mm above the triangle, predicted 3 mm below it (crossed).
        const glm::vec3 xp = centre + 0.008f * nrm + randomPoint(rng, 0.002f);
        const glm::vec3 yp = centre - 0.003f * nrm;
        const float keep = 0.01f, margin = 0.005f;
        gpu::SelfContact c;
        c.vertices = glm::uvec4(0, 1, 2, 3);
        ASSERT_TRUE(gpu::selfVertexTriangle(xp, t0, t1, t2, yp, t0, t1, t2, kAllOwned, keep,
                                            margin, c.weights, c.normal));
        EXPECT_NEAR(c.weights.x + c.weights.y + c.weights.z + c.weights.w, 0.0f, 1e-6f);
        if (c.weights.y > -1e-3f || c.weights.z > -1e-3f || c.weights.w > -1e-3f) continue;
        ++found;
        // Inside: the direction is the face normal, towards the side the vertex started on.
        EXPECT_GT(glm::dot(glm::vec3(c.normal), nrm), 0.9999f) << trial;
        std::array<glm::vec4, 4> x = {glm::vec4(yp, 1.0f / mass(rng)), glm::vec4(t0, 1.0f / mass(rng)),
                                      glm::vec4(t1, 1.0f / mass(rng)), glm::vec4(t2, 1.0f / mass(rng))};
        const std::array<glm::vec3, 4> s = {yp, t0, t1, t2};  // no slide: no friction
        ASSERT_LT(contactValue(c, x), 0.0);
        const auto y = project(c, x, s, 0.5f, 0.4f);
        EXPECT_NEAR(contactValue(c, y), 0.0, 1e-6) << trial;
        glm::dvec3 momentum(0.0);
        for (int k = 0; k < 4; ++k)
            momentum += glm::dvec3(glm::vec3(y[k]) - glm::vec3(x[k])) / double(x[k].w);
        EXPECT_LT(glm::length(momentum), 1e-6) << trial;
        // The vertex is back on its starting side, about `keep` above the triangle, which
        // tilted a little as it moved (the fixed direction's second-order error).
        const glm::vec3 m0 = glm::vec3(y[1]), m1 = glm::vec3(y[2]), m2 = glm::vec3(y[3]);
        const glm::vec3 n2 = glm::normalize(glm::cross(m1 - m0, m2 - m0));
        EXPECT_NEAR(glm::dot(glm::vec3(y[0]) - m0, n2), keep, 0.05 * keep) << trial;
    }
    EXPECT_GT(found, 100);
}

TEST(SelfContacts, EdgeEdgeProjectionPushesACrossedEdgeBackTheWayItCame) {
    std::mt19937 rng(5);
    for (int trial = 0; trial < 200; ++trial) {
        // Edge p along x, edge q along y, p starting 6 mm above q and predicted 4 mm below.
        const glm::vec3 off = randomPoint(rng, 0.01f);
        const glm::vec3 p0(-0.05f, 0.0f, 0.006f), p1(0.05f, 0.0f, 0.006f);
        const glm::vec3 q0 = glm::vec3(0.0f, -0.05f, 0.0f) + off * glm::vec3(1, 1, 0);
        const glm::vec3 q1 = glm::vec3(0.0f, 0.05f, 0.0f) + off * glm::vec3(1, 1, 0);
        const glm::vec3 down(0.0f, 0.0f, -0.01f);
        gpu::SelfContact c;
        c.vertices = glm::uvec4(0, 1, 2, 3);
        ASSERT_TRUE(gpu::selfEdgeEdge(p0, p1, q0, q1, p0 + down, p1 + down, q0, q1, 0.01f,
                                      0.005f, c.weights, c.normal));
        EXPECT_NEAR(c.normal.z, 1.0f, 1e-5f);
        std::array<glm::vec4, 4> x = {glm::vec4(p0 + down, 1.0f), glm::vec4(p1 + down, 2.0f),
                                      glm::vec4(q0, 0.5f), glm::vec4(q1, 1.0f)};
        const std::array<glm::vec3, 4> s = {p0 + down, p1 + down, q0, q1};
        const auto y = project(c, x, s, 0.0f, 0.0f);
        EXPECT_NEAR(contactValue(c, y), 0.0, 1e-6);
        // The closest points are `keep` apart again, p's above q's.
        float a, b;
        gpu::segmentClosest(glm::vec3(y[0]), glm::vec3(y[1]), glm::vec3(y[2]), glm::vec3(y[3]), a, b);
        const glm::vec3 d = glm::mix(glm::vec3(y[0]), glm::vec3(y[1]), a) -
                            glm::mix(glm::vec3(y[2]), glm::vec3(y[3]), b);
        EXPECT_NEAR(d.z, 0.01f, 1e-4f) << trial;
        glm::dvec3 momentum(0.0);
        for (int k = 0; k < 4; ++k)
            momentum += glm::dvec3(glm::vec3(y[k]) - glm::vec3(x[k])) / double(x[k].w);
        EXPECT_LT(glm::length(momentum), 1e-6);
    }
}

TEST(SelfContacts, FrictionKeepsOrTakesTheSlideAsComputedByHand) {
    // A vertex 2 mm into the keep distance above a pinned triangle's interior, having slid
    // 1 mm along x over the substep: N = 2 mm.
    const glm::vec3 t0(-0.1f, -0.1f, 0.0f), t1(0.1f, -0.1f, 0.0f), t2(0.0f, 0.1f, 0.0f);
    gpu::SelfContact c;
    c.vertices = glm::uvec4(0, 1, 2, 3);
    const glm::vec3 start(0.0f, 0.0f, 0.008f), now(0.001f, 0.0f, 0.008f);
    ASSERT_TRUE(gpu::selfVertexTriangle(start, t0, t1, t2, now, t0, t1, t2, kAllOwned, 0.01f,
                                        0.005f, c.weights, c.normal));
    const std::array<glm::vec4, 4> x = {glm::vec4(now, 1.0f), glm::vec4(t0, 0.0f),
                                        glm::vec4(t1, 0.0f), glm::vec4(t2, 0.0f)};
    const std::array<glm::vec3, 4> s = {start, t0, t1, t2};
    // Static (mu_s N = 1.2 mm >= 1 mm): the slide is undone.
    auto y = project(c, x, s, 0.6f, 0.4f);
    EXPECT_NEAR(y[0].x, 0.0f, 1e-7f);
    EXPECT_NEAR(y[0].z, 0.010f, 1e-7f);
    // Kinetic (mu_s N = 0.6 mm < 1 mm): mu_k N = 0.4 mm of it taken.
    y = project(c, x, s, 0.3f, 0.2f);
    EXPECT_NEAR(y[0].x, 0.0006f, 1e-7f);
    EXPECT_NEAR(y[0].z, 0.010f, 1e-7f);
    // No friction: the slide stays.
    y = project(c, x, s, 0.0f, 0.0f);
    EXPECT_NEAR(y[0].x, 0.001f, 1e-7f);
}

TEST(SelfContacts, PairsThatNeverComeWithinReachAreNoContacts) {
    const glm::vec3 t0(-0.1f, -0.1f, 0.0f), t1(0.1f, -0.1f, 0.0f), t2(0.0f, 0.1f, 0.0f);
    glm::vec4 w, n;
    // 2 cm above and staying: no (reach 1.5 cm). Approaching to 1.4 cm: yes.
    const glm::vec3 p(0.0f, 0.0f, 0.02f);
    EXPECT_FALSE(gpu::selfVertexTriangle(p, t0, t1, t2, p, t0, t1, t2, kAllOwned, 0.01f, 0.005f,
                                         w, n));
    EXPECT_TRUE(gpu::selfVertexTriangle(p, t0, t1, t2, glm::vec3(0, 0, 0.014f), t0, t1, t2,
                                        kAllOwned, 0.01f, 0.005f, w, n));
    // Swept boxes 1.6 cm apart along x never come within 1.5 cm.
    EXPECT_TRUE(gpu::selfBoxesApart(glm::vec3(0.0f), glm::vec3(0.01f), glm::vec3(0.026f, 0, 0),
                                    glm::vec3(0.03f), 0.015f));
    EXPECT_FALSE(gpu::selfBoxesApart(glm::vec3(0.0f), glm::vec3(0.01f), glm::vec3(0.024f, 0, 0),
                                     glm::vec3(0.03f), 0.015f));
}

// A point 6 mm above a flat 6 x 6 grid (10 cm edges, contacts within 1.5 cm), against every
// triangle: the contacts kept hold the point right below (the closest, 6 mm away), never the
// same point twice (a point on an edge or at a corner is every triangle's around it), and no
// more than the triangles' distinct closest points within reach (merged here).
TEST(SelfContacts, AClothsClosestPointsAreEachOneContactAtMost) {
    const PreparedCloth p = prepareScene(gridScene("patch", 6, 0.6f));
    std::vector<glm::vec3> x(p.originalVertexCount);
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v) x[v] = glm::vec3(p.positions[v]);
    const glm::uvec3 t0 = p.triangles[0];
    const glm::vec3 up = glm::normalize(glm::cross(x[t0.y] - x[t0.x], x[t0.z] - x[t0.x]));
    const float keep = 0.01f, margin = 0.005f, height = 0.006f;
    std::vector<glm::vec3> below;  // points on the cloth: corners, edge middles, random
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v) below.push_back(x[v]);
    for (const glm::uvec3& t : p.triangles) below.push_back((x[t.x] + x[t.y]) * 0.5f);
    std::mt19937 rng(21);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (int k = 0; k < 400; ++k) {
        const glm::uvec3 t = p.triangles[rng() % p.triangles.size()];
        float a = u(rng), b = u(rng);
        if (a + b > 1.0f) a = 1.0f - a, b = 1.0f - b;
        below.push_back(x[t.x] + a * (x[t.y] - x[t.x]) + b * (x[t.z] - x[t.x]));
    }
    std::size_t total = 0, distinct = 0;
    for (const glm::vec3& q : below) {
        const glm::vec3 v = q + height * up;
        std::vector<glm::vec3> kept, points;
        for (std::uint32_t i = 0; i < p.triangles.size(); ++i) {
            const glm::uvec3 t = p.triangles[i];
            glm::vec4 w, n;
            if (gpu::selfVertexTriangle(v, x[t.x], x[t.y], x[t.z], v, x[t.x], x[t.y], x[t.z],
                                        p.triangleFeatureInfo[i], keep, margin, w, n))
                kept.push_back(-(w.y * x[t.x] + w.z * x[t.y] + w.w * x[t.z]));
            const glm::vec3 b = gpu::selfClosestBarycentric(v, x[t.x], x[t.y], x[t.z]);
            const glm::vec3 c = b.x * x[t.x] + b.y * x[t.y] + b.z * x[t.z];
            if (glm::length(v - c) >= keep + margin) continue;
            bool seen = false;
            for (const glm::vec3& o : points) seen = seen || glm::length(o - c) < 1e-5f;
            if (!seen) points.push_back(c);
        }
        ASSERT_FALSE(kept.empty()) << q.x << " " << q.y << " " << q.z;
        float nearest = 1e30f;
        for (std::size_t a = 0; a < kept.size(); ++a) {
            nearest = std::min(nearest, glm::length(v - kept[a]));
            for (std::size_t b = a + 1; b < kept.size(); ++b)
                EXPECT_GT(glm::length(kept[a] - kept[b]), 1e-5f) << "the same point twice";
        }
        EXPECT_NEAR(nearest, height, 1e-6f);
        EXPECT_LE(kept.size(), points.size());
        total += kept.size();
        distinct += points.size();
    }
    // Far fewer than one per triangle within reach, and fewer than the distinct points.
    EXPECT_LT(double(total) / double(below.size()), 4.0);
    EXPECT_LT(total, distinct);
    std::printf("contacts per point: %.2f kept, %.2f distinct closest points\n",
                double(total) / double(below.size()), double(distinct) / double(below.size()));
}

// Edges 6 mm above the same grid: one lying along a grid edge has no edge-edge contact (its
// closest points are ends: its vertices' contacts hold it); one crossing the grid has one per
// grid edge it crosses inside both (a crossing found here in the plane).
TEST(SelfContacts, EdgesTouchWhereTheyCrossInsideBoth) {
    const PreparedCloth p = prepareScene(gridScene("patch", 6, 0.6f));
    std::vector<glm::vec3> x(p.originalVertexCount);
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v) x[v] = glm::vec3(p.positions[v]);
    const glm::uvec3 t0 = p.triangles[0];
    const glm::vec3 e1 = glm::normalize(x[t0.y] - x[t0.x]);
    const glm::vec3 up = glm::normalize(glm::cross(e1, x[t0.z] - x[t0.x]));
    const glm::vec3 e2 = glm::cross(up, e1);
    std::map<std::uint64_t, glm::uvec2> edges;
    for (const glm::uvec3& t : p.triangles)
        for (int k = 0; k < 3; ++k)
            edges.emplace(edgeKey(t[k], t[(k + 1) % 3]), glm::uvec2(t[k], t[(k + 1) % 3]));
    const float keep = 0.01f, margin = 0.005f, height = 0.006f;
    auto contacts = [&](glm::vec3 a, glm::vec3 b) {
        int n = 0;
        for (const auto& [key, e] : edges) {
            glm::vec4 w, nr;
            n += gpu::selfEdgeEdge(a, b, x[e.x], x[e.y], a, b, x[e.x], x[e.y], keep, margin, w,
                                   nr)
                     ? 1
                     : 0;
        }
        return n;
    };
    for (const auto& [key, e] : edges)
        EXPECT_EQ(contacts(x[e.x] + height * up, x[e.y] + height * up), 0);
    std::mt19937 rng(4);
    std::uniform_real_distribution<float> u(-0.28f, 0.28f);
    const glm::vec3 o = 0.5f * (*std::min_element(x.begin(), x.end(), [&](auto& a, auto& b) {
        return glm::dot(a, e1 + e2) < glm::dot(b, e1 + e2);
    }) + *std::max_element(x.begin(), x.end(), [&](auto& a, auto& b) {
        return glm::dot(a, e1 + e2) < glm::dot(b, e1 + e2);
    }));
    int tried = 0, total = 0;
    while (tried < 100) {
        const glm::vec2 a(u(rng), u(rng)), b(u(rng), u(rng));
        // Crossings in the plane: a + s (b - a) = c + t (d - c), s and t in (0, 1).
        int crossings = 0;
        bool clear = true;
        for (const auto& [key, e] : edges) {
            const glm::vec2 c(glm::dot(x[e.x] - o, e1), glm::dot(x[e.x] - o, e2));
            const glm::vec2 d(glm::dot(x[e.y] - o, e1), glm::dot(x[e.y] - o, e2));
            const glm::vec2 r = b - a, q = d - c;
            const float den = r.x * q.y - r.y * q.x;
            if (std::abs(den) < 1e-6f) continue;
            const float s = ((c.x - a.x) * q.y - (c.y - a.y) * q.x) / den;
            const float t = ((c.x - a.x) * r.y - (c.y - a.y) * r.x) / den;
            if (s > 0.0f && s < 1.0f && t > 0.0f && t < 1.0f) ++crossings;
            // Keep away from ends: there the edges' vertices hold them instead.
            const float near = 0.01f;
            if ((std::abs(s) < near || std::abs(s - 1.0f) < near) && t > -near && t < 1 + near)
                clear = false;
            if ((std::abs(t) < near || std::abs(t - 1.0f) < near) && s > -near && s < 1 + near)
                clear = false;
        }
        if (!clear) continue;
        ++tried;
        const glm::vec3 a3 = o + a.x * e1 + a.y * e2 + height * up;
        const glm::vec3 b3 = o + b.x * e1 + b.y * e2 + height * up;
        EXPECT_EQ(contacts(a3, b3), crossings) << tried;
        total += crossings;
    }
    EXPECT_GT(total, 100);
}

namespace {

using Key = std::tuple<int, std::uint64_t, std::uint64_t>;

Key keyOf(const gpu::SelfContact& c, bool edges) {
    if (!edges)
        return {0, c.vertices.x,
                (std::uint64_t(c.vertices.y) << 42) | (std::uint64_t(c.vertices.z) << 21) |
                    c.vertices.w};
    const std::uint64_t a = edgeKey(c.vertices.x, c.vertices.y);
    const std::uint64_t b = edgeKey(c.vertices.z, c.vertices.w);
    return {1, std::min(a, b), std::max(a, b)};
}

// Every vertex against every triangle without it and every edge against every edge sharing no
// vertex, with the same tests as the solver (swept boxes within reach, the gap test, no rest
// neighbours).
std::map<Key, gpu::SelfContact> bruteForceContacts(const PreparedCloth& p,
                                                   const std::vector<glm::vec4>& x,
                                                   const std::vector<glm::vec4>& y) {
    const float margin = p.sim.selfCollision->margin;
    std::vector<float> h(p.triangles.size());
    for (std::size_t i = 0; i < h.size(); ++i)
        h[i] = p.segments[p.triangleFeatureInfo[i] >> gpu::TRIANGLE_SEGMENT_SHIFT].thickness;
    auto v3 = [](const glm::vec4& v) { return glm::vec3(v); };
    auto restClose = [&](const gpu::SelfContact& c, bool edges, float reach) {
        const auto& r = p.restPositions;
        const glm::uvec4 v = c.vertices;
        glm::vec3 d;
        if (edges) {
            float s, t;
            gpu::segmentClosest(v3(r[v.x]), v3(r[v.y]), v3(r[v.z]), v3(r[v.w]), s, t);
            d = glm::mix(v3(r[v.x]), v3(r[v.y]), s) - glm::mix(v3(r[v.z]), v3(r[v.w]), t);
        } else {
            const glm::vec3 b = gpu::selfClosestBarycentric(v3(r[v.x]), v3(r[v.y]), v3(r[v.z]),
                                                            v3(r[v.w]));
            d = v3(r[v.x]) - (v3(r[v.y]) * b.x + v3(r[v.z]) * b.y + v3(r[v.w]) * b.z);
        }
        return glm::length(d) < reach;
    };
    auto sameCloth = [&](std::uint32_t a, std::uint32_t b) {
        return (p.triangleFeatureInfo[a] >> gpu::TRIANGLE_SEGMENT_SHIFT) ==
               (p.triangleFeatureInfo[b] >> gpu::TRIANGLE_SEGMENT_SHIFT);
    };
    auto sweep = [&](std::initializer_list<std::uint32_t> vs, glm::vec3& lo, glm::vec3& hi) {
        lo = hi = v3(x[*vs.begin()]);
        for (std::uint32_t v : vs) {
            lo = glm::min(lo, glm::min(v3(x[v]), v3(y[v])));
            hi = glm::max(hi, glm::max(v3(x[v]), v3(y[v])));
        }
    };
    // Each vertex's triangle (any: the thickness is its cloth's) and every edge once.
    std::vector<std::uint32_t> triOf(p.originalVertexCount, ~0u);
    std::map<std::uint64_t, std::pair<glm::uvec2, std::uint32_t>> edges;
    for (std::uint32_t i = 0; i < p.triangles.size(); ++i)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = p.triangles[i][k], b = p.triangles[i][(k + 1) % 3];
            if (triOf[a] == ~0u) triOf[a] = i;
            edges.emplace(edgeKey(a, b), std::pair{glm::uvec2(a, b), i});
        }
    std::map<Key, gpu::SelfContact> out;
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v) {
        if (triOf[v] == ~0u) continue;
        for (std::uint32_t i = 0; i < p.triangles.size(); ++i) {
            const glm::uvec3 t = p.triangles[i];
            if (v == t.x || v == t.y || v == t.z) continue;
            const float keep = h[triOf[v]] + h[i];
            glm::vec3 lo1, hi1, lo2, hi2;
            sweep({v}, lo1, hi1);
            sweep({t.x, t.y, t.z}, lo2, hi2);
            if (gpu::selfBoxesApart(lo1, hi1, lo2, hi2, keep + margin)) continue;
            gpu::SelfContact c;
            c.vertices = glm::uvec4(v, t.x, t.y, t.z);
            c.info = glm::uvec4(gpu::SELF_VERTEX_TRIANGLE, 0u, 0u, 0u);
            if (!gpu::selfVertexTriangle(v3(x[v]), v3(x[t.x]), v3(x[t.y]), v3(x[t.z]), v3(y[v]),
                                         v3(y[t.x]), v3(y[t.y]), v3(y[t.z]),
                                         p.triangleFeatureInfo[i], keep, margin, c.weights,
                                         c.normal))
                continue;
            if (sameCloth(triOf[v], i) && restClose(c, false, keep + margin)) continue;
            out.emplace(keyOf(c, false), c);
        }
    }
    std::vector<std::pair<glm::uvec2, std::uint32_t>> list;
    for (const auto& [k, e] : edges) list.push_back(e);
    for (std::size_t i = 0; i < list.size(); ++i)
        for (std::size_t j = i + 1; j < list.size(); ++j) {
            const glm::uvec2 e = list[i].first, f = list[j].first;
            if (e.x == f.x || e.x == f.y || e.y == f.x || e.y == f.y) continue;
            const float keep = h[list[i].second] + h[list[j].second];
            glm::vec3 lo1, hi1, lo2, hi2;
            sweep({e.x, e.y}, lo1, hi1);
            sweep({f.x, f.y}, lo2, hi2);
            if (gpu::selfBoxesApart(lo1, hi1, lo2, hi2, keep + margin)) continue;
            gpu::SelfContact c;
            c.vertices = glm::uvec4(e.x, e.y, f.x, f.y);
            c.info = glm::uvec4(gpu::SELF_EDGE_EDGE, 0u, 0u, 0u);
            if (!gpu::selfEdgeEdge(v3(x[e.x]), v3(x[e.y]), v3(x[f.x]), v3(x[f.y]), v3(y[e.x]),
                                   v3(y[e.y]), v3(y[f.x]), v3(y[f.y]), keep, margin, c.weights,
                                   c.normal))
                continue;
            if (sameCloth(list[i].second, list[j].second) && restClose(c, true, keep + margin))
                continue;
            out.emplace(keyOf(c, true), c);
        }
    return out;
}

// The grid folded like an accordion along x into four layers `gap` apart, jittered; the
// prediction moves every vertex by up to `move`.
void accordion(const PreparedCloth& p, float size, float gap, float move, std::uint32_t seed,
               std::vector<glm::vec4>& x, std::vector<glm::vec4>& y) {
    std::mt19937 rng(seed);
    x = p.positions;
    y = p.positions;
    const float fold = size / 4.0f;
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v) {
        const glm::vec3 r(p.positions[v]);
        const float u = r.x + 0.5f * size;
        const int layer = std::min(3, int(std::floor(u / fold)));
        const float t = u - float(layer) * fold;
        const glm::vec3 folded((layer % 2 == 0 ? t : fold - t), r.y, float(layer) * gap);
        x[v] = glm::vec4(folded + randomPoint(rng, 0.15f * gap), p.positions[v].w);
        y[v] = x[v] + glm::vec4(randomPoint(rng, move), 0.0f);
    }
}

// Adds the number of contacts found to *count (when given).
void expectSameContacts(const PreparedCloth& p, const std::vector<glm::vec4>& x,
                        const std::vector<glm::vec4>& y, std::size_t minEach = 50,
                        std::size_t* count = nullptr) {
    const std::map<Key, gpu::SelfContact> brute = bruteForceContacts(p, x, y);
    const std::vector<gpu::SelfContact> one = findSelfContacts(p, x, y, 1);
    if (count) *count += one.size();
    // Each primitive pair found once, and brute force's contacts exactly.
    std::map<Key, gpu::SelfContact> found;
    std::size_t vt = 0;
    for (const gpu::SelfContact& c : one) {
        const bool isVt = c.info.x == gpu::SELF_VERTEX_TRIANGLE;
        ASSERT_TRUE(isVt || c.info.x == gpu::SELF_EDGE_EDGE);
        vt += isVt ? 1 : 0;
        EXPECT_TRUE(found.emplace(keyOf(c, !isVt), c).second) << "a primitive pair found twice";
    }
    EXPECT_GE(vt, minEach);
    EXPECT_GE(one.size() - vt, minEach);
    EXPECT_EQ(found.size(), brute.size());
    for (const auto& [k, c] : brute) {
        const auto it = found.find(k);
        ASSERT_NE(it, found.end()) << "brute force's contact " << std::get<0>(k) << " "
                                   << std::get<1>(k) << " " << std::get<2>(k) << " not found";
        const gpu::SelfContact& d = it->second;
        if (d.vertices == c.vertices) {  // the same order: the same bits
            EXPECT_EQ(d.weights, c.weights);
            EXPECT_EQ(d.normal, c.normal);
        } else {  // edges the other way round: n and the weights' roles swap
            EXPECT_NEAR(glm::length(glm::vec3(d.normal) + glm::vec3(c.normal)), 0.0f, 1e-4f);
            EXPECT_NEAR(d.weights.x, -c.weights.z, 1e-4f);
            EXPECT_NEAR(d.weights.y, -c.weights.w, 1e-4f);
        }
    }
    // The same list, in the same order, for any thread count.
    for (int threads : {2, 3}) {
        const std::vector<gpu::SelfContact> more = findSelfContacts(p, x, y, threads);
        ASSERT_EQ(more.size(), one.size()) << threads;
        for (std::size_t i = 0; i < one.size(); ++i) {
            EXPECT_EQ(more[i].vertices, one[i].vertices);
            EXPECT_EQ(more[i].weights, one[i].weights);
            EXPECT_EQ(more[i].normal, one[i].normal);
        }
    }
}

}  // namespace

TEST(SelfCollision, EveryVertexAndEdgeIsOwnedByExactlyOneTriangle) {
    const PreparedCloth p = prepareScene(gridScene("owners", 9, 1.0f));
    std::vector<int> vertices(p.originalVertexCount, 0);
    std::map<std::uint64_t, int> edges;
    for (std::uint32_t i = 0; i < p.triangles.size(); ++i)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = p.triangles[i][k], b = p.triangles[i][(k + 1) % 3];
            edges[edgeKey(a, b)] += (p.triangleFeatureInfo[i] >> k) & 1u;
            vertices[a] += (p.triangleFeatureInfo[i] >> (gpu::TRIANGLE_OWNS_VERTEX_SHIFT + k)) & 1u;
        }
    for (int n : vertices) EXPECT_EQ(n, 1);
    for (const auto& [k, n] : edges) EXPECT_EQ(n, 1);
}

TEST(SelfCollision, ContactsEqualBruteForceOnAFoldedCloth) {
    const PreparedCloth p = prepareScene(gridScene("fold", 24, 1.0f));
    std::vector<glm::vec4> x, y;
    for (std::uint32_t seed : {1u, 2u}) {
        accordion(p, 1.0f, 0.008f, 0.006f, seed, x, y);
        expectSameContacts(p, x, y);
    }
}

TEST(SelfCollision, ContactsEqualBruteForceBetweenTwoCloths) {
    // Two cloths of different thickness crossing each other at right angles, jittered.
    Scene s = gridScene("two", 16, 0.6f);
    s.cloths[0].material.thickness = 0.004f;
    ClothDesc second = s.cloths[0];
    second.name = "second";
    second.material.thickness = 0.007f;
    second.transform.rotateDegrees = glm::vec3(0.0f, 90.0f, 0.0f);
    second.transform.translate = glm::vec3(0.0f, 0.0f, 0.0f);
    s.cloths.push_back(second);
    const PreparedCloth p = prepareScene(s);
    std::mt19937 rng(9);
    std::vector<glm::vec4> x = p.positions, y = p.positions;
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v) {
        x[v] += glm::vec4(randomPoint(rng, 0.01f), 0.0f);
        y[v] = x[v] + glm::vec4(randomPoint(rng, 0.01f), 0.0f);
    }
    expectSameContacts(p, x, y);
}

namespace {

// A strip dropped on end onto the ground, tipped a little, so that it folds over onto itself
// in coils.
Scene coilScene(bool self) {
    Scene s;
    s.name = "test-coil";
    ClothDesc c;
    c.name = "strip";
    GridDesc g;
    g.width = 0.08f;
    g.height = 1.6f;
    g.resX = 2;
    g.resY = 60;
    c.grid = g;
    c.tethers = false;
    c.material.bendCompliance = 10.0f;
    c.transform.translate = glm::vec3(0.0f, 0.82f, 0.0f);
    c.transform.rotateDegrees = glm::vec3(8.0f, 0.0f, 3.0f);
    s.cloths.push_back(c);
    ColliderDesc ground;
    ground.name = "ground";
    ground.shape = ColliderShape::Plane;
    ground.staticFriction = ground.kineticFriction = 0.5f;
    s.colliders.push_back(ground);
    s.sim.substeps = 10;
    s.sim.iterations = 2;
    if (self) s.sim.selfCollision = SelfCollisionSettings{};
    return s;
}

// Three cloths dropped on a unit cube with rounded edges (Velvet's "multiple objects",
// coarser).
Scene stackScene(bool self, std::uint32_t res) {
    Scene s;
    s.name = "test-stack";
    for (int k = 0; k < 3; ++k) {
        ClothDesc c;
        c.name = "cloth" + std::to_string(k);
        GridDesc g;
        g.width = g.height = 2.0f;
        g.resX = g.resY = res;
        c.grid = g;
        c.tethers = false;
        c.material.bendCompliance = 1.0f;
        c.transform.translate = glm::vec3(0.1f * float(k), 1.5f + 0.3f * float(k), 0.0f);
        c.transform.rotateDegrees = glm::vec3(-90.0f, 20.0f * float(k), 0.0f);
        s.cloths.push_back(c);
    }
    ColliderDesc cube;
    cube.name = "cube";
    cube.shape = ColliderShape::Box;
    cube.halfExtents = glm::vec3(0.5f);
    // Rounded enough for the coarse cloth: where a layer's triangles cut a chord under the
    // cube's surface, the layer above (held on the surface by its own collider contacts) is
    // pinned through it. 0.2 m of rounding leaves a chord of 10 cm sides 6 mm under it, less
    // than the two layers' distance (measured with 5 cm rounding: 20 pairs through each other
    // at the cube's top corners).
    cube.radius = 0.2f;
    cube.transform.translate = glm::vec3(0.0f, 0.5f, 0.0f);
    cube.staticFriction = cube.kineticFriction = 0.6f;
    s.colliders.push_back(cube);
    ColliderDesc ground;
    ground.name = "ground";
    ground.shape = ColliderShape::Plane;
    s.colliders.push_back(ground);
    s.sim.substeps = 5;
    s.sim.iterations = 5;
    if (self) s.sim.selfCollision = SelfCollisionSettings{};
    return s;
}

// The largest number of intersecting triangle pairs over the checked frames, and the frame.
std::pair<std::size_t, int> worstFrame(const Scene& scene, int frames, int every, int threads) {
    const PreparedCloth p = prepareScene(scene);
    auto solver = makeCpuSolver(p, threads, std::nullopt, 0);
    std::vector<glm::vec4> x;
    std::pair<std::size_t, int> worst{0, -1};
    for (int f = 1; f <= frames; ++f) {
        solver->stepFrame();
        if (f % every != 0) continue;
        solver->readPositions(x);
        const std::size_t n = fixtures::intersectingTrianglePairs(p.triangles, x).size();
        if (n > worst.first) worst = {n, f};
    }
    return worst;
}

}  // namespace

// The same on frames of a simulation: the strip coiling on the ground, each checked frame's
// positions as the start and the next frame's as the prediction.
TEST(SelfCollision, ContactsEqualBruteForceOnFramesOfACoilingStrip) {
    const PreparedCloth p = prepareScene(coilScene(true));
    auto solver = makeCpuSolver(p, 2);
    std::vector<glm::vec4> x, y;
    std::size_t total = 0;
    for (int f = 1; f <= 121; ++f) {
        solver->stepFrame();
        if (f % 5 == 0) solver->readPositions(x);
        if (f % 5 != 1 || f == 1) continue;
        solver->readPositions(y);
        expectSameContacts(p, x, y, 0, &total);
    }
    EXPECT_GT(total, 50u);
}

TEST(SelfCollision, ACoilingStripNeverPassesThroughItself) {
    const auto without = worstFrame(coilScene(false), 120, 5, 2);
    EXPECT_GT(without.first, 0u) << "the scene does not test anything: it never self-intersects";
    const auto with = worstFrame(coilScene(true), 120, 5, 2);
    EXPECT_EQ(with.first, 0u) << "frame " << with.second;
}

TEST(SelfCollision, ThreeClothsOnACubeNeverPassThroughEachOther) {
    const auto without = worstFrame(stackScene(false, 20), 90, 10, 2);
    EXPECT_GT(without.first, 0u) << "the scene does not test anything";
    const auto with = worstFrame(stackScene(true, 20), 90, 10, 2);
    EXPECT_EQ(with.first, 0u) << "frame " << with.second;
}

// The collision scenes of assets/scenes: no two triangles sharing no vertex pass through each
// other in any checked frame, and each scene has contacts (it tests something).
// One detection of sc from start x and predicted y on the pool's members (its first substep:
// a detection).
static void detectOn(ThreadPool& pool, SelfCollision& sc, const std::vector<glm::vec4>& x,
                     const std::vector<glm::vec4>& y) {
    pool.run([&](int member, int size) {
        sc.collide(pool, member, size, x.data(), y.data(), true, [&](int) { pool.barrier(); });
    });
}

// The contacts' violations max(0, -C), C = n . sum g_k x_k - d, in double precision: their
// root mean square, or (largest) the largest.
double violation(const std::vector<gpu::SelfContact>& contacts, const std::vector<glm::vec4>& x,
                 bool largest) {
    double worst = 0.0, squares = 0.0;
    for (const gpu::SelfContact& c : contacts) {
        glm::dvec3 r(0.0);
        for (int k = 0; k < 4; ++k)
            r += glm::dvec3(glm::vec3(x[c.vertices[k]])) * double(c.weights[k]);
        const double v = std::max(
            0.0, double(c.normal.w) - glm::dot(glm::dvec3(glm::vec3(c.normal)), r));
        worst = std::max(worst, v);
        squares += v * v;
    }
    return largest ? worst : std::sqrt(squares / double(std::max<std::size_t>(1, contacts.size())));
}

// The orders' passes on the same contacts: an accordion-folded cloth whose layers, 8 mm apart,
// keep 1 cm (each pair starts 2 mm inside) and are predicted up to 3 mm further in, solved from
// the prediction. Each pass of each order shrinks the violations' root mean square from the
// third on (measured, rms in mm after passes 1-8: Jacobi 1.47, 1.09, 0.88, 0.74, 0.65, 0.57,
// 0.51, 0.46; vertex 1.73, 0.75, 0.24, 0.15, 0.13, 0.093, 0.082, 0.061; sequential 1.52, 0.69,
// 0.33, 0.20, 0.12, 0.076, 0.047, 0.029). The vertex order, where each vertex takes its
// contacts one after another, converges as the sequential order does, far faster than Jacobi's
// mean: from the third pass on, to less than half of Jacobi's (without friction, so only the
// normal projections count).
TEST(SelfCollision, VertexPassesConvergeFasterThanJacobiPasses) {
    Scene s = gridScene("fold", 24, 1.0f);
    s.sim.selfCollision->staticFriction = s.sim.selfCollision->kineticFriction = 0.0f;
    s.sim.selfCollision->passes = 1;
    std::vector<glm::vec4> x, y;
    accordion(prepareScene(s), 1.0f, 0.008f, 0.003f, 7, x, y);
    using Order = SelfCollisionSettings::Order;
    ThreadPool pool(2);
    struct Run {
        Order order;
        PreparedCloth p;
        std::unique_ptr<SelfCollision> sc;
        std::vector<glm::vec4> x;
        double last = 0.0;
    };
    std::vector<Run> runs;
    for (Order order : {Order::Jacobi, Order::Vertex, Order::Sequential}) {
        s.sim.selfCollision->order = order;
        runs.push_back({order, prepareScene(s), nullptr, y, 0.0});
    }
    for (Run& r : runs) {
        r.sc = std::make_unique<SelfCollision>(r.p);
        detectOn(pool, *r.sc, x, y);
    }
    const std::vector<gpu::SelfContact> contacts = runs[0].sc->contacts();
    ASSERT_GT(contacts.size(), 500u);
    const double initial = violation(contacts, y, false);
    ASSERT_GT(initial, 1e-3);
    for (Run& r : runs) {
        ASSERT_EQ(r.sc->contacts().size(), contacts.size());
        r.last = initial;
    }
    for (int pass = 1; pass <= 8; ++pass) {
        std::printf("pass %d: violation (rms, largest)", pass);
        for (Run& r : runs) {
            pool.run([&](int member, int size) {
                r.sc->solve(pool, member, size, r.x.data(), x.data());
            });
            const double v = violation(contacts, r.x, false);
            std::printf(" %s %.3g, %.3g mm;", selfContactOrderName(r.order), 1e3 * v,
                        1e3 * violation(contacts, r.x, true));
            if (pass >= 3) {
                EXPECT_LT(v, r.last) << selfContactOrderName(r.order) << " pass " << pass;
            }
            r.last = v;
        }
        std::printf("\n");
        if (pass >= 3) {
            EXPECT_LT(runs[1].last, 0.5 * runs[0].last) << pass;
        }
    }
    EXPECT_LT(runs[1].last, 0.1 * initial);
    EXPECT_LT(runs[2].last, 0.1 * initial);
}

struct SceneRun {
    const char* file;
    int frames, every;
};

// Printed in the test's listing (and so in ctest's name): no pointer, whose value changes from
// one build to the next and would hide the test from ctest's committed costs (tools/ctest).
void PrintTo(const SceneRun& run, std::ostream* os) {
    *os << run.file << ", " << run.frames << " frames, checked every " << run.every;
}

class CollisionScenes : public ::testing::TestWithParam<SceneRun> {};

TEST_P(CollisionScenes, NoTrianglesPassThroughEachOther) {
    const SceneRun run = GetParam();
    const Scene scene =
        loadSceneFile(std::string(CLOTH_TEST_SOURCE_DIR) + "/assets/scenes/" + run.file);
    ASSERT_TRUE(scene.sim.selfCollision.has_value());
    const PreparedCloth p = prepareScene(scene);
    auto solver = makeCpuSolver(p, 2);
    std::vector<glm::vec4> x;
    std::uint64_t mostContacts = 0;
    double largestStretch = 0.0;
    for (int f = 1; f <= run.frames; ++f) {
        solver->stepFrame();
        mostContacts = std::max(mostContacts, solver->selfCounts().contacts);
        if (f % run.every != 0) continue;
        solver->readPositions(x);
        EXPECT_EQ(fixtures::intersectingTrianglePairs(p.triangles, x).size(), 0u) << "frame " << f;
        // The scene's stated stretch (tests/common/scene_stretch.h), after its first 0.25 s.
        if (solver->simTime() >= 0.25 - 1e-6) largestStretch = std::max(largestStretch, edgeStretch(p, x).largest);
    }
    EXPECT_GT(mostContacts, 0u);
    const test::SceneStretch* limit = test::sceneStretch(run.file);
    ASSERT_NE(limit, nullptr) << run.file;
    std::printf("%s: largest edge strain %.2f%% after 0.25 s (every %d frames of %d); limit %.1f%%\n",
                run.file, 100.0 * largestStretch, run.every, run.frames, 100.0 * limit->limit);
    EXPECT_LE(largestStretch, limit->limit) << run.file;
}

INSTANTIATE_TEST_SUITE_P(
    Assets, CollisionScenes,
    ::testing::Values(SceneRun{"self_collision.json", 90, 10}, SceneRun{"coil.json", 120, 10},
                      SceneRun{"twisted.json", 240, 20}, SceneRun{"sphere_fold.json", 120, 10},
                      SceneRun{"multiple_objects.json", 50, 10}),
    [](const ::testing::TestParamInfo<SceneRun>& info) {
        std::string name = info.param.file;
        return name.substr(0, name.find('.'));
    });

// The stress scene (assets/scenes/pile.json): a 1 m cloth lying on the ground, pushed by a box
// (up to 0.75 m/s) against a wall into a pile of folds 6 cm wide, checked in every frame for
// triangles through each other. Without self-collision the folds pass through each other (from
// frame 91: the scene tests something); with it none do in any frame, with 1,540 contacts at
// most holding the layers. The GPU gives the same bits on the densest frames (clothcheck.pile).
TEST(SelfCollision, AClothPushedIntoAPileNeverPassesThroughItself) {
    const Scene scene =
        loadSceneFile(std::string(CLOTH_TEST_SOURCE_DIR) + "/assets/scenes/pile.json");
    ASSERT_TRUE(scene.sim.selfCollision.has_value());
    const int frames = 126;  // 2.1 s: the box nearest the wall
    // The first frame with crossing pairs (0: none) and the most contacts in a substep.
    // (With self-collision, also the largest edge strain after 0.25 s: the scene's stated
    // stretch, tests/common/scene_stretch.h.)
    double largestStretch = 0.0;
    auto run = [&](const Scene& s, bool untilCrossed, std::uint64_t& mostContacts) {
        const PreparedCloth p = prepareScene(s);
        auto solver = makeCpuSolver(p, 2);
        std::vector<glm::vec4> x;
        int first = 0;
        for (int f = 1; f <= frames && !(untilCrossed && first > 0); ++f) {
            solver->stepFrame();
            mostContacts = std::max(mostContacts, solver->selfCounts().contacts);
            solver->readPositions(x);
            if (first == 0 && !fixtures::intersectingTrianglePairs(p.triangles, x).empty())
                first = f;
            if (s.sim.selfCollision && solver->simTime() >= 0.25 - 1e-6)
                largestStretch = std::max(largestStretch, edgeStretch(p, x).largest);
        }
        return first;
    };
    std::uint64_t contacts = 0, none = 0;
    Scene without = scene;
    without.sim.selfCollision.reset();
    const int crossedWithout = run(without, true, none);
    EXPECT_GT(crossedWithout, 0) << "the pile does not fold onto itself";
    EXPECT_EQ(run(scene, false, contacts), 0) << "the first frame with crossing triangles";
    EXPECT_GT(contacts, 1000u);  // measured: 1,540
    std::printf("pile: without self-collision crossed in frame %d; with it none in %d frames, "
                "up to %llu contacts\n",
                crossedWithout, frames, static_cast<unsigned long long>(contacts));
    const test::SceneStretch* limit = test::sceneStretch("pile.json");
    ASSERT_NE(limit, nullptr);
    std::printf("pile: largest edge strain %.2f%% after 0.25 s; limit %.1f%%\n",
                100.0 * largestStretch, 100.0 * limit->limit);
    EXPECT_LE(largestStretch, limit->limit);
}

// In both parallel orders (vertex and Jacobi).
TEST(SelfCollision, AnyThreadCountGivesTheSameBits) {
    for (SelfCollisionSettings::Order order :
         {SelfCollisionSettings::Order::Vertex, SelfCollisionSettings::Order::Jacobi}) {
        SCOPED_TRACE(selfContactOrderName(order));
        Scene s = stackScene(true, 10);
        s.sim.selfCollision->order = order;
        const PreparedCloth p = prepareScene(s);
        std::vector<std::vector<glm::vec4>> results;
        for (int threads : {1, 3}) {
            auto solver = makeCpuSolver(p, threads, std::nullopt, 0);
            for (int f = 0; f < 60; ++f) solver->stepFrame();
            results.emplace_back();
            solver->readPositions(results.back());
            EXPECT_GT(solver->selfCounts().contacts, 0u);
        }
        ASSERT_EQ(results[0].size(), results[1].size());
        EXPECT_EQ(0, std::memcmp(results[0].data(), results[1].data(),
                                 results[0].size() * sizeof(glm::vec4)));
    }
}

// The separating planes' floor (kernels/self_motion.h): two parallel edges 0.1 mm apart (as two
// diagonals of neighbouring quads lie, a rest pair that no contact pushes apart), 8 mm long at
// 0.3 m from the origin, each corner pushed towards the other edge in every substep by far more
// than the planes allow, and cut by selfPlaneShare to its budget from the closest points at the
// substep's start (still references: the predicted approach 0). Each substep takes 2 gamma of
// the room d - floor, so the distance falls towards floor = 1% of the distance to keep and
// never below it, and the edges stay on their sides; without the floor it would fall by 1/5 a
// substep, to the rounding of the coordinates within 10 substeps (where the folded 128^2 cloth's
// two diagonals went through each other). Distances measured in double precision.
TEST(SelfPlanes, ASqueezedPairStaysFartherApartThanTheFloor) {
    const float keep = 0.0039f;  // the folded 128^2 cloth's: two quarters of an edge
    const double floor = double(gpu::SELF_PLANE_FLOOR) * keep;
    glm::vec3 x[4] = {{0.300f, 0.3f, 0.3f}, {0.308f, 0.3f, 0.3f},
                      {0.300f, 0.3f - 1e-4f, 0.3f}, {0.308f, 0.3f - 1e-4f, 0.3f}};
    const glm::vec3 down(0.0f, -1.0f, 0.0f);  // from the first edge towards the second
    double least = 1.0;
    for (int substep = 0; substep < 60; ++substep) {
        float s, t;
        gpu::segmentClosest(x[0], x[1], x[2], x[3], s, t);
        const glm::vec3 r = (x[0] * (1.0f - s) + x[1] * s) - (x[2] * (1.0f - t) + x[3] * t);
        const float d = std::sqrt(gpu::meshDot(r, r));
        ASSERT_GT(d, 0.0f) << substep;
        const glm::vec3 n = r / d;
        const glm::vec2 budgets = gpu::selfPairBudgets(d, 0.0f, keep);
        EXPECT_FALSE(gpu::selfPairConflict(d, 0.0f, keep));
        for (std::uint32_t k = 0; k < 4; ++k) {
            const float side = gpu::selfCornerSide(1u, k);
            // Towards the other edge by 1 mm, and along it by a little (sideways is free).
            const glm::vec3 dev = down * (side * 1e-3f) + glm::vec3(1e-5f * float(k), 0.0f, 0.0f);
            x[k] += dev * gpu::selfPlaneShare(1.0f, n, budgets.y, side, dev);
        }
        // Both edges stay in the plane z = 0.3: their distance is an end's from the other edge.
        const auto toSegment = [](glm::dvec3 p, glm::dvec3 a, glm::dvec3 b) {
            const glm::dvec3 e = b - a;
            const double u = std::clamp(glm::dot(p - a, e) / glm::dot(e, e), 0.0, 1.0);
            return glm::length(p - (a + u * e));
        };
        glm::dvec3 X[4];
        for (int k = 0; k < 4; ++k) X[k] = glm::dvec3(x[k]);
        const double gap = std::min(std::min(toSegment(X[0], X[2], X[3]), toSegment(X[1], X[2], X[3])),
                                    std::min(toSegment(X[2], X[0], X[1]), toSegment(X[3], X[0], X[1])));
        EXPECT_GT(std::min(X[0].y, X[1].y), std::max(X[2].y, X[3].y)) << "substep " << substep;
        EXPECT_GE(gap, floor * (1.0 - 1e-3)) << "substep " << substep;
        least = std::min(least, gap);
    }
    EXPECT_LT(least, floor * 1.01);  // squeezed down to the floor: the push was real
}
