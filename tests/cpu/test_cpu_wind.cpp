// Wind in the CPU reference (Step::Wind, src/kernels/wind.h) against analytic results: the
// terminal speed of a falling sheet, the drag and lift on a tilted plate, and the seeded gusts.
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "core/error.h"
#include "cpu/backend.h"
#include "prep/prepare.h"
#include "fixtures/scenes.h"
#include "kernels/constraint/bending.h"
#include "sim/gusts.h"
#include "cpu_test_util.h"

using namespace cloth;

namespace {

constexpr double kG = 9.81;

// A horizontal sheet (front face up) of `size` metres and n x n quads, no pins and no tethers.
Scene sheetScene(std::uint32_t n, float size, float density, WindSettings wind) {
    Scene s = fixtures::hangingScene(n, size);
    ClothDesc& c = s.cloths[0];
    c.pins = {};
    c.tethers = false;
    c.transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, 0.0f);
    c.transform.translate = glm::vec3(0.0f, 0.0f, 0.0f);
    c.material.density = density;
    s.sim.wind = wind;
    return s;
}

struct SheetState {
    double meanVy = 0.0;  // mean vertical velocity over all vertices
    double maxLateral = 0.0;  // largest horizontal speed
    double ySpread = 0.0;  // highest minus lowest vertex
};

SheetState sheetState(Solver& solver) {
    std::vector<glm::vec4> pos, vel;
    solver.readPositions(pos);
    solver.readVelocities(vel);
    SheetState s;
    double lo = 1e30, hi = -1e30;
    for (std::size_t i = 0; i < pos.size(); ++i) {
        s.meanVy += vel[i].y;
        s.maxLateral = std::max(s.maxLateral, std::hypot(double(vel[i].x), double(vel[i].z)));
        lo = std::min(lo, double(pos[i].y));
        hi = std::max(hi, double(pos[i].y));
    }
    s.meanVy /= double(pos.size());
    s.ySpread = hi - lo;
    return s;
}

using test::fnv1a;

std::uint64_t hashAfter(const PreparedCloth& p, int threads, int frames) {
    auto solver = makeCpuSolver(p, threads, std::nullopt, 0);
    for (int i = 0; i < frames; ++i) solver->stepFrame();
    std::vector<glm::vec4> pos, vel;
    solver->readPositions(pos);
    solver->readVelocities(vel);
    pos.insert(pos.end(), vel.begin(), vel.end());
    return fnv1a(pos);
}

// A flag: a vertical grid in the XY plane pinned along its left edge (the pole), in a gusty
// 10 m/s wind at 37 degrees to its plane (a wind along the plane would meet the sheet edge-on,
// which the pressure model leaves alone), with phantom copies.
Scene flagScene(std::uint32_t seed) {
    Scene s = fixtures::hangingScene(10, 1.0f);
    s.cloths[0].pins.regions = {"left_edge"};
    s.cloths[0].material.density = 0.15f;
    s.sim.substeps = 6;
    s.sim.iterations = 2;
    s.phantoms = {PhantomMode::Target, 6};
    WindSettings w;
    w.velocity = glm::vec3(8.0f, 0.0f, 6.0f);
    w.gusts = {0.4f, 1.0f, seed};
    s.sim.wind = w;
    return s;
}

}  // namespace

