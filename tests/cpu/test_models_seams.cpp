// Seams (prep/sewing.h) under the models other than XPBD (docs/models.md): two flat panels 10 cm
// apart, sewn along their facing edges, with no gravity. Each pair is a spring of rest length 0
// (mass_spring, fem) or PD's term (w/2) |x_a - x_b|^2, so the seam closes: the pairs' distances,
// measured here from the solver's positions, fall to nothing, and pairs closer than the merge
// distance merge into one vertex (the solver re-created from the merged data, as clothsim and
// clothcheck do). PD's direct step factors its system once per constraint set: once at the start
// and once more at each merge. Every thread count gives the same bits, merges included.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/scene.h"
#include "cpu/fem.h"
#include "cpu/mass_spring.h"
#include "cpu/projective.h"
#include "prep/prepare.h"
#include "sim/solver.h"
#include "model_variants.h"
#include "prep/sewing.h"
#include "prep/springs.h"

using namespace cloth;

namespace {

using test::Variant;
using test::kVariants;
using test::name;

// Two 0.4 x 0.6 m panels of 4 x 6 cells in the plane z = 0, x in [-0.45, -0.05] and
// [0.05, 0.45]; the first's right edge sewn to the second's left edge (7 pairs).
Scene sewnPanels(Variant v, float mergeDistance) {
    Scene s;
    s.name = "sewn";
    s.sim.gravity = glm::vec3(0.0f);
    s.sim.substeps = 10;
    s.sim.iterations = 20;
    s.sim.model = v == Variant::MassSpring ? ClothModel::MassSpring
                  : v == Variant::Fem      ? ClothModel::Fem
                                           : ClothModel::Projective;
    if (v == Variant::PdJacobi) {
        s.sim.iteration.scheme = IterationScheme::Chebyshev;
        s.sim.iteration.relaxation = 0.5f;
        s.sim.iteration.rho = 0.9f;
    }
    for (float x : {-0.25f, 0.25f}) {
        ClothDesc c;
        c.name = x < 0.0f ? "left" : "right";
        GridDesc g;
        g.resX = 4;
        g.resY = 6;
        g.width = 0.4f;
        g.height = 0.6f;
        c.grid = g;
        c.transform.translate = glm::vec3(x, 1.0f, 0.0f);
        c.tethers = false;
        c.material.density = 0.2f;
        c.material.stretchCompliance = 1e-3f;
        c.material.bendCompliance = 1.0f;
        c.material.linearDamping = 10.0f;
        s.cloths.push_back(c);
    }
    SeamDesc seam;
    seam.a.cloth = 0;
    seam.a.vertices.regions = {"right_edge"};
    seam.b.cloth = 1;
    seam.b.vertices.regions = {"left_edge"};
    seam.compliance = 1e-3f;  // 1000 N/m per pair
    seam.mergeDistance = mergeDistance;
    s.seams.push_back(seam);
    return s;
}

// The largest distance between a pair's two vertices (where each is shown).
double widestPair(const PreparedCloth& p, const std::vector<glm::vec4>& x) {
    double widest = 0.0;
    for (const SeamPair& s : p.seamPairs) {
        const std::uint32_t a = p.shownAt.empty() ? s.a : p.shownAt[s.a];
        const std::uint32_t b = p.shownAt.empty() ? s.b : p.shownAt[s.b];
        widest = std::max(widest, double(glm::length(glm::vec3(x[a]) - glm::vec3(x[b]))));
    }
    return widest;
}

struct SewRun {
    PreparedCloth p;
    std::vector<glm::vec4> x;
    double initial = 0.0;         // the widest pair at the start
    std::vector<double> widest;   // per frame, before any merge of that frame
    int merges = 0;               // frames at which pairs merged
    bool factorizationsFollow = true;  // PD direct: 1 + merges after every frame
};

double figure(const Solver& s, const std::string& what) {
    for (const auto& f : s.modelFigures())
        if (f.name == what) return f.value;
    return -1.0;
}

SewRun run(const Scene& scene, int frames, int threads) {
    SewRun r{prepareScene(scene), {}, 0.0, {}, 0, true};
    r.initial = widestPair(r.p, r.p.positions);
    auto solver = test::makeModelSolver(r.p, threads);
    const bool direct = r.p.sim.model == ClothModel::Projective &&
                        r.p.sim.iteration.scheme == IterationScheme::GaussSeidel;
    for (int f = 0; f < frames; ++f) {
        solver->stepFrame();
        solver->readPositions(r.x);
        r.widest.push_back(widestPair(r.p, r.x));
        if (direct && figure(*solver, "factorizations") != 1.0 + r.merges)
            r.factorizationsFollow = false;
        const std::vector<std::uint32_t> close = seamPairsToMerge(r.p, r.x);
        if (close.empty()) continue;
        std::vector<glm::vec4> v;
        solver->readVelocities(v);
        r.p = mergeSeamPairs(r.p, close, {r.x, v, solver->simTime()});
        solver = test::makeModelSolver(r.p, threads);
        ++r.merges;
        if (direct && figure(*solver, "factorizations") != 1.0 + r.merges)
            r.factorizationsFollow = false;
    }
    solver->readPositions(r.x);
    return r;
}

}  // namespace

