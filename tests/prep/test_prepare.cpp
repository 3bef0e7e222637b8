// prepareScene: masses, pins, attachments, tethers, constraints, layout of several cloths,
// determinism and errors. Expected values come from analytic formulas or brute force.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include <gtest/gtest.h>

#include "kernels/constraints.h"
#include "core/error.h"
#include "prep/prepare.h"
#include "prep_test_util.h"

using namespace cloth;
using namespace cloth::test;

namespace {

ClothDesc gridCloth(const std::string& name, float w, float h, std::uint32_t rx, std::uint32_t ry,
                    GridPattern pattern = GridPattern::Regular) {
    ClothDesc c;
    c.name = name;
    GridDesc g;
    g.width = w;
    g.height = h;
    g.resX = rx;
    g.resY = ry;
    g.pattern = pattern;
    c.grid = g;
    return c;
}

double totalMass(const PreparedCloth& p, std::uint32_t begin, std::uint32_t end) {
    double m = 0.0;
    for (std::uint32_t v = begin; v < end; ++v) m += 1.0 / double(p.positions[v].w);
    return m;
}

// A cloth with pins, an attachment and a transform, for the checks below.
ClothDesc anchoredCloth() {
    ClothDesc c = gridCloth("anchored", 1.2f, 0.8f, 12, 9, GridPattern::Random);
    c.transform.translate = {0.5f, 2.0f, -1.0f};
    c.transform.rotateDegrees = {-60.0f, 20.0f, 10.0f};
    c.transform.scale = 1.5f;
    c.pins.regions = {"top_corners"};
    c.pins.indices = {60};
    AttachmentDesc a;
    a.vertices.regions = {"bottom_corners"};
    a.vertices.indices = {30};
    a.motion.type = MotionType::Circle;
    a.motion.radius = 0.3f;
    a.motion.period = 2.0f;
    a.motion.axis = {0.0f, 0.0f, 2.0f};
    a.compliance = 1e-6f;
    c.attachments.push_back(a);
    c.tetherSlack = 0.1f;
    return c;
}

float distanceC(glm::vec3 a, glm::vec3 b, float restLength) {
    float C;
    glm::vec3 g;
    EXPECT_TRUE(gpu::distanceEval(a, b, restLength, C, g));
    return C;
}

std::vector<glm::vec3> worldRest(const ClothDesc& c) {
    const Mesh mesh = buildClothMesh(c);
    std::vector<glm::vec3> out;
    for (const glm::vec3& p : mesh.positions)
        out.emplace_back(c.transform.matrix() * glm::vec4(p, 1.0f));
    return out;
}

}  // namespace

TEST(Prepare, TotalMassIsDensityTimesArea) {
    ClothDesc c = gridCloth("free", 1.5f, 0.75f, 20, 10, GridPattern::Alternating);
    c.material.density = 0.3f;
    c.transform.scale = 2.0f;
    c.transform.rotateDegrees = {30.0f, 0.0f, 45.0f};
    const PreparedCloth p = prepareScene(sceneOf({c}));
    const double area = 1.5 * 0.75 * 4.0;  // scale 2 in both directions
    EXPECT_NEAR(totalMass(p, 0, p.vertexCount()), 0.3 * area, 1e-5 * 0.3 * area);
    // Every triangle of the grid has area hx hy / 2; a vertex carries a third of each of its.
    const double hx = 1.5 * 2.0 / 20, hy = 0.75 * 2.0 / 10;
    for (std::uint32_t v = 0; v < p.vertexCount(); ++v) {
        int triangles = 0;
        for (const glm::uvec3& t : p.triangles) triangles += (t.x == v) + (t.y == v) + (t.z == v);
        EXPECT_NEAR(1.0 / p.positions[v].w, 0.3 * triangles * hx * hy / 6.0, 1e-6) << v;
    }
    EXPECT_TRUE(p.tethers.empty());  // no anchors
    EXPECT_TRUE(p.attachments.empty());
}

