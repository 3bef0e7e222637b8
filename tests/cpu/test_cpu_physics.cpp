// The CPU reference against analytic results, on hand-built fixtures.
#include <cmath>

#include <gtest/gtest.h>

#include "core/error.h"
#include "cpu/backend.h"
#include "fixtures.h"

using namespace cloth;

TEST(CpuPhysics, FreeFallFollowsTheExactDiscreteTrajectory) {
    // Symplectic Euler: v_n = v0 + n g h, x_n = x0 + n h v0 + g h^2 n (n + 1) / 2.
    const glm::vec3 x0(0.3f, 2.0f, -1.0f), v0(0.5f, 1.5f, 0.0f);
    PreparedCloth p = test::bareCloth({glm::vec4(x0, 1.0f), glm::vec4(0.0f, 1.0f, 0.0f, 0.0f)});
    p.velocities[0] = glm::vec4(v0, 0.0f);
    auto solver = makeCpuSolver(p, 1);
    const double h = double(p.timing.frameDt) / p.timing.substeps;
    const glm::dvec3 g(p.sim.gravity);
    std::vector<glm::vec4> pos, vel;
    for (int frame = 1; frame <= 90; ++frame) {
        solver->stepFrame();
        const double n = double(frame) * p.timing.substeps;
        const glm::dvec3 x = glm::dvec3(x0) + n * h * glm::dvec3(v0) + g * (h * h * n * (n + 1) / 2);
        const glm::dvec3 v = glm::dvec3(v0) + n * h * g;
        solver->readPositions(pos);
        solver->readVelocities(vel);
        ASSERT_NEAR(pos[0].x, x.x, 1e-4);
        ASSERT_NEAR(pos[0].y, x.y, 1e-4 * std::max(1.0, std::abs(x.y)));
        ASSERT_NEAR(pos[0].z, x.z, 1e-4);
        ASSERT_NEAR(vel[0].y, v.y, 2e-5 * std::max(1.0, std::abs(v.y)));
        // The pinned vertex never moves.
        ASSERT_EQ(glm::vec3(pos[1]), glm::vec3(0.0f, 1.0f, 0.0f));
    }
    EXPECT_NEAR(solver->simTime(), 1.5, 1e-6);  // 90 frames of float-rounded 1/60 s
}

namespace {

// A pendulum: pinned pivot at the origin, bob at length L, angle theta0 from the vertical.
PreparedCloth pendulum(float length, float theta0, float compliance) {
    const glm::vec3 bob(length * std::sin(theta0), -length * std::cos(theta0), 0.0f);
    PreparedCloth p = test::bareCloth({glm::vec4(0.0f, 0.0f, 0.0f, 0.0f), glm::vec4(bob, 1.0f)}, 20);
    test::addDistanceColour(p, {{0u, 1u, length, compliance}});
    return p;
}

}  // namespace

TEST(CpuPhysics, PinnedPendulumKeepsItsLength) {
    auto solver = makeCpuSolver(pendulum(1.0f, 1.2f, 0.0f), 1);
    std::vector<glm::vec4> pos;
    float worst = 0.0f;
    for (int frame = 0; frame < 300; ++frame) {
        solver->stepFrame();
        solver->readPositions(pos);
        worst = std::max(worst, std::abs(glm::length(glm::vec3(pos[1] - pos[0])) - 1.0f));
        ASSERT_EQ(glm::vec3(pos[0]), glm::vec3(0.0f));
    }
    EXPECT_LT(worst, 1e-5f);
}

