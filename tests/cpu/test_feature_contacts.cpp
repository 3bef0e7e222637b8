// Contacts with the sharp features of mesh colliders (src/kernels/feature_contacts.h): the
// closest points of two segments against brute force; each contact's projection against its
// constraint (it lands exactly on C = 0, on the side the feature started on, and moves only the
// cloth); and end to end, a coarse cloth across a blade: with only per-vertex contacts the blade
// cuts through the cloth between vertices; with the feature contacts no sharp edge passes
// through any cloth triangle in any frame (brute force over every feature and triangle); the
// same for the table under tablecloth.json; friction at a ridge; any thread count.
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <random>
#include <tuple>

#include <gtest/gtest.h>

#include "fixtures/blade_scene.h"
#include "cpu/backend.h"
#include "kernels/feature_contacts.h"
#include "core/scene.h"
#include "prep/prepare.h"
#include "cpu_test_util.h"

using namespace cloth;

namespace {

using test::randomPoint;

}  // namespace

TEST(FeatureContacts, SegmentClosestPointsMatchBruteForce) {
    std::mt19937 rng(7);
    const int n = 400;  // grid steps per segment
    for (int trial = 0; trial < 200; ++trial) {
        const glm::vec3 p0 = randomPoint(rng, 1.0f), q0 = randomPoint(rng, 1.0f);
        glm::vec3 p1 = randomPoint(rng, 1.0f), q1 = randomPoint(rng, 1.0f);
        if (trial % 10 == 0) q1 = q0 + (p1 - p0) * 0.7f;  // parallel
        if (trial % 17 == 0) p1 = p0;                     // a point
        float s, t;
        gpu::segmentClosest(p0, p1, q0, q1, s, t);
        ASSERT_TRUE(s >= 0.0f && s <= 1.0f && t >= 0.0f && t <= 1.0f);
        const double found = glm::length(glm::dvec3(p0 + (p1 - p0) * s) - glm::dvec3(q0 + (q1 - q0) * t));
        double grid = 1e30;
        for (int i = 0; i <= n; ++i)
            for (int j = 0; j <= n; ++j) {
                const glm::dvec3 a = glm::dvec3(p0) + glm::dvec3(p1 - p0) * (double(i) / n);
                const glm::dvec3 b = glm::dvec3(q0) + glm::dvec3(q1 - q0) * (double(j) / n);
                grid = std::min(grid, glm::length(a - b));
            }
        // No grid point beats the formula; the grid comes within its spacing of it.
        EXPECT_LE(found, grid + 1e-5) << trial;
        const double spacing = (glm::length(p1 - p0) + glm::length(q1 - q0)) / n;
        EXPECT_GE(found, grid - spacing - 1e-6) << trial;
    }
}

