// Projective dynamics with the Jacobi global step (cpu/pd_jacobi.h, kernels/pd_jacobi.h) against
// independent numbers: many sweeps of one global step reach the direct (LDLT) solve of the same
// system, a free fall lands at h^2 g N (N + 1) / 2, 1, 2 and 3 threads give the same bits, and
// Chebyshev's blend converges faster than plain Jacobi.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "core/scene.h"
#include "cpu/backend.h"
#include "cpu/pd_jacobi.h"
#include "cpu/projective.h"
#include "fixtures/scenes.h"
#include "prep/prepare.h"
#include "sim/schedule.h"

using namespace cloth;

namespace {

Scene pdScene(std::uint32_t n, IterationScheme scheme) {
    Scene s = fixtures::hangingScene(n, 1.0f);
    s.name = "pd-jacobi";
    s.cloths[0].tethers = false;
    s.cloths[0].material.stretchCompliance = 1e-4f;
    s.sim.model = ClothModel::Projective;
    s.sim.iteration.scheme = scheme;
    s.sim.iteration.relaxation =
        0.5f;  // the bound that converges on every cloth (prep/projective.h)
    return s;
}

// A crumpled start: the free vertices pushed off the rest shape at random.
std::vector<glm::vec4> crumpled(const PreparedCloth& p) {
    std::vector<glm::vec4> x(p.positions.begin(), p.positions.begin() + p.originalVertexCount);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-0.01f, 0.01f);
    for (glm::vec4& q : x)
        if (q.w > 0.0f) q += glm::vec4(u(rng), u(rng), u(rng), 0.0f);
    return x;
}

double maxDistance(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
    double d = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double l = glm::length(glm::vec3(a[i]) - glm::vec3(b[i]));
        if (!(l <= d)) d = std::isfinite(l) ? l : HUGE_VAL;  // NaN counts as infinitely far
    }
    return d;
}

// Sweeps of one global step (projections fixed from y0) from y0, plain Jacobi or Chebyshev.
std::vector<glm::vec4> sweeps(PdJacobiSystem& jacobi, const std::vector<glm::vec4>& y0,
                              const std::vector<glm::vec4>& s, int count,
                              const IterationSettings& it) {
    std::vector<glm::vec4> prev = y0, cur = y0, next = y0;
    jacobi.project(y0, 0, 1);
    float omega = 1.0f;
    for (int k = 0; k < count; ++k) {
        // Wang 2015's weights, written out: 1 in the warm-up, then 2 / (2 - rho^2), then
        // 4 / (4 - rho^2 omega).
        omega = it.scheme == IterationScheme::Chebyshev
                    ? (k < it.warmup ? 1.0f
                                     : (k == it.warmup ? 2.0f / (2.0f - it.rho * it.rho)
                                                       : 4.0f / (4.0f - it.rho * it.rho * omega)))
                    : 1.0f;
        jacobi.sweep(cur, prev, s, next, omega, it.relaxation, 0, std::uint32_t(cur.size()));
        prev.swap(cur);
        cur.swap(next);
    }
    return cur;
}

}  // namespace

