// Rigid colliders in the CPU reference (src/kernels/collider.h) against analytic results:
// Coulomb friction on an incline (sticking below tan(theta) = mu_s, sliding at
// g (sin(theta) - mu_k cos(theta)) above), quiet resting contact, restitution's bounce height, a
// fast sphere through a hanging cloth, a spinning sphere carrying a patch by friction, no vertex
// inside any shape; shape distances and gradients against finite differences; collider poses
// against their closed forms. No tethers and no damping hide anything here.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numbers>

#include <gtest/gtest.h>

#include "fixtures/blade_scene.h"
#include "kernels/collider.h"
#include "core/error.h"
#include "cpu/backend.h"
#include "fixtures.h"
#include "prep/colliders.h"
#include "prep/prepare.h"
#include "fixtures/scenes.h"
#include "cpu_test_util.h"

using namespace cloth;

namespace {

// A horizontal square patch (n x n quads, `size` metres) centred at `centre`, no pins, tethers
// or damping.
Scene patchScene(std::uint32_t n, float size, glm::vec3 centre) {
    Scene s = fixtures::hangingScene(n, size);
    ClothDesc& c = s.cloths[0];
    c.pins = {};
    c.tethers = false;
    c.transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, 0.0f);
    c.transform.translate = centre;
    return s;
}

using test::plane;

ColliderDesc sphere(glm::vec3 centre, float radius) {
    ColliderDesc d;
    d.name = "ball";
    d.shape = ColliderShape::Sphere;
    d.transform.translate = centre;
    d.radius = radius;
    return d;
}

glm::dvec3 centroid(const std::vector<glm::vec4>& x) {
    glm::dvec3 c(0.0);
    for (const auto& p : x) c += glm::dvec3(glm::vec3(p));
    return c / double(x.size());
}

// A patch lying on a plane tilted by theta about z, at the thickness above it.
Scene inclineScene(float thetaDegrees, float muS, float muK) {
    const float t = glm::radians(thetaDegrees);
    const glm::vec3 n(-std::sin(t), std::cos(t), 0.0f);
    Scene s = patchScene(4, 0.2f, n * kDefaultThickness);
    s.cloths[0].transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, thetaDegrees);
    s.colliders.push_back(plane(thetaDegrees, muS, muK));
    return s;
}

// Signed distance of x to the collider at time t (analytic shapes).
float distanceAt(const PreparedCloth& p, std::size_t k, glm::vec3 x, float t) {
    glm::vec3 n;
    return gpu::colliderDistance(nullptr, nullptr, p.colliders[k], gpu::colliderPose(p.colliders[k], t),
                                 x, 1.0f, n);
}

}  // namespace

TEST(Collisions, PatchOnAGentleInclineStaysPut) {
    // tan(20 deg) = 0.364 < mu_s = 0.5: static friction holds it (under 1 mm in 2 s).
    const PreparedCloth p = prepareScene(inclineScene(20.0f, 0.5f, 0.4f));
    auto solver = makeCpuSolver(p, 2);
    std::vector<glm::vec4> x0, x;
    solver->readPositions(x0);
    for (int f = 0; f < 120; ++f) solver->stepFrame();
    solver->readPositions(x);
    const double moved = glm::length(centroid(x) - centroid(x0));
    std::printf("incline 20 deg, mu_s 0.5: centroid moved %.3g mm in 2 s\n", moved * 1e3);
    EXPECT_LT(moved, 1e-3);
    EXPECT_GT(solver->contactCount(), 0u);
}

TEST(Collisions, PatchOnASteepInclineSlidesWithCoulombAcceleration) {
    // tan(35 deg) = 0.700 > mu_s = 0.5: slides at g (sin - mu_k cos).
    const float theta = 35.0f, muK = 0.4f;
    const PreparedCloth p = prepareScene(inclineScene(theta, 0.5f, muK));
    auto solver = makeCpuSolver(p, 2);
    const double t = glm::radians(double(theta));
    const glm::dvec3 downhill = -glm::dvec3(std::cos(t), std::sin(t), 0.0);
    const double want = 9.81 * (std::sin(t) - muK * std::cos(t));
    std::vector<glm::vec4> v;
    for (int f = 0; f < 60; ++f) solver->stepFrame();
    solver->readVelocities(v);
    const double a = glm::dot(centroid(v), downhill) / solver->simTime();
    std::printf("incline 35 deg, mu_k 0.4: acceleration %.4f m/s^2, Coulomb %.4f\n", a, want);
    EXPECT_NEAR(a, want, 0.05 * want);
    // The same with friction off: g sin(theta).
    const PreparedCloth slick = prepareScene(inclineScene(theta, 0.0f, 0.0f));
    auto s2 = makeCpuSolver(slick, 1);
    for (int f = 0; f < 60; ++f) s2->stepFrame();
    s2->readVelocities(v);
    EXPECT_NEAR(glm::dot(centroid(v), downhill) / s2->simTime(), 9.81 * std::sin(t),
                0.01 * 9.81 * std::sin(t));
}

