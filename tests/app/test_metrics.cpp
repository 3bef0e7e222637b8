// The convergence metrics (app/metrics.h) against values derived independently: a cloth
// stretched uniformly from its flat rest state, whose every constraint's value is known in
// closed form, and a cloth in free fall, whose kinetic energy is (1/2) M (g t)^2. Plus clothsim's
// --metrics file.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/metrics.h"
#include "core/scene.h"
#include "cpu/backend.h"
#include "prep/prepare.h"
#include "../common/run_program.h"
#include "sim/schedule.h"

using namespace cloth;
namespace fs = std::filesystem;

namespace {

constexpr double kPi = 3.14159265358979323846;

double wrapAngle(double a) {
    while (a > kPi) a -= 2.0 * kPi;
    while (a <= -kPi) a += 2.0 * kPi;
    return a;
}

// y = M^-1 b for a symmetric 3x3 M = [[d.x, o.x, o.y], [o.x, d.y, o.z], [o.y, o.z, d.z]] by
// Cramer's rule.
glm::dvec3 solve3(glm::dvec3 d, glm::dvec3 o, glm::dvec3 b) {
    auto det = [](glm::dvec3 c0, glm::dvec3 c1, glm::dvec3 c2) {
        return glm::dot(c0, glm::cross(c1, c2));
    };
    const glm::dvec3 c0(d.x, o.x, o.y), c1(o.x, d.y, o.z), c2(o.y, o.z, d.z);
    const double D = det(c0, c1, c2);
    return {det(b, c1, c2) / D, det(c0, b, c2) / D, det(c0, c1, b) / D};
}

}  // namespace

