// Fixed angles under projective dynamics (kernels/projective.h pdProjectFixedAngle,
// prep/projective.h fixedAngleTerm) against independent numbers: the folded rest hinge has the
// target's dihedral angle (bendingAngle, XPBD's own measure) on the side of the normals, and its
// stencil vector the isometric stencil's 2 |e| sin(theta / 2); the projection turns with a rigidly
// moved hinge and equals sum K x on a hinge folded to its target; the creased strip of
// test_fixed_angle.cpp folds to its target under the direct and the Jacobi global step, measured
// from the face normals alone.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "core/error.h"
#include "cpu/backend.h"
#include "cpu/projective.h"
#include "creased_strip.h"
#include "kernels/constraint/bending.h"
#include "kernels/projective.h"
#include "prep/prepare.h"
#include "prep/projective.h"

using namespace cloth;

namespace {

// A random hinge around the origin: edge x0 -> x1 of 3 to 6 cm, wings of 2 to 5 cm on either
// side, each foot anywhere from a quarter before the edge to a quarter past it, lying in a plane
// (flat) unless `fold` is not 0 (then v3's wing turned by it about the edge).
std::array<glm::vec3, 4> randomHinge(std::mt19937& rng, float fold = 0.0f) {
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    const float l = 0.03f + 0.03f * u(rng);
    const float f2 = l * (-0.25f + 1.5f * u(rng)), f3 = l * (-0.25f + 1.5f * u(rng));
    const float h2 = 0.02f + 0.03f * u(rng), h3 = 0.02f + 0.03f * u(rng);
    return {glm::vec3(0.0f), glm::vec3(l, 0.0f, 0.0f), glm::vec3(f2, h2, 0.0f),
            glm::vec3(f3, -h3 * std::cos(fold), h3 * std::sin(fold))};
}

glm::mat3 randomRotation(std::mt19937& rng) {
    std::normal_distribution<float> g(0.0f, 1.0f);
    glm::vec3 a(g(rng), g(rng), g(rng)), b(g(rng), g(rng), g(rng));
    a = glm::normalize(a);
    b = glm::normalize(b - a * glm::dot(a, b));
    return glm::mat3(a, b, glm::cross(a, b));
}

glm::vec3 stencil(const std::array<glm::vec3, 4>& x, glm::vec4 k) {
    return x[0] * k.x + x[1] * k.y + x[2] * k.z + x[3] * k.w;
}

glm::vec3 project(const std::array<glm::vec3, 4>& x, const gpu::PdBend& b) {
    return gpu::pdProjectBend(x[0], x[1], x[2], x[3], b);
}

std::array<glm::vec3, 4> toFloat(const std::array<glm::dvec3, 4>& x) {
    return {glm::vec3(x[0]), glm::vec3(x[1]), glm::vec3(x[2]), glm::vec3(x[3])};
}

Scene pdStrip(float angleDegrees, IterationScheme scheme) {
    Scene s = test::creasedStrip(angleDegrees);
    s.sim.model = ClothModel::Projective;
    s.sim.iteration.scheme = scheme;
    if (scheme != IterationScheme::GaussSeidel) {
        s.sim.iteration.relaxation = 0.5f;
        s.sim.iterations = 40;
    }
    return s;
}

}  // namespace

TEST(PdFixedAngle, TheFoldedHingeHasTheTargetAngleOnTheNormalsSide) {
    std::mt19937 rng(11);
    for (int trial = 0; trial < 50; ++trial) {
        // A rest hinge that is itself folded (a cloth that starts creased) is laid flat first.
        const std::array<glm::vec3, 4> rest = randomHinge(rng, trial % 2 ? 0.7f : 0.0f);
        for (float degrees : {60.0f, -60.0f, 150.0f, -5.0f}) {
            const float target = -glm::radians(degrees);  // bendingAngle's convention (XPBD's)
            const std::array<glm::vec3, 4> x = toFloat(foldHinge(rest, target));
            EXPECT_NEAR(gpu::bendingAngle(x[0], x[1], x[2], x[3]), target, 1e-5f) << degrees;
            // Unfolded, both faces' normals are +z; a positive angle lifts both wings towards +z.
            const std::array<glm::vec3, 4> flat = toFloat(foldHinge(rest, 0.0f));
            EXPECT_GT(glm::cross(flat[1] - flat[0], flat[2] - flat[0]).z, 0.0f);
            EXPECT_GT(glm::cross(flat[0] - flat[1], flat[3] - flat[1]).z, 0.0f);
            EXPECT_EQ(x[2].z > 0.0f, degrees > 0.0f);
            EXPECT_EQ(x[3].z > 0.0f, degrees > 0.0f);
            // Each wing keeps its triangle's edge lengths.
            for (auto [i, j] : {std::pair{0, 2}, {1, 2}, {0, 3}, {1, 3}, {0, 1}})
                EXPECT_NEAR(glm::length(x[i] - x[j]), glm::length(rest[i] - rest[j]), 1e-6f);
            // The isometric stencil's |C| = 2 |e| sin(theta / 2) along the mean normal
            // (kernels/constraint/iso_bending.h), positive towards the normals' side.
            const gpu::PdBend b = fixedAngleTerm(rest, 0, 1, 2, 3, target, 1.0f);
            EXPECT_EQ(b.kind, gpu::PD_TERM_FIXED_ANGLE);
            const float expected =
                2.0f * glm::length(rest[1] - rest[0]) * std::sin(glm::radians(degrees) / 2.0f);
            EXPECT_NEAR(b.restNorm, expected, 1e-6f) << degrees;
            EXPECT_NEAR(b.restTangent, 0.0f, 1e-6f) << degrees;
        }
    }
}