TEST(Collisions, ClothSettledOnTheGroundIsQuiet) {
    Scene s = patchScene(10, 0.5f, glm::vec3(0.0f, 0.05f, 0.0f));
    s.colliders.push_back(plane(0.0f, 0.5f, 0.4f));
    const PreparedCloth p = prepareScene(s);
    auto solver = makeCpuSolver(p, 2);
    std::vector<glm::vec4> x, v;
    for (int f = 0; f < 180; ++f) solver->stepFrame();
    solver->readVelocities(v);
    solver->readPositions(x);
    float fastest = 0.0f, lowest = 1e9f;
    for (std::size_t i = 0; i < v.size(); ++i) {
        fastest = std::max(fastest, glm::length(glm::vec3(v[i])));
        lowest = std::min(lowest, x[i].y);
    }
    std::printf("settled on the ground after 3 s: fastest vertex %.3g mm/s, lowest %.4f mm\n",
                fastest * 1e3, lowest * 1e3);
    EXPECT_LT(fastest, 1e-3f);
    EXPECT_GE(lowest, 0.9f * kDefaultThickness);
    EXPECT_EQ(solver->contactCount(), p.vertexCount());
}

TEST(Collisions, RestitutionBouncesToESquaredTheHeight) {
    for (float e : {0.0f, 0.5f, 0.8f}) {
        PreparedCloth p = test::bareCloth({glm::vec4(0.0f, 1.0f, 0.0f, 1.0f)}, 20, 1);
        p.segments[0].thickness = 1e-3f;
        ColliderDesc ground = plane(0.0f, 0.0f, 0.0f);
        ground.restitution = e;
        p.colliders.push_back(makeCollider(ground, "ground"));
        auto solver = makeCpuSolver(p, 1);
        std::vector<glm::vec4> x, v;
        bool bounced = false;
        float apex = 0.0f;
        for (int f = 0; f < 90; ++f) {
            solver->stepFrame();
            solver->readPositions(x);
            solver->readVelocities(v);
            if (!bounced && v[0].y > 0.0f) bounced = true;
            if (bounced) apex = std::max(apex, x[0].y);
        }
        const float rise = apex - 1e-3f;  // above the contact height
        std::printf("restitution %.1f: bounce %.4f m, e^2 h = %.4f m\n", e, rise, e * e * 1.0f);
        if (e == 0.0f) {
            EXPECT_LT(rise, 1e-3f);
        } else {
            EXPECT_NEAR(rise, e * e, 0.05f * e * e);
        }
    }
}

