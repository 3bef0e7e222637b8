// The continuum constraint types in the whole solver (prepareScene + CPU reference): a strip of
// orthotropic StVK membrane hanging under its own weight stretches as the analytic bar does,
// along the weft and along the warp, with the Poisson contraction the material gives; runs are
// bit-identical on 1 and 2 threads. No tethers, and iterations enough to converge, so nothing
// hides the stretch.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include <gtest/gtest.h>

#include "../common/state_hashes.h"
#include "cpu/backend.h"
#include "prep/prepare.h"

using namespace cloth;

namespace {

constexpr float kWidth = 0.1f, kLength = 1.0f, kDensity = 0.2f;
constexpr int kStripCols = 2, kStripRows = 20;  // cells

OrthotropicMaterial membrane() {
    OrthotropicMaterial m;
    m.ex = 49.0f;   // weft, N/m
    m.ey = 98.0f;   // warp
    m.nuXY = 0.6f;  // paired: nuXY ex = nuYX ey
    m.nuYX = 0.3f;
    m.g = 20.0f;
    return m;
}

// A vertical strip of kStripCols x kStripRows cells, top edge pinned (clamped), hanging along -y.
Scene strip(float weftAngle, BendModel bend = BendModel::Dihedral) {
    Scene s;
    s.name = "strip";
    s.sim.substeps = 10;
    s.sim.iterations = 10;
    ClothDesc c;
    c.name = "strip";
    GridDesc g;
    g.width = kWidth;
    g.height = kLength;
    g.resX = kStripCols;
    g.resY = kStripRows;
    c.grid = g;
    c.transform.translate = {0.0f, 2.0f - 0.5f * kLength, 0.0f};
    c.pins.regions = {"top_edge"};
    c.tethers = false;
    c.material.density = kDensity;
    c.material.stretchModel = StretchModel::Stvk;
    c.material.membrane = membrane();
    c.material.weftAngleDegrees = weftAngle;
    c.material.bendModel = bend;
    c.material.linearDamping = 3.0f;
    s.cloths.push_back(c);
    return s;
}

struct Sag {
    float elongation = 0.0f;   // mean drop of the bottom edge
    float midWidthChange = 0.0f;
};

Sag settle(const PreparedCloth& p, int frames) {
    auto solver = makeCpuSolver(p, 2);
    for (int f = 0; f < frames; ++f) solver->stepFrame();
    std::vector<glm::vec4> x;
    solver->readPositions(x);
    float bottom = 0.0f, restBottom = 0.0f;
    int n = 0;
    float minX = 1e9f, maxX = -1e9f;
    // Rest rows: the grid's vertices row by row from the top (y = 2) down.
    const int cols = kStripCols + 1, rows = kStripRows + 1;
    for (int c = 0; c < cols; ++c) {
        const int v = (rows - 1) * cols + c;
        bottom += x[v].y;
        restBottom += p.positions[v].y;
        ++n;
    }
    const int mid = rows / 2;
    for (int c = 0; c < cols; ++c) {
        minX = std::min(minX, x[mid * cols + c].x);
        maxX = std::max(maxX, x[mid * cols + c].x);
    }
    Sag s;
    s.elongation = (restBottom - bottom) / float(n);
    s.midWidthChange = (maxX - minX) - kWidth;
    return s;
}

// The drop of the free end of a StVK bar hanging under its own weight, exactly: at reference
// height X below the clamp the force per width is n = rho g (L - X); uniaxial StVK gives the
// first Piola-Kirchhoff stress P = (1 + e) E (e + e^2 / 2) for the stretch 1 + e, so e solves
// (1 + e)(e + e^2 / 2) = n / E (Newton), and the drop is the integral of e over X (Simpson).
double stvkBarDrop(double rhoG, double length, double e) {
    const int n = 2000;
    auto strain = [&](double x) {
        const double s = rhoG * (length - x) / e;
        double v = s;
        for (int i = 0; i < 30; ++i) {
            const double f = (1 + v) * (v + 0.5 * v * v) - s;
            const double df = (v + 0.5 * v * v) + (1 + v) * (1 + v);
            v -= f / df;
        }
        return v;
    };
    double sum = strain(0) + strain(length);
    for (int i = 1; i < n; ++i) sum += (i % 2 ? 4.0 : 2.0) * strain(length * i / n);
    return sum * length / (3.0 * n);
}

}  // namespace

