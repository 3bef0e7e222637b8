// Phantom vertices: the split keeps every constraint (through the copies' originals), colours
// validly within the target, and prepareScene keeps the total mass and the rest state.
#include <algorithm>
#include <cstring>
#include <map>

#include <gtest/gtest.h>

#include "kernels/constraints.h"
#include "cpu/backend.h"
#include "prep/batches.h"
#include "prep/prepare.h"
#include "prep_test_util.h"

using namespace cloth;
using namespace cloth::test;

namespace {

// Brute force: a proper colouring of the split constraints, within the target, with every
// slot's copy standing for the input's vertex, and no unused copies.
void checkSplit(const ConstraintVertices& input, std::uint32_t vertexCount, const PhantomSplit& s,
                std::uint32_t target) {
    ASSERT_EQ(s.constraints.count(), input.count());
    ASSERT_EQ(s.constraints.offsets, input.offsets);
    EXPECT_LE(s.colorCount, target);
    for (std::uint32_t v = 0; v < vertexCount; ++v) ASSERT_EQ(s.original[v], v);
    std::vector<bool> usedCopy(s.original.size(), false);
    for (std::size_t j = 0; j < input.vertices.size(); ++j) {
        const std::uint32_t x = s.constraints.vertices[j];
        ASSERT_LT(x, s.original.size());
        EXPECT_EQ(s.original[x], input.vertices[j]) << "slot " << j;
        usedCopy[x] = true;
    }
    for (std::uint32_t x = vertexCount; x < s.original.size(); ++x)
        EXPECT_TRUE(usedCopy[x]) << "copy " << x << " is used by no constraint";
    std::vector<std::uint32_t> stamp(s.original.size(), UINT32_MAX);
    for (std::uint32_t k = 0; k < s.colorCount; ++k)
        for (std::uint32_t c = 0; c < s.constraints.count(); ++c) {
            ASSERT_LT(s.color[c], s.colorCount);
            if (s.color[c] != k) continue;
            for (std::uint32_t x : s.constraints.of(c)) {
                ASSERT_NE(stamp[x], k) << "colour " << k << " uses vertex " << x << " twice";
                stamp[x] = k;
            }
        }
}

void checkMeshSplit(const Mesh& mesh, bool bending, std::uint32_t target, const std::string& what) {
    const PreparedCloth p = constraintsOf(mesh, bending);
    const ConstraintVertices cv = constraintVertices(p);
    const Coloring initial = colorSmallestLast(buildConstraintGraph(cv, p.vertexCount()));
    for (PhantomMethod m : {PhantomMethod::Repair, PhantomMethod::Cliques}) {
        SCOPED_TRACE(what + " target " + std::to_string(target) + " " + phantomMethodName(m));
        const PhantomSplit s = splitForColors(cv, p.vertexCount(), initial, target, m);
        checkSplit(cv, p.vertexCount(), s, target);
        if (initial.colorCount <= target) {
            EXPECT_EQ(s.original.size(), p.vertexCount());
        }
        if (m == PhantomMethod::Cliques && initial.colorCount > target) {
            EXPECT_GT(s.cliquesFound, 0u);
        }
    }
}

ClothDesc anchoredRandomCloth() {
    ClothDesc c;
    c.name = "anchored";
    GridDesc g;
    g.width = 1.2f;
    g.height = 0.8f;
    g.resX = 14;
    g.resY = 10;
    g.pattern = GridPattern::Random;
    c.grid = g;
    c.transform.rotateDegrees = {-60.0f, 20.0f, 10.0f};
    c.pins.regions = {"top_corners"};
    AttachmentDesc a;
    a.vertices.regions = {"bottom_edge"};
    a.motion.type = MotionType::Circle;
    a.motion.radius = 0.2f;
    a.motion.period = 2.0f;
    c.attachments.push_back(a);
    c.tetherSlack = 0.05f;
    return c;
}

PrepareOptions withPhantoms(std::uint32_t target, PhantomMethod m = PhantomMethod::Repair) {
    PrepareOptions o;
    o.phantoms = PhantomSetting{PhantomMode::Target, target};
    o.phantomMethod = m;
    return o;
}

// Mass per cloth segment over originals and phantoms (dynamic vertices only).
std::vector<double> segmentMasses(const PreparedCloth& p) {
    std::vector<double> out;
    for (const auto& seg : p.segments) {
        double m = 0.0;
        for (std::uint32_t v = seg.vertexBegin; v < seg.vertexEnd; ++v)
            if (p.positions[v].w > 0.0f) m += 1.0 / p.positions[v].w;
        for (std::uint32_t v = seg.phantomBegin; v < seg.phantomEnd; ++v)
            if (p.positions[v].w > 0.0f) m += 1.0 / p.positions[v].w;
        out.push_back(m);
    }
    return out;
}

}  // namespace