TEST(CpuPhysics, SmallSwingPendulumPeriodMatchesTheory) {
    // T = 2 pi sqrt(L / g) for small amplitude; measured from zero crossings of x.
    const float L = 0.5f;
    auto solver = makeCpuSolver(pendulum(L, 0.05f, 0.0f), 1);
    std::vector<glm::vec4> pos;
    std::vector<double> crossings;
    float lastX = 1.0f;
    double t = 0.0;
    for (int frame = 0; frame < 600 && crossings.size() < 7; ++frame) {
        solver->stepFrame();
        solver->readPositions(pos);
        const float x = pos[1].x;
        const double tNow = solver->simTime();
        if ((lastX > 0.0f) != (x > 0.0f))  // interpolate the crossing time inside the frame
            crossings.push_back(t + (tNow - t) * lastX / (lastX - x));
        lastX = x;
        t = tNow;
    }
    ASSERT_GE(crossings.size(), 7u);
    const double period = (crossings[6] - crossings[0]) / 3.0;
    const double expected = 2.0 * M_PI * std::sqrt(L / 9.81);
    EXPECT_NEAR(period, expected, 0.01 * expected);
}

TEST(CpuPhysics, HardAttachmentFollowsItsCircle) {
    PreparedCloth p = test::bareCloth({glm::vec4(1.0f, 2.0f, 0.0f, 1.0f)});
    gpu::Motion m{};
    m.type = gpu::MOTION_CIRCLE;
    m.radius = 0.25f;
    m.angularSpeed = float(M_PI);  // period 2 s
    m.phase = 0.0f;
    m.u = glm::vec4(1, 0, 0, 0);
    m.v = glm::vec4(0, 0, 1, 0);
    p.motions.push_back(m);
    gpu::Attachment a{};
    a.anchor = glm::vec4(1.0f, 2.0f, 0.0f, 0.0f);
    a.vertex = 0;
    a.motion = 0;
    a.param = 0.0f;
    p.attachments.push_back(a);
    auto solver = makeCpuSolver(p, 1);
    std::vector<glm::vec4> pos;
    for (int frame = 1; frame <= 75; ++frame) {
        solver->stepFrame();
        solver->readPositions(pos);
        const double t = solver->simTime();
        const glm::vec3 expect(1.0f + 0.25f * (float(std::cos(M_PI * t)) - 1.0f), 2.0f,
                               0.25f * float(std::sin(M_PI * t)));
        ASSERT_NEAR(glm::length(glm::vec3(pos[0]) - expect), 0.0f, 1e-5f) << "frame " << frame;
    }
}

TEST(CpuPhysics, TetherCapsTheDistanceToItsAnchor) {
    // A free vertex falls from 0.1 m below a pinned anchor; the tether allows 0.5 m.
    PreparedCloth p = test::bareCloth({glm::vec4(0, 0, 0, 0), glm::vec4(0, -0.1f, 0, 1)});
    p.tethers.push_back({1u, 0u, 0.5f, 0u});
    auto solver = makeCpuSolver(p, 1);
    std::vector<glm::vec4> pos;
    for (int frame = 0; frame < 120; ++frame) {
        solver->stepFrame();
        solver->readPositions(pos);
        ASSERT_LE(glm::length(glm::vec3(pos[1])), 0.5f + 1e-6f);
    }
    EXPECT_NEAR(pos[1].y, -0.5f, 1e-5f);  // hanging at the end of its tether
}

namespace {

// Three free vertices joined by stiff distance constraints (three colours), spinning about z.
PreparedCloth spinningTriangle(float linearDamping, float rigidDamping) {
    const glm::vec3 a(1, 0, 0), b(-0.5f, 0.866f, 0), c(-0.5f, -0.866f, 0);
    PreparedCloth p = test::bareCloth({glm::vec4(a, 1), glm::vec4(b, 2), glm::vec4(c, 1)});
    p.sim.gravity = glm::vec3(0.0f);
    const float l = glm::length(a - b);
    test::addDistanceColour(p, {{0u, 1u, l, 0.0f}});
    test::addDistanceColour(p, {{1u, 2u, l, 0.0f}});
    test::addDistanceColour(p, {{2u, 0u, l, 0.0f}});
    const glm::vec3 omega(0, 0, 2.0f);
    for (int i = 0; i < 3; ++i)
        p.velocities[i] = glm::vec4(glm::cross(omega, glm::vec3(p.positions[i])) + glm::vec3(0.3f, 0, 0), 0);
    p.segments[0].linearDamping = linearDamping;
    p.segments[0].rigidDamping = rigidDamping;
    return p;
}

// Angular momentum about the centre of mass (w = inverse mass).
glm::dvec3 angularMomentum(const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& v) {
    glm::dvec3 com(0.0), L(0.0);
    double M = 0.0;
    for (size_t i = 0; i < x.size(); ++i) {
        com += glm::dvec3(x[i]) / double(x[i].w);
        M += 1.0 / x[i].w;
    }
    com /= M;
    for (size_t i = 0; i < x.size(); ++i)
        L += glm::cross(glm::dvec3(x[i]) - com, glm::dvec3(v[i])) / double(x[i].w);
    return L;
}

double momentumX(const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& v) {
    double px = 0.0;
    for (size_t i = 0; i < x.size(); ++i) px += v[i].x / x[i].w;
    return px;
}

}  // namespace