TEST(FeatureContacts, CornerContactLandsOnItsConstraintOnTheStartingSide) {
    std::mt19937 rng(11);
    const float h = 0.01f;
    int acted = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const glm::vec3 y0 = randomPoint(rng, 0.5f), y1 = randomPoint(rng, 0.5f),
                        y2 = randomPoint(rng, 0.5f);
        const glm::vec3 m = glm::cross(y1 - y0, y2 - y0);
        if (glm::length(m) < 0.05f) continue;
        const glm::vec3 n = glm::normalize(m);
        std::uniform_real_distribution<float> u(0.05f, 0.9f);
        float b1 = u(rng), b2 = u(rng);
        if (b1 + b2 > 0.95f) b1 = 0.95f - b2;
        if (b1 < 0.02f) continue;
        const float b0 = 1.0f - b1 - b2;
        // The corner starts on side s (a cloth that was h above it), ends `height` above the
        // plane: within h on its own side, or crossed to the other.
        const float side = trial % 2 ? 1.0f : -1.0f;
        const float height = side * (trial % 4 < 2 ? 0.4f * h : -0.6f * h);
        const glm::vec3 c = y0 * b0 + y1 * b1 + y2 * b2;
        const glm::vec3 corner = c + n * height;
        const glm::vec3 shift = -n * (side * 0.05f);  // the cloth's start, on the far side
        const glm::vec3 w(1.0f, 0.5f + 0.1f * (trial % 5), 2.0f);
        glm::vec4 a0(0.0f), a1(0.0f), a2(0.0f);
        gpu::cornerTriangleContact(corner, y0, y1, y2, y0 + shift, y1 + shift, y2 + shift, w, h,
                                   0.0f, 0.0f, a0, a1, a2);
        ASSERT_EQ(a0.w, 1.0f);
        ++acted;
        // Moves only along the normal, away from the corner, in proportion to w_i b_i.
        const glm::vec3 d0(a0), d1(a1), d2(a2);
        EXPECT_LT(glm::dot(d0, n) * side, 0.0f);
        EXPECT_NEAR(glm::length(glm::cross(d0, n)), 0.0f, 1e-6f);
        EXPECT_NEAR(glm::dot(d1, n) / (w.y * b1), glm::dot(d0, n) / (w.x * b0), 1e-4f);
        EXPECT_NEAR(glm::dot(d2, n) / (w.z * b2), glm::dot(d0, n) / (w.x * b0), 1e-4f);
        // After the move the linearised constraint holds exactly: side n.(p - c') = h.
        const glm::vec3 c1 = (y0 + d0) * b0 + (y1 + d1) * b1 + (y2 + d2) * b2;
        EXPECT_NEAR(side * glm::dot(corner - c1, n), h, 2e-6f) << trial;
    }
    EXPECT_GT(acted, 100);
    // Outside the projection, or farther than h on its side: nothing.
    glm::vec4 a0(0.0f), a1(0.0f), a2(0.0f);
    const glm::vec3 y0(0, 0, 0), y1(1, 0, 0), y2(0, 1, 0), up(0, 0, 1);
    gpu::cornerTriangleContact(glm::vec3(0.8f, 0.8f, 0.001f), y0, y1, y2, y0 - up, y1 - up,
                               y2 - up, glm::vec3(1.0f), 0.01f, 0.0f, 0.0f, a0, a1, a2);
    gpu::cornerTriangleContact(glm::vec3(0.2f, 0.2f, -0.02f), y0, y1, y2, y0 + up, y1 + up,
                               y2 + up, glm::vec3(1.0f), 0.01f, 0.0f, 0.0f, a0, a1, a2);
    EXPECT_EQ(a0.w + a1.w + a2.w, 0.0f);
}

TEST(FeatureContacts, EdgeContactLandsOnItsConstraintOnTheStartingSide) {
    const float h = 0.01f;
    // A mesh edge along x at the origin; a cloth edge along z above it (gap g), which started
    // 5 cm above (side +): within h it is pushed up to h; crossed (below) it is pushed back up.
    for (float gap : {0.004f, -0.006f, 0.02f}) {
        const glm::vec3 a(-1, 0, 0), b(1, 0, 0);
        const glm::vec3 y0(0.2f, gap, -0.5f), y1(0.2f, gap, 0.3f);
        const glm::vec3 z0(0.2f, 0.05f, -0.5f), z1(0.2f, 0.05f, 0.3f);
        glm::vec4 a0(0.0f), a1(0.0f);
        gpu::edgeEdgeContact(a, b, y0, y1, z0, z1, 1.0f, 3.0f, h, 0.0f, 0.0f, a0, a1);
        if (gap >= h) {
            EXPECT_EQ(a0.w + a1.w, 0.0f);
            continue;
        }
        ASSERT_EQ(a0.w, 1.0f);
        // s = 0.625 along the cloth edge: moves w_i grad_i along +y only (to float rounding of
        // the closest points, 1e-4 of the move), the closest point
        // lands at exactly h.
        const float s = 0.625f;
        EXPECT_NEAR(a0.x, 0.0f, 1e-4f * std::abs(a0.y));
        EXPECT_NEAR(a1.z, 0.0f, 1e-4f * std::abs(a1.y));
        EXPECT_NEAR(a1.y / a0.y, 3.0f * s / (1.0f - s), 1e-4f);
        const float c = (gap + a0.y) * (1.0f - s) + (gap + a1.y) * s;
        EXPECT_NEAR(c, h, 1e-6f) << gap;
    }
}

