// The mass-spring model's attachments (kernels/spring.h, cpu/mass_spring.cpp) against analytic
// motion: a compliant attachment is a spring of rest length 0 (a vertex on it falls and swings
// as a harmonic oscillator: y(t) = y0 - (m g / k)(1 - cos(w t)), w = sqrt(k / m), and the step
// plan's highest frequency is that w); a hard one carries its vertex on its path (a circle of
// radius r: the chord 2 r sin(w t / 2) from the start, at a constant height). GPU = CPU bit for
// bit: clothcheck.mass_spring_attach.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "core/scene.h"
#include "cpu/backend.h"
#include "cpu/mass_spring.h"
#include "prep/prepare.h"

using namespace cloth;

namespace {

// A 1 m square of 2 x 2 vertices, three pinned, springs 1e-6 N/m (nothing next to the
// attachment's 100 N/m), no damping.
Scene oneFreeVertex(float compliance) {
    Scene s;
    s.name = "attached";
    s.sim.model = ClothModel::MassSpring;
    s.sim.substeps = 1;
    s.sim.massSpring.structural = s.sim.massSpring.shear = s.sim.massSpring.flexion = 1e-6f;
    s.sim.massSpring.step = 1e-4f;  // accurate, far below the limit
    ClothDesc c;
    c.name = "cloth";
    GridDesc g;
    g.resX = g.resY = 1;
    g.width = g.height = 1.0f;
    c.grid = g;
    c.tethers = false;
    c.material.density = 0.1f;
    c.pins.indices = {0, 1, 2};
    AttachmentDesc a;
    a.vertices.indices = {3};
    a.compliance = compliance;
    c.attachments.push_back(a);
    s.cloths.push_back(c);
    return s;
}

}  // namespace

TEST(MassSpringAttachments, ACompliantOneIsASpringOfRestLengthZero) {
    const float k = 100.0f;
    const PreparedCloth p = prepareScene(oneFreeVertex(1.0f / k));
    ASSERT_EQ(p.attachments.size(), 1u);
    const double m = 1.0 / double(p.positions[3].w), w = std::sqrt(double(k) / m);
    const double g = 9.81, drop = m * g / double(k);
    auto solver = makeCpuSolver(p, 1);
    for (const Solver::ModelFigure& f : solver->modelFigures())
        if (f.name == "omega_max_rad_s") {
            EXPECT_NEAR(f.value / w, 1.0, 1e-3);
        }
    const double y0 = p.positions[3].y;
    std::vector<glm::vec4> x;
    double largest = 0.0;
    for (int f = 1; f <= 12; ++f) {
        solver->stepFrame();
        solver->readPositions(x);
        const double t = double(f) / 60.0;
        const double want = y0 - drop * (1.0 - std::cos(w * t));
        largest = std::max(largest, std::abs(x[3].y - want));
        EXPECT_NEAR(x[3].x, p.positions[3].x, 1e-6);
    }
    // Within 2% of the swing (2 m g / k = 4.9 mm), over 12 frames of a 0.1 s period.
    EXPECT_LT(largest, 0.02 * 2.0 * drop) << "w " << w << " rad/s, drop " << drop << " m";
}

TEST(MassSpringAttachments, AHardOneCarriesItsVertexOnItsPath) {
    Scene s = oneFreeVertex(0.0f);
    MotionDesc circle;
    circle.type = MotionType::Circle;
    circle.radius = 0.2f;
    circle.period = 1.0f;
    s.cloths[0].attachments[0].motion = circle;
    const PreparedCloth p = prepareScene(s);
    auto solver = makeCpuSolver(p, 1);
    std::vector<glm::vec4> x;
    const glm::vec3 start(p.positions[3]);
    for (int f = 1; f <= 30; ++f) {
        solver->stepFrame();
        solver->readPositions(x);
        const float t = float(f) / 60.0f;
        const float chord = 2.0f * circle.radius * std::sin(std::numbers::pi_v<float> * t / circle.period);
        EXPECT_NEAR(glm::length(glm::vec3(x[3]) - start), chord, 2e-5f) << "frame " << f;
        EXPECT_NEAR(x[3].y, start.y, 1e-5f) << "frame " << f;  // a horizontal circle, no fall
    }
    std::vector<glm::vec4> v;
    solver->readVelocities(v);
    // Its velocity is the path's over the last step: 2 pi r / period along the circle.
    EXPECT_NEAR(glm::length(glm::vec3(v[3])), 2.0f * std::numbers::pi_v<float> * circle.radius / circle.period, 1e-3f);
}

TEST(MassSpringAttachments, AnyThreadCountGivesTheSameBits) {
    Scene s = oneFreeVertex(0.01f);
    s.cloths[0].grid->resX = s.cloths[0].grid->resY = 40;
    s.cloths[0].pins = {};
    s.cloths[0].attachments[0].vertices = {};
    s.cloths[0].attachments[0].vertices.regions = {"top_corners"};
    s.sim.massSpring.structural = s.sim.massSpring.shear = s.sim.massSpring.flexion = 200.0f;
    s.sim.massSpring.step = 0.0f;
    const PreparedCloth p = prepareScene(s);
    std::vector<glm::vec4> first, x;
    for (int threads : {1, 2, 3}) {
        auto solver = makeMassSpringSolver(p, threads, 0);  // every member, however small
        for (int f = 0; f < 5; ++f) solver->stepFrame();
        solver->readPositions(x);
        if (threads == 1) {
            first = x;
            continue;
        }
        EXPECT_EQ(std::memcmp(x.data(), first.data(), x.size() * sizeof(glm::vec4)), 0) << threads;
    }
}