TEST(Prepare, PinsHaveZeroInverseMassAndSelectInMeshSpace) {
    const ClothDesc c = anchoredCloth();
    const PreparedCloth p = prepareScene(sceneOf({c}));
    // top_corners of a 12 x 9 grid are vertices 0 and 12 in mesh space, whatever the transform.
    const std::set<std::uint32_t> pinned = {0, 12, 60};
    for (std::uint32_t v = 0; v < p.vertexCount(); ++v)
        EXPECT_EQ(p.positions[v].w == 0.0f, pinned.count(v) == 1) << "vertex " << v;
    const auto world = worldRest(c);
    for (std::uint32_t v = 0; v < p.vertexCount(); ++v)
        EXPECT_EQ(glm::vec3(p.positions[v]), world[v]);
}

TEST(Prepare, AttachmentsAnchorAtRestAndMoveOnTheirCircle) {
    const ClothDesc c = anchoredCloth();
    const PreparedCloth p = prepareScene(sceneOf({c}));
    const auto world = worldRest(c);
    // bottom_corners: 9 * 13 and 9 * 13 + 12; plus index 30.
    std::set<std::uint32_t> attached;
    for (const auto& a : p.attachments) {
        attached.insert(a.vertex);
        EXPECT_EQ(glm::vec3(a.anchor), world[a.vertex]);
        EXPECT_FLOAT_EQ(a.param, 1e-6f);
        ASSERT_LT(a.motion, p.motions.size());
        EXPECT_GT(p.positions[a.vertex].w, 0.0f);
    }
    EXPECT_EQ(attached, (std::set<std::uint32_t>{30, 117, 129}));
    ASSERT_EQ(p.motions.size(), 1u);
    const gpu::Motion& m = p.motions[0];
    const glm::vec3 axis(0.0f, 0.0f, 1.0f);
    EXPECT_NEAR(glm::length(gpu::motionOffset(m, 0.0f)), 0.0f, 1e-7f);
    EXPECT_NEAR(glm::length(gpu::motionOffset(m, 2.0f)), 0.0f, 1e-5f);  // one period
    // Half a period: the diametrically opposite point, 2r away, perpendicular to the axis.
    const glm::vec3 half = gpu::motionOffset(m, 1.0f);
    EXPECT_NEAR(glm::length(half), 0.6f, 1e-5f);
    EXPECT_NEAR(glm::dot(half, axis), 0.0f, 1e-6f);
    // Quarter period: counter-clockwise seen from the axis tip, at distance r sqrt(2).
    const glm::vec3 q1 = gpu::motionOffset(m, 0.5f);
    EXPECT_NEAR(glm::length(q1), 0.3f * std::sqrt(2.0f), 1e-5f);
    EXPECT_GT(glm::dot(glm::cross(q1, half), axis), 0.0f);
}

// A rotate attachment turns its vertices together about the axis line: each target at time t is
// the anchor turned by 2 pi t / period about the line (Rodrigues' formula, in double), so
// distances between targets and to the line never change.
TEST(Prepare, RotateAttachmentsTurnTheirVerticesAboutTheAxisLine) {
    ClothDesc c = anchoredCloth();
    c.attachments[0].motion = MotionDesc{};
    c.attachments[0].motion.type = MotionType::Rotate;
    c.attachments[0].motion.axis = {1.0f, 2.0f, -0.5f};
    c.attachments[0].motion.centre = {0.3f, 1.0f, -0.7f};
    c.attachments[0].motion.period = 6.0f;
    const PreparedCloth p = prepareScene(sceneOf({c}));
    ASSERT_EQ(p.attachments.size(), 3u);
    ASSERT_EQ(p.motions.size(), 3u);  // one circle per vertex
    const glm::dvec3 k = glm::normalize(glm::dvec3(1.0, 2.0, -0.5));
    const glm::dvec3 centre(0.3, 1.0, -0.7);
    for (float t : {0.0f, 0.7f, 1.5f, 3.0f, 4.2f}) {
        const double a = 2.0 * 3.14159265358979 * t / 6.0;
        for (const gpu::Attachment& at : p.attachments) {
            const glm::dvec3 x = glm::dvec3(glm::vec3(at.anchor)) - centre;
            const glm::dvec3 turned = x * std::cos(a) + glm::cross(k, x) * std::sin(a) +
                                      k * glm::dot(k, x) * (1.0 - std::cos(a));
            const glm::dvec3 target =
                glm::dvec3(glm::vec3(at.anchor) + gpu::motionOffset(p.motions[at.motion], t));
            EXPECT_LT(glm::length(target - (centre + turned)), 2e-5) << t;
        }
    }
    // Colliders cannot rotate this way.
    ColliderDesc body;
    body.motion.type = MotionType::Rotate;
    Scene s = sceneOf({anchoredCloth()});
    s.colliders.push_back(body);
    EXPECT_THROW(prepareScene(s), Error);
}