TEST(FeatureContacts, FrictionHoldsOrLimitsTheContactPointsSlide) {
    // A cloth edge 4 mm above a mesh edge (h = 1 cm: N = 6 mm) that slid 2 mm along x in the
    // substep. mu_s = 0.5 (3 mm >= 2 mm): the point returns to its start tangentially. mu_s =
    // 0.2, mu_k = 0.1 (1.2 mm < 2 mm): it keeps 2 - 0.6 = 1.4 mm of the slide.
    const glm::vec3 a(-1, 0, 0), b(1, 0, 0);
    const glm::vec3 y0(0.2f, 0.004f, -0.5f), y1(0.2f, 0.004f, 0.3f);
    const glm::vec3 z0(0.198f, 0.05f, -0.5f), z1(0.198f, 0.05f, 0.3f);
    for (auto [muS, muK, kept] : {std::tuple(0.5f, 0.4f, 0.0f), std::tuple(0.2f, 0.1f, 0.0014f)}) {
        glm::vec4 a0(0.0f), a1(0.0f);
        gpu::edgeEdgeContact(a, b, y0, y1, z0, z1, 1.0f, 1.0f, 0.01f, muS, muK, a0, a1);
        ASSERT_EQ(a0.w, 1.0f);
        const float s = 0.625f;
        const glm::vec3 c = (y0 + glm::vec3(a0)) * (1.0f - s) + (y1 + glm::vec3(a1)) * s;
        EXPECT_NEAR(c.y, 0.01f, 1e-6f);
        EXPECT_NEAR(c.x - 0.198f, kept, 2e-6f) << muS;
    }
}

TEST(FeatureContacts, NoSharpEdgeCutsThroughACoarseCloth) {
    const PreparedCloth p = prepareScene(fixtures::bladeScene());
    ASSERT_GT(p.meshFeatures.size(), 0u);
    const float dt = p.timing.frameDt;
    const int frames = 90;
    auto run = [&](const PreparedCloth& q, bool eachFrame) {
        auto solver = makeCpuSolver(q, 2);
        std::vector<glm::vec4> x;
        fixtures::FeatureClearance worst;
        for (int f = 1; f <= frames; ++f) {
            solver->stepFrame();
            if (!eachFrame && f < frames) continue;
            solver->readPositions(x);
            const auto c = fixtures::featureClearance(p, x, dt * f);
            worst.crossings += c.crossings;
            worst.closest = std::min(worst.closest, c.closest);
        }
        return std::pair(worst, x);
    };
    const auto [with, xWith] = run(p, true);
    const auto [without, xWithout] = run(fixtures::withoutFeatures(p), false);
    std::printf("blade through a 20 cm cloth after %d frames: %d crossings without feature "
                "contacts, %d with (every frame), closest %.4f m (h = 0.01)\n",
                frames, without.crossings, with.crossings, with.closest);
    // The effect exists: the vertices alone let the blade through.
    EXPECT_GT(without.crossings, 0);
    // With the feature contacts: never through, and held near the thickness.
    EXPECT_EQ(with.crossings, 0);
    EXPECT_GT(with.closest, 0.5 * 0.01);
    // It drapes: the cloth hangs down both sides of the ridge (0.3 m).
    float lowest = 1e9f;
    for (const auto& v : xWith) lowest = std::min(lowest, v.y);
    EXPECT_LT(lowest, 0.2f);
}