// Drag alone (the relative wind -v is along the normal, so there is no lift): m dv/dt = m g -
// rho A C_D v^2 / 2, so v(t) = v_t tanh(g t / v_t) with v_t = sqrt(2 m g / (rho A C_D)); every
// vertex has the same area per mass (the density), so the sheet falls flat.
//
// Flat fall is stable only for C_L < C_D: a sideways speed u tilts the relative wind by
// phi = u / v, and the sideways force per area is q sin(phi) cos(phi) (C_D - C_L cos(phi)), which
// pushes u further when C_L > C_D (the sheet glides off, as paper does). With Trendafilov 2021's
// C_D = 0.106 and C_L = 0.2 a float-rounding tilt grows about 5-fold a second (measured: 3 m/s
// sideways after 6 s), so the first case has no lift and the second C_D > C_L.
TEST(CpuWind, FallingSheetReachesTheTerminalSpeed) {
    struct Case {
        float density, drag, lift, air;
    } cases[] = {{0.2f, 0.106f, 0.0f, 1.2f}, {0.1f, 0.5f, 0.2f, 1.0f}};
    for (const Case& k : cases) {
        WindSettings w;  // still air
        w.drag = k.drag;
        w.lift = k.lift;
        w.airDensity = k.air;
        const PreparedCloth p = prepareScene(sheetScene(8, 1.0f, k.density, w));
        ASSERT_TRUE(p.tethers.empty());
        const double vt = std::sqrt(2.0 * k.density * kG / (double(k.air) * k.drag));
        auto solver = makeCpuSolver(p, 2);
        const double tau = vt / kG;  // the time constant of tanh
        int frame = 0;
        for (double t : {tau, 2.0 * tau, 6.0 * tau}) {
            for (; frame < int(std::lround(t * 60.0)); ++frame) solver->stepFrame();
            const SheetState s = sheetState(*solver);
            const double want = -vt * std::tanh(kG * (frame / 60.0) / vt);
            EXPECT_NEAR(s.meanVy / want, 1.0, 0.03) << "t = " << frame / 60.0 << " s, C_D " << k.drag;
            EXPECT_LT(s.maxLateral, 1e-3 * vt) << "the sheet slid sideways";
            EXPECT_LT(s.ySpread, 1e-3) << "the sheet did not stay flat";
        }
        const SheetState end = sheetState(*solver);
        std::printf("terminal speed %.4f m/s against sqrt(2 m g / (rho A C_D)) = %.4f m/s "
                    "(ratio %.5f) after %.2f s\n",
                    -end.meanVy, vt, -end.meanVy / vt, frame / 60.0);
        EXPECT_NEAR(-end.meanVy / vt, 1.0, 0.03);
        // Without wind the same sheet falls freely, far past that speed.
        PreparedCloth still = p;
        still.sim.wind.reset();
        auto free = makeCpuSolver(still, 1);
        for (int f = 0; f < frame; ++f) free->stepFrame();
        EXPECT_NEAR(-sheetState(*free).meanVy, kG * frame / 60.0, 1e-3 * kG * frame / 60.0);
    }
}

// A plate at an angle of attack alpha to a horizontal wind U (leading edge up), from rest and
// without gravity, over one substep: drag rho A C_D U^2 sin(alpha) / 2 along the wind, lift
// rho A C_L U^2 sin(alpha) cos(alpha) / 2 upwards (the plate turns the air down); A/m is
// 1/density for every vertex, so the whole plate takes the same velocity change dt F / m.
TEST(CpuWind, TiltedPlateGetsDragAlongAndLiftAcrossTheWind) {
    const float alpha = 20.0f, density = 0.2f, U = 10.0f;
    WindSettings w;
    w.velocity = glm::vec3(U, 0.0f, 0.0f);
    Scene s = sheetScene(6, 1.0f, density, w);
    // Horizontal, then turned about z by -alpha: the plate falls along +x, the way the wind
    // blows, so its upwind edge is the high one.
    s.cloths[0].transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, -alpha);
    s.sim.gravity = glm::vec3(0.0f);
    s.sim.substeps = 1;
    const PreparedCloth p = prepareScene(s);
    auto solver = makeCpuSolver(p, 1);
    solver->stepFrame();
    std::vector<glm::vec4> vel;
    solver->readVelocities(vel);
    const double a = alpha * 3.14159265358979 / 180.0, dt = 1.0 / 60.0;
    const double q = 0.5 * w.airDensity * U * U / density * dt;  // dynamic pressure * dt / (m/A)
    const glm::dvec3 want(q * w.drag * std::sin(a), q * w.lift * std::sin(a) * std::cos(a), 0.0);
    ASSERT_GT(want.y, 0.0);
    for (std::size_t i = 0; i < vel.size(); ++i) {
        EXPECT_NEAR(vel[i].x, want.x, 1e-4 * want.x) << "drag on vertex " << i;
        EXPECT_NEAR(vel[i].y, want.y, 1e-4 * want.y) << "lift on vertex " << i;
        EXPECT_NEAR(vel[i].z, 0.0, 1e-6) << "vertex " << i;
    }
}

