// adaptive_verlet (kernels/spring.h springTimeCorrectedVerletStep, prep/springs.h): time-corrected
// Verlet over a repeating pattern of unequal steps, against independent numbers: with equal steps
// it is position Verlet bit for bit; a free fall over unequal steps lands where the closed form
// of its recursion says; one spring's amplitude grows (or not) at the rate of the pattern's period
// map; the plan refuses an unstable fixed step and names the longest stable one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
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

Scene springScene(std::uint32_t n, float stiffness) {
    Scene s = fixtures::hangingScene(n, 1.0f);
    s.name = "adaptive";
    s.sim.model = ClothModel::MassSpring;
    s.sim.massSpring.structural = s.sim.massSpring.shear = s.sim.massSpring.flexion = stiffness;
    s.sim.substeps = 1;
    return s;
}

}  // namespace

TEST(AdaptiveVerlet, EqualStepsAreVerletBitForBit) {
    Scene s = springScene(16, 50.0f);
    s.sim.massSpring.airDamping = 0.5f;
    s.sim.substeps = 2;
    s.sim.massSpring.integrator = Integrator::Verlet;
    const PreparedCloth verlet = prepareScene(s);
    const SpringPlan plan = planSpringSteps(verlet);
    ASSERT_GT(plan.steps, 1u);
    s.sim.massSpring.integrator = Integrator::AdaptiveVerlet;
    s.sim.massSpring.step = float(plan.step);  // divides the substep up to its float rounding
    const PreparedCloth adaptive = prepareScene(s);
    const SpringPlan same = planSpringSteps(adaptive);
    EXPECT_EQ(same.steps, plan.steps);
    EXPECT_EQ(same.tailSteps, 0u);
    EXPECT_EQ(same.step, plan.step);
    auto a = makeCpuSolver(verlet, 2), b = makeCpuSolver(adaptive, 2);
    std::vector<glm::vec4> xa, xb;
    for (int f = 0; f < 30; ++f) {
        a->stepFrame();
        b->stepFrame();
    }
    a->readPositions(xa);
    b->readPositions(xb);
    ASSERT_EQ(xa.size(), xb.size());
    EXPECT_EQ(0, std::memcmp(xa.data(), xb.data(), xa.size() * sizeof(glm::vec4)));
    EXPECT_NE(xa[xa.size() / 2].y, verlet.positions[xa.size() / 2].y);  // it moved
}

TEST(AdaptiveVerlet, AFreeFallOverUnequalStepsFollowsItsClosedForm) {
    // Soft springs, no pins: nothing but gravity acts. From rest (x_-1 = x_0, one last step hL
    // back), v_(n+1/2) = v_(n-1/2) - g (h_n + h_(n-1)) / 2 sums to -g (tau_n + hL / 2) at each
    // step's midpoint tau_n, so after time t: x = x_0 - g t (t + hL) / 2, whatever the steps.
    for (float step : {0.007f, 0.0045f, 0.0123f}) {
        Scene s = springScene(8, 1.0f);
        s.cloths[0].pins = {};
        s.cloths[0].tethers = false;
        s.sim.massSpring.integrator = Integrator::AdaptiveVerlet;
        s.sim.massSpring.step = step;
        const PreparedCloth p = prepareScene(s);
        const SpringPlan plan = planSpringSteps(p);
        ASSERT_GT(plan.tailSteps, 0u) << "step " << step;  // the steps are unequal
        const double hL = springLastStep(plan);
        auto solver = makeCpuSolver(p, 1);
        const int frames = 30;
        for (int f = 0; f < frames; ++f) solver->stepFrame();
        const double t = frames * double(p.timing.frameDt);
        const double fall = 9.81 * t * (t + hL) / 2.0;
        std::vector<glm::vec4> x;
        solver->readPositions(x);
        // Float positions near 2 m carry the velocity in their differences: 30 frames of equal
        // steps land within 5e-5 of the fall of position Verlet's closed form (measured).
        const double tolerance = 2e-4 * fall;
        for (std::size_t v = 0; v < x.size(); ++v)
            ASSERT_NEAR(x[v].y, p.positions[v].y - fall, tolerance) << "vertex " << v << " step " << step;
        EXPECT_GT(9.81 * t * hL / 2.0, 20.0 * tolerance);  // the last step's share is resolved
    }
}

