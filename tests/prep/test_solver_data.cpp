// The solvers' load-time data (prep/solver_data.h): built by the preparation for what the
// settings ask, equal to the builders' own results, shared by copies of the prepared scene,
// rebuilt by sewing's merges, and refused, with an error saying why, when the scene changed after
// it was built.
#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/frame_rate.h"
#include "cpu/backend.h"
#include "fixtures/scenes.h"
#include "prep/prepare.h"
#include "prep/sewing.h"
#include "prep/solver_data.h"
#include "prep_test_util.h"

using namespace cloth;
using cloth::test::throwsError;

namespace {

Scene hanging(ClothModel model, IterationScheme scheme, bool self = false) {
    Scene s = fixtures::hangingScene(8);
    s.sim.model = model;
    s.sim.iteration.scheme = scheme;
    s.sim.iteration.relaxation = 0.5f;  // projective dynamics' Jacobi step converges with it
    if (self) s.sim.selfCollision = SelfCollisionSettings{};
    return s;
}

}  // namespace

TEST(SolverData, ThePreparationBuildsWhatTheSettingsAskAndNothingElse) {
    const PreparedCloth gs = prepareScene(hanging(ClothModel::Xpbd, IterationScheme::GaussSeidel));
    ASSERT_TRUE(gs.solverData);
    EXPECT_FALSE(gs.solverData->jacobi || gs.solverData->pd || gs.solverData->springPlan ||
                 gs.solverData->self);

    const PreparedCloth jacobi = prepareScene(hanging(ClothModel::Xpbd, IterationScheme::Jacobi));
    ASSERT_TRUE(jacobi.solverData && jacobi.solverData->jacobi);
    const JacobiLayout direct = buildJacobiLayout(jacobi);
    EXPECT_EQ(jacobi.solverData->jacobi->sources, direct.sources);
    EXPECT_EQ(jacobi.solverData->jacobi->deltaCount, direct.deltaCount);
    EXPECT_EQ(jacobi.solverData->jacobi->deltaBase, direct.deltaBase);
    EXPECT_GT(direct.deltaCount, 0u);

    const PreparedCloth pd = prepareScene(hanging(ClothModel::Projective, IterationScheme::Jacobi));
    ASSERT_TRUE(pd.solverData && pd.solverData->pd);
    EXPECT_FALSE(pd.solverData->jacobi);  // XPBD's layout is not projective dynamics'
    const PdJacobiLayout pdDirect = buildPdJacobiLayout(pd, substepDt(pd.timing));
    EXPECT_EQ(pd.solverData->pd->triCorners, pdDirect.triCorners);
    ASSERT_EQ(pd.solverData->pd->vertices.size(), pdDirect.vertices.size());
    for (std::size_t v = 0; v < pdDirect.vertices.size(); ++v)
        EXPECT_EQ(pd.solverData->pd->vertices[v].diagonal, pdDirect.vertices[v].diagonal) << v;

    const PreparedCloth springs =
        prepareScene(hanging(ClothModel::MassSpring, IterationScheme::GaussSeidel));
    ASSERT_TRUE(springs.solverData && springs.solverData->springPlan);
    EXPECT_EQ(springs.solverData->springPlan->steps, planSpringSteps(springs).steps);
    EXPECT_EQ(springs.solverData->springPlan->step, planSpringSteps(springs).step);
    // The models' per-vertex tables and incidences: mass_spring's damping adds the air's.
    ASSERT_TRUE(springs.solverData->model);
    const ModelTables& t = *springs.solverData->model;
    const std::uint32_t n = springs.originalVertexCount;
    EXPECT_EQ(t.damping, springDamping(springs));
    EXPECT_EQ(t.thickness, springThickness(springs));
    EXPECT_EQ(t.attachmentOf, springAttachmentOf(springs));
    EXPECT_EQ(t.springs.springs, springIncidence(springs.springTerms.springs, n).springs);
    EXPECT_EQ(t.springs.offsets.size(), n + 1u);
    EXPECT_EQ(pd.solverData->model->damping, implicitDamping(pd));
    EXPECT_TRUE(pd.solverData->model->springs.springs.empty());  // PD has no springs
    EXPECT_FALSE(jacobi.solverData->model);                      // nor XPBD these tables

    const PreparedCloth self =
        prepareScene(hanging(ClothModel::Xpbd, IterationScheme::GaussSeidel, true));
    ASSERT_TRUE(self.solverData && self.solverData->self);
    const RestNeighbours rest = findRestNeighbours(self);
    EXPECT_EQ(self.solverData->self->neighbours.vt, rest.vt);
    EXPECT_EQ(self.solverData->self->neighbours.ee, rest.ee);
    EXPECT_EQ(self.solverData->self->pairs.pairs.size(), restPairs(self, rest).pairs.size());
    EXPECT_EQ(self.solverData->self->vertexColours.order, selfVertexColours(self).order);
    EXPECT_GT(self.solverData->self->leastThickness, 0.0f);
}