TEST(FeatureContacts, FrictionAtTheRidgeHoldsADrapedCloth) {
    // The cloth lands across the ridge off centre. Held only by the ridge (the blade's faces are
    // too steep for any friction to hold vertices on them), it slides off a frictionless blade;
    // with mu_s = 0.8 the edge contacts' friction keeps it draped over the ridge, at the
    // thickness and never through it, from 4 s to 8 s. (No damping: the hanging sides keep
    // swinging slowly, so this is not a test of rest.)
    auto closestFrom4To8 = [](float mu) {
        Scene s = fixtures::bladeScene();
        s.colliders[0].staticFriction = mu;
        s.colliders[0].kineticFriction = 0.75f * mu;
        s.colliders[1].staticFriction = 0.5f;
        s.colliders[1].kineticFriction = 0.4f;
        const PreparedCloth p = prepareScene(s);
        auto solver = makeCpuSolver(p, 2);
        fixtures::FeatureClearance worst;
        double farthest = 0.0;
        std::vector<glm::vec4> x;
        for (int f = 1; f <= 480; ++f) {
            solver->stepFrame();
            if (f < 240 || f % 30 != 0) continue;
            solver->readPositions(x);
            const auto c = fixtures::featureClearance(p, x, p.timing.frameDt * f);
            worst.crossings += c.crossings;
            worst.closest = std::min(worst.closest, c.closest);
            farthest = std::max(farthest, c.closest);
        }
        return std::tuple(worst, farthest);
    };
    const auto [held, heldFarthest] = closestFrom4To8(0.8f);
    const auto [slid, slidFarthest] = closestFrom4To8(0.0f);
    std::printf("from 4 to 8 s the cloth's closest approach to a sharp feature stays in [%.4f, "
                "%.4f] m with mu 0.8 (h = 0.01); without friction it reaches %.3f m\n",
                held.closest, heldFarthest, slidFarthest);
    EXPECT_EQ(held.crossings, 0);
    EXPECT_GT(held.closest, 0.5 * 0.01);
    EXPECT_LT(heldFarthest, 1.5 * 0.01);
    EXPECT_GT(slidFarthest, 0.05);
}

TEST(FeatureContacts, SameBitsForAnyThreadCount) {
    Scene s = fixtures::bladeScene();
    s.phantoms = {PhantomMode::Target, 5};
    const PreparedCloth p = prepareScene(s);
    auto a = makeCpuSolver(p, 1), b = makeCpuSolver(p, 3, std::nullopt, 0);
    for (int f = 0; f < 40; ++f) {
        a->stepFrame();
        b->stepFrame();
    }
    std::vector<glm::vec4> x, y;
    a->readPositions(x);
    b->readPositions(y);
    ASSERT_EQ(x.size(), y.size());
    EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size() * sizeof(glm::vec4)), 0);
    EXPECT_GT(a->contactCount(), 0u);
}

TEST(FeatureContacts, TheTableEdgesNoLongerCutTheTablecloth) {
    // tablecloth.json (a 2 m disc of 331 vertices on a table mesh of five boxes): without the
    // feature contacts the table's edges pass through the cloth between its vertices; with them,
    // never in 180 frames (3 s), and the cloth ends at about the thickness from every feature.
    const char* env = std::getenv("CLOTH_SOURCE_DIR");
    const PreparedCloth p = prepareScene(loadSceneFile(
        std::string(env ? env : CLOTH_TEST_SOURCE_DIR) + "/assets/scenes/tablecloth.json"));
    ASSERT_EQ(p.meshFeatures.size(), 5u * (12 + 8));
    int crossings[2] = {0, 0}, framesCrossed[2] = {0, 0};
    std::vector<glm::vec4> x;
    for (int with = 0; with < 2; ++with) {
        auto solver = makeCpuSolver(with ? p : fixtures::withoutFeatures(p), 2);
        for (int f = 1; f <= 180; ++f) {
            solver->stepFrame();
            solver->readPositions(x);
            const int n = fixtures::featureCrossings(p, x, p.timing.frameDt * f);
            crossings[with] += n;
            framesCrossed[with] += n > 0;
        }
    }
    const double closest = fixtures::featureClearance(p, x, p.timing.frameDt * 180).closest;
    const float h = p.segments[0].thickness;
    std::printf("tablecloth, 180 frames: without feature contacts %d crossings in %d frames; with "
                "them %d, and the cloth %.4f m from the nearest feature at the end (h = %.3f)\n",
                crossings[0], framesCrossed[0], crossings[1], closest, h);
    EXPECT_GT(framesCrossed[0], 90);
    EXPECT_EQ(crossings[1], 0);
    EXPECT_GT(closest, 0.8 * h);
}