// The anchors are the vertices no force moves: pins and hard attachments. A compliant
// attachment's vertex moves under its spring, so it is tethered like any free vertex.
TEST(Prepare, TethersGoToTheNearestAnchorByBruteForce) {
    for (float compliance : {0.0f, 1e-6f}) {
        ClothDesc c = anchoredCloth();
        c.attachments[0].compliance = compliance;
        const PreparedCloth p = prepareScene(sceneOf({c}));
        const auto world = worldRest(c);
        std::set<std::uint32_t> anchors = {0, 12, 60};  // the pins
        if (compliance == 0.0f) anchors.insert({30, 117, 129});
        std::set<std::uint32_t> tethered;
        for (const auto& t : p.tethers) {
            EXPECT_TRUE(tethered.insert(t.vertex).second) << "two tethers on " << t.vertex;
            EXPECT_EQ(anchors.count(t.vertex), 0u);
            std::uint32_t best = UINT32_MAX;
            float bestD = INFINITY;
            for (std::uint32_t a : anchors) {  // ascending: ties keep the lowest index
                const float d = glm::length(world[t.vertex] - world[a]);
                if (d < bestD) bestD = d, best = a;
            }
            EXPECT_EQ(t.anchor, best) << "vertex " << t.vertex << ", compliance " << compliance;
            EXPECT_NEAR(t.maxLength, bestD * 1.1f, 1e-6f);
        }
        EXPECT_EQ(tethered.size(), p.vertexCount() - anchors.size()) << compliance;
        if (compliance > 0.0f) {
            EXPECT_EQ(tethered.count(30), 1u);
        }
    }
}

// Without the expert override each dihedral hinge's compliance is 1 / k (prep/hinge_bending.h). On
// a regular grid of square cells (diagonals one way) every interior hinge has k = 4 B / 5,
// derived by hand: an axis hinge folds by m = a^2 / 2 on the mean (P = a, Q = a, R = 0), a
// diagonal by m = a^2 / 4 (P = R = a / sqrt 2, Q = 0), so an interior triangle's S = 5 a^2 / 4 and
// k = B (A / S + A / S) = B (2/5 + 2/5). A hinge beside the border, whose triangle has fewer
// hinges, is stiffer. With the override every hinge takes it.
TEST(Prepare, BendComplianceIsTheOverrideOrEachHingesFromTheRigidity) {
    ClothDesc c = gridCloth("square", 1.0f, 1.0f, 10, 10, GridPattern::Regular);
    c.material.bendRigidity = 2e-5f;
    const PreparedCloth p = prepareScene(sceneOf({c}));
    float largest = 0.0f;
    for (const auto& b : p.items<gpu::BendingConstraint>()) largest = std::max(largest, b.param);
    EXPECT_NEAR(largest, 1.0f / (0.8f * 2e-5f), 1e-5f / (0.8f * 2e-5f));
    c.material.bendCompliance = 0.25f;
    const PreparedCloth q = prepareScene(sceneOf({c}));
    for (const auto& b : q.items<gpu::BendingConstraint>()) EXPECT_EQ(b.param, 0.25f);
}