// Every vertex of continuum.json (all five constraint types, flat at rest) scaled by s about
// the origin: a stretch constraint's C is (s - 1) L, a flat hinge's angle 0 (so C is minus its
// rest or target angle), StVK's Green strain ((s^2 - 1) / 2, (s^2 - 1) / 2, 0), isometric
// bending's C 0 (a flat stencil). With multipliers, each component gains alpha / dt^2 times
// its multiplier (StVK: the 3x3 compliance times the vector).
TEST(Metrics, AUniformStretchGivesTheClosedFormValues) {
    const Scene scene =
        loadSceneFile(std::string(CLOTH_TEST_SOURCE_DIR) + "/tests/data/gpu/continuum.json");
    const PreparedCloth p = prepareScene(scene);
    const double s = 1.02;
    std::vector<glm::vec4> x = p.positions, v = p.positions;
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = glm::vec4(glm::vec3(glm::dvec3(glm::vec3(p.positions[i])) * s), p.positions[i].w);
        v[i] = glm::vec4(0.3f, -0.2f, 0.1f, 0.0f);
    }
    const double dt = substepDt(p.timing);
    for (bool withLambda : {false, true}) {
        SCOPED_TRACE(withLambda ? "with multipliers" : "multipliers 0");
        TypeMultipliers lambdas;
        const glm::vec4 lam = withLambda ? glm::vec4(1.0f, 2.0f, 3.0f, 0.0f) : glm::vec4(0.0f);
        gpu::forEachConstraintType([&](auto t) {
            using T = decltype(t);
            lambdas[T::kIndex].assign(p.items<typename T::Item>().size(), lam);
        });
        double r2 = 0.0, rMax = 0.0, strain = 0.0, energy = 0.0;
        std::size_t components = 0;
        auto residual = [&](double r) {
            r2 += r * r;
            rMax = std::max(rMax, std::abs(r));
            ++components;
        };
        for (const gpu::DistanceConstraint& c : p.items<gpu::DistanceConstraint>()) {
            const double C = (s - 1.0) * c.restLength;
            residual(C + c.param / (dt * dt) * lam.x);
            strain += C * C;
            if (c.param > 0.0f) energy += 0.5 * C * C / c.param;
        }
        for (const gpu::BendingConstraint& c : p.items<gpu::BendingConstraint>()) {
            const double C = wrapAngle(0.0 - c.restAngle);
            residual(C + c.param / (dt * dt) * lam.x);
            if (c.param > 0.0f) energy += 0.5 * C * C / c.param;
        }
        for (const gpu::FixedAngleConstraint& c : p.items<gpu::FixedAngleConstraint>()) {
            const double C = wrapAngle(0.0 - c.targetAngle);
            residual(C + c.param / (dt * dt) * lam.x);
            if (c.param > 0.0f) energy += 0.5 * C * C / c.param;
        }
        for (const gpu::StvkConstraint& c : p.items<gpu::StvkConstraint>()) {
            const double e = 0.5 * (s * s - 1.0);
            const glm::dvec3 C(e, e, 0.0);
            const glm::dvec3 d(glm::vec3(c.complianceDiag)), o(glm::vec3(c.complianceOff));
            const glm::dvec3 l = glm::dvec3(glm::vec3(lam));
            const glm::dvec3 al(d.x * l.x + o.x * l.y + o.y * l.z, o.x * l.x + d.y * l.y + o.z * l.z,
                                o.y * l.x + o.z * l.y + d.z * l.z);
            for (int k = 0; k < 3; ++k) residual(C[k] + al[k] / (dt * dt));
            energy += 0.5 * glm::dot(C, solve3(d, o, C));
        }
        for (const gpu::IsoBendingConstraint& c : p.items<gpu::IsoBendingConstraint>())
            for (int k = 0; k < 3; ++k) residual(c.compliance / (dt * dt) * lam[k]);
        ASSERT_GT(p.items<gpu::DistanceConstraint>().size(), 0u);
        ASSERT_GT(p.items<gpu::BendingConstraint>().size(), 0u);
        ASSERT_GT(p.items<gpu::FixedAngleConstraint>().size(), 0u);
        ASSERT_GT(p.items<gpu::StvkConstraint>().size(), 0u);
        ASSERT_GT(p.items<gpu::IsoBendingConstraint>().size(), 0u);
        double kinetic = 0.0;
        for (const glm::vec4& q : p.positions)
            if (q.w > 0.0f) kinetic += 0.5 * (0.09 + 0.04 + 0.01) / q.w;

        const FrameMetrics m = computeMetrics(p, x, v, lambdas);
        EXPECT_EQ(m.residualComponents, components);  // no constraint skipped
        // (Float rest data: the rest lengths, Green strains and cotangent weights carry about
        // 1e-7 of rounding against the closed forms.)
        EXPECT_NEAR(m.residualNorm, std::sqrt(r2), 1e-5 * std::sqrt(r2) + 1e-5);
        EXPECT_NEAR(m.residualMax, rMax, 1e-5 * rMax + 1e-6);
        EXPECT_NEAR(m.residualStrain, strain, 1e-4 * strain);
        ASSERT_TRUE(m.elasticEnergy.has_value());
        EXPECT_NEAR(*m.elasticEnergy, energy, 1e-3 * energy);
        EXPECT_NEAR(m.maxStretch, s - 1.0, 1e-5);
        EXPECT_NEAR(m.meanStretch, s - 1.0, 1e-5);
        EXPECT_NEAR(m.kineticEnergy, kinetic, 1e-6 * kinetic);
    }
    // In PBD mode the residual is C alone and there is no elastic energy.
    Scene pbd = scene;
    pbd.sim.mode = SolverMode::Pbd;
    const PreparedCloth q = prepareScene(pbd);
    const FrameMetrics m = computeMetrics(q, x, v, {});
    EXPECT_FALSE(m.elasticEnergy.has_value());
    EXPECT_GT(m.residualNorm, 0.0);
}

