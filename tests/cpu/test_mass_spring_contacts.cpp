// The mass-spring model's contacts with the analytic colliders (kernels/spring.h springContact)
// against analytic results: Coulomb friction on an incline (at rest below tan(theta) = mu_s,
// sliding at g (sin(theta) - mu_k cos(theta)) above, g sin(theta) without friction) under each
// integrator, a cloth dropped on a sphere over the ground that ends with no free vertex closer to
// either than its thickness (distances computed here from the shapes' definitions), restitution's
// rebound height, and the same bits on 1 and 3 threads. No tethers, pins or damping hide anything.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/scene.h"
#include "cpu/backend.h"
#include "cpu/mass_spring.h"
#include "fixtures/scenes.h"
#include "prep/prepare.h"
#include "cpu_test_util.h"

using namespace cloth;

namespace {

constexpr float kThickness = 0.005f;  // m

// A horizontal n x n patch of `size` metres centred at `centre`: free, no tethers, no damping,
// 50 N/m springs, symplectic Euler unless told.
Scene patchScene(std::uint32_t n, float size, glm::vec3 centre,
                 Integrator integrator = Integrator::Symplectic) {
    Scene s = fixtures::hangingScene(n, size);
    ClothDesc& c = s.cloths[0];
    c.pins = {};
    c.tethers = false;
    c.material.thickness = kThickness;
    c.transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, 0.0f);
    c.transform.translate = centre;
    s.sim.model = ClothModel::MassSpring;
    s.sim.massSpring.integrator = integrator;
    s.sim.massSpring.structural = s.sim.massSpring.shear = s.sim.massSpring.flexion = 50.0f;
    s.sim.massSpring.airDamping = 0.0f;
    return s;
}

using test::plane;

// The patch lying on a plane tilted by theta about z, at its thickness above it.
Scene inclineScene(float thetaDegrees, float muS, float muK, Integrator integrator) {
    const float t = glm::radians(thetaDegrees);
    const glm::vec3 n(-std::sin(t), std::cos(t), 0.0f);
    Scene s = patchScene(4, 0.2f, n * kThickness, integrator);
    s.cloths[0].transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, thetaDegrees);
    s.colliders.push_back(plane(thetaDegrees, muS, muK));
    return s;
}

glm::dvec3 mean(const std::vector<glm::vec4>& x) {
    glm::dvec3 c(0.0);
    for (const auto& p : x) c += glm::dvec3(glm::vec3(p));
    return c / double(x.size());
}

const Integrator kIntegrators[] = {Integrator::Symplectic, Integrator::Verlet};

}  // namespace

TEST(MassSpringContacts, APatchStaysPutOnAGentleInclineAndSlidesAsCoulombOnASteepOne) {
    for (Integrator integrator : kIntegrators) {
        SCOPED_TRACE(integratorName(integrator));
        // tan(20 deg) = 0.364 < mu_s = 0.5: static friction holds it.
        auto still = makeCpuSolver(prepareScene(inclineScene(20.0f, 0.5f, 0.4f, integrator)), 2);
        std::vector<glm::vec4> x0, x;
        still->readPositions(x0);
        for (int f = 0; f < 120; ++f) still->stepFrame();
        still->readPositions(x);
        const double moved = glm::length(mean(x) - mean(x0));
        std::printf("%s, incline 20 deg, mu_s 0.5: moved %.3g mm in 2 s\n",
                    integratorName(integrator), moved * 1e3);
        EXPECT_LT(moved, 1e-4);
        EXPECT_EQ(still->contactCount(), x.size());

        // tan(35 deg) = 0.700 > mu_s: slides at g (sin - mu_k cos); without friction g sin.
        const double t = glm::radians(35.0);
        const glm::dvec3 downhill = -glm::dvec3(std::cos(t), std::sin(t), 0.0);
        for (float muK : {0.4f, 0.0f}) {
            auto solver = makeCpuSolver(
                prepareScene(inclineScene(35.0f, muK > 0.0f ? 0.5f : 0.0f, muK, integrator)), 2);
            std::vector<glm::vec4> v;
            for (int f = 0; f < 60; ++f) solver->stepFrame();
            solver->readVelocities(v);
            const double a = glm::dot(mean(v), downhill) / solver->simTime();
            const double want = 9.81 * (std::sin(t) - double(muK) * std::cos(t));
            std::printf("%s, incline 35 deg, mu_k %.1f: acceleration %.4f m/s^2, Coulomb %.4f\n",
                        integratorName(integrator), double(muK), a, want);
            EXPECT_NEAR(a, want, 0.01 * want);
            EXPECT_EQ(solver->contactCount(), v.size());
        }
    }
}

