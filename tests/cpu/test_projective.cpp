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
#include "cpu/cpu_solver.h"
#include "cpu/projective.h"
#include "fixtures/scenes.h"
#include "kernels/projective.h"
#include "prep/prepare.h"

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
    ASSERT_GT(p.pdTriangles.size(), 0u);
    ASSERT_GT(p.pdBends.size(), 0u);
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