// The flag's wind is the same for any split of the vertices among threads.
TEST(CpuWind, SameBitsForOneTwoAndThreeThreads) {
    const PreparedCloth p = prepareScene(flagScene(7));
    ASSERT_GT(p.phantomGroups.size(), 0u);
    ASSERT_EQ(p.windVertices.size(), p.positions.size());
    const std::uint64_t h1 = hashAfter(p, 1, 60);
    EXPECT_EQ(hashAfter(p, 2, 60), h1);
    EXPECT_EQ(hashAfter(p, 3, 60), h1);
    PreparedCloth still = p;
    still.sim.wind.reset();
    EXPECT_NE(hashAfter(still, 1, 60), h1) << "the wind changed nothing";
}

// Phantom copies share the area as they share the mass: an unsplit vertex's area is the sum of
// its members', and each takes its original's normal.
TEST(CpuWind, AreasSumToTheClothAndPhantomsShareTheirs) {
    const PreparedCloth p = prepareScene(flagScene(1));
    double total = 0.0;
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v) {
        total += p.windVertices[v].area;
        EXPECT_EQ(p.windVertices[v].normalVertex, v);
    }
    for (const gpu::PhantomGroup& g : p.phantomGroups) {
        const std::uint32_t original = p.phantomMembers[g.first];
        for (std::uint32_t k = g.first; k < g.first + g.count; ++k) {
            const gpu::WindVertex wv = p.windVertices[p.phantomMembers[k]];
            EXPECT_EQ(wv.normalVertex, original);
            if (k > g.first) total += wv.area;
        }
    }
    EXPECT_NEAR(total, 1.0, 1e-5);  // the 1 m square
}

TEST(CpuWind, GustsAreReproducibleAndBoundedBySeed) {
    WindSettings w;
    w.velocity = glm::vec3(10.0f, 0.0f, 0.0f);
    w.gusts = {0.3f, 2.0f, 42};
    WindSettings other = w;
    other.gusts.seed = 43;
    double lo = 1e30, hi = -1e30, mean = 0.0, differs = 0.0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        const double t = i * 0.01;
        const glm::vec3 v = windVelocityAt(w, t);
        EXPECT_EQ(v, windVelocityAt(w, t));  // a function of (time, seed) alone
        EXPECT_EQ(v.y, 0.0f);                // along the mean wind
        lo = std::min(lo, double(v.x));
        hi = std::max(hi, double(v.x));
        mean += v.x / n;
        differs = std::max(differs, std::abs(double(v.x) - windVelocityAt(other, t).x));
    }
    EXPECT_GE(lo, 10.0 * (1.0 - 0.3) - 1e-4);
    EXPECT_LE(hi, 10.0 * (1.0 + 0.3) + 1e-4);
    EXPECT_LT(lo, 9.0);  // it does gust: well beyond half the amplitude both ways
    EXPECT_GT(hi, 11.0);
    EXPECT_NEAR(mean, 10.0, 0.1);  // sines average out over 200 s of 2 s gusts
    EXPECT_GT(differs, 1.0);       // another seed, other gusts
    other.gusts.amplitude = 0.0f;
    EXPECT_EQ(windVelocityAt(other, 3.7), w.velocity);  // no gusts: the steady wind

    // In the solver: the same seed gives the same bits, another seed other bits.
    const PreparedCloth a = prepareScene(flagScene(5));
    const std::uint64_t h = hashAfter(a, 2, 40);
    EXPECT_EQ(hashAfter(prepareScene(flagScene(5)), 1, 40), h);
    EXPECT_NE(hashAfter(prepareScene(flagScene(6)), 2, 40), h);
}

