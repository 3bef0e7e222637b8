// Mueller's rigid-motion-preserving damping (material.rigid_damping) under the models other than
// XPBD (cpu/model_damping.h). With one substep per frame the damping is the frame's last act, so
// a run with damping k and one without start from the same state and end at the same positions,
// and the damped run's velocities must be v + k (v_rigid - v), where v_rigid is the rigid motion
// (centre-of-mass velocity and omega = I^-1 L) that this test fits to the undamped run's
// velocities itself, in double, by brute force. A second cloth without damping keeps its bits.
// Verlet's integrators keep no velocity of their own: their previous positions must follow the
// damping, which the second frame's positions show.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/scene.h"
#include "model_variants.h"
#include "prep/prepare.h"
#include "sim/solver.h"

using namespace cloth;

namespace {

using test::Variant;

struct Case {
    Variant variant;
    Integrator integrator = Integrator::Symplectic;  // mass_spring's
    const char* label;
};

const Case kCases[] = {{Variant::MassSpring, Integrator::Symplectic, "mass_spring symplectic"},
                       {Variant::MassSpring, Integrator::Verlet, "mass_spring verlet"},
                       {Variant::MassSpring, Integrator::AdaptiveVerlet, "mass_spring adaptive_verlet"},
                       {Variant::PdDirect, Integrator::Symplectic, "pd direct"},
                       {Variant::PdJacobi, Integrator::Symplectic, "pd jacobi"},
                       {Variant::Fem, Integrator::Symplectic, "fem"}};

// A 0.6 m square of 24 x 24 cells (625 vertices: three runs of sums) with damping k per frame,
// and a 0.3 m square of 4 x 4 cells without, beside it; no gravity, no pins, one substep.
Scene scene(const Case& c, float k) {
    Scene s;
    s.name = "rigid";
    s.sim.gravity = glm::vec3(0.0f);
    s.sim.substeps = 1;
    s.sim.iterations = 20;
    s.sim.model = c.variant == Variant::MassSpring ? ClothModel::MassSpring
                  : c.variant == Variant::Fem      ? ClothModel::Fem
                                                   : ClothModel::Projective;
    s.sim.massSpring.integrator = c.integrator;
    if (c.variant == Variant::PdJacobi) {
        s.sim.iteration.scheme = IterationScheme::Chebyshev;
        s.sim.iteration.relaxation = 0.5f;
        s.sim.iteration.rho = 0.9f;
    }
    for (int i = 0; i < 2; ++i) {
        ClothDesc d;
        d.name = i == 0 ? "damped" : "undamped";
        GridDesc g;
        g.resX = g.resY = i == 0 ? 24 : 4;
        g.width = g.height = i == 0 ? 0.6f : 0.3f;
        d.grid = g;
        d.transform.translate = glm::vec3(i == 0 ? 0.0f : 1.0f, 1.0f, 0.0f);
        d.tethers = false;
        d.material.density = 0.2f;
        // A soft membrane (1 N/m): backward Euler's own damping would take a stiff one's
        // non-rigid motion in one frame, and leave nothing for this damping to show on.
        d.material.stretchCompliance = 1.0f;
        d.material.bendCompliance = 1.0f;
        d.material.rigidDamping = i == 0 ? k : 0.0f;
        s.cloths.push_back(d);
    }
    return s;
}

// A spin, a drift, a breathing and a wave: a velocity field with a rigid share and a non-rigid one.
void setVelocities(PreparedCloth& p) {
    for (std::uint32_t s = 0; s < p.segments.size(); ++s) {
        const gpu::ClothSegment& seg = p.segments[s];
        glm::vec3 c(0.0f);
        for (std::uint32_t i = seg.vertexBegin; i < seg.vertexEnd; ++i) c += glm::vec3(p.positions[i]);
        c /= float(seg.vertexEnd - seg.vertexBegin);
        for (std::uint32_t i = seg.vertexBegin; i < seg.vertexEnd; ++i) {
            const glm::vec3 r = glm::vec3(p.positions[i]) - c;
            const glm::vec3 v = glm::vec3(0.2f, -0.1f, 0.1f) + glm::cross(glm::vec3(0.4f, 1.0f, -0.6f), r) +
                                0.5f * r + 0.1f * glm::vec3(std::sin(9.0f * r.x), std::cos(7.0f * r.y), r.x * r.y);
            p.velocities[i] = glm::vec4(v, 0.0f);
        }
    }
}

struct Frames {
    PreparedCloth p;
    std::vector<glm::vec4> x1, v1, x2;  // after frames 1 and 2
};

Frames run(const Case& c, float k, int threads) {
    Frames r{prepareScene(scene(c, k)), {}, {}, {}};
    setVelocities(r.p);
    auto solver = test::makeModelSolver(r.p, threads);
    solver->stepFrame();
    solver->readPositions(r.x1);
    solver->readVelocities(r.v1);
    solver->stepFrame();
    solver->readPositions(r.x2);
    return r;
}

// The rigid motion that fits a field u over the vertices [begin, end) (masses 1 / w of x), in
// double: u_rigid(i) = V + omega x (x_i - c), V and c the centre of mass's velocity and place,
// omega = I^-1 L about c.
std::vector<glm::dvec3> rigidFit(const std::vector<glm::vec4>& x, const std::vector<glm::dvec3>& u,
                                 std::uint32_t begin, std::uint32_t end) {
    double m = 0.0;
    glm::dvec3 c(0.0), mv(0.0);
    for (std::uint32_t i = begin; i < end; ++i) {
        const double mi = 1.0 / double(x[i].w);
        m += mi;
        c += mi * glm::dvec3(glm::vec3(x[i]));
        mv += mi * u[i - begin];
    }
    c /= m;
    const glm::dvec3 V = mv / m;
    glm::dmat3 inertia(0.0);
    glm::dvec3 L(0.0);
    for (std::uint32_t i = begin; i < end; ++i) {
        const double mi = 1.0 / double(x[i].w);
        const glm::dvec3 r = glm::dvec3(glm::vec3(x[i])) - c;
        L += mi * glm::cross(r, u[i - begin] - V);
        inertia += mi * (glm::dot(r, r) * glm::dmat3(1.0) - glm::outerProduct(r, r));
    }
    const glm::dvec3 omega = glm::inverse(inertia) * L;
    std::vector<glm::dvec3> out;
    for (std::uint32_t i = begin; i < end; ++i)
        out.push_back(V + glm::cross(omega, glm::dvec3(glm::vec3(x[i])) - c));
    return out;
}

bool sameBits(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b, std::uint32_t begin,
              std::uint32_t end) {
    return std::memcmp(a.data() + begin, b.data() + begin, (end - begin) * sizeof(glm::vec4)) == 0;
}

}  // namespace

