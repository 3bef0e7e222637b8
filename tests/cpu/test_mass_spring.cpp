// The mass-spring model (cpu/mass_spring.h, prep/springs.h) against independent numbers: the
// spring force against finite differences of its energy, the stable steps found by bisection
// against 2 / omega_max (a single spring: omega = sqrt(k / m); a 32x32 grid: omega_max from the
// springs' stiffness and the masses, assembled here), forward Euler's energy growth against its
// closed form, a free fall against the symplectic sum, and Provot's spring counts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>

#include "core/error.h"
#include "core/scene.h"
#include "cpu/backend.h"
#include "cpu/mass_spring.h"
#include "fixtures/scenes.h"
#include "kernels/spring.h"
#include "prep/prepare.h"
#include "prep/springs.h"

using namespace cloth;

namespace {

// fixtures::hangingScene as a free mass-spring cloth (no pins, no tethers), 50 N/m springs, one
// substep per frame.
Scene gridScene(std::uint32_t n, float size) {
    Scene s = fixtures::hangingScene(n, size);
    s.name = "springs";
    s.cloths[0].pins = {};
    s.cloths[0].tethers = false;
    s.sim.model = ClothModel::MassSpring;
    s.sim.massSpring.structural = s.sim.massSpring.shear = s.sim.massSpring.flexion = 50.0f;
    s.sim.substeps = 1;
    return s;
}

// The largest step in [lo, hi] (to `tolerance` of it) for which `stable` holds, stable below.
double bisect(double lo, double hi, double tolerance, const std::function<bool(double)>& stable) {
    EXPECT_TRUE(stable(lo));
    EXPECT_FALSE(stable(hi));
    while (hi - lo > tolerance * lo) {
        const double mid = 0.5 * (lo + hi);
        (stable(mid) ? lo : hi) = mid;
    }
    return lo;
}

double largestDisplacement(const SpringState& s, const std::vector<glm::vec4>& rest) {
    double most = 0.0;
    for (std::size_t v = 0; v < rest.size(); ++v)
        most = std::max(most, double(glm::length(glm::vec3(s.x[v]) - glm::vec3(rest[v]))));
    return most;
}

}  // namespace

TEST(MassSpring, SpringForceIsMinusTheGradientOfItsEnergy) {
    std::uint32_t seed = 7u;
    auto next = [&] {
        seed = seed * 1664525u + 1013904223u;
        return double(seed >> 8) / double(1u << 24) - 0.5;
    };
    for (int trial = 0; trial < 20; ++trial) {
        const glm::dvec3 a(next(), next(), next()), b(next(), next(), next());
        const double rest = 0.2 + std::abs(next()), k = 10.0 + 100.0 * std::abs(next());
        auto energy = [&](glm::dvec3 xa) {
            const double l = glm::length(xa - b);
            return 0.5 * k * (l - rest) * (l - rest);
        };
        const glm::vec3 f = gpu::springForce(glm::vec3(a), glm::vec3(b), float(rest), float(k));
        const double h = 1e-6;
        for (int axis = 0; axis < 3; ++axis) {
            glm::dvec3 up = a, down = a;
            up[axis] += h;
            down[axis] -= h;
            const double minusGradient = -(energy(up) - energy(down)) / (2.0 * h);
            EXPECT_NEAR(f[axis], minusGradient, 1e-4 * (1.0 + std::abs(minusGradient)))
                << "trial " << trial << " axis " << axis;
        }
    }
}