TEST(AdaptiveVerlet, OneSpringGrowsAtThePatternsRate) {
    // A particle of 0.25 kg on a 40 N/m spring (omega = sqrt(k / m)) along x, undamped, stepped by
    // a pattern of a step and a shorter one. The period map's spectral radius (the product of the
    // steps' 2x2 matrices, springPatternGrowth) gives the amplitude's growth per second; the
    // simulated amplitude over 8 s grows at that rate (from 1e-6 m, so that it stays linear: the
    // spring never passes through zero length).
    const float k = 40.0f, m = 0.25f, rest = 0.01f;
    const double omega = std::sqrt(k / m);
    const std::vector<gpu::Spring> spring{{0, 1, rest, k}};
    // Equal steps: bounded below 2 / omega and growing above it.
    EXPECT_LE(springPatternGrowth({1.9 / omega, 1.9 / omega}, omega, 0.0, 1), 1e-9);
    EXPECT_GT(springPatternGrowth({2.1 / omega, 2.1 / omega}, omega, 0.0, 1), 1.0);
    struct Case {
        double a, f;  // the steps: a / omega and f a / omega
        bool grows;
    };
    for (const Case c : {Case{1.7, 0.75, true}, Case{1.2, 0.75, false}, Case{1.6, 0.5, false},
                         Case{1.65, 0.5, true}}) {
        const std::vector<double> lengths{c.a / omega, c.f * c.a / omega};
        const double theory = springPatternGrowth(lengths, omega, 0.0, 1);
        EXPECT_EQ(theory > 1e-6, c.grows) << "a " << c.a << " f " << c.f << ": " << theory;
        SpringStepper stepper(spring, springIncidence(spring, 2));
        SpringState s;
        s.x = {glm::vec4(0, 0, 0, 0.0f), glm::vec4(rest + 1e-6f, 0, 0, 1.0f / m)};
        s.v = {glm::vec4(0.0f), glm::vec4(0.0f)};
        s.previous = springPrevious(s.x, s.v, float(lengths[1]));
        const std::vector<float> c0(2, 0.0f);
        const int periods = int(std::ceil(8.0 / (lengths[0] + lengths[1]))), window = 5;
        double first = 0.0, last = 0.0, elapsed = 0.0;
        for (int period = 0; period < periods; ++period)
            for (std::size_t i = 0; i < lengths.size(); ++i) {
                const float h = float(lengths[i]), before = float(lengths[1 - i]);
                stepper.forces(s.x, 0, 2);
                stepper.integrate(Integrator::AdaptiveVerlet, s, {h, 0.5f * (h + before), h / before},
                                  glm::vec3(0.0f), c0, 0, 2);
                const double amplitude = std::abs(s.x[1].x - rest);
                if (period < window) first = std::max(first, amplitude);
                if (period >= periods - window) last = std::max(last, amplitude);
                if (period >= window && period < periods - window) elapsed += lengths[i];
            }
        // The largest amplitude over `window` periods at each end.
        elapsed += window * (lengths[0] + lengths[1]);
        const double measured = std::log(last / first) / elapsed;
        std::printf("a %.2f f %.2f: growth %.4f/s, theory %.4f/s\n", c.a, c.f, measured, theory);
        if (c.grows)
            EXPECT_NEAR(measured, theory, 0.05 * theory) << "a " << c.a << " f " << c.f;
        else
            EXPECT_LT(last, 1.5 * first) << "a " << c.a << " f " << c.f;
    }
}

TEST(AdaptiveVerlet, ThePlanTakesAStablePatternAndRefusesAnUnstableStep) {
    // Trendafilov 2021's heavy cloth (32 x 32, 5 m, 1 kg/m^2, 43 N/m, C_damp 1.04/s) at one
    // substep of 1/60 s: equal steps are stable to 2 / omega_max = 0.0109 s.
    Scene s = springScene(31, 43.0f);
    s.cloths[0].grid->width = s.cloths[0].grid->height = 5.0f;
    s.cloths[0].material.density = 1.0f;
    s.cloths[0].tethers = false;
    s.sim.massSpring.airDamping = 1.038f;
    s.sim.massSpring.integrator = Integrator::AdaptiveVerlet;
    const PreparedCloth p = prepareScene(s);
    const SpringPlan plan = planSpringSteps(p);
    EXPECT_LE(plan.growth, 1e-3);
    EXPECT_LE(plan.step, 0.9 * plan.limit * (1.0 + 1e-9));
    const double least = 1.038;
    EXPECT_LE(springPatternGrowth(springStepLengths(plan), plan.omegaMax, least, 4000), 1e-3);
    // 0.0087 s and the remainder 0.0080 s: a mode near 0.92 omega_max grows by e^4 per second.
    s.sim.massSpring.step = 0.0087f;
    try {
        planSpringSteps(prepareScene(s));
        ADD_FAILURE() << "an unstable pattern was accepted";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("unstable"), std::string::npos) << what;
        EXPECT_NE(what.find("longest stable step here is"), std::string::npos) << what;
    }
    const std::vector<double> bad = {0.0087, 1.0 / 60.0 - 0.0087};
    EXPECT_GT(springPatternGrowth(bad, plan.omegaMax, least, 4000), 1.0);
    // Past equal steps' limit: refused as for every integrator.
    s.sim.massSpring.step = 0.0113f;
    EXPECT_THROW(planSpringSteps(prepareScene(s)), Error);
}