TEST(ContinuumSolver, HangingStvkStripStretchesAsTheAnalyticBar) {
    // Self-weight: n(X) = rho g (L - X) per unit width. In small strain the free end drops
    // rho g L^2 / (2 E) (printed); the test holds the drop to the exact StVK bar (stvkBarDrop:
    // Green strain stiffens by about rho g L / E, 2-4% here). At mid-length the strain is about
    // rho g (L / 2) / E and the width changes by -nu that much (nu of the lateral direction
    // under a load along the strip).
    const float g = 9.81f;
    struct Case {
        float weftAngle;  // 0: the strip runs along the warp (Ey); 90: along the weft (Ex)
        float e, nu;
    };
    const OrthotropicMaterial m = membrane();
    for (const Case& k : {Case{0.0f, m.ey, m.nuXY}, Case{90.0f, m.ex, m.nuYX}}) {
        const PreparedCloth p = prepareScene(strip(k.weftAngle), {});
        ASSERT_GT(p.items<gpu::StvkConstraint>().size(), 0u);
        ASSERT_EQ(p.items<gpu::DistanceConstraint>().size(), 0u);
        ASSERT_EQ(p.tethers.size(), 0u);
        const Sag s = settle(p, 150);
        const float linear = kDensity * g * kLength * kLength / (2.0f * k.e);
        const float want = static_cast<float>(stvkBarDrop(kDensity * g, kLength, k.e));
        const float wantWidth = -k.nu * (kDensity * g * 0.5f * kLength / k.e) * kWidth;
        std::printf("weft angle %.0f: elongation %.5f m (StVK bar %.5f, ratio %.3f; small-strain "
                    "%.5f, ratio %.3f); mid width change %.6f m (analytic %.6f, ratio %.3f)\n",
                    k.weftAngle, s.elongation, want, s.elongation / want, linear,
                    s.elongation / linear, s.midWidthChange, wantWidth,
                    s.midWidthChange / wantWidth);
        EXPECT_NEAR(s.elongation / want, 1.0f, 0.03f) << "weft angle " << k.weftAngle;
        EXPECT_NEAR(s.elongation / linear, 1.0f, 0.07f) << "weft angle " << k.weftAngle;
        EXPECT_NEAR(s.midWidthChange / wantWidth, 1.0f, 0.15f) << "weft angle " << k.weftAngle;
    }
}