TEST(PdFixedAngle, TheProjectionTurnsWithTheHingeAndIsTheStencilAtTheTarget) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    float worstTurn = 0.0f, worstTarget = 0.0f;
    for (int trial = 0; trial < 200; ++trial) {
        const std::array<glm::vec3, 4> rest = randomHinge(rng);
        const float target = 2.5f * u(rng);
        const gpu::PdBend b = fixedAngleTerm(rest, 0, 1, 2, 3, target, 1.0f);
        const glm::mat3 r = randomRotation(rng);
        const glm::vec3 shift(u(rng), u(rng), u(rng));
        // Any deformed hinge, moved rigidly: p moves with it.
        std::array<glm::vec3, 4> x = rest, moved;
        for (glm::vec3& q : x) q += 0.01f * glm::vec3(u(rng), u(rng), u(rng));
        for (int i = 0; i < 4; ++i) moved[i] = r * x[i] + shift;
        const glm::vec3 p = project(x, b), pm = project(moved, b);
        const float scale = glm::length(rest[1] - rest[0]);
        worstTurn = std::max(worstTurn, glm::length(pm - r * p) / scale);
        EXPECT_NEAR(glm::length(p), std::hypot(b.restNorm, b.restTangent), 1e-6f * scale);
        // The hinge folded to its target, moved rigidly: p = sum K x, so the term pulls nowhere.
        const std::array<glm::vec3, 4> folded = toFloat(foldHinge(rest, target));
        for (int i = 0; i < 4; ++i) moved[i] = r * folded[i] + shift;
        worstTarget = std::max(worstTarget,
                               glm::length(project(moved, b) - stencil(moved, b.k)) / scale);
    }
    std::printf("relative to |e|: p's rotation error %.3g, p - sum K x at the target %.3g\n",
                double(worstTurn), double(worstTarget));
    EXPECT_LT(worstTurn, 1e-5f);
    EXPECT_LT(worstTarget, 1e-4f);
}

TEST(PdFixedAngle, TermsReplaceTheCreasesBendsWithTheirWeights) {
    Scene s = pdStrip(60.0f, IterationScheme::GaussSeidel);
    s.cloths[0].fixedAngles.push_back(s.cloths[0].fixedAngles[0]);
    s.cloths[0].fixedAngles[1].edges.lines = {{{0.04f, -1.0f, 0.0f}, {0.04f, 1.0f, 0.0f}}};
    s.cloths[0].fixedAngles[1].compliance = 1e-3f;
    const PreparedCloth p = prepareScene(s);
    const std::size_t interior = test::kCols * (test::kRows + 1) +
                                 test::kRows * (test::kCols + 1) + test::kCols * test::kRows -
                                 2 * (test::kCols + test::kRows);
    EXPECT_EQ(p.pdTerms.bends.size(), interior);
    EXPECT_EQ(pdTermCount(p, gpu::PD_TERM_FIXED_ANGLE), 2 * test::kRows);
    EXPECT_EQ(pdSeamTermCount(p), 0u);
    // Hard: the stiffest term, here the membrane modulus 4 / (3 alpha) of the stretch
    // compliance. Compliant: 1 / (alpha |e|^2) with |e| the crease's cell height 0.02 m.
    const double membrane = 4.0 / (3.0 * double(s.cloths[0].material.stretchCompliance));
    int hard = 0, soft = 0;
    for (const gpu::PdBend& b : p.pdTerms.bends) {
        if (b.kind != gpu::PD_TERM_FIXED_ANGLE) continue;
        if (std::abs(p.positions[b.v0].x) < 1e-6f) {
            EXPECT_NEAR(b.weight, membrane, 1e-6 * membrane);
            ++hard;
        } else {
            EXPECT_NEAR(b.weight, 1.0 / (1e-3 * 0.02 * 0.02), 1.0);
            ++soft;
        }
    }
    EXPECT_EQ(hard, int(test::kRows));
    EXPECT_EQ(soft, int(test::kRows));
}

