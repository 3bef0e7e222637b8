// Wind and attachments in the implicit models (projective dynamics, direct and Jacobi global
// steps; the FEM; docs/models.md) against numbers derived independently: a free patch facing a
// head-on wind accelerates at the drag's rho C_D |v|^2 / (2 rho_s); a vertex on a compliant
// attachment (its cloth negligible) follows backward Euler's recursion for a spring of rest
// length 0 to its moving target, computed here in double; a hard attachment carries its vertex on
// its circle; any thread count gives the same bits. GPU = CPU: clothcheck.pd_*_wind_attach.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <string>
#include <vector>

#include "core/scene.h"
#include "cpu/backend.h"
#include "cpu/fem.h"
#include "cpu/projective.h"
#include "fixtures/scenes.h"
#include "prep/prepare.h"
#include "model_variants.h"

using namespace cloth;

namespace {

// The implicit models' variants: PD's direct step, its Jacobi step, the FEM.
enum class DriverVariant { PdDirect, PdJacobi, Fem };
const char* name(DriverVariant v) {
    return v == DriverVariant::PdDirect ? "pd direct" : v == DriverVariant::PdJacobi ? "pd jacobi" : "fem";
}
void setModel(Scene& s, DriverVariant v) {
    s.sim.model = v == DriverVariant::Fem ? ClothModel::Fem : ClothModel::Projective;
    if (v == DriverVariant::PdJacobi) {
        s.sim.iteration.scheme = IterationScheme::Jacobi;
        s.sim.iteration.relaxation = 0.5f;
    }
    s.sim.fem.rayleighAlpha = s.sim.fem.rayleighBeta = 0.0f;
}

// A 1 m square of 2 x 2 vertices, three pinned, the cloth negligible (compliance 10^3 m/N:
// moduli near 10^-3 N/m against the attachment's 100 N/m), no damping; vertex 3 on the attachment.
Scene oneFreeVertex(DriverVariant v, float compliance, MotionDesc motion) {
    Scene s;
    s.name = "attached";
    s.sim.substeps = 10;
    s.sim.iterations = 40;  // the Jacobi sweep halves a lone vertex's error per iteration
    ClothDesc c;
    c.name = "cloth";
    GridDesc g;
    g.resX = g.resY = 1;
    g.width = g.height = 1.0f;
    c.grid = g;
    c.tethers = false;
    c.material.density = 0.1f;
    c.material.stretchCompliance = 1e3f;
    c.material.bendCompliance = 1e3f;
    c.material.linearDamping = 0.0f;
    c.pins.indices = {0, 1, 2};
    AttachmentDesc a;
    a.vertices.indices = {3};
    a.compliance = compliance;
    a.motion = motion;
    c.attachments.push_back(a);
    s.cloths.push_back(c);
    setModel(s, v);
    return s;
}

}  // namespace

// The wind (kernels/wind.h through springWind, once per substep before the step, as the
// mass-spring test MassSpring.WindPushesAFreePatchAsItsDragSays): a flat free patch, no gravity,
// facing V = 10 m/s head-on (v_r || n: no lift). Each vertex gets drag rho A C_D |v_r|^2 / 2, so the
// patch (areas summing to S, mass rho_s S) accelerates at a = rho C_D |V - v|^2 / (2 rho_s). With
// one substep a frame its speed after the frame is a(0) t exactly; with 4, the explicit wind of each
// substep gives v_{k+1} = v_k + a(v_k) h, computed here (3.6% below a(0) t: the patch's own speed
// lowers the relative wind).
TEST(ProjectiveAndFem, WindPushesAFreePatchAsItsDragSays) {
    for (DriverVariant variant : {DriverVariant::PdDirect, DriverVariant::PdJacobi, DriverVariant::Fem})
        for (int substeps : {1, 4}) {
            Scene s = fixtures::hangingScene(8, 0.5f);
            s.cloths[0].pins = {};
            s.cloths[0].tethers = false;
            s.cloths[0].material.stretchCompliance = 1e-3f;
            s.sim.gravity = glm::vec3(0.0f);
            s.sim.substeps = substeps;
            setModel(s, variant);
            WindSettings w;
            w.velocity = glm::vec3(0.0f, 0.0f, 10.0f);  // the grid lies in the xy plane: along n
            w.drag = 0.1f;
            w.lift = 0.2f;
            w.airDensity = 1.2f;
            s.sim.wind = w;
            const PreparedCloth p = prepareScene(s);
            auto solver = test::makeModelSolver(p, 1);
            solver->stepFrame();
            std::vector<glm::vec4> v;
            solver->readVelocities(v);
            double mean = 0.0;
            for (const glm::vec4& q : v) mean += q.z;
            mean /= double(v.size());
            const double density = s.cloths[0].material.density, t = 1.0 / 60.0;
            auto drag = [&](double speed) {
                return 1.2 * 0.1 * (10.0 - speed) * (10.0 - speed) / (2.0 * density);
            };
            double want = 0.0;
            for (int k = 0; k < substeps; ++k) want += drag(want) * t / substeps;
            std::printf("%s, %d substeps: patch speed after a frame %.5f m/s, drag says %.5f "
                        "(a(0) t %.5f)\n",
                        name(variant), substeps, mean, want, drag(0.0) * t);
            EXPECT_NEAR(mean, want, 0.001 * want) << name(variant) << ", " << substeps;
            if (substeps == 1) {
                EXPECT_NEAR(mean, drag(0.0) * t, 0.01 * want) << name(variant);
            }
        }
}

