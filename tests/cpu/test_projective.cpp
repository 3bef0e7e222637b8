// Projective dynamics (cpu/projective.h, kernels/projective.h) against independent numbers: the
// triangle projection against a brute-force search over rotations, each iteration lowering the
// step's energy (measured), a free fall against h^2 g N (N + 1) / 2 with no strain, the factor
// reused (counted), the same bits on 1, 2 and 3 threads, and what the model cannot run refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "core/error.h"
#include "core/scene.h"
#include "cpu/backend.h"
#include "cpu/projective.h"
#include "fixtures/scenes.h"
#include "kernels/projective.h"
#include "prep/prepare.h"
#include "prep/solver_data.h"

using namespace cloth;

namespace {

// fixtures::hangingScene as model pd: two pinned corners, no tethers.
Scene pdScene(std::uint32_t n, float size = 1.0f) {
    Scene s = fixtures::hangingScene(n, size);
    s.name = "pd";
    s.cloths[0].tethers = false;
    s.cloths[0].material.stretchCompliance = 1e-4f;
    s.sim.model = ClothModel::Projective;
    return s;
}

glm::vec3 rotate(glm::vec3 v, glm::vec3 axis, float angle) {
    const glm::vec3 a = glm::normalize(axis);
    return v * std::cos(angle) + glm::cross(a, v) * std::sin(angle) +
           a * glm::dot(a, v) * (1.0f - std::cos(angle));
}

}  // namespace

TEST(Projective, TheTriangleProjectionIsTheBestFrameFoundByBruteForce) {
    // For random deformed triangles, R = (r_u, r_v) must minimise k_u |f_u - r_u|^2 +
    // k_v |f_v - r_v|^2 over orthonormal pairs: compare with a search over a fine grid of frames
    // (a rotation of the plane of f_u, f_v's best frame is not assumed: frames are drawn from
    // all of SO(3)'s first two columns by a fine random search, then refined).
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int trial = 0; trial < 20; ++trial) {
        const glm::vec4 invRest(1.0f / 0.05f, 0.0f, -0.4f / 0.05f, 1.0f / 0.04f);
        const glm::vec4 k(0.5f + u(rng) * 0.4f + 0.5f, 1.0f + u(rng) * 0.5f + 0.5f, 0, 0);
        const glm::vec3 x0(u(rng), u(rng), u(rng));
        const glm::vec3 x1 = x0 + glm::vec3(0.05f, 0.0f, 0.0f) + 0.02f * glm::vec3(u(rng), u(rng), u(rng));
        const glm::vec3 x2 = x0 + glm::vec3(0.02f, 0.04f, 0.0f) + 0.02f * glm::vec3(u(rng), u(rng), u(rng));
        glm::vec3 ru, rv;
        gpu::pdProjectTriangle(x0, x1, x2, invRest, k, ru, rv);
        EXPECT_NEAR(glm::length(ru), 1.0f, 1e-5f);
        EXPECT_NEAR(glm::length(rv), 1.0f, 1e-5f);
        EXPECT_NEAR(glm::dot(ru, rv), 0.0f, 1e-5f);
        const float best = gpu::pdTriangleEnergy(x0, x1, x2, invRest, k, 1.0f, ru, rv);
        // Perturbing the frame by any small rotation never lowers the energy.
        for (int i = 0; i < 200; ++i) {
            const glm::vec3 axis(u(rng), u(rng), u(rng));
            const float angle = 0.05f * u(rng);
            const float e = gpu::pdTriangleEnergy(x0, x1, x2, invRest, k, 1.0f,
                                                  rotate(ru, axis, angle), rotate(rv, axis, angle));
            EXPECT_GE(e, best * (1.0f - 1e-5f)) << "trial " << trial;
        }
    }
}

TEST(Projective, EachIterationLowersTheStepsEnergy) {
    Scene s = pdScene(16);
    s.sim.iterations = 1;
    const PreparedCloth p = prepareScene(s);
    ASSERT_GT(p.pdTerms.triangles.size(), 0u);
    ASSERT_GT(p.pdTerms.bends.size(), 0u);
    ProjectiveSystem system(p, 1.0f / 60.0f);
    // A step from a crumpled state: the positions pushed off the rest shape at random.
    std::vector<glm::vec4> x(p.positions.begin(), p.positions.begin() + p.originalVertexCount);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-0.01f, 0.01f);
    for (glm::vec4& q : x)
        if (q.w > 0.0f) q += glm::vec4(u(rng), u(rng), u(rng), 0.0f);
    std::vector<glm::vec4> v(x.size(), glm::vec4(0.0f, -1.0f, 0.0f, 0.0f)), s0, y;
    system.predict(x, v, glm::vec3(0.0f, -9.81f, 0.0f), s0);
    y = s0;
    ThreadPool pool(1);
    double last = system.energy(y, s0);
    const double first = last;
    for (int it = 0; it < 30; ++it) {
        pool.run([&](int m, int n) { system.iterate(pool, m, n, y, s0); });
        const double e = system.energy(y, s0);
        EXPECT_LE(e, last * (1.0 + 1e-6)) << "iteration " << it;
        last = e;
    }
    std::printf("energy %.6g -> %.6g after 30 iterations\n", first, last);
    EXPECT_LT(last, 0.5 * first);
    EXPECT_EQ(system.factorizations(), 1u);
}