// The mass-spring model with its springs from the same StVK material (prep/springs.cpp: a lattice
// whose moduli under uniaxial stress are the material's E along each axis): the strip settles to
// the same drop. Its springs are linear in the stretch (engineering strain), so they follow the
// small-strain bar, rho g L^2 / (2 E); the StVK bar is stiffer by about rho g L / E. At a fifth of
// the StVK test's density (strains under 0.5%) the two bars are 1% apart and the springs are held
// to 3% of the StVK bar, as the other models are, and to 2% of their own law (the flexion springs
// across a strip two cells wide soften it by 1.6%: prep/springs.cpp kFlexionShare). Air damping
// (20 1/s) settles the strip; it changes nothing at rest (150 and 300 frames: the same drop).
TEST(ContinuumSolver, MassSpringStripFromTheStvkMaterialStretchesAsTheAnalyticBar) {
    const float g = 9.81f, density = 0.2f * kDensity;
    const OrthotropicMaterial m = membrane();
    for (const auto& [weftAngle, e] : {std::pair{0.0f, m.ey}, std::pair{90.0f, m.ex}}) {
        Scene s = strip(weftAngle);
        s.cloths[0].material.density = density;
        s.sim.model = ClothModel::MassSpring;
        s.sim.massSpring.airDamping = 20.0f;
        const PreparedCloth p = prepareScene(s, {});
        ASSERT_GT(p.springTerms.springs.size(), 0u);
        const Sag sag = settle(p, 150);
        const double linear = density * g * kLength * kLength / (2.0 * e);
        const double bar = stvkBarDrop(density * g, kLength, e);
        std::printf("mass-spring, weft angle %.0f: elongation %.6f m (StVK bar %.6f, ratio %.4f; "
                    "small-strain %.6f, ratio %.4f)\n",
                    weftAngle, sag.elongation, bar, sag.elongation / bar, linear,
                    sag.elongation / linear);
        EXPECT_NEAR(sag.elongation / bar, 1.0, 0.03) << "weft angle " << weftAngle;
        EXPECT_NEAR(sag.elongation / linear, 1.0, 0.02) << "weft angle " << weftAngle;
    }
}

// Projective dynamics with its strain terms from the same StVK material (k_u = E_x, k_v = E_y:
// prep/projective.cpp): the strip's drop is the bar's. Its term is linear in the stretch along
// the strip (F - R = eps for a uniaxial stretch), so it follows the small-strain bar too; at a
// fifth of the StVK test's density the two bars are 1% apart. 30 local/global iterations per
// substep (PD converges slowly on a long strip); damping settles it.
TEST(ContinuumSolver, ProjectiveStripFromTheStvkMaterialStretchesAsTheAnalyticBar) {
    const float g = 9.81f, density = 0.2f * kDensity;
    const OrthotropicMaterial m = membrane();
    for (const auto& [weftAngle, e] : {std::pair{0.0f, m.ey}, std::pair{90.0f, m.ex}}) {
        Scene s = strip(weftAngle);
        s.cloths[0].material.density = density;
        s.cloths[0].material.linearDamping = 10.0f;
        s.sim.model = ClothModel::Projective;
        s.sim.iterations = 30;
        const PreparedCloth p = prepareScene(s, {});
        ASSERT_EQ(p.pdTerms.triangles.size(), std::size_t(2 * kStripCols * kStripRows));
        const Sag sag = settle(p, 100);
        const Sag later = settle(p, 140);
        const double linear = density * g * kLength * kLength / (2.0 * e);
        const double bar = stvkBarDrop(density * g, kLength, e);
        std::printf("pd, weft angle %.0f: elongation %.6f m (140 frames %.6f; StVK bar %.6f, "
                    "ratio %.4f; small-strain %.6f, ratio %.4f)\n",
                    weftAngle, sag.elongation, later.elongation, bar, sag.elongation / bar,
                    linear, sag.elongation / linear);
        EXPECT_NEAR(sag.elongation / bar, 1.0, 0.03) << "weft angle " << weftAngle;
        EXPECT_NEAR(sag.elongation / linear, 1.0, 0.02) << "weft angle " << weftAngle;
        EXPECT_NEAR(later.elongation / sag.elongation, 1.0, 0.005) << "not settled";
    }
}