TEST(Prepare, TethersOffWhenDisabled) {
    ClothDesc c = anchoredCloth();
    c.tethers = false;
    EXPECT_TRUE(prepareScene(sceneOf({c})).tethers.empty());
}

TEST(Prepare, ConstraintsMatchTopologyAndVanishAtRest) {
    const ClothDesc c = anchoredCloth();
    const PreparedCloth p = prepareScene(sceneOf({c}));
    const Topology topo = buildTopology(buildClothMesh(c), "test");
    EXPECT_EQ(p.items<gpu::DistanceConstraint>().size(), topo.edges.size());
    EXPECT_EQ(p.items<gpu::BendingConstraint>().size(), topo.boundaryEdges.size() == topo.edges.size()
                                    ? 0u
                                    : topo.edges.size() - topo.boundaryEdges.size());
    EXPECT_EQ(p.items<gpu::BendingConstraint>().size(), topo.bendingPairs.size());
    auto x = [&](std::uint32_t v) { return glm::vec3(p.positions[v]); };
    for (const auto& d : p.items<gpu::DistanceConstraint>()) {
        EXPECT_NEAR(distanceC(x(d.v0), x(d.v1), d.restLength), 0.0f, 1e-6f);
        EXPECT_FLOAT_EQ(d.param, c.material.stretchCompliance);
    }
    for (const auto& b : p.items<gpu::BendingConstraint>()) {
        float angle;
        glm::vec3 g0, g1, g2, g3;
        ASSERT_TRUE(gpu::bendingEval(x(b.v0), x(b.v1), x(b.v2), x(b.v3), angle, g0, g1, g2, g3));
        EXPECT_NEAR(gpu::wrapAngle(angle - b.restAngle), 0.0f, 1e-6f);
        EXPECT_NEAR(b.restAngle, 0.0f, 1e-5f);  // a flat grid
        EXPECT_GT(b.param, 0.0f);  // each hinge's 1 / k (Prepare.BendCompliance...)
    }
    EXPECT_TRUE(batchesAreValid(p));
    EXPECT_EQ(p.stats.colorsBeforePhantoms, p.colorCount);
    EXPECT_GT(p.stats.prepareMs, 0.0);
}

TEST(Prepare, CurvedRestStateHasZeroConstraintValues) {
    // A curved OBJ (a fold along x = 0 plus waves) so that rest angles are not zero.
    GridDesc g;
    g.resX = 10;
    g.resY = 8;
    g.pattern = GridPattern::Random;
    Mesh mesh = makeGrid(g);
    for (glm::vec3& x : mesh.positions)
        x.z = 0.6f * std::abs(x.x) + 0.1f * std::sin(5.0f * x.x) * std::cos(4.0f * x.y);
    const std::string path = ::testing::TempDir() + "prep_curved.obj";
    saveObj(path, mesh.positions, mesh.triangles);
    ClothDesc c;
    c.name = "curved";
    c.objPath = path;
    c.transform.rotateDegrees = {10.0f, 20.0f, 30.0f};
    c.transform.scale = 0.7f;
    const PreparedCloth p = prepareScene(sceneOf({c}));
    auto x = [&](std::uint32_t v) { return glm::vec3(p.positions[v]); };
    float largestAngle = 0.0f;
    for (const auto& d : p.items<gpu::DistanceConstraint>())
        EXPECT_NEAR(distanceC(x(d.v0), x(d.v1), d.restLength), 0.0f, 1e-6f);
    for (const auto& b : p.items<gpu::BendingConstraint>()) {
        float angle;
        glm::vec3 g0, g1, g2, g3;
        ASSERT_TRUE(gpu::bendingEval(x(b.v0), x(b.v1), x(b.v2), x(b.v3), angle, g0, g1, g2, g3));
        EXPECT_NEAR(gpu::wrapAngle(angle - b.restAngle), 0.0f, 1e-6f);
        largestAngle = std::max(largestAngle, std::abs(b.restAngle));
    }
    EXPECT_GT(largestAngle, 0.5f);  // the fold is there: 2 atan(0.6) ~ 1.08 rad
    // The mesh's own edge lengths, scaled: lengths come from the transformed rest state.
    for (const auto& d : p.items<gpu::DistanceConstraint>())
        EXPECT_NEAR(d.restLength, 0.7f * glm::length(mesh.positions[d.v0] - mesh.positions[d.v1]),
                    1e-5f);
}