TEST(PhantomSplit, GridsOfEveryPatternMeetTheTarget) {
    for (GridPattern pattern :
         {GridPattern::Regular, GridPattern::Alternating, GridPattern::Random})
        for (std::uint32_t res : {5u, 16u, 33u}) {
            GridDesc d;
            d.resX = res;
            d.resY = res + 3;
            d.pattern = pattern;
            const std::string what =
                std::string(gridPatternName(pattern)) + " " + std::to_string(res);
            checkMeshSplit(makeGrid(d), true, 8, what);
            checkMeshSplit(makeGrid(d), true, 5, what);
            checkMeshSplit(makeGrid(d), true, 30, what);  // above the colours: no phantoms
            checkMeshSplit(makeGrid(d), false, 4, what + " stretch");
        }
}

TEST(PhantomSplit, IrregularMeshesMeetTheTarget) {
    const std::string assets = sourceDir() + "/assets/meshes/";
    for (const char* obj : {"flag.obj", "disc.obj", "quads.obj"})
        checkMeshSplit(loadObj(assets + obj), true, 8, obj);
    checkMeshSplit(irregularMesh(24, 0.08, 4), true, 8, "jittered");
    checkMeshSplit(discMesh(6, 20), true, 8, "disc with a pole of valence 20");
    checkMeshSplit(discMesh(6, 20), true, 1, "one colour");
}

TEST(PhantomSplit, TargetOutOfRange) {
    const PreparedCloth p = constraintsOf(discMesh(3, 8), true);
    const ConstraintVertices cv = constraintVertices(p);
    const Coloring initial = colorSmallestLast(buildConstraintGraph(cv, p.vertexCount()));
    EXPECT_TRUE(
        throwsError([&] { splitForColors(cv, p.vertexCount(), initial, 0, PhantomMethod::Repair); },
                    {"out of range"}));
    // Above 64 acts as 64 (here: above the colours, so nothing to split).
    EXPECT_EQ(
        splitForColors(cv, p.vertexCount(), initial, 1000, PhantomMethod::Cliques).original.size(),
        p.vertexCount());
}

TEST(PreparePhantoms, ValidBatchesWithinTheTarget) {
    for (PhantomMethod m : {PhantomMethod::Repair, PhantomMethod::Cliques})
        for (const std::string& name : builtinSceneNames()) {
            SCOPED_TRACE(name + " " + phantomMethodName(m));
            const PreparedCloth p = prepareScene(builtinScene(name), withPhantoms(8, m));
            EXPECT_TRUE(batchesAreValid(p));
            EXPECT_LE(p.colorCount, 8u);
            EXPECT_GT(p.stats.colorsBeforePhantoms, 8u);
            EXPECT_EQ(p.stats.phantomVertices, p.vertexCount() - p.originalVertexCount);
            EXPECT_GT(p.stats.phantomVertices, 0u);
        }
}