// A compliant attachment of stiffness k = 1/alpha is a spring of rest length 0 to its target t,
// taken at the step's end: backward Euler (PD's global step with the term (k/2)|x - t|^2; the FEM's
// linearised step, exact for this linear spring) gives
//   x_{n+1} = (m s / h^2 + k t_{n+1}) / (m / h^2 + k),  s = x_n + h v_n + h^2 g,
//   v_{n+1} = (x_{n+1} - x_n) / h,
// computed here in double. The target oscillates along x (0.02 m, 0.2 s period), so the vertex
// swings sideways as well as falling. A target taken at the step's start, or a wrong weight, would
// differ by far more than the tolerance (the swing's 0.5%).
TEST(ProjectiveAndFem, ACompliantAttachmentFollowsBackwardEulersRecursion) {
    const double k = 100.0, amplitude = 0.02, period = 0.2;
    MotionDesc motion;
    motion.type = MotionType::Oscillate;
    motion.amplitude = glm::vec3(float(amplitude), 0.0f, 0.0f);
    motion.period = float(period);
    for (DriverVariant variant : {DriverVariant::PdDirect, DriverVariant::PdJacobi, DriverVariant::Fem}) {
        const Scene s = oneFreeVertex(variant, float(1.0 / k), motion);
        const PreparedCloth p = prepareScene(s);
        ASSERT_EQ(p.attachments.size(), 1u);
        const double m = 1.0 / double(p.positions[3].w), g = -9.81;
        const double h = 1.0 / 60.0 / s.sim.substeps;
        const glm::dvec3 anchor(glm::vec3(p.positions[3]));
        auto solver = test::makeModelSolver(p, 1);
        glm::dvec3 x = anchor, v(0.0);
        std::vector<glm::vec4> got;
        double largest = 0.0, swing = 0.0;
        for (int f = 1; f <= 18; ++f) {
            for (int n = 0; n < s.sim.substeps; ++n) {
                const double t1 = ((f - 1) * s.sim.substeps + n + 1) * h;
                const glm::dvec3 target =
                    anchor + glm::dvec3(amplitude * std::sin(2.0 * std::numbers::pi * t1 / period), 0.0, 0.0);
                const glm::dvec3 pred = x + h * v + h * h * glm::dvec3(0.0, g, 0.0);
                const glm::dvec3 next = (m / (h * h) * pred + k * target) / (m / (h * h) + k);
                v = (next - x) / h;
                x = next;
            }
            solver->stepFrame();
            solver->readPositions(got);
            largest = std::max(largest, glm::length(glm::dvec3(glm::vec3(got[3])) - x));
            swing = std::max(swing, glm::length(x - anchor));
        }
        std::printf("%s: largest distance from the recursion %.3g m, swing %.3g m\n",
                    name(variant), largest, swing);
        EXPECT_GT(swing, 0.01);  // m g / k = 2.5 mm of sag, plus the sideways swing
        EXPECT_LT(largest, 0.005 * swing) << name(variant);
    }
}