// The implicit corotational FEM on the same material: its strain is S - I (linear in the
// stretch along the strip), so it too follows the small-strain bar; the material's damping
// settles it (Rayleigh damping alone would take longer).
TEST(ContinuumSolver, FemStripFromTheStvkMaterialStretchesAsTheAnalyticBar) {
    const float g = 9.81f, density = 0.2f * kDensity;
    const OrthotropicMaterial m = membrane();
    for (const auto& [weftAngle, e] : {std::pair{0.0f, m.ey}, std::pair{90.0f, m.ex}}) {
        Scene s = strip(weftAngle);
        s.cloths[0].material.density = density;
        s.cloths[0].material.linearDamping = 10.0f;
        s.sim.model = ClothModel::Fem;
        const PreparedCloth p = prepareScene(s, {});
        ASSERT_EQ(p.femTerms.triangles.size(), std::size_t(2 * kStripCols * kStripRows));
        const Sag sag = settle(p, 100);
        const Sag later = settle(p, 140);
        const double linear = density * g * kLength * kLength / (2.0 * e);
        const double bar = stvkBarDrop(density * g, kLength, e);
        std::printf("fem, weft angle %.0f: elongation %.6f m (140 frames %.6f; StVK bar %.6f, "
                    "ratio %.4f; small-strain %.6f, ratio %.4f)\n",
                    weftAngle, sag.elongation, later.elongation, bar, sag.elongation / bar,
                    linear, sag.elongation / linear);
        EXPECT_NEAR(sag.elongation / bar, 1.0, 0.03) << "weft angle " << weftAngle;
        EXPECT_NEAR(sag.elongation / linear, 1.0, 0.02) << "weft angle " << weftAngle;
        EXPECT_NEAR(later.elongation / sag.elongation, 1.0, 0.005) << "not settled";
    }
}

TEST(ContinuumSolver, StvkAndIsometricBendingAreDeterministicForAnyThreadCount) {
    Scene s = strip(30.0f, BendModel::Isometric);
    s.cloths[0].pins.regions = {"top_corners"};
    s.sim.iterations = 2;
    for (std::uint32_t phantoms : {0u, 6u}) {
        const PreparedCloth p = prepareScene(s, test::pinnedOptions(phantoms));
        ASSERT_GT(p.items<gpu::IsoBendingConstraint>().size(), 0u);
        std::uint64_t first = 0;
        for (int threads : {1, 2, 3}) {
            auto solver = makeCpuSolver(p, threads, std::nullopt, 0);
            for (int f = 0; f < 30; ++f) solver->stepFrame();
            std::vector<glm::vec4> x, v;
            solver->readPositions(x);
            solver->readVelocities(v);
            const std::uint64_t h = test::fnv1aState(x, v);
            if (threads == 1) first = h;
            EXPECT_EQ(h, first) << threads << " threads, phantoms " << phantoms;
        }
    }
}