TEST(Prepare, PbdParametersAreIterationStiffness) {
    ClothDesc c = anchoredCloth();
    c.material.stretchStiffness = 0.9f;
    c.material.bendStiffness = 0.2f;
    c.material.rigidDamping = 0.5f;
    Scene s = sceneOf({c});
    s.sim.mode = SolverMode::Pbd;
    s.sim.iterations = 4;
    s.sim.substeps = 5;
    const PreparedCloth p = prepareScene(s);
    // (1 - k')^n = 1 - k: n iterations of k' act like one of k.
    EXPECT_NEAR(std::pow(1.0 - p.items<gpu::DistanceConstraint>()[0].param, 4.0), 0.1, 1e-5);
    EXPECT_NEAR(std::pow(1.0 - p.items<gpu::BendingConstraint>()[0].param, 4.0), 0.8, 1e-5);
    EXPECT_NEAR(std::pow(1.0 - p.segments[0].rigidDamping, 5.0), 0.5, 1e-5);
    for (const auto& a : p.attachments) EXPECT_EQ(a.param, 1.0f);
    EXPECT_EQ(p.sim.iterations, 4);
}

TEST(Prepare, SeveralClothsAreConcatenated) {
    ClothDesc a = anchoredCloth();
    ClothDesc b = gridCloth("second", 1.0f, 1.0f, 5, 7, GridPattern::Alternating);
    b.pins.regions = {"top_edge"};
    b.material.linearDamping = 0.25f;
    b.transform.translate = {3.0f, 0.0f, 0.0f};
    const PreparedCloth pa = prepareScene(sceneOf({a}));
    const PreparedCloth pb = prepareScene(sceneOf({b}));
    const PreparedCloth p = prepareScene(sceneOf({a, b}));
    const std::uint32_t na = pa.vertexCount();
    ASSERT_EQ(p.vertexCount(), na + pb.vertexCount());
    EXPECT_EQ(p.originalVertexCount, p.vertexCount());
    ASSERT_EQ(p.segments.size(), 2u);
    EXPECT_EQ(p.segments[1].vertexBegin, na);
    EXPECT_EQ(p.segments[1].vertexEnd, p.vertexCount());
    EXPECT_EQ(p.segments[1].phantomBegin, p.segments[1].phantomEnd);
    EXPECT_FLOAT_EQ(p.segments[1].linearDamping, 0.25f);
    ASSERT_EQ(p.cloths.size(), 2u);
    EXPECT_EQ(p.cloths[1].name, "second");
    EXPECT_EQ(p.cloths[1].triangleBegin, pa.triangles.size());
    EXPECT_EQ(p.cloths[1].triangleEnd, p.triangles.size());
    for (std::uint32_t t = p.cloths[1].triangleBegin; t < p.triangles.size(); ++t)
        EXPECT_EQ(p.triangles[t], pb.triangles[t - pa.triangles.size()] + glm::uvec3(na));
    EXPECT_EQ(p.uvs.size(), p.vertexCount());
    for (std::uint32_t v = 0; v < pb.vertexCount(); ++v) {
        EXPECT_EQ(p.positions[na + v], pb.positions[v]);
        EXPECT_EQ(p.uvs[na + v], pb.uvs[v]);
    }
    EXPECT_EQ(p.items<gpu::DistanceConstraint>().size(), pa.items<gpu::DistanceConstraint>().size() + pb.items<gpu::DistanceConstraint>().size());
    EXPECT_EQ(p.items<gpu::BendingConstraint>().size(), pa.items<gpu::BendingConstraint>().size() + pb.items<gpu::BendingConstraint>().size());
    EXPECT_EQ(p.tethers.size(), pa.tethers.size() + pb.tethers.size());
    for (const auto& t : p.tethers)  // tethers stay inside their cloth
        EXPECT_EQ(t.vertex < na, t.anchor < na);
    EXPECT_TRUE(batchesAreValid(p));
    // Vertex -> triangle CSR against a scan of all triangles.
    ASSERT_EQ(p.vertexTriangleOffsets.size(), p.vertexCount() + 1u);
    for (std::uint32_t v = 0; v < p.vertexCount(); ++v) {
        std::vector<std::uint32_t> expected;
        for (std::uint32_t t = 0; t < p.triangles.size(); ++t)
            if (p.triangles[t].x == v || p.triangles[t].y == v || p.triangles[t].z == v)
                expected.push_back(t);
        std::vector<std::uint32_t> got(p.vertexTriangles.begin() + p.vertexTriangleOffsets[v],
                                       p.vertexTriangles.begin() + p.vertexTriangleOffsets[v + 1]);
        std::sort(got.begin(), got.end());
        EXPECT_EQ(got, expected) << "vertex " << v;
    }
}