TEST(MassSpring, OneSpringIsStableUpToTwoOverOmegaAndForwardEulerGrowsAsTheory) {
    const float k = 40.0f, m = 0.25f, rest = 1.0f;
    const double omega = std::sqrt(k / m);
    auto state = [&] {
        SpringState s;
        s.x = {glm::vec4(0, 0, 0, 0.0f), glm::vec4(rest + 0.01f, 0, 0, 1.0f / m)};
        s.v = {glm::vec4(0.0f), glm::vec4(0.0f)};
        return s;
    };
    const std::vector<gpu::Spring> spring{{0, 1, rest, k}};
    for (Integrator integrator : {Integrator::Symplectic, Integrator::Verlet}) {
        auto stable = [&](double h) {
            SpringStepper stepper(spring, springIncidence(spring, 2));
            SpringState s = state();
            for (int i = 0; i < 2000; ++i)
                stepper.step(integrator, s, float(h), glm::vec3(0.0f), 0.0f);
            return std::abs(s.x[1].x - rest) < 0.1;
        };
        const double found = bisect(0.5 * 2.0 / omega, 1.5 * 2.0 / omega, 1e-3, stable);
        EXPECT_NEAR(found, 2.0 / omega, 0.05 * 2.0 / omega) << integratorName(integrator);
        EXPECT_NEAR(found, stableStep(integrator, omega, 0.0), 0.05 * 2.0 / omega);
    }
    // Forward Euler, undamped: each step multiplies the energy by 1 + (omega h)^2, at any step.
    for (double h : {0.01 / omega, 0.1 / omega}) {
        SpringStepper stepper(spring, springIncidence(spring, 2));
        SpringState s = state();
        auto energy = [&] {
            const double x = s.x[1].x - rest, v = s.v[1].x;
            return 0.5 * k * x * x + 0.5 * m * v * v;
        };
        const double e0 = energy();
        const int steps = 200;
        for (int i = 0; i < steps; ++i) stepper.step(Integrator::Explicit, s, float(h), glm::vec3(0.0f), 0.0f);
        const double expected = std::pow(1.0 + omega * omega * h * h, steps);
        EXPECT_GT(energy(), e0);
        EXPECT_NEAR(energy() / e0, expected, 1e-3 * expected) << "h = " << h;
    }
}

TEST(MassSpring, AGridIsStableUpToTwoOverItsHighestNaturalFrequency) {
    // 32x32 quads, 1 m, no gravity: omega_max of M^-1 K assembled here from the springs and the
    // masses (power iteration with its own start), against the bisected stable steps.
    const PreparedCloth p = prepareScene(gridScene(32, 1.0f));
    const std::size_t n = p.originalVertexCount;
    std::vector<double> mass(n);
    for (std::size_t v = 0; v < n; ++v) mass[v] = 1.0 / double(p.positions[v].w);
    std::vector<glm::dvec3> x(n), y(n);
    for (std::size_t v = 0; v < n; ++v)
        x[v] = glm::dvec3(std::sin(3.1 * double(v)), std::cos(1.7 * double(v)), std::sin(0.3 * double(v) + 1.0));
    double lambda = 0.0;
    for (int it = 0; it < 2000; ++it) {
        double norm = 0.0;
        for (auto& e : x) norm += glm::dot(e, e);
        for (auto& e : x) e /= std::sqrt(norm);
        std::fill(y.begin(), y.end(), glm::dvec3(0.0));
        for (const gpu::Spring& s : p.springTerms.springs) {  // y = M^-1/2 K M^-1/2 x
            const glm::dvec3 d = glm::normalize(glm::dvec3(p.positions[s.a]) - glm::dvec3(p.positions[s.b]));
            const double f = double(s.stiffness) *
                             glm::dot(d, x[s.a] / std::sqrt(mass[s.a]) - x[s.b] / std::sqrt(mass[s.b]));
            y[s.a] += d * (f / std::sqrt(mass[s.a]));
            y[s.b] -= d * (f / std::sqrt(mass[s.b]));
        }
        lambda = 0.0;
        for (std::size_t v = 0; v < n; ++v) lambda += glm::dot(x[v], y[v]);
        std::swap(x, y);
    }
    const double omega = std::sqrt(lambda);
    EXPECT_NEAR(springOmegaMax(p), omega, 0.02 * omega);  // the solver's own estimate
    for (Integrator integrator : {Integrator::Symplectic, Integrator::Verlet}) {
        auto stable = [&](double h) {
            SpringStepper stepper(p.springTerms.springs,
                                  springIncidence(p.springTerms.springs, std::uint32_t(n)));
            SpringState s{p.positions, p.velocities, {}};
            std::uint32_t seed = 3u;
            for (auto& e : s.x) {  // a small random start excites every mode
                seed = seed * 1664525u + 1013904223u;
                e += glm::vec4(1e-4f * (float(seed >> 8) / float(1u << 24) - 0.5f), 0, 0, 0);
            }
            for (int i = 0; i < 400; ++i)
                stepper.step(integrator, s, float(h), glm::vec3(0.0f), 0.0f);
            return largestDisplacement(s, p.positions) < 1e-2;
        };
        const double found = bisect(0.8 * 2.0 / omega, 1.25 * 2.0 / omega, 1e-2, stable);
        EXPECT_NEAR(found, 2.0 / omega, 0.05 * 2.0 / omega) << integratorName(integrator);
    }
}