TEST(PdJacobi, ManySweepsReachTheDirectSolveOfTheSameGlobalStep) {
    // One global step: the direct solve (LDLT in double) from the projections at y0, against
    // Jacobi sweeps with the same projections (PdJacobiSystem::project from the same y0, the same
    // float function). Jacobi's fixed point is A^-1 b; its error shrinks by the spectral radius
    // of I - gamma D^-1 A per sweep until float rounding stalls it (see below). Soft bending and
    // the cloth centred on the origin keep that floor low.
    Scene scene = pdScene(8, IterationScheme::Jacobi);
    scene.cloths[0].material.stretchCompliance = 1e-3f;
    scene.cloths[0].material.bendCompliance = 1.0f;
    scene.cloths[0].transform.translate = glm::vec3(0.0f);
    const PreparedCloth p = prepareScene(scene);
    const float h = substepDt(p.timing);
    ProjectiveSystem direct(p, h);
    PdJacobiSystem jacobi(p);
    const std::vector<glm::vec4> x = crumpled(p);
    std::vector<glm::vec4> v(x.size(), glm::vec4(0.0f, -1.0f, 0.0f, 0.0f)), s;
    direct.predict(x, v, p.sim.gravity, s);
    std::vector<glm::vec4> y = x;  // the local step from the crumpled state
    ThreadPool pool(1);
    pool.run([&](int m, int n) { direct.iterate(pool, m, n, y, s); });
    const double moved = maxDistance(y, x);
    IterationSettings plain;
    plain.scheme = IterationScheme::Jacobi;
    plain.relaxation = 0.5f;
    const double after50 = maxDistance(sweeps(jacobi, x, s, 50, plain), y);
    const double after4000 = maxDistance(sweeps(jacobi, x, s, 4000, plain), y);
    IterationSettings cheb = plain;
    cheb.scheme = IterationScheme::Chebyshev;
    cheb.rho = 0.99f;
    const double cheb50 = maxDistance(sweeps(jacobi, x, s, 50, cheb), y);
    const double cheb4000 = maxDistance(sweeps(jacobi, x, s, 4000, cheb), y);
    std::printf(
        "direct step moved %.3g m; Jacobi off by %.3g m after 50 sweeps, %.3g after "
        "4000; Chebyshev (rho 0.99) %.3g, %.3g\n",
        moved, after50, after4000, cheb50, cheb4000);
    EXPECT_GT(moved, 1e-3);
    EXPECT_GT(after50, 1e-5);  // far from converged after 50: the comparison can tell
    // Float stalls the iteration where gamma (x^ - x) rounds away: |x^ - x| about an ulp of |x|
    // (6e-8 m at 0.5 m), which leaves an error of that times the condition number of D^-1 A.
    // Measured: 3.7e-7 m here, 1.1e-6 m with the cloth at y = 1.5 (4 times the ulp: the floor is
    // rounding, not a different solution), 1.4e-4 m with the default, stiff bending. 2e-6 m
    // leaves a factor of 5.
    EXPECT_LT(after4000, 2e-6);
    EXPECT_LT(cheb4000, 2e-6);
    EXPECT_LT(cheb50, 0.5 * after50);
}

TEST(PdJacobi, AFreeClothFallsWithoutStrain) {
    for (IterationScheme scheme : {IterationScheme::Jacobi, IterationScheme::Chebyshev}) {
        Scene s = pdScene(8, scheme);
        s.cloths[0].pins = {};
        s.cloths[0].material.linearDamping = 0.0f;
        s.sim.substeps = 2;
        s.sim.iterations = 10;
        const PreparedCloth p = prepareScene(s);
        auto solver = makeCpuSolver(p, 1);
        for (int f = 0; f < 30; ++f) solver->stepFrame();
        std::vector<glm::vec4> x;
        solver->readPositions(x);
        // Implicit Euler of a free particle: v_n = n h g, x_n = x_0 + h^2 g n (n + 1) / 2.
        const double h = 1.0 / 120.0, steps = 60.0;
        const double drop = 9.81 * h * h * steps * (steps + 1.0) / 2.0;
        double worst = 0.0;
        for (std::size_t i = 0; i < x.size(); ++i)
            worst = std::max(worst, std::abs(double(p.positions[i].y - x[i].y) - drop));
        std::printf("%s: the drop is off by %.3g m at most\n", iterationSchemeName(scheme), worst);
        for (std::size_t i = 0; i < x.size(); ++i) {
            EXPECT_NEAR(p.positions[i].y - x[i].y, drop, 1e-4 * drop)
                << iterationSchemeName(scheme) << " vertex " << i;
            EXPECT_NEAR(x[i].x, p.positions[i].x, 1e-5f);
            EXPECT_NEAR(x[i].z, p.positions[i].z, 1e-5f);
        }
        for (const Solver::ModelFigure& f : solver->modelFigures())
            if (f.name == "factorizations") {
                EXPECT_EQ(f.value, 0.0);
            }
    }
}

TEST(PdJacobi, AnyThreadCountGivesTheSameBits) {
    for (IterationScheme scheme : {IterationScheme::Jacobi, IterationScheme::Chebyshev}) {
        Scene s = pdScene(40, scheme);
        s.sim.substeps = 4;  // 10 substeps x 8 iterations took 58 s under ASan
        s.sim.iterations = 4;
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
                EXPECT_GT(maxDistance(x, std::vector<glm::vec4>(p.positions.begin(),
                                                                p.positions.begin() + x.size())),
                          0.1);
                continue;
            }
            EXPECT_EQ(std::memcmp(x.data(), ref.data(), x.size() * sizeof(glm::vec4)), 0)
                << iterationSchemeName(scheme) << ", " << threads << " threads";
        }
    }
}