TEST(Prepare, Deterministic) {
    const Scene s =
        sceneOf({anchoredCloth(), gridCloth("b", 1.0f, 2.0f, 9, 14, GridPattern::Random)});
    const PreparedCloth a = prepareScene(s), b = prepareScene(s);
    auto same = [](const auto& x, const auto& y) {
        return x.size() == y.size() &&
               (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0);
    };
    EXPECT_EQ(a.colorCount, b.colorCount);
    EXPECT_TRUE(same(a.positions, b.positions));
    EXPECT_TRUE(same(a.items<gpu::DistanceConstraint>(), b.items<gpu::DistanceConstraint>()));
    EXPECT_TRUE(same(a.items<gpu::BendingConstraint>(), b.items<gpu::BendingConstraint>()));
    EXPECT_TRUE(same(a.set<gpu::DistanceConstraint>().colorOffsets, b.set<gpu::DistanceConstraint>().colorOffsets));
    EXPECT_TRUE(same(a.set<gpu::BendingConstraint>().colorOffsets, b.set<gpu::BendingConstraint>().colorOffsets));
    EXPECT_TRUE(same(a.attachments, b.attachments));
    EXPECT_TRUE(same(a.motions, b.motions));
    EXPECT_TRUE(same(a.tethers, b.tethers));
    EXPECT_TRUE(same(a.segments, b.segments));
    EXPECT_TRUE(same(a.vertexTriangles, b.vertexTriangles));
}

TEST(Prepare, BuiltinScenesPrepare) {
    for (const std::string& name : builtinSceneNames()) {
        SCOPED_TRACE(name);
        const PreparedCloth p = prepareScene(builtinScene(name));
        EXPECT_GT(p.vertexCount(), 0u);
        EXPECT_TRUE(batchesAreValid(p));
    }
}

TEST(PrepareErrors, PinnedAndAttachedVertex) {
    ClothDesc c = anchoredCloth();
    c.attachments[0].vertices.indices.push_back(12);  // a pinned top corner
    EXPECT_TRUE(
        throwsError([&] { prepareScene(sceneOf({c})); }, {"anchored", "vertex 12", "pinned"}));
}