// A direction swing turns the gusted wind about the vertical, within +-direction, without
// changing its speed; its own gusts come and go round the mean heading.
TEST(CpuWind, GustsSwingTheHeadingWithinTheirRangeAndKeepTheSpeed) {
    WindSettings w;
    w.velocity = glm::vec3(8.0f, 1.0f, 6.0f);
    w.gusts = {0.3f, 2.0f, 42};
    WindSettings turning = w;
    turning.gusts.direction = 30.0f;
    const double mean = std::atan2(6.0, 8.0);
    double lo = 1e30, hi = -1e30, sum = 0.0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        const double t = i * 0.01;
        const glm::vec3 a = windVelocityAt(w, t), b = windVelocityAt(turning, t);
        EXPECT_EQ(b.y, a.y);
        EXPECT_NEAR(std::hypot(b.x, b.z), std::hypot(a.x, a.z), 1e-5 * std::hypot(a.x, a.z));
        double turn = std::atan2(double(b.z), double(b.x)) - mean;  // the heading's swing
        lo = std::min(lo, turn);
        hi = std::max(hi, turn);
        sum += turn / n;
    }
    const double deg = 3.14159265358979323846 / 180.0;
    std::printf("heading swing %.2f to %.2f degrees, mean %.2f\n", lo / deg, hi / deg, sum / deg);
    EXPECT_GE(lo, -30.0 * deg - 1e-5);
    EXPECT_LE(hi, 30.0 * deg + 1e-5);
    EXPECT_LT(lo, -15.0 * deg);  // it swings: beyond half the range both ways
    EXPECT_GT(hi, 15.0 * deg);
    EXPECT_NEAR(sum, 0.0, 1.0 * deg);
    turning.gusts.direction = 0.0f;  // no swing: the old wind, bit for bit
    EXPECT_EQ(windVelocityAt(turning, 3.7), windVelocityAt(w, 3.7));
}

// The flag flies: it swings round its pole to trail downwind, where without wind it hangs in
// its plane; and it stays finite.
TEST(CpuWind, FlagTurnsDownwindAndFlies) {
    Scene s = flagScene(3);
    s.phantoms = {};
    const PreparedCloth windy = prepareScene(s);
    PreparedCloth still = windy;
    still.sim.wind.reset();
    auto mean = [](const PreparedCloth& p) {
        auto solver = makeCpuSolver(p, 2);
        for (int f = 0; f < 180; ++f) solver->stepFrame();
        std::vector<glm::vec4> pos;
        solver->readPositions(pos);
        glm::dvec3 m(0.0);
        for (const glm::vec4& x : pos) {
            EXPECT_TRUE(std::isfinite(x.x) && std::isfinite(x.y) && std::isfinite(x.z));
            m += glm::dvec3(x) / double(pos.size());
        }
        return m;
    };
    const glm::dvec3 w = mean(windy), n = mean(still);
    std::printf("mean position after 3 s: wind (%.3f, %.3f, %.3f), none (%.3f, %.3f, %.3f)\n",
                w.x, w.y, w.z, n.x, n.y, n.z);
    EXPECT_NEAR(n.z, 0.0, 1e-3);  // hangs in its plane
    // A 1 m flag streaming along (0.8, 0, 0.6) from its pole at x = -0.5: centre at x = -0.1,
    // z = 0.3 (and at the pole's mid-height, held up by the lift).
    EXPECT_NEAR(w.x, -0.1, 0.05);
    EXPECT_NEAR(w.z, 0.3, 0.05);
    EXPECT_NEAR(w.y, n.y, 0.05);
}