TEST(Collisions, FastSphereDoesNotPassThroughAHangingCloth) {
    Scene s = fixtures::hangingScene(20, 1.0f);
    s.cloths[0].pins.regions = {"top_edge"};
    s.cloths[0].tethers = false;
    ColliderDesc ball = sphere(glm::vec3(0.0f, 1.5f, -0.5f), 0.15f);
    ball.motion.type = MotionType::Linear;
    ball.motion.velocity = glm::vec3(0.0f, 0.0f, 10.0f);
    s.colliders.push_back(ball);
    const PreparedCloth p = prepareScene(s);
    auto solver = makeCpuSolver(p, 2);
    const std::uint32_t centre = 10 * 21 + 10;  // row 10, column 10: (0, 1.5, 0)
    std::vector<glm::vec4> x, v;
    // leaving: the fastest normal speed away from the ball, relative to it, of the vertices
    // touching it (within twice the thickness of its surface).
    float deepest = 1e9f, leaving = 0.0f;
    for (int f = 0; f < 30; ++f) {
        solver->stepFrame();
        solver->readPositions(x);
        solver->readVelocities(v);
        const float t = static_cast<float>(solver->simTime());
        for (std::size_t i = 0; i < x.size(); ++i) {
            const float d = distanceAt(p, 0, glm::vec3(x[i]), t);
            deepest = std::min(deepest, d);
            const glm::vec3 ball(0.0f, 1.5f, -0.5f + 10.0f * t);
            const glm::vec3 n = glm::normalize(glm::vec3(x[i]) - ball);
            if (d < 2.0f * kDefaultThickness)
                leaving = std::max(leaving, glm::dot(glm::vec3(v[i]) - glm::vec3(0, 0, 10), n));
        }
        const float ballZ = -0.5f + 10.0f * t;
        // While the ball is near the cloth's plane, the cloth's centre stays in front of it.
        if (ballZ > -0.2f && ballZ < 0.35f) {
            EXPECT_GE(x[centre].z, ballZ + 0.15f) << "frame " << f;
        }
    }
    std::printf("sphere at 10 m/s: deepest vertex %.3g mm from the surface (thickness %.1f mm), "
                "touching vertices leave it at up to %.3f m/s\n",
                deepest * 1e3, kDefaultThickness * 1e3, leaving);
    EXPECT_GE(deepest, 0.9f * kDefaultThickness);
    // The normal speed relative to the ball is not asserted: the taut cloth slides round the ball
    // at up to twice its speed, and the normal at the end of a substep sees a chord of that path
    // as leaving at about u^2 dt / (2 r). Flinging is tested on free particles below.
}

TEST(Collisions, FastSphereCarriesFreeParticlesAtItsOwnSpeed) {
    // Particles with no constraints in a fast sphere's path: an inelastic, frictionless contact
    // gives each the ball's normal velocity, never more (pre-stabilisation keeps a particle found
    // inside at a substep's start from being flung out).
    std::vector<glm::vec4> row;
    for (int i = 0; i <= 10; ++i)
        row.push_back(glm::vec4(-0.25f + 0.05f * float(i), 0.0f, 0.0f, 1.0f));
    PreparedCloth p = test::bareCloth(row, 10, 2);
    p.sim.gravity = glm::vec3(0.0f);
    p.segments[0].thickness = kDefaultThickness;
    ColliderDesc ball = sphere(glm::vec3(0.0f, 0.0f, -0.5f), 0.2f);
    ball.motion.type = MotionType::Linear;
    ball.motion.velocity = glm::vec3(0.0f, 0.0f, 10.0f);
    ball.staticFriction = ball.kineticFriction = 0.0f;
    p.colliders.push_back(makeCollider(ball, "ball"));
    auto solver = makeCpuSolver(p, 2);
    std::vector<glm::vec4> x, v;
    float fastest = 0.0f, deepest = 1e9f;
    for (int f = 0; f < 12; ++f) {
        solver->stepFrame();
        solver->readVelocities(v);
        solver->readPositions(x);
        for (std::size_t i = 0; i < v.size(); ++i) {
            fastest = std::max(fastest, glm::length(glm::vec3(v[i])));
            deepest = std::min(deepest, distanceAt(p, 0, glm::vec3(x[i]), float(solver->simTime())));
        }
    }
    std::printf("free particles hit at 10 m/s: fastest %.4f m/s, head-on one %.4f m/s\n", fastest,
                glm::length(glm::vec3(v[5])));
    EXPECT_LE(fastest, 10.0f * 1.001f);
    EXPECT_NEAR(v[5].z, 10.0f, 0.01f);  // head-on: pushed ahead at the ball's speed
    EXPECT_GE(deepest, 0.9f * kDefaultThickness);
}