// Scene files check this when read, but not on very large grids, and --mesh moves a scene's
// selections to another mesh: the build refuses a selection that picks nothing, too.
TEST(PrepareErrors, SelectionThatPicksNothing) {
    ClothDesc c = anchoredCloth();
    c.pins.boxes.push_back({glm::vec3(5.0f), glm::vec3(6.0f)});
    c.pins.regions.clear();
    c.pins.indices.clear();
    EXPECT_TRUE(throwsError([&] { prepareScene(sceneOf({c})); },
                            {"anchored", "pins", "selects no vertices"}));
    c = anchoredCloth();
    c.attachments[0].vertices = {};
    c.attachments[0].vertices.boxes.push_back({glm::vec3(5.0f), glm::vec3(6.0f)});
    EXPECT_TRUE(throwsError([&] { prepareScene(sceneOf({c})); },
                            {"anchored", "attachment 0", "selects no vertices"}));
}

TEST(PrepareErrors, VertexAttachedTwice) {
    ClothDesc c = anchoredCloth();
    c.attachments.push_back(c.attachments[0]);
    EXPECT_TRUE(throwsError([&] { prepareScene(sceneOf({c})); }, {"already attached"}));
}

TEST(PrepareErrors, BadMaterialAndMotion) {
    ClothDesc c = anchoredCloth();
    c.material.density = 0.0f;
    EXPECT_TRUE(throwsError([&] { prepareScene(sceneOf({c})); }, {"anchored", "density"}));
    c = anchoredCloth();
    c.material.bendStiffness = 1.5f;
    EXPECT_TRUE(throwsError([&] { prepareScene(sceneOf({c})); }, {"bend stiffness"}));
    c = anchoredCloth();
    c.attachments[0].motion.period = 0.0f;
    EXPECT_TRUE(throwsError([&] { prepareScene(sceneOf({c})); }, {"attachment 0", "period"}));
    c = anchoredCloth();
    c.attachments[0].motion.axis = glm::vec3(0.0f);
    EXPECT_TRUE(throwsError([&] { prepareScene(sceneOf({c})); }, {"axis"}));
}

TEST(PrepareErrors, BadSimSettings) {
    Scene s = sceneOf({anchoredCloth()});
    s.sim.iterations = 0;
    EXPECT_TRUE(throwsError([&] { prepareScene(s); }, {"iterations"}));
    EXPECT_TRUE(throwsError([&] { prepareScene(sceneOf({})); }, {"no cloth"}));
}

// Issue 15: values that make the physics meaningless are refused when the cloth is built, also
// without a scene file (built-in scenes, --mesh): a free vertex with zero or subnormal mass was
// treated as pinned, a huge gravity crushed the cloth, a huge compliance overflowed.
TEST(Prepare, RefusesMeaninglessPhysicsWithTheReason) {
    const auto refuses = [](Scene s, const char* fragment) {
        try {
            prepareScene(s, {});
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
            return;
        }
        ADD_FAILURE() << "accepted; expected '" << fragment << "'";
    };
    const Scene base = builtinScene("hanging");
    Scene s = base;
    s.cloths[0].material.density = 1e-45f;
    refuses(s, "density (kg/m^2) = 1.4013e-45 is out of range");
    s = base;
    s.cloths[0].transform.scale = 1e-15f;
    refuses(s, "transform scale = 1e-15 is out of range");
    s = base;
    s.sim.gravity = {0.0f, -1e12f, 0.0f};
    refuses(s, "gravity of magnitude");
    s = base;
    s.sim.substeps = 1000000;
    refuses(s, "substeps must be between 1 and 10000");
    s = base;
    s.cloths[0].material.stretchCompliance = 1e30f;
    refuses(s, "stretch compliance = 1e+30 is out of range");
    s = base;
    s.cloths[0].transform.translate = {1e30f, 0.0f, 0.0f};
    refuses(s, "beyond the sane range of positions");
    // Within every range, but the cloth's triangles are so small that density times area
    // underflows: the mass check names the vertex.
    s = base;
    s.cloths[0].grid->width = s.cloths[0].grid->height = 1e-19f;
    s.cloths[0].transform.translate = glm::vec3(0.0f);
    s.cloths[0].material.density = 1e-6f;
    refuses(s, "too small to simulate");
}