// The implicit FEM's plan (prep/fem_plan.h) against what it means, counted here from the scene:
// a row for each vertex that is neither pinned nor carried by a hard attachment, in vertex
// order; its mass and a compliant attachment's stiffness on the diagonal; and K's pattern, each
// row's free neighbours through a triangle or a bend, itself included.
TEST(SolverData, TheFemPlanHoldsTheFreeRowsAndTheirNeighbours) {
    PreparedCloth p = prepareScene(hanging(ClothModel::Fem, IterationScheme::GaussSeidel));
    gpu::Attachment hard{}, soft{};
    hard.vertex = 20;  // carried: out of the solve
    soft.vertex = 40;  // compliant: 1 / compliance on its diagonal
    soft.param = 1e-3f;
    hard.anchor = p.positions[20], soft.anchor = p.positions[40];  // still (MOTION_STATIC)
    hard.motion = soft.motion = std::uint32_t(p.motions.size());
    p.motions.push_back(gpu::Motion{});
    p.attachments = {hard, soft};
    prepareSolverData(p);
    ASSERT_TRUE(p.solverData && p.solverData->fem);
    EXPECT_FALSE(prepareScene(hanging(ClothModel::Projective, IterationScheme::GaussSeidel))
                     .solverData->fem);
    const FemPlan& plan = *p.solverData->fem;
    const double h = substepDt(p.timing);
    const std::uint32_t n = p.originalVertexCount;
    ASSERT_FALSE(p.femTerms.bends.empty());
    std::int32_t rows = 0;
    for (std::uint32_t v = 0; v < n; ++v) {
        const bool free = p.positions[v].w > 0.0f && v != 20;
        ASSERT_EQ(plan.row[v], free ? rows : -1) << v;
        if (!free) continue;
        EXPECT_EQ(plan.rowVertex[rows], v);
        EXPECT_EQ(plan.mass[rows], 1.0 / double(p.positions[v].w));
        EXPECT_EQ(plan.attachment[rows], v == 40 ? 1.0 / double(1e-3f) : 0.0) << v;
        EXPECT_EQ(plan.extra[rows], v == 40 ? h * h / double(1e-3f) : 0.0) << v;
        ++rows;
    }
    ASSERT_EQ(plan.rows, rows);
    ASSERT_LT(rows, std::int32_t(n) - 1);  // the pins and the carried vertex are out
    EXPECT_EQ(plan.pattern.rows, rows);
    // Each row's neighbours, brute force over every triangle and bend.
    std::vector<std::vector<std::int32_t>> want(rows);
    auto link = [&](std::uint32_t a, std::uint32_t b) {
        if (plan.row[a] >= 0 && plan.row[b] >= 0) want[plan.row[a]].push_back(plan.row[b]);
    };
    for (const gpu::PdTriangle& t : p.femTerms.triangles)
        for (std::uint32_t a : {t.v0, t.v1, t.v2})
            for (std::uint32_t b : {t.v0, t.v1, t.v2}) link(a, b);
    for (const gpu::PdBend& b : p.femTerms.bends) {
        const std::uint32_t v[4] = {b.v0, b.v1, b.v2, b.v3};
        for (int c = 0; c < 4; ++c)
            for (int d = 0; d < 4; ++d)
                if (b.k[c] != 0.0f && b.k[d] != 0.0f) link(v[c], v[d]);
    }
    for (std::int32_t r = 0; r < rows; ++r) {
        std::sort(want[r].begin(), want[r].end());
        want[r].erase(std::unique(want[r].begin(), want[r].end()), want[r].end());
        const std::vector<std::int32_t> got(plan.pattern.columns.begin() + plan.pattern.offsets[r],
                                            plan.pattern.columns.begin() +
                                                plan.pattern.offsets[r + 1]);
        EXPECT_EQ(got, want[r]) << "row " << r;
        EXPECT_EQ(plan.pattern.columns[plan.pattern.diagonal[r]], r);
    }
    // A solver made from it steps (the plan is all it reads of the pattern).
    EXPECT_NO_THROW(makeCpuSolver(p, 1)->stepFrame());
}