// Frame 1: the same positions; the undamped cloth's velocities bit for bit; the damped one's
// v + k (v_rigid - v) to float rounding; 1 and 3 threads alike.
TEST(ModelRigidDamping, RemovesTheShareKOfTheNonRigidVelocityAndNothingElse) {
    const float kFrame = 0.5f;
    for (const Case& c : kCases) {
        SCOPED_TRACE(c.label);
        const Frames undamped = run(c, 0.0f, 2);
        const Frames damped = run(c, kFrame, 2);
        const gpu::ClothSegment& seg = damped.p.segments[0];
        const gpu::ClothSegment& other = damped.p.segments[1];
        const double k = seg.rigidDamping;  // per substep: one substep per frame here
        EXPECT_NEAR(k, kFrame, 1e-6);
        EXPECT_TRUE(sameBits(undamped.x1, damped.x1, 0, damped.p.originalVertexCount));
        EXPECT_TRUE(sameBits(undamped.v1, damped.v1, other.vertexBegin, other.vertexEnd));

        std::vector<glm::dvec3> u;
        for (std::uint32_t i = seg.vertexBegin; i < seg.vertexEnd; ++i)
            u.push_back(glm::dvec3(glm::vec3(undamped.v1[i])));
        const std::vector<glm::dvec3> rigid = rigidFit(undamped.x1, u, seg.vertexBegin, seg.vertexEnd);
        double largest = 0.0, change = 0.0, error = 0.0;
        for (std::size_t j = 0; j < u.size(); ++j) {
            const glm::dvec3 expected = u[j] + k * (rigid[j] - u[j]);
            const glm::dvec3 got(glm::vec3(damped.v1[seg.vertexBegin + j]));
            largest = std::max(largest, glm::length(u[j]));
            change = std::max(change, glm::length(expected - u[j]));
            error = std::max(error, glm::length(got - expected));
        }
        EXPECT_GT(change, 0.05) << "the start has a non-rigid share to damp";
        // Float sums over 625 vertices: a few ulps of the largest speed.
        EXPECT_LT(error, 1e-5 * largest) << "largest speed " << largest << " m/s";

        const Frames three = run(c, kFrame, 3);
        EXPECT_TRUE(sameBits(damped.x2, three.x2, 0, damped.p.originalVertexCount));
        EXPECT_TRUE(sameBits(damped.v1, three.v1, 0, damped.p.originalVertexCount));
    }
}

// Frame 2 moves the cloth by its damped velocity: with k = 1 the non-rigid share of the second
// frame's displacement is what the elastic forces make of a rigid start, a small part of the
// undamped run's (measured: 0.29 for mass_spring's stiffer lattice, under 0.2 for the others).
// Position Verlet is symplectic Euler written with previous positions, so with its previous
// positions moved by the damping it must take symplectic Euler's second frame (without, it would
// go on at the undamped velocity: 2 mm off here).
TEST(ModelRigidDamping, TheNextFrameMovesByTheDampedVelocity) {
    std::vector<glm::vec4> symplectic;
    for (const Case& c : kCases) {
        SCOPED_TRACE(c.label);
        double nonRigid[2];
        for (int damped = 0; damped < 2; ++damped) {
            const Frames r = run(c, damped ? 1.0f : 0.0f, 1);
            const gpu::ClothSegment& seg = r.p.segments[0];
            std::vector<glm::dvec3> d;
            for (std::uint32_t i = seg.vertexBegin; i < seg.vertexEnd; ++i)
                d.push_back(glm::dvec3(glm::vec3(r.x2[i])) - glm::dvec3(glm::vec3(r.x1[i])));
            const std::vector<glm::dvec3> rigid = rigidFit(r.x1, d, seg.vertexBegin, seg.vertexEnd);
            double sum = 0.0;
            for (std::size_t j = 0; j < d.size(); ++j) sum += glm::dot(d[j] - rigid[j], d[j] - rigid[j]);
            nonRigid[damped] = std::sqrt(sum / double(d.size()));
            if (!damped || c.variant != Variant::MassSpring) continue;
            if (c.integrator == Integrator::Symplectic) symplectic = r.x2;
            if (c.integrator != Integrator::Verlet) continue;
            double apart = 0.0;
            for (std::size_t i = 0; i < r.x2.size(); ++i)
                apart = std::max(apart, double(glm::length(glm::vec3(r.x2[i]) - glm::vec3(symplectic[i]))));
            EXPECT_LT(apart, 1e-6) << "m from symplectic Euler's second frame";
        }
        EXPECT_GT(nonRigid[0], 1e-3) << "the undamped frame moves non-rigidly (m)";
        EXPECT_LT(nonRigid[1], 0.35 * nonRigid[0]) << nonRigid[1] << " against " << nonRigid[0];
    }
}