// A hard attachment carries its vertex on a horizontal circle of 0.2 m (one turn a second): after
// t the vertex is the chord 2 r sin(pi t) from its start, at its start's height (it never falls),
// and its velocity is the path's over the last step (2 pi r per second).
TEST(ProjectiveAndFem, AHardAttachmentCarriesItsVertexOnItsPath) {
    MotionDesc circle;
    circle.type = MotionType::Circle;
    circle.radius = 0.2f;
    circle.period = 1.0f;
    for (DriverVariant variant : {DriverVariant::PdDirect, DriverVariant::PdJacobi, DriverVariant::Fem}) {
        const PreparedCloth p = prepareScene(oneFreeVertex(variant, 0.0f, circle));
        auto solver = test::makeModelSolver(p, 1);
        const glm::vec3 start(p.positions[3]);
        std::vector<glm::vec4> x, v;
        for (int f = 1; f <= 30; ++f) {
            solver->stepFrame();
            solver->readPositions(x);
            const double t = f / 60.0;
            const double chord = 2.0 * circle.radius * std::sin(std::numbers::pi * t / circle.period);
            EXPECT_NEAR(glm::length(glm::vec3(x[3]) - start), chord, 2e-5) << name(variant) << f;
            EXPECT_NEAR(x[3].y, start.y, 1e-5f) << name(variant) << " frame " << f;
        }
        solver->readVelocities(v);
        EXPECT_NEAR(glm::length(glm::vec3(v[3])), 2.0 * std::numbers::pi * circle.radius / circle.period, 1e-3)
            << name(variant);
    }
}

// Wind with gusts and lift, a hard attachment on a circle (a tether anchor) and a compliant one
// oscillating, tethers and a ground: 1, 2 and 3 threads give the same bits, for each variant (and
// Chebyshev's Jacobi step).
TEST(ProjectiveAndFem, AnyThreadCountGivesTheSameBitsWithWindAndAttachments) {
    for (int variant = 0; variant < 4; ++variant) {
        Scene s = fixtures::hangingScene(24, 1.0f);
        s.cloths[0].pins = {};
        s.cloths[0].tethers = true;
        s.cloths[0].material.stretchCompliance = 1e-3f;
        s.sim.substeps = 3;
        s.sim.iterations = 4;
        setModel(s, variant == 3 ? DriverVariant::PdJacobi : DriverVariant(variant));
        if (variant == 3) s.sim.iteration.scheme = IterationScheme::Chebyshev;
        WindSettings w;
        w.velocity = glm::vec3(6.0f, 0.5f, 4.0f);
        w.gusts.amplitude = 0.4f;
        w.gusts.period = 1.5f;
        s.sim.wind = w;
        AttachmentDesc hard;
        hard.vertices.regions = {"top_corners"};
        hard.motion.type = MotionType::Circle;
        hard.motion.radius = 0.1f;
        hard.motion.period = 1.5f;
        AttachmentDesc soft;
        soft.vertices.regions = {"bottom_corners"};
        soft.compliance = 0.01f;
        soft.motion.type = MotionType::Oscillate;
        soft.motion.amplitude = glm::vec3(0.05f, 0.0f, 0.05f);
        soft.motion.period = 0.8f;
        s.cloths[0].attachments = {hard, soft};
        ColliderDesc ground;
        ground.shape = ColliderShape::Plane;
        s.colliders.push_back(ground);
        const PreparedCloth p = prepareScene(s);
        ASSERT_GT(p.tethers.size(), 0u);
        std::vector<glm::vec4> first, x;
        for (int threads : {1, 2, 3}) {
            auto solver = test::makeModelSolver(p, threads);
            EXPECT_EQ(solver->threadsUsed(), threads);
            for (int f = 0; f < 4; ++f) solver->stepFrame();
            solver->readPositions(x);
            if (threads == 1) {
                first = x;
                continue;
            }
            EXPECT_EQ(std::memcmp(x.data(), first.data(), x.size() * sizeof(glm::vec4)), 0)
                << "variant " << variant << ", " << threads << " threads";
        }
    }
}