// Without merging (merge distance 0) the springs close the 10 cm gap.
TEST(ModelsSeams, TwoPanelsSewnAlongAnEdgeCloseTheSeam) {
    for (Variant v : kVariants) {
        const SewRun r = run(sewnPanels(v, 0.0f), 60, 1);
        EXPECT_NEAR(r.initial, 0.1, 1e-6) << name(v);
        std::printf("%s: widest pair after 1, 20, 40, 60 frames: %.3e %.3e %.3e %.3e m\n",
                    name(v), r.widest[0], r.widest[19], r.widest[39], r.widest[59]);
        EXPECT_LT(r.widest.back(), 1e-3) << name(v);
        EXPECT_EQ(r.merges, 0) << name(v);
        EXPECT_EQ(mergedSeamPairCount(r.p), 0u) << name(v);
    }
}

// With a merge distance of 5 mm every pair merges, each at the frame that first finds it that
// close; PD's direct step factors once more at each merge, and not otherwise.
TEST(ModelsSeams, PairsMergeWhenCloseAndPdRefactorsExactlyThen) {
    for (Variant v : kVariants) {
        const SewRun r = run(sewnPanels(v, 0.005f), 60, 1);
        std::printf("%s: %u of %zu pairs merged in %d merges\n", name(v), mergedSeamPairCount(r.p),
                    r.p.seamPairs.size(), r.merges);
        EXPECT_EQ(mergedSeamPairCount(r.p), r.p.seamPairs.size()) << name(v);
        EXPECT_GE(r.merges, 1) << name(v);
        EXPECT_LT(widestPair(r.p, r.x), 1e-6) << name(v);  // merged: one vertex
        EXPECT_TRUE(r.factorizationsFollow) << name(v);
        if (v == Variant::PdDirect) {
            EXPECT_TRUE(r.p.springTerms.springs.empty());
            for (const gpu::PdBend& b : r.p.pdTerms.bends)
                EXPECT_NE(b.kind, gpu::PD_TERM_SEAM);  // seam terms gone
        }
    }
}

TEST(ModelsSeams, AnyThreadCountGivesTheSameBitsThroughTheMerges) {
    for (Variant v : kVariants) {
        const Scene s = sewnPanels(v, 0.005f);
        const SewRun one = run(s, 40, 1);
        EXPECT_GE(one.merges, 1) << name(v);
        for (int threads : {2, 3}) {
            const SewRun other = run(s, 40, threads);
            EXPECT_EQ(other.merges, one.merges) << name(v) << ", " << threads << " threads";
            ASSERT_EQ(other.x.size(), one.x.size());
            EXPECT_EQ(std::memcmp(other.x.data(), one.x.data(), one.x.size() * sizeof(glm::vec4)), 0)
                << name(v) << ", " << threads << " threads";
        }
    }
}

// A hard seam (compliance 0) cannot be rigid under these steps: it takes the scene's stiffest
// term. The panels' distance material of compliance 10^-3 m/N gives springs of 1000 N/m
// (mass_spring), the membrane modulus 4 / (3 alpha) = 1333 N/m (pd) and C11 = 3 / (2 alpha) =
// 1500 N/m (fem); the seam still closes.
TEST(ModelsSeams, AHardSeamTakesTheStiffestTermOfTheScene) {
    const double alpha = 1e-3;
    const double expected[] = {1.0 / alpha, 4.0 / (3.0 * alpha), 4.0 / (3.0 * alpha),
                               3.0 / (2.0 * alpha)};
    int k = 0;
    for (Variant v : kVariants) {
        Scene s = sewnPanels(v, 0.0f);
        s.seams[0].compliance = 0.0f;
        const PreparedCloth p = prepareScene(s);
        std::vector<double> weights;
        if (v == Variant::PdDirect || v == Variant::PdJacobi) {
            for (const gpu::PdBend& b : p.pdTerms.bends)
                if (b.kind == gpu::PD_TERM_SEAM) weights.push_back(b.weight);
        } else {
            for (const gpu::Spring& sp : p.springTerms.springs)
                if (sp.rest == 0.0f) weights.push_back(sp.stiffness);
        }
        ASSERT_EQ(weights.size(), 7u) << name(v);
        for (double w : weights) EXPECT_NEAR(w, expected[k], 1e-3 * expected[k]) << name(v);
        ++k;
        const SewRun r = run(s, 60, 1);
        EXPECT_LT(r.widest.back(), 1e-3) << name(v);
    }
}

// The stability plan counts a seam's spring (rest length 0, K = k I, whatever the ends'
// positions): two free vertices of masses m_a and m_b joined by one, at the same point, have the
// one mode omega = sqrt(k (1/m_a + 1/m_b)). (As a spring of direction d it would have none.)
TEST(ModelsSeams, TheStepPlanCountsASeamSpringsStiffness) {
    PreparedCloth p;
    const double k = 400.0, ma = 0.002, mb = 0.005;
    p.positions = {glm::vec4(0.1f, 0.2f, 0.3f, float(1.0 / ma)),
                   glm::vec4(0.1f, 0.2f, 0.3f, float(1.0 / mb))};
    p.originalVertexCount = 2;
    p.springTerms.springs = {{0u, 1u, 0.0f, float(k)}};
    const double expected = std::sqrt(k * (1.0 / ma + 1.0 / mb));
    EXPECT_NEAR(springOmegaMax(p), expected, 1e-4 * expected);
}
