// Finite-difference checks of every constraint gradient in src/kernels/constraints.h, and
// the dihedral angle against an independent double-precision computation.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "kernels/constraint_types.h"
#include "kernels/constraints.h"

using namespace cloth::gpu;

namespace {

std::mt19937 rng(12345);

glm::vec3 randomPoint(float scale) {
    std::uniform_real_distribution<float> d(-scale, scale);
    return {d(rng), d(rng), d(rng)};
}

// Central difference of f with respect to point `which` of `pts`.
template <class F, size_t N>
glm::vec3 numericGradient(F f, std::array<glm::vec3, N> pts, size_t which, float h) {
    glm::vec3 g;
    for (int k = 0; k < 3; ++k) {
        auto plus = pts, minus = pts;
        plus[which][k] += h;
        minus[which][k] -= h;
        g[k] = (f(plus) - f(minus)) / (2.0f * h);
    }
    return g;
}

void expectNear(glm::vec3 a, glm::vec3 b, float tol, const char* what) {
    EXPECT_NEAR(a.x, b.x, tol) << what;
    EXPECT_NEAR(a.y, b.y, tol) << what;
    EXPECT_NEAR(a.z, b.z, tol) << what;
}

// Dihedral angle in double precision from unit normals, sign from the shared edge direction.
double referenceAngle(glm::dvec3 x0, glm::dvec3 x1, glm::dvec3 x2, glm::dvec3 x3) {
    glm::dvec3 e = glm::normalize(x1 - x0);
    glm::dvec3 n1 = glm::normalize(glm::cross(x1 - x0, x2 - x0));
    glm::dvec3 n2 = glm::normalize(glm::cross(x3 - x0, x1 - x0));
    double c = glm::clamp(glm::dot(n1, n2), -1.0, 1.0);
    double a = std::acos(c);
    return glm::dot(glm::cross(n1, n2), e) < 0.0 ? -a : a;
}

}  // namespace

TEST(ConstraintGradients, DistanceMatchesFiniteDifferences) {
    auto value = [](const std::array<glm::vec3, 2>& q) {
        float C;
        glm::vec3 g;
        distanceEval(q[0], q[1], 0.3f, C, g);
        return C;
    };
    for (int trial = 0; trial < 200; ++trial) {
        std::array<glm::vec3, 2> p = {randomPoint(1.0f), randomPoint(1.0f)};
        if (glm::length(p[0] - p[1]) < 0.1f) continue;
        float C;
        glm::vec3 g0;
        ASSERT_TRUE(distanceEval(p[0], p[1], 0.3f, C, g0));
        EXPECT_NEAR(C, glm::distance(glm::dvec3(p[0]), glm::dvec3(p[1])) - 0.3, 1e-6);
        expectNear(g0, numericGradient(value, p, 0, 1e-3f), 2e-3f, "d/dx0");
        expectNear(-g0, numericGradient(value, p, 1, 1e-3f), 2e-3f, "d/dx1");
    }
}

TEST(ConstraintGradients, DistanceCoincidentPointsAreSkipped) {
    float C;
    glm::vec3 g;
    EXPECT_FALSE(distanceEval(glm::vec3(1.0f), glm::vec3(1.0f), 0.5f, C, g));
    EXPECT_EQ(g, glm::vec3(0.0f));
}

TEST(ConstraintGradients, Atan2MatchesLibraryToFloatPrecision) {
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    double worst = 0.0;
    for (int i = 0; i < 200000; ++i) {
        float y = d(rng), x = d(rng);
        if (i % 3 == 0) y *= 1e-4f;  // near-flat folds: tiny sines
        worst = std::max(worst, std::abs(double(clothAtan2(y, x)) - std::atan2(double(y), double(x))));
    }
    EXPECT_LT(worst, 5e-7);
    EXPECT_EQ(clothAtan2(0.0f, 0.0f), 0.0f);
    EXPECT_NEAR(clothAtan2(1.0f, 0.0f), M_PI / 2, 1e-7);
    EXPECT_NEAR(clothAtan2(-1.0f, 0.0f), -M_PI / 2, 1e-7);
    EXPECT_NEAR(clothAtan2(0.0f, -1.0f), M_PI, 1e-6);
}

TEST(ConstraintGradients, BendingAngleMatchesIndependentFormula) {
    for (int trial = 0; trial < 500; ++trial) {
        glm::vec3 x0 = randomPoint(1.0f), x1 = randomPoint(1.0f);
        glm::vec3 x2 = randomPoint(1.0f), x3 = randomPoint(1.0f);
        glm::vec3 e = x1 - x0;
        if (glm::length(e) < 0.2f) continue;
        if (glm::length(glm::cross(e, x2 - x0)) < 0.05f || glm::length(glm::cross(e, x3 - x0)) < 0.05f)
            continue;
        double ref = referenceAngle(x0, x1, x2, x3);
        if (std::abs(std::abs(ref) - M_PI) < 1e-2) continue;  // sign of +-pi is arbitrary
        EXPECT_NEAR(bendingAngle(x0, x1, x2, x3), ref, 2e-5);
    }
}

