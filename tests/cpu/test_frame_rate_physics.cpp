// The frame rate does not change the physics (core/frame_rate.h): substeps are counted per 1/60 s,
// so a cloth falling freely for one second takes the same 600 substeps of 1/600 s at 24, 25, 30
// and 60 frames per second, and lands where the discrete free fall puts it.
#include <cmath>

#include <gtest/gtest.h>

#include "core/scene.h"
#include "cpu/backend.h"
#include "prep/prepare.h"

using namespace cloth;

namespace {

// A free 4 x 4 sheet 2 m up, 10 substeps per 1/60 s; `frames` frames of it at `fps`.
std::vector<glm::vec4> fall(float fps, int frames, double& simTime) {
    Scene s;
    s.name = "free_fall";
    s.sim.fps = fps;
    s.sim.substeps = 10;
    ClothDesc c;
    c.name = "sheet";
    GridDesc g;
    g.resX = g.resY = 4;
    c.grid = g;
    c.transform.translate = glm::vec3(0.0f, 2.0f, 0.0f);
    // Soft (1 m/N, 1e3 1/(N m)): stiff constraints would turn float rounding into motions of a
    // tenth of a millimetre, in-plane as much as vertical, that hide what is measured here.
    c.material.stretchCompliance = 1.0f;
    c.material.bendCompliance = 1e3f;
    s.cloths.push_back(c);
    const PreparedCloth p = prepareScene(s);
    auto solver = makeCpuSolver(p, 1);
    for (int f = 0; f < frames; ++f) solver->stepFrame();
    std::vector<glm::vec4> x;
    solver->readPositions(x);
    simTime = solver->simTime();
    return x;
}

}  // namespace

TEST(FrameRatePhysics, OneSecondOfFreeFallIsTheSameAtAnyFrameRate) {
    std::vector<glm::vec4> start;
    double t0 = 0.0;
    start = fall(60.0f, 0, t0);
    double t60 = 0.0;
    const std::vector<glm::vec4> at60 = fall(60.0f, 60, t60);
    EXPECT_NEAR(t60, 1.0, 1e-6);
    // Symplectic Euler over N = 600 substeps of h = 1/600 s: g h^2 N (N + 1) / 2, which is
    // 1/2 g t^2 (1 + 1/N): 4.9132 m against the continuous 4.905 m.
    const double g = 9.81, h = 1.0 / 600.0, n = 600.0;
    const double discrete = g * h * h * n * (n + 1.0) / 2.0;
    const double analytic = 0.5 * g * 1.0 * 1.0;
    // The sheet's centre.
    glm::dvec3 moved(0.0);
    for (std::size_t v = 0; v < start.size(); ++v)
        moved += glm::dvec3(glm::vec3(at60[v])) - glm::dvec3(glm::vec3(start[v]));
    moved /= double(start.size());
    EXPECT_NEAR(-moved.y, discrete, 1e-4);
    EXPECT_NEAR(-moved.y, analytic, 0.5 * g * h + 1e-4);  // the integrator's known error
    EXPECT_NEAR(moved.x, 0.0, 1e-5);
    EXPECT_NEAR(moved.z, 0.0, 1e-5);
    for (const auto& [fps, frames] :
         {std::pair{24.0f, 24}, std::pair{25.0f, 25}, std::pair{30.0f, 30}}) {
        double t = 0.0;
        const std::vector<glm::vec4> x = fall(fps, frames, t);
        EXPECT_NEAR(t, 1.0, 1e-6) << fps;
        ASSERT_EQ(x.size(), at60.size());
        for (std::size_t v = 0; v < x.size(); ++v)
            for (int k = 0; k < 3; ++k)
                // The substep is 1/600 s at every rate, though (1/25 s) / 24 and (1/60 s) / 10
                // round to floats one unit apart (at 24 fps they are the same float).
                ASSERT_NEAR(x[v][k], at60[v][k], 1e-5) << fps << " fps, vertex " << v;
    }
}

// Rigid damping is a factor per 1/60 s: the same per substep at any frame rate whose substeps
// have the scene's length (1 - (1 - k)^(1/10) for 10 substeps per 1/60 s).
TEST(FrameRatePhysics, RigidDampingPerSubstepFollowsTheSubstepNotTheFrame) {
    const auto perSubstep = [](float fps) {
        Scene s;
        s.name = "damped";
        s.sim.fps = fps;
        ClothDesc c;
        GridDesc g;
        g.resX = g.resY = 2;
        c.grid = g;
        c.material.rigidDamping = 0.3f;
        s.cloths.push_back(c);
        return prepareScene(s).segments.at(0).rigidDamping;
    };
    const float expected = 1.0f - std::pow(0.7f, 0.1f);
    EXPECT_FLOAT_EQ(perSubstep(60.0f), expected);
    for (float fps : {24.0f, 25.0f, 30.0f}) EXPECT_EQ(perSubstep(fps), perSubstep(60.0f)) << fps;
    // 45 fps: 14 substeps of 1/630 s, 10.5 per 1/60 s.
    EXPECT_NEAR(perSubstep(45.0f), 1.0 - std::pow(0.7, 1.0 / 10.5), 1e-6);
}
