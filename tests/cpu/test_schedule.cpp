// The one frame driver (sim/schedule.h forEachStep) against frames written out by hand: each
// model's steps in order, its Iteration entries looped the count given, the Frame entries once at
// the end, and every substep's start and length; and each model's schedule is the one its solvers
// walk (modelSchedule).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/schedule.h"

using namespace cloth;

namespace {

struct Call {
    Step step;
    int substep, iteration;
    bool operator==(const Call&) const = default;
};

std::vector<Call> walk(Schedule schedule, int substeps, int iterations) {
    std::vector<Call> out;
    const SimSettings sim;
    FrameTiming timing;
    timing.substeps = substeps;
    forEachStep(schedule, sim, timing, 0.0, iterations,
                [&](const ScheduleEntry& e, const StepContext& c) {
                    out.push_back({e.step, c.substep, c.iteration});
                });
    return out;
}

std::string show(const std::vector<Call>& calls) {
    std::string s;
    for (const Call& c : calls)
        s += std::to_string(int(c.step)) + "/" + std::to_string(c.substep) + "/" +
             std::to_string(c.iteration) + " ";
    return s;
}

}  // namespace

TEST(Schedule, MassSpringLoopsItsStepsInsideEachSubstep) {
    // (The scene's iterations are not the mass-spring's loop count: the plan's steps are.)
    std::vector<Call> expected;
    for (int s = 0; s < 2; ++s) {
        expected.push_back({Step::Wind, s, 0});
        for (int k = 0; k < 3; ++k)
            for (Step step : {Step::SpringForces, Step::SpringMove, Step::Tethers, Step::Contacts})
                expected.push_back({step, s, k});
        expected.push_back({Step::Damping, s, 0});
    }
    expected.push_back({Step::Normals, 1, 0});
    const std::vector<Call> got = walk(kMassSpringSchedule, 2, 3);
    EXPECT_EQ(got, expected) << show(got);
}

TEST(Schedule, ProjectiveIteratesItsLocalAndGlobalStepsThenFinishesTheSubstep) {
    std::vector<Call> expected;
    for (int s = 0; s < 3; ++s) {
        expected.push_back({Step::Wind, s, 0});
        expected.push_back({Step::Predict, s, 0});
        for (int k = 0; k < 2; ++k) {
            expected.push_back({Step::PdLocal, s, k});
            expected.push_back({Step::PdGlobal, s, k});
        }
        for (Step step : {Step::PdResult, Step::Tethers, Step::Velocities, Step::Damping})
            expected.push_back({step, s, 0});
    }
    expected.push_back({Step::Normals, 2, 0});
    const std::vector<Call> got = walk(kProjectiveSchedule, 3, 2);
    EXPECT_EQ(got, expected) << show(got);
}

TEST(Schedule, FemRunsEachStepOncePerSubstep) {
    std::vector<Call> expected;
    for (int s = 0; s < 2; ++s)
        for (Step step : {Step::Wind, Step::FemForces, Step::FemSolve, Step::FemMove, Step::Tethers,
                          Step::Velocities, Step::Damping})
            expected.push_back({step, s, 0});
    expected.push_back({Step::Normals, 1, 0});
    const std::vector<Call> got = walk(kFemSchedule, 2, 5);
    EXPECT_EQ(got, expected) << show(got);
}

TEST(Schedule, EverySubstepStartsWhereTheLastEndedAndTheChebyshevWeightsFollowTheRecurrence) {
    SimSettings sim;
    FrameTiming timing;
    timing.substeps = 4;
    timing.frameDt = 0.02f;
    sim.iteration.scheme = IterationScheme::Chebyshev;
    sim.iteration.warmup = 1;
    sim.iteration.rho = 0.8f;
    const double frameStart = 1.5;
    std::vector<float> omegas;
    forEachStep(kProjectiveSchedule, sim, timing, frameStart, 3,
                [&](const ScheduleEntry& e, const StepContext& c) {
                    if (e.loop == Loop::Frame) return;
                    EXPECT_FLOAT_EQ(c.dt, 0.005f);
                    EXPECT_NEAR(c.start, frameStart + 0.005 * c.substep, 1e-6) << c.substep;
                    if (e.step == Step::PdGlobal && c.substep == 0) omegas.push_back(c.omega);
                });
    // Warm-up 1: omega_0 = 1, omega_1 = 2 / (2 - rho^2), omega_2 = 4 / (4 - rho^2 omega_1).
    const double r2 = 0.64, w1 = 2.0 / (2.0 - r2), w2 = 4.0 / (4.0 - r2 * w1);
    ASSERT_EQ(omegas.size(), 3u);
    EXPECT_FLOAT_EQ(omegas[0], 1.0f);
    EXPECT_NEAR(omegas[1], w1, 1e-6);
    EXPECT_NEAR(omegas[2], w2, 1e-6);
}

TEST(Schedule, EachModelWalksItsOwnSchedule) {
    EXPECT_EQ(modelSchedule(ClothModel::Xpbd).data(), kSchedule);
    EXPECT_EQ(modelSchedule(ClothModel::MassSpring).data(), kMassSpringSchedule);
    EXPECT_EQ(modelSchedule(ClothModel::Projective).data(), kProjectiveSchedule);
    EXPECT_EQ(modelSchedule(ClothModel::Fem).data(), kFemSchedule);
    // Every schedule ends its frame with the normals, once.
    for (ClothModel m : {ClothModel::Xpbd, ClothModel::MassSpring, ClothModel::Projective,
                         ClothModel::Fem}) {
        int frameEntries = 0;
        for (const ScheduleEntry& e : modelSchedule(m))
            if (e.loop == Loop::Frame) {
                ++frameEntries;
                EXPECT_EQ(e.step, Step::Normals) << clothModelName(m);
            }
        EXPECT_EQ(frameEntries, 1) << clothModelName(m);
    }
}