// The same with compliant attachments (w |x - t|^2 / 2, on the diagonal and the right-hand side):
// the energy, their terms included, falls at every iteration; its attachment share is
// (w/2) |y - t|^2 summed here by hand; the targets 5 cm off the start pull the held vertices.
TEST(Projective, EachIterationLowersTheStepsEnergyWithCompliantAttachments) {
    Scene s = pdScene(16);
    s.sim.iterations = 1;
    PreparedCloth p = prepareScene(s);
    const std::uint32_t held[] = {40u, 100u, 150u};  // interior, free vertices
    for (std::uint32_t v : held) {
        gpu::Attachment a{};
        a.vertex = v;
        a.param = 1e-3f;  // 1000 N/m
        p.attachments.push_back(a);
    }
    prepareSolverData(p);
    ProjectiveSystem system(p, 1.0f / 60.0f);
    std::vector<glm::vec4> x(p.positions.begin(), p.positions.begin() + p.originalVertexCount);
    std::vector<glm::vec4> targets(x.size(), glm::vec4(0.0f));
    for (std::uint32_t v : held) targets[v] = x[v] + glm::vec4(0.05f, 0.0f, 0.0f, 0.0f);
    std::vector<glm::vec4> v(x.size(), glm::vec4(0.0f)), s0, y;
    system.predict(x, v, glm::vec3(0.0f, -9.81f, 0.0f), s0);
    y = s0;
    ThreadPool pool(1);
    auto attachmentShare = [&] {
        return system.energy(y, s0, &targets) - system.energy(y, s0);
    };
    // (w/2) |y - t|^2 per held vertex, from the prediction y = s (5 cm, and the step's fall).
    double want = 0.0;
    for (std::uint32_t k : held) {
        const glm::dvec3 d = glm::dvec3(glm::vec3(s0[k])) - glm::dvec3(glm::vec3(targets[k]));
        want += 0.5 * 1000.0 * glm::dot(d, d);
    }
    EXPECT_NEAR(attachmentShare(), want, 1e-6 * want);
    double last = system.energy(y, s0, &targets);
    for (int it = 0; it < 20; ++it) {
        pool.run([&](int m, int n) { system.iterate(pool, m, n, y, s0, &targets); });
        const double e = system.energy(y, s0, &targets);
        EXPECT_LE(e, last * (1.0 + 1e-6)) << "iteration " << it;
        last = e;
    }
    // Each held vertex moved towards its target, +x (the cloth's stiffness, 10^4 N/m, keeps it
    // short of it).
    for (std::uint32_t k : held) EXPECT_GT(y[k].x - s0[k].x, 1e-3f) << "vertex " << k;
}

TEST(Projective, AFreeClothFallsWithoutStrain) {
    Scene s = pdScene(8);
    s.cloths[0].pins = {};
    s.cloths[0].material.linearDamping = 0.0f;
    s.sim.substeps = 2;
    const PreparedCloth p = prepareScene(s);
    auto solver = makeCpuSolver(p, 1);
    for (int f = 0; f < 30; ++f) solver->stepFrame();
    std::vector<glm::vec4> x;
    solver->readPositions(x);
    // Implicit Euler of a free particle: v_n = n h g, x_n = x_0 + h^2 g n (n + 1) / 2.
    const double h = 1.0 / 120.0, steps = 60.0;
    const double drop = 9.81 * h * h * steps * (steps + 1.0) / 2.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        EXPECT_NEAR(p.positions[i].y - x[i].y, drop, 1e-4 * drop) << "vertex " << i;
        EXPECT_NEAR(x[i].x, p.positions[i].x, 1e-5f);
    }
    for (const Solver::ModelFigure& f : solver->modelFigures()) {
        if (f.name == "factorizations") {
            EXPECT_EQ(f.value, 1.0);
        }
    }
}

TEST(Projective, AnyThreadCountGivesTheSameBits) {
    Scene s = pdScene(40);
    ColliderDesc ground;
    ground.shape = ColliderShape::Plane;
    ground.transform.translate = glm::vec3(0.0f, 1.05f, 0.0f);  // above the bottom rows
    s.colliders.push_back(ground);
    const PreparedCloth p = prepareScene(s);
    std::vector<glm::vec4> ref;
    for (int threads : {1, 2, 3}) {
        auto solver = makeProjectiveSolver(p, threads, 0);
        for (int f = 0; f < 20; ++f) solver->stepFrame();
        std::vector<glm::vec4> x;
        solver->readPositions(x);
        if (threads == 1) {
            ref = x;
            EXPECT_GT(solver->contactCount(), 0u);
            continue;
        }
        EXPECT_EQ(std::memcmp(x.data(), ref.data(), x.size() * sizeof(glm::vec4)), 0)
            << threads << " threads";
    }
}