TEST(Collisions, SpinningTurntableCarriesAPatchByStaticFriction) {
    // A patch on a flat box spinning at 90 deg/s about y (a turntable) turns with it.
    Scene s = patchScene(6, 0.3f, glm::vec3(0.1f, kDefaultThickness, 0.0f));
    ColliderDesc table;
    table.shape = ColliderShape::Box;
    table.halfExtents = glm::vec3(0.5f, 0.1f, 0.5f);
    table.radius = 0.02f;
    table.transform.translate = glm::vec3(0.0f, -0.1f, 0.0f);
    table.spin.axis = glm::vec3(0.0f, 1.0f, 0.0f);
    table.spin.degreesPerSecond = 90.0f;
    table.staticFriction = 0.8f;
    table.kineticFriction = 0.6f;
    s.colliders.push_back(table);
    const PreparedCloth p = prepareScene(s);
    auto solver = makeCpuSolver(p, 2);
    std::vector<glm::vec4> x0, x;
    solver->readPositions(x0);
    for (int f = 0; f < 60; ++f) solver->stepFrame();
    solver->readPositions(x);
    const std::uint32_t corner = 0;
    const double a0 = std::atan2(x0[corner].z, x0[corner].x);
    double a1 = std::atan2(x[corner].z, x[corner].x);
    double turned = a0 - a1;  // a positive spin about +y turns x towards -z
    while (turned < -std::numbers::pi) turned += 2 * std::numbers::pi;
    while (turned > std::numbers::pi) turned -= 2 * std::numbers::pi;
    std::printf("patch on a turntable at 90 deg/s: turned %.2f deg in 1 s\n",
                glm::degrees(turned));
    EXPECT_NEAR(glm::degrees(turned), 90.0, 4.5);
}

TEST(Collisions, NoVertexInsideAnyShape) {
    // A cloth dropped on each shape (sphere, capsule, rounded box, tilted plane), every frame.
    std::vector<ColliderDesc> shapes;
    shapes.push_back(sphere(glm::vec3(0.0f, 0.5f, 0.0f), 0.3f));
    ColliderDesc capsule;
    capsule.shape = ColliderShape::Capsule;
    capsule.radius = 0.15f;
    capsule.halfHeight = 0.3f;
    capsule.transform.translate = glm::vec3(0.0f, 0.5f, 0.0f);
    capsule.transform.rotateDegrees = glm::vec3(0.0f, 30.0f, 90.0f);
    shapes.push_back(capsule);
    ColliderDesc box;
    box.shape = ColliderShape::Box;
    box.halfExtents = glm::vec3(0.25f, 0.2f, 0.2f);
    box.radius = 0.05f;
    box.transform.translate = glm::vec3(0.05f, 0.4f, 0.0f);
    box.transform.rotateDegrees = glm::vec3(0.0f, 20.0f, 10.0f);
    shapes.push_back(box);
    shapes.push_back(plane(15.0f, 0.3f, 0.2f));
    for (const ColliderDesc& shape : shapes) {
        SCOPED_TRACE(colliderShapeName(shape.shape));
        Scene s = patchScene(16, 1.0f, glm::vec3(0.0f, 1.0f, 0.0f));
        s.colliders.push_back(shape);
        if (shape.shape != ColliderShape::Plane) s.colliders.push_back(plane(0.0f, 0.5f, 0.4f));
        const PreparedCloth p = prepareScene(s);
        auto solver = makeCpuSolver(p, 2);
        std::vector<glm::vec4> x;
        float deepest = 1e9f;
        std::uint32_t touching = 0;
        for (int f = 0; f < 90; ++f) {
            solver->stepFrame();
            solver->readPositions(x);
            for (const auto& v : x)
                deepest = std::min(deepest, distanceAt(p, 0, glm::vec3(v), float(solver->simTime())));
            touching = std::max(touching, solver->contactCount());
        }
        std::printf("%s: deepest vertex %.4f mm from the surface\n",
                    colliderShapeName(shape.shape), deepest * 1e3);
        EXPECT_GE(deepest, 0.9f * kDefaultThickness);
        EXPECT_LT(deepest, 2.0f * kDefaultThickness);  // it did land on the shape
        EXPECT_GT(touching, 0u);
    }
}

TEST(Collisions, SameBitsForAnyThreadCount) {
    Scene s = patchScene(12, 0.8f, glm::vec3(0.0f, 0.9f, 0.0f));
    ColliderDesc ball = sphere(glm::vec3(0.1f, 0.4f, 0.0f), 0.3f);
    ball.spin.degreesPerSecond = 120.0f;
    ball.spin.reversePeriod = 0.3f;
    ball.motion.type = MotionType::Oscillate;
    ball.motion.amplitude = glm::vec3(0.2f, 0.0f, 0.0f);
    ball.motion.period = 0.7f;
    ball.restitution = 0.3f;
    s.colliders.push_back(ball);
    s.colliders.push_back(plane(5.0f, 0.6f, 0.5f));
    s.phantoms = {PhantomMode::Target, 6};
    const PreparedCloth p = prepareScene(s);
    auto run = [&](int threads) {
        auto solver = makeCpuSolver(p, threads, std::nullopt, 0);
        for (int f = 0; f < 60; ++f) solver->stepFrame();
        std::vector<glm::vec4> x, v;
        solver->readPositions(x);
        solver->readVelocities(v);
        x.insert(x.end(), v.begin(), v.end());
        return x;
    };
    const auto one = run(1);
    for (int threads : {2, 3}) {
        const auto other = run(threads);
        ASSERT_EQ(other.size(), one.size());
        EXPECT_EQ(std::memcmp(other.data(), one.data(), one.size() * sizeof(glm::vec4)), 0)
            << threads << " threads";
    }
}