TEST(PreparePhantoms, MassAndRestStateUnchanged) {
    ClothDesc b = anchoredRandomCloth();
    b.name = "second";
    b.transform.translate = {2.0f, 0.0f, 0.0f};
    b.pins.regions = {"top_edge"};
    b.attachments.clear();
    const Scene s = sceneOf({anchoredRandomCloth(), b});
    const PreparedCloth off = prepareScene(s);
    const PreparedCloth on = prepareScene(s, withPhantoms(6));
    ASSERT_GT(on.stats.phantomVertices, 0u);
    EXPECT_LE(on.colorCount, 6u);
    // Total mass of each cloth is unchanged.
    const auto mOff = segmentMasses(off), mOn = segmentMasses(on);
    ASSERT_EQ(mOff.size(), mOn.size());
    for (std::size_t i = 0; i < mOff.size(); ++i) EXPECT_NEAR(mOn[i], mOff[i], 1e-6 * mOff[i]);
    // Every constraint vanishes at rest, with copies at their original's place.
    auto x = [&](std::uint32_t v) { return glm::vec3(on.positions[v]); };
    for (const auto& d : on.items<gpu::DistanceConstraint>()) {
        float C;
        glm::vec3 g;
        ASSERT_TRUE(gpu::distanceEval(x(d.v0), x(d.v1), d.restLength, C, g));
        EXPECT_NEAR(C, 0.0f, 1e-6f);
    }
    for (const auto& b : on.items<gpu::BendingConstraint>()) {
        float angle;
        glm::vec3 g0, g1, g2, g3;
        ASSERT_TRUE(gpu::bendingEval(x(b.v0), x(b.v1), x(b.v2), x(b.v3), angle, g0, g1, g2, g3));
        EXPECT_NEAR(gpu::wrapAngle(angle - b.restAngle), 0.0f, 1e-5f);
    }
    EXPECT_TRUE(batchesAreValid(on));
    // The surface is the same: original vertices only.
    EXPECT_EQ(on.originalVertexCount, off.vertexCount());
    EXPECT_EQ(on.uvs.size(), on.originalVertexCount);
    for (std::size_t t = 0; t < off.triangles.size(); ++t)
        EXPECT_EQ(on.triangles[t], off.triangles[t]);
}

TEST(PreparePhantoms, GroupsCopiesAttachmentsAndTethers) {
    ClothDesc b = anchoredRandomCloth();
    b.name = "second";
    b.transform.translate = {2.0f, 0.0f, 0.0f};
    const PreparedCloth off = prepareScene(sceneOf({anchoredRandomCloth(), b}));
    const PreparedCloth p = prepareScene(sceneOf({anchoredRandomCloth(), b}), withPhantoms(7));
    const std::uint32_t n = p.originalVertexCount;
    std::vector<std::uint32_t> groupOf(p.vertexCount(), UINT32_MAX);
    for (std::uint32_t gi = 0; gi < p.phantomGroups.size(); ++gi) {
        const gpu::PhantomGroup g = p.phantomGroups[gi];
        ASSERT_GE(g.count, 2u);
        const std::uint32_t o = p.phantomMembers[g.first];
        ASSERT_LT(o, n);  // the original first
        const auto& seg = *std::find_if(p.segments.begin(), p.segments.end(), [&](auto& s) {
            return o >= s.vertexBegin && o < s.vertexEnd;
        });
        double mass = 0.0;
        for (std::uint32_t k = g.first; k < g.first + g.count; ++k) {
            const std::uint32_t v = p.phantomMembers[k];
            EXPECT_EQ(groupOf[v], UINT32_MAX) << "vertex " << v << " in two groups";
            groupOf[v] = gi;
            if (k > g.first) {
                EXPECT_GE(v, seg.phantomBegin);
                EXPECT_LT(v, seg.phantomEnd);
            }
            EXPECT_EQ(glm::vec3(p.positions[v]), glm::vec3(p.positions[o]));
            EXPECT_EQ(p.positions[v].w, p.positions[o].w);  // equal shares
            if (p.positions[v].w > 0.0f) mass += 1.0 / p.positions[v].w;
        }
        if (off.positions[o].w > 0.0f) {
            EXPECT_NEAR(mass, 1.0 / off.positions[o].w, 1e-6 * mass);
        }
    }
    for (std::uint32_t v = n; v < p.vertexCount(); ++v)
        EXPECT_NE(groupOf[v], UINT32_MAX) << "phantom " << v << " in no group";
    // Attachments and tethers of an original are repeated on each of its copies.
    std::map<std::uint32_t, gpu::Attachment> attachmentOf;
    std::map<std::uint32_t, gpu::Tether> tetherOf;
    for (const auto& a : p.attachments) EXPECT_TRUE(attachmentOf.emplace(a.vertex, a).second);
    for (const auto& t : p.tethers) EXPECT_TRUE(tetherOf.emplace(t.vertex, t).second);
    for (std::uint32_t v = n; v < p.vertexCount(); ++v) {
        const std::uint32_t o = p.phantomMembers[p.phantomGroups[groupOf[v]].first];
        EXPECT_EQ(attachmentOf.count(v), attachmentOf.count(o));
        if (attachmentOf.count(o)) {
            EXPECT_EQ(attachmentOf[v].anchor, attachmentOf[o].anchor);
            EXPECT_EQ(attachmentOf[v].motion, attachmentOf[o].motion);
        }
        EXPECT_EQ(tetherOf.count(v), tetherOf.count(o));
        if (tetherOf.count(o)) {
            EXPECT_EQ(tetherOf[v].anchor, tetherOf[o].anchor);
            EXPECT_EQ(tetherOf[v].maxLength, tetherOf[o].maxLength);
        }
    }
    EXPECT_GT(p.attachments.size(), off.attachments.size());  // some attached vertex was split
}