TEST(ConstraintGradients, BendingAngleOfKnownFolds) {
    // Flat: 0. Folding triangle B up by 90 degrees about the x axis gives +-pi/2.
    glm::vec3 x0(0, 0, 0), x1(1, 0, 0), x2(0.5f, 1, 0), x3(0.5f, -1, 0);
    EXPECT_NEAR(bendingAngle(x0, x1, x2, x3), 0.0f, 1e-6f);
    EXPECT_NEAR(std::abs(bendingAngle(x0, x1, x2, glm::vec3(0.5f, 0, 1))), M_PI / 2, 1e-5);
    EXPECT_NEAR(std::abs(bendingAngle(x0, x1, x2, glm::vec3(0.5f, 0.7071f, 0.7071f))),
                3 * M_PI / 4, 1e-4);
}

TEST(ConstraintGradients, BendingMatchesFiniteDifferences) {
    int checked = 0;
    for (int trial = 0; trial < 300; ++trial) {
        std::array<glm::vec3, 4> p = {glm::vec3(0, 0, 0), glm::vec3(1, 0, 0),
                                      glm::vec3(0.4f, 1, 0), glm::vec3(0.6f, -1, 0)};
        float amount = trial < 20 ? 0.0f : 0.4f;  // the first configurations are exactly flat
        for (auto& q : p) q += randomPoint(amount);
        float angle;
        std::array<glm::vec3, 4> g;
        ASSERT_TRUE(bendingEval(p[0], p[1], p[2], p[3], angle, g[0], g[1], g[2], g[3]));
        if (std::abs(std::abs(angle) - CLOTH_PI) < 0.05f) continue;  // atan2 branch cut
        EXPECT_NEAR(angle, bendingAngle(p[0], p[1], p[2], p[3]), 1e-6f);
        auto f = [](const std::array<glm::vec3, 4>& q) { return bendingAngle(q[0], q[1], q[2], q[3]); };
        float scale = 0.0f;
        for (auto& gi : g) scale = std::max(scale, glm::length(gi));
        for (size_t i = 0; i < 4; ++i)
            expectNear(g[i], numericGradient(f, p, i, 1e-3f), 5e-3f * std::max(1.0f, scale),
                       "bending gradient");
        expectNear(g[0] + g[1] + g[2] + g[3], glm::vec3(0.0f), 1e-4f * scale, "translation invariance");
        ++checked;
    }
    EXPECT_GT(checked, 250);
}

TEST(ConstraintGradients, BendingFlatGradientIsFiniteAndDegenerateIsSkipped) {
    float angle;
    glm::vec3 g0, g1, g2, g3;
    ASSERT_TRUE(bendingEval({0, 0, 0}, {1, 0, 0}, {0.5f, 1, 0}, {0.5f, -1, 0}, angle, g0, g1, g2, g3));
    EXPECT_EQ(angle, 0.0f);
    EXPECT_TRUE(std::isfinite(glm::length(g2)) && glm::length(g2) > 0.1f);
    // x2 on the shared edge: zero-area triangle.
    EXPECT_FALSE(bendingEval({0, 0, 0}, {1, 0, 0}, {0.5f, 0, 0}, {0.5f, -1, 0}, angle, g0, g1, g2, g3));
    // Coincident edge vertices.
    EXPECT_FALSE(bendingEval({0, 0, 0}, {0, 0, 0}, {0.5f, 1, 0}, {0.5f, -1, 0}, angle, g0, g1, g2, g3));
}

TEST(ConstraintGradients, WrapAngleStaysInHalfOpenRange) {
    EXPECT_NEAR(wrapAngle(3.5f), 3.5f - 2.0f * CLOTH_PI, 1e-6f);
    EXPECT_NEAR(wrapAngle(-3.5f), -3.5f + 2.0f * CLOTH_PI, 1e-6f);
    EXPECT_EQ(wrapAngle(1.0f), 1.0f);
}

TEST(ConstraintGradients, AttachmentAndTetherProjectOntoTheirSets) {
    SolveParams s{3600.0f * 100.0f, MODE_XPBD, 1u, 0.0f};
    glm::vec4 p(1.0f, 2.0f, 3.0f, 5.0f);
    float lambda = 0.0f;
    projectAttachment(p, glm::vec3(0.0f), 0.0f, lambda, s);  // hard: lands on the target
    EXPECT_NEAR(glm::length(glm::vec3(p)), 0.0f, 1e-5f);
    EXPECT_EQ(p.w, 5.0f);

    glm::vec4 q(3.0f, 4.0f, 0.0f, 1.0f);  // 5 from the anchor, capped at 2
    projectTether(q, glm::vec3(0.0f), 2.0f);
    EXPECT_NEAR(glm::length(glm::vec3(q)), 2.0f, 1e-5f);
    EXPECT_NEAR(q.x / q.y, 0.75f, 1e-5f);  // along the same direction
    glm::vec4 r(1.0f, 0.0f, 0.0f, 1.0f);   // inside the cap: untouched
    projectTether(r, glm::vec3(0.0f), 2.0f);
    EXPECT_EQ(r, glm::vec4(1.0f, 0.0f, 0.0f, 1.0f));
}