// ---- the shared maths --------------------------------------------------------------------------

TEST(ColliderMaths, DistanceGradientsMatchFiniteDifferences) {
    std::vector<ColliderDesc> shapes;
    shapes.push_back(sphere(glm::vec3(0.1f, 0.2f, 0.3f), 0.4f));
    ColliderDesc capsule;
    capsule.shape = ColliderShape::Capsule;
    capsule.radius = 0.2f;
    capsule.halfHeight = 0.5f;
    capsule.transform.rotateDegrees = glm::vec3(20.0f, 30.0f, 40.0f);
    shapes.push_back(capsule);
    ColliderDesc box;
    box.shape = ColliderShape::Box;
    box.halfExtents = glm::vec3(0.5f, 0.3f, 0.4f);
    box.radius = 0.1f;
    box.transform.rotateDegrees = glm::vec3(-10.0f, 25.0f, 5.0f);
    box.transform.translate = glm::vec3(0.2f, -0.1f, 0.0f);
    shapes.push_back(box);
    shapes.push_back(plane(30.0f, 0.5f, 0.4f));
    std::uint32_t seed = 7;
    auto rnd = [&]() {
        seed = seed * 1664525u + 1013904223u;
        return (seed >> 8) * (1.0 / 16777216.0) * 2.0 - 1.0;
    };
    for (const ColliderDesc& d : shapes) {
        SCOPED_TRACE(colliderShapeName(d.shape));
        const gpu::Collider c = makeCollider(d, "test");
        const gpu::ColliderPose pose = gpu::colliderPose(c, 0.0f);
        int checked = 0;
        for (int i = 0; i < 400; ++i) {
            const glm::dvec3 x(rnd(), rnd(), rnd());
            glm::vec3 n;
            gpu::colliderDistance(nullptr, nullptr, c, pose, glm::vec3(x), 1.0f, n);
            EXPECT_NEAR(glm::length(n), 1.0f, 1e-5f);
            const double h = 1e-3;
            glm::dvec3 fd;
            bool smooth = true;
            for (int k = 0; k < 3; ++k) {
                glm::dvec3 e(0.0);
                e[k] = h;
                glm::vec3 g1, g2;
                const double dp = gpu::colliderDistance(nullptr, nullptr, c, pose, glm::vec3(x + e), 1.0f, g1);
                const double dm = gpu::colliderDistance(nullptr, nullptr, c, pose, glm::vec3(x - e), 1.0f, g2);
                fd[k] = (dp - dm) / (2 * h);
                smooth = smooth && glm::length(g1 - g2) < 0.05f;  // no ridge in between
            }
            if (!smooth) continue;
            ++checked;
            EXPECT_LT(glm::length(fd - glm::dvec3(n)), 2e-3) << "at " << x.x << " " << x.y << " " << x.z;
        }
        EXPECT_GT(checked, 300);
    }
    // Exact values: a point 0.3 above a sphere of 0.4, outside a box face, inside a box.
    const gpu::Collider ball = makeCollider(sphere(glm::vec3(0.0f), 0.4f), "ball");
    glm::vec3 n;
    EXPECT_FLOAT_EQ(gpu::colliderDistance(nullptr, nullptr, ball, gpu::colliderPose(ball, 0.0f),
                                          glm::vec3(0.0f, 0.7f, 0.0f), 1.0f, n),
                    0.3f);
    ColliderDesc cube;
    cube.shape = ColliderShape::Box;
    cube.halfExtents = glm::vec3(1.0f);
    cube.radius = 0.25f;
    const gpu::Collider b = makeCollider(cube, "cube");
    const gpu::ColliderPose id = gpu::colliderPose(b, 0.0f);
    EXPECT_FLOAT_EQ(gpu::colliderDistance(nullptr, nullptr, b, id, glm::vec3(1.5f, 0.2f, 0.0f), 1.0f, n), 0.5f);
    EXPECT_FLOAT_EQ(gpu::colliderDistance(nullptr, nullptr, b, id, glm::vec3(0.2f, -0.7f, 0.1f), 1.0f, n), -0.3f);
    EXPECT_EQ(n, glm::vec3(0.0f, -1.0f, 0.0f));
    // A rounded corner: the distance to the corner sphere of radius 0.25 at (0.75, 0.75, 0.75).
    const glm::vec3 corner(1.2f, 1.1f, 1.3f);
    EXPECT_NEAR(gpu::colliderDistance(nullptr, nullptr, b, id, corner, 1.0f, n),
                glm::length(corner - glm::vec3(0.75f)) - 0.25f, 1e-6f);
}