// A cloth with the StVK membrane has no distance constraints: its edge stretch is over its
// triangles' edges, with the rest lengths of the flat grid it starts as (its rest shape). Each
// vertex moved at random by up to 3 mm, the largest and mean stretch against a brute force over
// the mesh's triangles (each interior edge twice, as each triangle counts its edges).
TEST(Metrics, AStvkClothsEdgeStretchIsOverItsTriangles) {
    const Scene scene = parseSceneJson(
        R"({"cloths": [{"grid": {"width": 1.0, "height": 0.6, "resolution": [9, 6]},
                        "material": {"preset": "denim"}, "tethers": false}]})",
        "stvk.json", ".");
    const PreparedCloth p = prepareScene(scene);
    ASSERT_TRUE(p.items<gpu::DistanceConstraint>().empty());
    ASSERT_EQ(p.items<gpu::StvkConstraint>().size(), p.triangles.size());
    std::vector<glm::vec4> x = p.positions;
    std::uint32_t seed = 12345;
    auto jitter = [&] {
        seed = seed * 1664525u + 1013904223u;
        return 0.003f * (float(seed >> 8) / float(1u << 24) * 2.0f - 1.0f);
    };
    for (glm::vec4& q : x) q += glm::vec4(jitter(), jitter(), jitter(), 0.0f);
    double largest = -1.0, sum = 0.0;
    std::size_t count = 0;
    for (const glm::uvec3& t : p.triangles)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = t[k], b = t[(k + 1) % 3];
            const double rest = glm::length(glm::dvec3(glm::vec3(p.positions[a])) -
                                            glm::dvec3(glm::vec3(p.positions[b])));
            const double now =
                glm::length(glm::dvec3(glm::vec3(x[a])) - glm::dvec3(glm::vec3(x[b])));
            largest = std::max(largest, now / rest - 1.0);
            sum += now / rest - 1.0;
            ++count;
        }
    const EdgeStretch e = edgeStretch(p, x);
    EXPECT_GT(largest, 0.01);  // the jitter stretches some edge by over 1%
    EXPECT_NEAR(e.largest, largest, 1e-5);
    EXPECT_NEAR(e.mean, sum / double(count), 1e-6);
    // The same cloth at rest: no stretch.
    const EdgeStretch rest = edgeStretch(p, p.positions);
    EXPECT_NEAR(rest.largest, 0.0, 1e-6);
    EXPECT_NEAR(rest.mean, 0.0, 1e-6);
}

// A cloth with no pins, no colliders and no damping falls freely: its constraints stay at rest
// (residual, strain and stretch near 0) and its kinetic energy after t seconds is
// (1/2) M (g t)^2, M the sum of its vertices' masses.
TEST(Metrics, AFreeFallHasTheAnalyticKineticEnergy) {
    Scene s;
    s.name = "fall";
    ClothDesc c;
    c.name = "cloth";
    GridDesc g;
    g.width = g.height = 1.0f;
    g.resX = g.resY = 12;
    c.grid = g;
    c.tethers = false;
    s.cloths.push_back(c);
    const PreparedCloth p = prepareScene(s);
    auto solver = makeCpuSolver(p, 2);
    double mass = 0.0;
    for (const glm::vec4& q : p.positions)
        if (q.w > 0.0f) mass += 1.0 / q.w;
    ASSERT_GT(mass, 0.0);
    for (int f = 1; f <= 20; ++f) {
        solver->stepFrame();
        const FrameMetrics m = measureFrame(p, *solver);
        const double t = solver->simTime();
        const double expected = 0.5 * mass * std::pow(9.81 * t, 2.0);
        EXPECT_NEAR(m.kineticEnergy, expected, 1e-5 * expected) << "frame " << f;
        EXPECT_LT(m.residualMax, 1e-5) << "frame " << f;
        EXPECT_LT(m.maxStretch, 1e-5) << "frame " << f;
        EXPECT_LT(m.residualStrain, 1e-10) << "frame " << f;
    }
}

// clothsim --metrics: a row per frame, CSV or JSON; another extension is refused before the run.
TEST(Metrics, ClothsimWritesTheMetricsFile) {
    const fs::path dir = test::scratchDir("test", "metrics");
    const std::string run = "--headless --backend cpu --scene hanging --frames 4 --metrics ";
    const fs::path csv = dir / "m.csv";
    auto r = test::runProgram("clothsim", run + csv.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line,
              "frame,time,residual_l2,residual_max,residual_strain,elastic_energy,max_stretch,"
              "mean_stretch,kinetic_energy");
    int rows = 0;
    while (std::getline(in, line)) ++rows;
    EXPECT_EQ(rows, 4);

    const fs::path json = dir / "m.json";
    r = test::runProgram("clothsim", run + json.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    std::ifstream jin(json);
    const nlohmann::json j = nlohmann::json::parse(jin);
    ASSERT_EQ(j["frames"].size(), 4u);
    EXPECT_EQ(j["scene"], "hanging");
    EXPECT_GT(j["frames"][3]["kinetic_energy"].get<double>(), 0.0);
    EXPECT_GT(j["frames"][3]["residual_l2"].get<double>(), 0.0);

    const auto bad = test::expectRefusal("clothsim", run + (dir / "m.txt").string(),
                                         "must end in .csv or .json");
    EXPECT_FALSE(fs::exists(dir / "m.txt"));
    (void)bad;
    // Rendered runs and the window write the same file: tests/render (test_clothsim_cli.cpp,
    // test_window.cpp).
}