TEST(MassSpring, AFreeClothFallsAsTheSymplecticSumSays) {
    Scene s = gridScene(8, 1.0f);
    s.sim.substeps = 4;
    const PreparedCloth p = prepareScene(s);
    const SpringPlan plan = planSpringSteps(p);
    auto solver = makeCpuSolver(p, 2);
    const int frames = 30;
    for (int f = 0; f < frames; ++f) solver->stepFrame();
    // Unstretched springs exert nothing: v_k = -g k h, x_N = x_0 - g h^2 N (N + 1) / 2.
    const double steps = double(frames) * s.sim.substeps * plan.steps, h = plan.step;
    const double fall = 9.81 * h * h * steps * (steps + 1.0) / 2.0;
    std::vector<glm::vec4> x;
    solver->readPositions(x);
    for (std::size_t v = 0; v < x.size(); ++v)
        ASSERT_NEAR(x[v].y, p.positions[v].y - fall, 1e-4 * fall) << "vertex " << v;
    EXPECT_GT(plan.steps, 1u);  // stability split the substep (50 N/m, light particles)
    EXPECT_LE(plan.step, 0.9 * plan.limit * (1.0 + 1e-9));
}

// A 24x24 cloth hanging from two corners with tethers, every integrator: 1, 2 and 3 threads (all
// of them used, however small the cloth) give the same bits.
TEST(MassSpring, AnyThreadCountGivesTheSameBits) {
    Scene s = gridScene(24, 1.0f);
    s.cloths[0].tethers = true;
    s.cloths[0].pins.regions = {"top_corners"};
    // Soft and damped, so that forward Euler's limit c / omega^2 is a few hundred steps a frame.
    s.sim.massSpring.structural = s.sim.massSpring.shear = s.sim.massSpring.flexion = 1.0f;
    s.sim.massSpring.airDamping = 20.0f;
    for (Integrator integrator : {Integrator::Explicit, Integrator::Symplectic, Integrator::Verlet,
                                  Integrator::AdaptiveVerlet}) {
        s.sim.massSpring.integrator = integrator;
        const PreparedCloth p = prepareScene(s);
        ASSERT_FALSE(p.tethers.empty());
        std::vector<glm::vec4> first;
        for (int threads : {1, 2, 3}) {
            auto solver = makeCpuSolver(p, threads, std::nullopt, 0);
            EXPECT_EQ(solver->threadsUsed(), threads);
            solver->stepFrame();
            std::vector<glm::vec4> x;
            solver->readPositions(x);
            if (threads == 1) {
                first = x;
                EXPECT_NE(x, p.positions);
                continue;
            }
            ASSERT_EQ(x.size(), first.size());
            EXPECT_EQ(0, std::memcmp(x.data(), first.data(), x.size() * sizeof(glm::vec4)))
                << integratorName(integrator) << ", " << threads << " threads";
        }
    }
}