// Isometric bending in the whole solver: a horizontal strip clamped at one end (its first two
// columns pinned) sags under its own weight as a cantilever of small-deflection beam theory,
// tip deflection q L^4 / (8 D W) with q = rho W g, i.e. rho g L^4 / (8 D). As in the maths-level
// test (tests/shared/test_continuum_statics.cpp) the hinge of the last clamped cell sits half a
// cell inside the clamp, so the beam is measured from there: L = free length + h / 2. No
// tethers; hard distance stretch; damping only speeds the settling.
//
// Gauss-Seidel XPBD converges slowly on a stiff beam: unconverged iterations leave it too soft,
// and the error grows with the number of cells along it. Measured (ratio to the beam of
// L + h/2): 20 cells, 2% deflection: 14.2 (20 substeps x 10 iterations), 4.3 (40 x 10), 2.0
// (100 x 5); 20 cells, 5%: 1.42 (100 x 5), 1.22 (100 x 60); 8 cells, 5%: 1.03 (40 x 10), 1.004
// (40 x 6, this test); 4 cells, 5%: 1.002 (40 x 10).
// So the test uses 8 cells and 40 substeps: it checks the bending model's calibration in the
// whole solver, not the solver's convergence (issue 14's Chebyshev and Jacobi work measures that).
TEST(ContinuumSolver, IsometricBendingCantileverMatchesBeamTheory) {
    const int nFree = 8;
    const float lFree = 0.4f, w = 0.04f, h = lFree / nFree, g = 9.81f, rho = 0.2f;
    const float beam = lFree + 0.5f * h;
    // D for a tip deflection of 5% of the free length.
    const float D = rho * g * std::pow(beam, 4.0f) / (8.0f * 0.05f * lFree);
    Scene s;
    s.name = "cantilever";
    s.sim.substeps = 40;
    s.sim.iterations = 6;
    ClothDesc c;
    c.name = "strip";
    GridDesc grid;
    grid.width = lFree + h;
    grid.height = w;
    grid.resX = nFree + 1;
    grid.resY = 2;
    grid.pattern = GridPattern::Alternating;
    c.grid = grid;
    c.transform.rotateDegrees = {-90.0f, 0.0f, 0.0f};  // horizontal, front face up
    c.transform.translate = {0.0f, 1.0f, 0.0f};
    c.pins.boxes.push_back({{-1.0f, -1.0f, -1.0f}, {-0.5f * grid.width + 1.5f * h, 1.0f, 1.0f}});
    c.tethers = false;
    c.material.density = rho;
    c.material.stretchCompliance = 0.0f;
    c.material.bendModel = BendModel::Isometric;
    c.material.bendRigidity = D;
    c.material.linearDamping = 8.0f;
    s.cloths.push_back(c);
    const PreparedCloth p = prepareScene(s);
    ASSERT_EQ(p.tethers.size(), 0u);
    auto solver = makeCpuSolver(p, 2);
    std::vector<glm::vec4> x;
    auto tip = [&] {
        solver->readPositions(x);
        float sum = 0.0f;
        int n = 0;
        for (std::size_t v = 0; v < p.positions.size(); ++v)
            if (p.positions[v].x > 0.5f * grid.width - 1e-4f) sum += p.positions[v].y - x[v].y, ++n;
        return sum / float(n);
    };
    int pinned = 0;
    for (const glm::vec4& v : p.positions) pinned += v.w == 0.0f;
    ASSERT_EQ(pinned, 2 * 3);  // two columns of three
    for (int f = 0; f < 90; ++f) solver->stepFrame();
    const float before = tip();
    for (int f = 0; f < 60; ++f) solver->stepFrame();
    const float delta = tip();
    // The hinges' weights (prep/hinge_bending.h) on these cells of a = h along the strip by
    // b = w / 2 across, diagonals alternating, by hand: every triangle's edges fold on the mean
    // over directions by m = 3 a^2 / 8 (across x), 3 b^2 / 8 (across y; a border edge's mirror
    // the same) and, the diagonal of length d with its apexes at the right angles,
    // m = h_d^2 / 2 + (a^2 - b^2)^2 / (8 d^2), h_d = a b / d; so S = the sum, each hinge across x
    // weighs k = D a b / S, and bending along the strip, which folds those alone, has the rigidity
    // k a / b = D a^2 / S: 1.72 D on these 5:2 cells (square cells would give D).
    const double a = h, b = 0.5 * w, d2 = a * a + b * b;
    const double S = 3.0 * a * a / 8.0 + 3.0 * b * b / 8.0 + a * a * b * b / d2 / 2.0 +
                     (a * a - b * b) * (a * a - b * b) / (8.0 * d2);
    const float rigidity = float(D * a * a / S);
    const float want = rho * g * std::pow(beam, 4.0f) / (8.0f * rigidity);
    const float wantClamped = rho * g * std::pow(lFree, 4.0f) / (8.0f * rigidity);
    std::printf("cantilever: tip deflection %.6f m (settled: %.2e m in the last second); beam of "
                "L + h/2: %.6f m, ratio %.3f; beam of the free length L: ratio %.3f\n",
                delta, std::abs(delta - before), want, delta / want, delta / wantClamped);
    EXPECT_LT(std::abs(delta - before), 0.02f * delta);  // settled
    // Measured 1.06: the hinges beside the clamp and the free end, and XPBD at 40 x 6.
    EXPECT_NEAR(delta / want, 1.0f, 0.10f);
}