TEST(MassSpringContacts, AClothDroppedOnASphereEndsOutsideItAndTheGround) {
    const glm::vec3 centre(0.0f, 0.3f, 0.0f);
    const float radius = 0.25f;
    for (Integrator integrator : kIntegrators) {
        SCOPED_TRACE(integratorName(integrator));
        Scene s = patchScene(16, 1.0f, glm::vec3(0.0f, 0.7f, 0.0f), integrator);
        s.sim.massSpring.airDamping = 0.5f;
        s.colliders.push_back(plane(0.0f, 0.3f, 0.2f));
        ColliderDesc ball;
        ball.name = "ball";
        ball.shape = ColliderShape::Sphere;
        ball.radius = radius;
        ball.transform.translate = centre;
        ball.staticFriction = 0.5f;
        ball.kineticFriction = 0.4f;
        s.colliders.push_back(ball);
        auto solver = makeCpuSolver(prepareScene(s), 2);
        std::vector<glm::vec4> x;
        std::uint32_t mostContacts = 0;
        double closest = 1.0;
        for (int f = 0; f < 90; ++f) {
            solver->stepFrame();
            solver->readPositions(x);
            mostContacts = std::max(mostContacts, solver->contactCount());
            for (const glm::vec4& p : x) {
                const glm::vec3 q(p);
                closest = std::min(closest, double(q.y));                          // the ground
                closest = std::min(closest, double(glm::length(q - centre) - radius));  // the ball
            }
        }
        std::printf("%s: closest %.6f m to a collider (thickness %.3f), up to %u in contact\n",
                    integratorName(integrator), closest, double(kThickness), mostContacts);
        EXPECT_GE(closest, kThickness * (1.0 - 1e-4));
        // The ball holds the middle up (no vertex fell through it) and the rest reached the ground.
        EXPECT_GT(mostContacts, 20u);
        const double top = glm::length(glm::vec3(x[8 * 17 + 8]) - centre) - radius;
        EXPECT_LT(top, 2.0 * kThickness);
    }
}

TEST(MassSpringContacts, RestitutionReboundsToTheCoefficientSquaredTimesTheDropHeight) {
    // A flat patch dropped from 0.2 m onto a ground of restitution 0.5 leaves at half the speed it
    // hit with, so it rises to 0.5^2 x 0.2 = 0.05 m (the springs stay at rest: a rigid drop).
    for (Integrator integrator : kIntegrators) {
        SCOPED_TRACE(integratorName(integrator));
        Scene s = patchScene(4, 0.2f, glm::vec3(0.0f, 0.2f + kThickness, 0.0f), integrator);
        ColliderDesc ground = plane(0.0f, 0.0f, 0.0f);
        ground.restitution = 0.5f;
        s.colliders.push_back(ground);
        auto solver = makeCpuSolver(prepareScene(s), 1);
        std::vector<glm::vec4> x, v;
        bool landed = false;  // once it moves up
        double highest = 0.0;
        for (int f = 0; f < 40; ++f) {
            solver->stepFrame();
            solver->readPositions(x);
            solver->readVelocities(v);
            landed = landed || mean(v).y > 0.0;
            if (landed) highest = std::max(highest, mean(x).y - kThickness);
        }
        std::printf("%s: rebound to %.5f m, 0.5^2 x 0.2 = 0.05\n", integratorName(integrator),
                    highest);
        EXPECT_TRUE(landed);
        EXPECT_NEAR(highest, 0.05, 0.02 * 0.05);
    }
}

TEST(MassSpringContacts, AnyThreadCountGivesTheSameBits) {
    Scene s = patchScene(40, 1.0f, glm::vec3(0.0f, 0.5f, 0.0f));
    s.colliders.push_back(plane(10.0f, 0.4f, 0.3f));
    ColliderDesc ball;
    ball.shape = ColliderShape::Sphere;
    ball.radius = 0.2f;
    ball.transform.translate = glm::vec3(0.0f, 0.2f, 0.0f);
    s.colliders.push_back(ball);
    const PreparedCloth p = prepareScene(s);
    std::vector<glm::vec4> one, three;
    auto a = makeCpuSolver(p, 1);
    auto b = makeMassSpringSolver(p, 3, 0);  // 3 members even for a small cloth
    for (int f = 0; f < 30; ++f) {
        a->stepFrame();
        b->stepFrame();
    }
    a->readPositions(one);
    b->readPositions(three);
    EXPECT_GT(a->contactCount(), 0u);
    ASSERT_EQ(one.size(), three.size());
    EXPECT_EQ(std::memcmp(one.data(), three.data(), one.size() * sizeof(glm::vec4)), 0);
}