TEST(ConstraintGradients, CircleMotionStartsAtAnchorAndStaysOnCircle) {
    Motion m;
    m.type = MOTION_CIRCLE;
    m.radius = 0.5f;
    m.angularSpeed = 2.0f;
    m.phase = 0.3f;
    m.u = glm::vec4(1, 0, 0, 0);
    m.v = glm::vec4(0, 0, 1, 0);
    EXPECT_NEAR(glm::length(motionOffset(m, 0.0f)), 0.0f, 1e-6f);
    // Offset from the circle's centre (anchor - r (cos phase u + sin phase v)) has length r.
    glm::vec3 centre = -0.5f * (std::cos(0.3f) * glm::vec3(1, 0, 0) + std::sin(0.3f) * glm::vec3(0, 0, 1));
    for (float t : {0.1f, 0.7f, 2.5f}) EXPECT_NEAR(glm::length(motionOffset(m, t) - centre), 0.5f, 1e-5f);
}

// The shared sin/cos against the C library in double precision, over the range of angles a
// motion reaches in hours of simulation.
TEST(SharedTrig, SinCosMatchesLibmClosely) {
    std::mt19937 r(3);
    std::uniform_real_distribution<float> d(-1.0e4f, 1.0e4f);
    for (int i = 0; i < 20000; ++i) {
        float a = i < 2000 ? (static_cast<float>(i) - 1000.0f) * 0.01f : d(r);
        glm::vec2 sc = clothSinCos(a);
        // The reduction in float loses about ulp(a) * 2^-8 of the argument; allow for it.
        double tol = 2e-7 + std::abs(a) * 2e-10;
        EXPECT_NEAR(sc.x, std::sin(static_cast<double>(a)), tol) << a;
        EXPECT_NEAR(sc.y, std::cos(static_cast<double>(a)), tol) << a;
    }
    EXPECT_EQ(clothSinCos(0.0f), glm::vec2(0.0f, 1.0f));
}

// Fixed angles (constraint/fixed_angle.h): C = wrap(angle - target) has bending's gradient, which
// the finite differences of C itself confirm around folded states (targets up to 150 degrees
// either way, away from the wrap at 180); and one hard XPBD projection of a stencil folded 0.3
// rad off its target is a Gauss-Newton step: what is left is second order, under a tenth.
TEST(ConstraintGradients, FixedAngleMatchesFiniteDifferencesAndProjectsToItsTarget) {
    int checked = 0;
    for (int trial = 0; trial < 200; ++trial) {
        std::uniform_real_distribution<float> d(-2.6f, 2.6f);
        const float target = d(rng), fold = target + 0.3f * (trial % 2 ? 1.0f : -1.0f);
        if (std::abs(fold) > 2.8f) continue;
        // Triangle B turned about the edge (the x axis) so that the dihedral angle is `fold`.
        std::array<glm::vec3, 4> p = {glm::vec3(0, 0, 0), glm::vec3(1, 0, 0),
                                      glm::vec3(0.4f, 1, 0), glm::vec3(0.6f, -1, 0)};
        p[3] = glm::vec3(0.6f, -std::cos(fold), -std::sin(fold));
        for (auto& q : p) q += randomPoint(0.02f);
        FixedAngleConstraint c{};
        c.v0 = 0, c.v1 = 1, c.v2 = 2, c.v3 = 3;
        c.targetAngle = target;
        c.param = 0.0f;
        auto C = [&](const std::array<glm::vec3, 4>& q) {
            return wrapAngle(bendingAngle(q[0], q[1], q[2], q[3]) - target);
        };
        float angle;
        std::array<glm::vec3, 4> g;
        ASSERT_TRUE(bendingEval(p[0], p[1], p[2], p[3], angle, g[0], g[1], g[2], g[3]));
        for (size_t i = 0; i < 4; ++i)
            expectNear(g[i], numericGradient(C, p, i, 1e-3f), 5e-3f, "fixed angle gradient");
        const float before = C(p);
        EXPECT_GT(std::abs(before), 0.2f);
        glm::vec4 x[4];
        for (int i = 0; i < 4; ++i) x[i] = glm::vec4(p[i], 1.0f);
        float lambda = 0.0f;
        SolveParams s{};
        s.invDt2 = 1.0f / (1e-3f * 1e-3f);
        s.mode = MODE_XPBD;
        s.firstIteration = 1u;
        projectBending(x[0], x[1], x[2], x[3], fixedAngleAsBending(c), lambda, s);
        const float after = C({glm::vec3(x[0]), glm::vec3(x[1]), glm::vec3(x[2]), glm::vec3(x[3])});
        EXPECT_LT(std::abs(after), 0.1f * std::abs(before)) << "target " << target;
        ++checked;
    }
    EXPECT_GT(checked, 150);
}