// The shipped flag (assets/scenes/flag.json: soft bending, gusts that also swing the heading)
// keeps moving and bending in its wind; with its earlier settings (bend compliance 0.01, a steady
// heading) it streamed flat along the wind and stood still, a board: its plane holds the wind,
// so neither drag nor lift acts on it, whatever the gusts' speed.
TEST(CpuWind, TheShippedFlagFluttersWhereASteadyHeadingLeftABoard) {
    struct Motion {
        double largestAngle = 0.0;  // the largest dihedral angle after the first second, radians
        double tipTravel = 0.0;     // how far the free corner ranges over that time, m
    };
    auto run = [](const Scene& scene) {
        const PreparedCloth p = prepareScene(scene);
        auto solver = makeCpuSolver(p, 2);
        Motion m;
        glm::dvec3 lo(1e30), hi(-1e30);
        std::vector<glm::vec4> x;
        for (int f = 1; f <= 150; ++f) {
            solver->stepFrame();
            if (f <= 60 || f % 10 != 0) continue;
            solver->readPositions(x);
            const glm::dvec3 tip(x[p.originalVertexCount - 1]);
            lo = glm::min(lo, tip);
            hi = glm::max(hi, tip);
            for (const gpu::BendingConstraint& c : p.items<gpu::BendingConstraint>())
                m.largestAngle = std::max(
                    m.largestAngle,
                    std::abs(double(gpu::bendingAngle(glm::vec3(x[c.v0]), glm::vec3(x[c.v1]),
                                                      glm::vec3(x[c.v2]), glm::vec3(x[c.v3])))));
        }
        m.tipTravel = glm::length(hi - lo);
        return m;
    };
    const Scene flag =
        loadSceneFile(std::string(CLOTH_TEST_SOURCE_DIR) + "/assets/scenes/flag.json");
    ASSERT_GT(flag.sim.wind->gusts.direction, 0.0f);
    Scene board = flag;
    board.sim.wind->gusts.direction = 0.0f;
    board.cloths[0].material.bendCompliance = 0.01f;
    const Motion flies = run(flag), stands = run(board);
    constexpr double deg = 3.14159265358979323846 / 180.0;
    std::printf("shipped flag: largest angle %.1f deg, tip ranges %.3f m; steady heading and "
                "stiff: %.2f deg, %.4f m\n",
                flies.largestAngle / deg, flies.tipTravel, stands.largestAngle / deg,
                stands.tipTravel);
    EXPECT_GT(flies.largestAngle, 10.0 * deg);
    EXPECT_GT(flies.tipTravel, 0.2);
    EXPECT_LT(stands.largestAngle, 1.0 * deg);
    EXPECT_LT(stands.tipTravel, 0.05);  // settling still, by centimetres
}

TEST(CpuWind, MeaninglessSettingsAreRefusedAtLoad) {
    struct Case {
        void (*set)(WindSettings&);
        const char* fragment;
    } cases[] = {
        {[](WindSettings& w) { w.velocity.x = NAN; }, "wind velocity must be finite"},
        {[](WindSettings& w) { w.velocity.y = INFINITY; }, "wind velocity must be finite"},
        {[](WindSettings& w) { w.velocity.z = 2e4f; }, "wind speed 20000 m/s is beyond"},
        {[](WindSettings& w) { w.airDensity = -1.2f; }, "wind air density -1.2 kg/m^3"},
        {[](WindSettings& w) { w.airDensity = 0.0f; }, "wind air density 0 kg/m^3"},
        {[](WindSettings& w) { w.drag = -0.1f; }, "wind drag coefficient -0.1 is out of range"},
        {[](WindSettings& w) { w.lift = NAN; }, "wind lift coefficient nan is out of range"},
        {[](WindSettings& w) { w.gusts.amplitude = -1.0f; }, "wind gust amplitude -1"},
        {[](WindSettings& w) { w.gusts.period = 0.0f; }, "wind gust period 0 s"},
        {[](WindSettings& w) { w.gusts.direction = 200.0f; },
         "wind gust direction 200 degrees is out of range"},
    };
    for (const Case& c : cases) {
        WindSettings w;
        c.set(w);
        Scene s = sheetScene(2, 1.0f, 0.2f, w);
        s.name = "windy";
        try {
            prepareScene(s);
            ADD_FAILURE() << "accepted: " << c.fragment;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(std::string("scene 'windy': ") + c.fragment),
                      std::string::npos)
                << e.what();
        }
    }
}