TEST(ColliderMaths, PosesFollowTheirClosedForms) {
    ColliderDesc d = sphere(glm::vec3(1.0f, 2.0f, 3.0f), 0.5f);
    d.motion.type = MotionType::Oscillate;
    d.motion.amplitude = glm::vec3(0.0f, 0.0f, 1.0f);
    d.motion.period = std::numbers::pi;  // z = 3 + sin(2t - 90 deg) + 1 = 4 - cos 2t
    d.motion.phaseDegrees = -90.0f;
    d.spin.axis = glm::vec3(0.0f, 0.0f, 2.0f);
    d.spin.degreesPerSecond = 90.0f;
    d.spin.reversePeriod = 2.0f;
    d.start = 0.5f;
    const gpu::Collider c = makeCollider(d, "test");
    for (float t : {0.0f, 0.3f, 0.5f, 1.1f, 2.5f, 3.7f, 4.9f, 7.2f}) {
        SCOPED_TRACE(t);
        const gpu::ColliderPose p = gpu::colliderPose(c, t);
        const double s = std::max(0.0, double(t) - 0.5);
        EXPECT_NEAR(p.origin.z, 4.0 - std::cos(2.0 * s), 2e-6);
        EXPECT_FLOAT_EQ(p.origin.x, 1.0f);
        // Spin: 90 deg/s for 2 s, back for 2 s, ...
        const double k = std::floor(s / 2.0), r = s - 2.0 * k;
        const double angle = glm::radians(90.0) * (std::fmod(k, 2.0) == 1.0 ? 2.0 - r : r);
        EXPECT_NEAR(p.ax.x, std::cos(angle), 2e-6);
        EXPECT_NEAR(p.ax.y, std::sin(angle), 2e-6);
        EXPECT_NEAR(glm::dot(p.ax, p.ay), 0.0f, 1e-6f);
        EXPECT_NEAR(glm::length(glm::cross(p.ax, p.ay) - p.az), 0.0f, 1e-6f);
    }
}

TEST(ColliderMaths, MeaninglessCollidersAreRefused) {
    auto refused = [](ColliderDesc d, const char* what) {
        try {
            makeCollider(d, "collider 'x'");
            ADD_FAILURE() << "accepted: " << what;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("collider 'x'"), std::string::npos) << e.what();
        }
    };
    ColliderDesc d = sphere(glm::vec3(0.0f), -1.0f);
    refused(d, "negative radius");
    d = sphere(glm::vec3(0.0f), 1.0f);
    d.staticFriction = -0.1f;
    refused(d, "negative friction");
    d = sphere(glm::vec3(0.0f), 1.0f);
    d.restitution = 1.5f;
    refused(d, "restitution above 1");
    d = sphere(glm::vec3(0.0f), 1.0f);
    d.spin.axis = glm::vec3(0.0f);
    d.spin.degreesPerSecond = 10.0f;
    refused(d, "zero spin axis");
    d.shape = ColliderShape::Box;
    d.spin = {};
    d.halfExtents = glm::vec3(0.1f, 0.2f, 0.3f);
    d.radius = 0.15f;
    refused(d, "rounding beyond the box");
    d = sphere(glm::vec3(std::nanf(""), 0.0f, 0.0f), 1.0f);
    refused(d, "NaN centre");
}

// ---- mesh colliders -----------------------------------------------------------------------------