TEST(CpuPhysics, RigidDampingKeepsRigidRotation) {
    auto solver = makeCpuSolver(spinningTriangle(0.0f, 1.0f), 1);
    std::vector<glm::vec4> x, v;
    solver->readPositions(x);
    solver->readVelocities(v);
    const glm::dvec3 L0 = angularMomentum(x, v);
    for (int frame = 0; frame < 60; ++frame) solver->stepFrame();
    solver->readPositions(x);
    solver->readVelocities(v);
    EXPECT_NEAR(angularMomentum(x, v).z, L0.z, 0.01 * std::abs(L0.z));
    // ... while the same spin without the rigid-preserving damping is not damped either, but
    // a deforming (non-rigid) velocity field is: see RigidDampingRemovesDeformationVelocity.
}

TEST(CpuPhysics, LinearDampingDecaysMomentumGeometrically) {
    // No constraint moves the centre of mass, so momentum scales by (1 - c h) per substep.
    const float c = 0.5f;
    PreparedCloth p = spinningTriangle(c, 0.0f);
    const double px0 = momentumX(p.positions, p.velocities);
    auto solver = makeCpuSolver(p, 1);
    for (int frame = 0; frame < 30; ++frame) solver->stepFrame();
    std::vector<glm::vec4> x, v;
    solver->readPositions(x);
    solver->readVelocities(v);
    const double px = momentumX(x, v);
    const double h = double(p.timing.frameDt) / p.timing.substeps;
    const double expect = px0 * std::pow(1.0 - c * h, 30 * p.timing.substeps);
    EXPECT_NEAR(px, expect, 1e-3 * expect);
}

TEST(CpuPhysics, RigidDampingRemovesDeformationVelocity) {
    // Two free vertices joined by a soft spring, moving apart: relative (non-rigid) velocity
    // along the spring is removed by full rigid damping within one substep, the mean kept.
    PreparedCloth p = test::bareCloth({glm::vec4(-0.5f, 0, 0, 1), glm::vec4(0.5f, 0, 0, 1)});
    p.sim.gravity = glm::vec3(0.0f);
    test::addDistanceColour(p, {{0u, 1u, 1.0f, 1.0f}});  // very soft
    p.velocities[0] = glm::vec4(-1.0f, 0.2f, 0, 0);
    p.velocities[1] = glm::vec4(1.0f, 0.2f, 0, 0);
    p.segments[0].rigidDamping = 1.0f;
    auto solver = makeCpuSolver(p, 1);
    solver->stepFrame();
    std::vector<glm::vec4> v;
    solver->readVelocities(v);
    EXPECT_NEAR(v[0].x, 0.0f, 1e-5f);
    EXPECT_NEAR(v[1].x, 0.0f, 1e-5f);
    EXPECT_NEAR(v[0].y, 0.2f, 1e-5f);
    EXPECT_NEAR(v[1].y, 0.2f, 1e-5f);
}

TEST(CpuPhysics, ImpossibleThreadCountIsRefused) {
    PreparedCloth p = test::bareCloth({glm::vec4(0, 0, 0, 1)});
    EXPECT_THROW(makeCpuSolver(p, 0), Error);
    EXPECT_THROW(makeCpuSolver(p, -3), Error);
}