TEST(SolverData, CopiesOfThePreparedSceneShareOneBlock) {
    // clothcheck gives both backends a copy of the scene: one block for both.
    const PreparedCloth p = prepareScene(hanging(ClothModel::Xpbd, IterationScheme::Chebyshev));
    const PreparedCloth copy = p;
    const SharedCloth shared = shareCopy(p);
    EXPECT_EQ(copy.solverData.get(), p.solverData.get());
    EXPECT_EQ(shared->solverData.get(), p.solverData.get());
    EXPECT_NO_THROW(makeCpuSolver(shared, 1));
}

TEST(SolverData, ASceneChangedAfterThePreparationIsRefusedUntilTheDataIsRebuilt) {
    // The iteration scheme changed: the Gauss-Seidel scene has no Jacobi layout.
    PreparedCloth p = prepareScene(hanging(ClothModel::Xpbd, IterationScheme::GaussSeidel));
    p.sim.iteration.scheme = IterationScheme::Jacobi;
    EXPECT_TRUE(throwsError([&] { makeCpuSolver(p, 1); },
                            {"the CPU solver", "other settings", "prepareSolverData"}));
    prepareSolverData(p);
    EXPECT_NO_THROW(makeCpuSolver(p, 1));

    // An attachment added: projective dynamics' diagonal would miss its weight.
    PreparedCloth q = prepareScene(hanging(ClothModel::Projective, IterationScheme::Jacobi));
    gpu::Attachment a{};
    a.vertex = 20;
    a.param = 1e-3f;
    q.attachments.push_back(a);
    EXPECT_TRUE(
        throwsError([&] { makeCpuSolver(q, 1); }, {"projective dynamics", "prepareSolverData"}));
    prepareSolverData(q);
    EXPECT_NO_THROW(makeCpuSolver(q, 1));

    // A vertex pinned: the spring plan's masses changed.
    PreparedCloth r = prepareScene(hanging(ClothModel::MassSpring, IterationScheme::GaussSeidel));
    r.positions[30].w = 0.0f;
    EXPECT_TRUE(throwsError([&] { makeCpuSolver(r, 1); }, {"mass-spring", "prepareSolverData"}));

    // No data at all (a scene built by hand): named as such.
    PreparedCloth bare = p;
    bare.solverData.reset();
    EXPECT_TRUE(throwsError([&] { makeCpuSolver(bare, 1); }, {"has no solver data"}));
}

TEST(SolverData, ASewingMergeRebuildsTheDataForTheMergedScene) {
    const std::string json =
        R"({"model": "pd", "iteration": {"scheme": "jacobi", "relaxation": 0.5},
        "cloths": [
          {"grid": {"width": 0.4, "height": 0.6, "resolution": [4, 6]},
           "transform": {"translate": [0, 1, 0]}},
          {"grid": {"width": 0.4, "height": 0.6, "resolution": [4, 6]},
           "transform": {"translate": [0, 1, 0.1]}}],
        "seams": [{"a": {"cloth": 0, "vertices": {"regions": ["left_edge"]}},
                   "b": {"cloth": 1, "vertices": {"regions": ["left_edge"]}}}]})";
    const PreparedCloth p = prepareScene(parseSceneJson(json, "inline.json", ""));
    ASSERT_FALSE(p.seamPairs.empty());
    std::vector<std::uint32_t> all(p.seamPairs.size());
    std::iota(all.begin(), all.end(), 0u);
    const PreparedCloth m = mergeSeamPairs(p, all, {p.positions, p.velocities, 0.5});
    ASSERT_TRUE(m.solverData);
    EXPECT_NE(m.solverData.get(), p.solverData.get());
    EXPECT_NO_THROW(solverData(m, "test"));
    // The merged scene's incidence: the merged-away vertices have no terms left.
    const PdJacobiLayout& l = *m.solverData->pd;
    for (const SeamPair& s : m.seamPairs)
        EXPECT_EQ(l.triOffsets[s.b], l.triOffsets[s.b + 1]) << "vertex " << s.b;
    EXPECT_EQ(l.triCorners, buildPdJacobiLayout(m, substepDt(m.timing)).triCorners);
}