TEST(PreparePhantoms, ClothAtRestStaysAtRest) {
    Scene s = sceneOf({anchoredRandomCloth()});
    s.cloths[0].attachments[0].motion.type = MotionType::Static;
    s.cloths[0].material.bendCompliance = 1e-3f;  // stiff hinges: nothing drifts off the plane
    s.sim.gravity = glm::vec3(0.0f);
    const PreparedCloth p = prepareScene(s, withPhantoms(6));
    ASSERT_GT(p.stats.phantomVertices, 0u);
    auto solver = makeCpuSolver(p, 2);
    for (int f = 0; f < 20; ++f) solver->stepFrame();
    std::vector<glm::vec4> x;
    solver->readPositions(x);
    ASSERT_EQ(x.size(), p.positions.size());
    float worst = 0.0f;
    for (std::size_t v = 0; v < x.size(); ++v)
        worst = std::max(worst, glm::length(glm::vec3(x[v]) - glm::vec3(p.positions[v])));
    EXPECT_LT(worst, 1e-5f);
}

TEST(PreparePhantoms, SettingsAndDeterminism) {
    Scene s = sceneOf({anchoredRandomCloth()});
    s.phantoms = {PhantomMode::Auto, 0};
    PrepareOptions o;
    o.autoTargetColors = 9;
    const PreparedCloth a = prepareScene(s, o), b = prepareScene(s, o);
    EXPECT_LE(a.colorCount, 9u);
    EXPECT_GT(a.stats.phantomVertices, 0u);
    auto same = [](const auto& x, const auto& y) {
        return x.size() == y.size() &&
               (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0);
    };
    EXPECT_TRUE(same(a.positions, b.positions));
    EXPECT_TRUE(same(a.items<gpu::DistanceConstraint>(), b.items<gpu::DistanceConstraint>()));
    EXPECT_TRUE(same(a.items<gpu::BendingConstraint>(), b.items<gpu::BendingConstraint>()));
    EXPECT_TRUE(same(a.phantomGroups, b.phantomGroups));
    EXPECT_TRUE(same(a.phantomMembers, b.phantomMembers));
    EXPECT_TRUE(same(a.tethers, b.tethers));
    // The caller's Off wins over the scene's setting.
    PrepareOptions off;
    off.phantoms = PhantomSetting{};
    EXPECT_EQ(prepareScene(s, off).stats.phantomVertices, 0u);
    // A target above the colours needs no phantoms.
    EXPECT_EQ(prepareScene(s, withPhantoms(60)).stats.phantomVertices, 0u);
    EXPECT_TRUE(throwsError([&] { prepareScene(s, withPhantoms(0)); }, {"out of range"}));
}