TEST(MassSpring, AGridGetsProvotsTwelveSpringsPerParticleAndAMeshItsEdgesAndFlexion) {
    const PreparedCloth p = prepareScene(gridScene(6, 1.0f));
    const std::uint32_t n = 6, w = n + 1;
    EXPECT_EQ(p.springTerms.families[0], 2 * w * n);        // structural
    EXPECT_EQ(p.springTerms.families[1], 2 * n * n);        // shear
    EXPECT_EQ(p.springTerms.families[2], 2 * w * (n - 1));  // flexion
    std::vector<int> incident(p.originalVertexCount, 0);
    for (const gpu::Spring& s : p.springTerms.springs) ++incident[s.a], ++incident[s.b];
    for (std::uint32_t r = 2; r + 2 < w; ++r)
        for (std::uint32_t c = 2; c + 2 < w; ++c) EXPECT_EQ(incident[r * w + c], 12);
    // A 2x2 grid as an OBJ mesh (no grid description): its 3m^2 + 2m = 16 edges, and flexion
    // across each of its 3m^2 - 2m = 8 interior edges (m = 2).
    const std::string obj = ::testing::TempDir() + "mass_spring_grid.obj";
    {
        std::ofstream out(obj);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) out << "v " << c << " " << -r << " 0\n";
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 2; ++c) {
                const int a = r * 3 + c + 1, b = a + 1, d = a + 3, e = a + 4;
                out << "f " << a << " " << d << " " << e << "\nf " << a << " " << e << " " << b << "\n";
            }
    }
    Scene mesh = gridScene(2, 1.0f);
    mesh.cloths[0].grid.reset();
    mesh.cloths[0].objPath = obj;
    const PreparedCloth q = prepareScene(mesh);
    EXPECT_EQ(q.springTerms.families[0], 16u);
    EXPECT_EQ(q.springTerms.families[1], 0u);
    EXPECT_EQ(q.springTerms.families[2], 8u);
    for (const gpu::Spring& sp : q.springTerms.springs) EXPECT_GT(sp.rest, 0.0f);
}

// A StVK material's springs (prep/springs.cpp latticeStiffness) against the moduli they stand for,
// computed here from the springs alone: a 24 x 16 grid of 3 x 5 cm cells stretched affinely by a
// small strain e along one axis, with the contraction across it that minimises the springs'
// energy W (uniaxial stress); then E = 2 W / (area e^2). Shear: W of a pure shear, G = W /
// (2 area e^2) for the tensor strain e. Borders included (their halved springs).
TEST(MassSpring, SpringsFromAStvkMaterialHaveItsModuli) {
    Scene s = gridScene(24, 1.0f);
    s.cloths[0].grid->width = 24 * 0.03f;
    s.cloths[0].grid->height = 16 * 0.05f;
    s.cloths[0].grid->resY = 16;
    s.sim.massSpring = MassSpringSettings{};
    Material& m = s.cloths[0].material;
    m.stretchModel = StretchModel::Stvk;
    m.membrane = {245.0f, 366.0f, 0.249f, 0.167f, 30.0f};  // viscose's moduli, a stiffer shear
    const double area = 24 * 0.03 * 16 * 0.05;
    for (float weft : {0.0f, 90.0f}) {
        m.weftAngleDegrees = weft;
        const PreparedCloth p = prepareScene(s);
        // The grid in its own plane: x across, y along (the cloth is turned into the xz plane
        // or left in xy by the fixture; use the rest positions' two in-plane axes).
        const glm::dvec3 x0(p.positions[0]), ax = glm::normalize(glm::dvec3(p.positions[1]) - x0),
                         ay = glm::normalize(glm::dvec3(p.positions[25]) - x0);
        auto energy = [&](double exx, double eyy, double exy) {
            double w = 0.0;
            for (const gpu::Spring& sp : p.springTerms.springs) {
                const glm::dvec3 d = glm::dvec3(p.positions[sp.a]) - glm::dvec3(p.positions[sp.b]);
                const double u = glm::dot(d, ax), v = glm::dot(d, ay);
                const double du = exx * u + exy * v, dv = exy * u + eyy * v;
                const double l = std::hypot(u + du, v + dv);
                w += 0.5 * double(sp.stiffness) * (l - sp.rest) * (l - sp.rest);
            }
            return w;
        };
        auto uniaxial = [&](bool alongY) {
            const double e = 1e-4;
            double lo = -e, hi = e;  // golden section over the contraction
            for (int i = 0; i < 200; ++i) {
                const double m1 = lo + 0.382 * (hi - lo), m2 = lo + 0.618 * (hi - lo);
                const double w1 = alongY ? energy(m1, e, 0) : energy(e, m1, 0);
                const double w2 = alongY ? energy(m2, e, 0) : energy(e, m2, 0);
                (w1 < w2 ? hi : lo) = w1 < w2 ? m2 : m1;
            }
            const double c = 0.5 * (lo + hi);
            return 2.0 * (alongY ? energy(c, e, 0) : energy(e, c, 0)) / (area * e * e);
        };
        const bool swapped = weft == 90.0f;
        const double wantX = swapped ? 366.0 : 245.0, wantY = swapped ? 245.0 : 366.0;
        const double ex = uniaxial(false), ey = uniaxial(true);
        const double shear = energy(0, 0, 1e-4) / (2.0 * area * 1e-8);
        std::printf("weft %.0f: E along x %.2f (want %.0f), along y %.2f (want %.0f), G %.3f "
                    "(want 30)\n", weft, ex, wantX, ey, wantY, shear);
        EXPECT_NEAR(ex / wantX, 1.0, 0.02);
        EXPECT_NEAR(ey / wantY, 1.0, 0.02);
        EXPECT_NEAR(shear / 30.0, 1.0, 0.02);
    }
    m.weftAngleDegrees = 30.0f;
    EXPECT_THROW(
        {
            try {
                prepareScene(s);
            } catch (const Error& e) {
                EXPECT_NE(std::string(e.what()).find("multiple of 90 degrees"), std::string::npos)
                    << e.what();
                throw;
            }
        },
        Error);
}