namespace {

// A closed cube of half size b around the origin, outward counter-clockwise, as an OBJ file.
std::string cubeObj(float b) {
    std::vector<glm::vec3> v;
    for (int i = 0; i < 8; ++i)
        v.push_back(glm::vec3(i & 1 ? b : -b, i & 2 ? b : -b, i & 4 ? b : -b));
    // Faces -x, +x, -y, +y, -z, +z as two triangles each, wound outward.
    const std::vector<glm::uvec3> t = {{0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5},
                                       {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},
                                       {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};
    const std::string path = ::testing::TempDir() + "/cube_collider.obj";
    saveObj(path, v, t);
    return path;
}

Scene onCube(ColliderDesc cube) {
    Scene s = patchScene(12, 0.8f, glm::vec3(0.05f, 0.45f, 0.02f));
    // The former default's stiff hinges: a fabric's soft ones let the corners fold round the
    // cube's edges, where the mesh and the box differ by rounding (2.9 cm apart at 40 frames).
    s.cloths[0].material.bendCompliance = 1e-3f;
    cube.transform.translate = glm::vec3(0.0f, 0.2f, 0.0f);
    cube.transform.rotateDegrees = glm::vec3(0.0f, 15.0f, 0.0f);
    s.colliders.push_back(cube);
    s.colliders.push_back(plane(0.0f, 0.5f, 0.4f));
    return s;
}

std::vector<glm::vec4> after(const PreparedCloth& p, int frames) {
    auto solver = makeCpuSolver(p, 2);
    for (int f = 0; f < frames; ++f) solver->stepFrame();
    std::vector<glm::vec4> x;
    solver->readPositions(x);
    return x;
}

}  // namespace

TEST(MeshColliders, ACubeMeshActsAsTheAnalyticBox) {
    // The BVH's signed distance against the box formula: a cloth dropped on each. The cube's
    // sharp edges and corners would also get feature contacts, which the analytic box has no
    // counterpart of: they are off here (test_feature_contacts.cpp tests them).
    ColliderDesc mesh;
    mesh.shape = ColliderShape::Mesh;
    mesh.objPath = cubeObj(0.2f);
    ColliderDesc box;
    box.shape = ColliderShape::Box;
    box.halfExtents = glm::vec3(0.2f);
    box.radius = 0.0f;
    const PreparedCloth onMesh = prepareScene(onCube(mesh));
    ASSERT_GT(onMesh.meshFeatures.size(), 0u);  // 12 edges and 8 corners
    const auto a = after(fixtures::withoutFeatures(onMesh), 40),
               b = after(prepareScene(onCube(box)), 40);
    float apart = 0.0f, lowest = 1e9f;
    for (std::size_t i = 0; i < a.size(); ++i) {
        apart = std::max(apart, glm::length(glm::vec3(a[i]) - glm::vec3(b[i])));
        lowest = std::min(lowest, a[i].y);
    }
    std::printf("cloth on a cube mesh against the analytic box: %.3g m apart after 40 frames\n",
                apart);
    EXPECT_LT(apart, 1e-4f);
    EXPECT_LT(lowest, 0.39f);  // it hangs over the cube's edges (top at 0.4 m)
}

TEST(MeshColliders, RememberedDistancesChangeNothing) {
    // A static mesh skips queries its vertices' bounds rule out; with COLLIDER_QUERY_ALWAYS it is
    // queried every time. Same bits.
    ColliderDesc mesh;
    mesh.shape = ColliderShape::Mesh;
    const char* env = std::getenv("CLOTH_SOURCE_DIR");
    mesh.objPath = std::string(env ? env : CLOTH_TEST_SOURCE_DIR) + "/assets/meshes/body.obj";
    Scene still = patchScene(16, 0.9f, glm::vec3(0.0f, 0.8f, 0.0f));
    still.colliders.push_back(mesh);
    const PreparedCloth bounded = prepareScene(still);
    PreparedCloth always = bounded;
    always.colliders[0].flags = gpu::COLLIDER_QUERY_ALWAYS;
    const auto a = after(bounded, 60), b = after(always, 60);
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec4)), 0);
    float lowest = 1e9f;
    for (const auto& x : a) lowest = std::min(lowest, x.y);
    EXPECT_LT(lowest, 0.6f);  // draped over the body (0.7 m tall)
}