TEST(PdFixedAngle, AStripFoldsToItsTargetOnTheNormalsSide) {
    // Direct (LDLT, 4 iterations) and Jacobi (40 sweeps of gamma 0.5) global steps, 150 frames.
    // With no gravity, the folded strip with flat halves is where every term's energy is 0, so the
    // fold must settle at the target itself, whatever the damping: the strip is damped at 6/s here
    // (the creased strip's 2/s rang for about 200 frames: 65.5, 60.9, 59.2, 60.2 degrees at frames
    // 30 to 120, direct; and took 300 frames). Measured at 6/s: direct 60.003 degrees at frame 120
    // and 60.000 from 150 on; Jacobi within 0.056 degrees of 60 and its halves flat within 0.044
    // from frame 90 to 300 (it wanders by about 0.04 degrees once settled, as at 2/s), 59.963 and
    // 0.028 at frame 150, for both signs.
    for (IterationScheme scheme : {IterationScheme::GaussSeidel, IterationScheme::Jacobi}) {
        for (float angle : {60.0f, -60.0f}) {
            Scene s = pdStrip(angle, scheme);
            s.cloths[0].material.linearDamping = 6.0f;
            const PreparedCloth p = prepareScene(s);
            auto solver = makeCpuSolver(p, 1, std::nullopt, 0);
            test::Fold f;
            for (int frame = 1; frame <= 150; ++frame) {
                solver->stepFrame();
                if (frame % 30 != 0) continue;
                std::vector<glm::vec4> x;
                solver->readPositions(x);
                f = test::measureFold(p, x);
                std::printf("%s crease %+.0f deg, frame %d: fold %.3f deg, valley towards the "
                            "normals %d, halves flat within %.3f deg\n",
                            iterationSchemeName(scheme), angle, frame, f.degrees, f.valley,
                            f.flatness);
            }
            EXPECT_NEAR(f.degrees, 60.0f, 0.1f) << angle;
            EXPECT_EQ(f.valley, angle > 0.0f) << angle;  // positive folds towards the normals
            EXPECT_LT(f.flatness, 0.1f) << angle;
            // The constraint set never changes: one factor for the direct step, none for Jacobi.
            for (const Solver::ModelFigure& m : solver->modelFigures()) {
                if (m.name == "factorizations") {
                    EXPECT_EQ(m.value, scheme == IterationScheme::GaussSeidel ? 1.0 : 0.0);
                }
            }
        }
    }
}

TEST(PdFixedAngle, EachIterationOfADirectStepLowersTheEnergyWithFixedAngles) {
    // As Projective.EachIterationLowersTheStepsEnergy, on the creased strip (+60 and -60 degrees,
    // both directions of the crease) from crumpled starts of 2 mm and 1 cm. A fixed angle's target
    // turns with the hinge's frame, so PD's argument (each step minimises over its own variables)
    // does not cover it; measured here: the energy never rose (it falls by 2 to 3 orders).
    int rises = 0;
    for (float angle : {60.0f, -60.0f}) {
        for (float amplitude : {0.002f, 0.01f}) {
            for (unsigned seed : {3u, 4u, 5u}) {
                Scene s = pdStrip(angle, IterationScheme::GaussSeidel);
                s.sim.iterations = 1;
                const PreparedCloth p = prepareScene(s);
                ProjectiveSystem system(p, 1.0f / 600.0f);
                std::vector<glm::vec4> x(p.positions.begin(),
                                         p.positions.begin() + p.originalVertexCount);
                std::mt19937 rng(seed);
                std::uniform_real_distribution<float> u(-amplitude, amplitude);
                for (glm::vec4& q : x) q += glm::vec4(u(rng), u(rng), u(rng), 0.0f);
                std::vector<glm::vec4> v(x.size(), glm::vec4(0.0f)), s0, y;
                system.predict(x, v, glm::vec3(0.0f), s0);
                y = s0;
                ThreadPool pool(1);
                double last = system.energy(y, s0);
                const double first = last;
                for (int it = 0; it < 30; ++it) {
                    pool.run([&](int m, int n) { system.iterate(pool, m, n, y, s0); });
                    const double e = system.energy(y, s0);
                    if (e > last * (1.0 + 1e-6)) {
                        ++rises;
                        std::printf("%+.0f deg, %g m, seed %u, iteration %d: energy rose %.6g -> "
                                    "%.6g\n", angle, amplitude, seed, it, last, e);
                    }
                    last = e;
                }
                std::printf("%+.0f deg, %g m, seed %u: energy %.6g -> %.6g after 30 iterations\n",
                            angle, amplitude, seed, first, last);
                EXPECT_LT(last, 0.5 * first);
            }
        }
    }
    std::printf("%d rises\n", rises);
    EXPECT_EQ(rises, 0);  // measured: none in these 360 iterations
}