// The wind (kernels/wind.h through springWind, once per substep): a flat free patch, no
// gravity, facing a wind of 10 m/s head-on (v_r || n: no lift). Each vertex gets drag
// rho A C_D |v_r|^2 / 2, so the patch (areas summing to its area S, mass rho_s S) accelerates at
// rho C_D |v_r|^2 / (2 rho_s) while it is slow against the wind: after t, v = a t to first order
// (the relative wind drops by v, a relative change of 2 v / |v_r| in the force: under 1% here).
TEST(MassSpring, WindPushesAFreePatchAsItsDragSays) {
    for (Integrator integrator : {Integrator::Symplectic, Integrator::Verlet}) {
        Scene s = gridScene(8, 0.5f);
        s.sim.gravity = glm::vec3(0.0f);
        s.sim.massSpring.integrator = integrator;
        WindSettings w;
        w.velocity = glm::vec3(0.0f, 0.0f, 10.0f);  // the grid lies in the xy plane: along n
        w.drag = 0.1f;
        w.lift = 0.2f;
        w.airDensity = 1.2f;
        s.sim.wind = w;
        const PreparedCloth p = prepareScene(s);
        auto solver = makeCpuSolver(p, 1);
        solver->stepFrame();
        std::vector<glm::vec4> v;
        solver->readVelocities(v);
        double mean = 0.0;
        for (const glm::vec4& q : v) mean += q.z;
        mean /= double(v.size());
        const double density = s.cloths[0].material.density;
        const double want = 1.2 * 0.1 * 100.0 / (2.0 * density) * (1.0 / 60.0);
        std::printf("%s: patch speed after a frame %.5f m/s, drag says %.5f\n",
                    integratorName(integrator), mean, want);
        EXPECT_NEAR(mean, want, 0.01 * want);
    }
}

TEST(MassSpring, WhatTheModelCannotRunIsRefusedByName) {
    auto message = [](Scene s) {
        try {
            makeCpuSolver(prepareScene(s), 1);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    Scene s = gridScene(4, 1.0f);
    s.sim.massSpring.integrator = Integrator::Explicit;
    EXPECT_NE(message(s).find("unstable at any step without damping"), std::string::npos);
    s.sim.massSpring.integrator = Integrator::Symplectic;
    s.sim.massSpring.step = 1.0f;
    EXPECT_NE(message(s).find("past the stable limit of"), std::string::npos) << message(s);
    s.sim.massSpring.step = 0.0f;
    ColliderDesc ground;
    ground.shape = ColliderShape::Plane;
    s.colliders.push_back(ground);
    EXPECT_EQ(message(s), "no error");  // analytic colliders run (test_mass_spring_contacts.cpp)
    s.colliders.clear();
    s.sim.massSpring = MassSpringSettings{};
    s.cloths[0].material.stretchCompliance = 0.0f;
    EXPECT_NE(message(s).find("give mass_spring.stiffness"), std::string::npos) << message(s);
    s.cloths[0].material.stretchCompliance = 1e-3f;
    s.sim.mode = SolverMode::Pbd;
    EXPECT_NE(message(s).find("model mass_spring on the CPU reference: solver mode pbd is not built for it"), std::string::npos) << message(s);
}
