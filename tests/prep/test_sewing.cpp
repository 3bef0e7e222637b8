// Sewing at load time and the merge rewrite (prep/sewing.h), checked against the scene's own
// description: the pairs, references, masses and colours are counted here independently.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/scene.h"
#include "prep/prepare.h"
#include "prep/sewing.h"
#include "prep_test_util.h"

using namespace cloth;
using cloth::test::batchesAreValid;
using cloth::test::throwsError;

namespace {

// Two 0.4 x 0.6 panels, 4 x 6 quads, 0.1 m apart in z, sewn along both long sides; pinned at
// the middle of their top edges. `extra` goes into each cloth object.
std::string panelsJson(const std::string& extraCloth = "", const std::string& seamExtra = "",
                       float gap = 0.1f) {
    auto cloth = [&](float z) {
        return R"({"grid": {"width": 0.4, "height": 0.6, "resolution": [4, 6]},
                   "transform": {"translate": [0, 1, )" +
               std::to_string(z) + R"(]},
                   "pins": {"boxes": [{"min": [-0.05, 0.29, -1], "max": [0.05, 0.31, 1]}]})" +
               extraCloth + "}";
    };
    return R"({"cloths": [)" + cloth(0.0f) + "," + cloth(gap) + R"(],
        "seams": [
          {"a": {"cloth": 0, "vertices": {"regions": ["left_edge"]}},
           "b": {"cloth": 1, "vertices": {"regions": ["left_edge"]}}, "compliance": 0.01)" +
           seamExtra + R"(},
          {"a": {"cloth": 0, "vertices": {"regions": ["right_edge"]}},
           "b": {"cloth": 1, "vertices": {"regions": ["right_edge"]}})" +
           seamExtra + R"(}]})";
}

Scene parse(const std::string& json) {
    return parseSceneJson(json, "inline.json", "");
}

// Every vertex index any constraint, triangle, attachment or tether of `p` refers to.
std::set<std::uint32_t> referencedVertices(const PreparedCloth& p) {
    std::set<std::uint32_t> out;
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        for (const auto& item : p.items<typename T::Item>())
            for (int k = 0; k < T::kVertices; ++k) out.insert(gpu::itemVertex(item, k));
    });
    for (const glm::uvec3& t : p.triangles) out.insert({t.x, t.y, t.z});
    for (const gpu::Attachment& a : p.attachments) out.insert(a.vertex);
    for (const gpu::Tether& t : p.tethers) out.insert({t.vertex, t.anchor});
    return out;
}

double totalFreeMass(const PreparedCloth& p) {
    double m = 0.0;
    for (const glm::vec4& x : p.positions)
        if (x.w > 0.0f) m += 1.0 / double(x.w);
    return m;
}

std::vector<std::uint32_t> allPairs(const PreparedCloth& p) {
    std::vector<std::uint32_t> out(p.seamPairs.size());
    for (std::uint32_t i = 0; i < out.size(); ++i) out[i] = i;
    return out;
}

PreparedCloth mergeAll(const PreparedCloth& p) {
    return mergeSeamPairs(p, allPairs(p), {p.positions, p.velocities, 0.5});
}

}  // namespace

TEST(SewingPrep, EachPairIsAZeroLengthDistanceItem) {
    const Scene scene = parse(panelsJson());
    ASSERT_EQ(scene.seams.size(), 2u);
    const PreparedCloth p = prepareScene(scene);
    // 7 vertices per long side, two sides; cloth 1's vertices follow cloth 0's 35.
    ASSERT_EQ(p.seamPairs.size(), 14u);
    for (std::uint32_t i = 0; i < 7; ++i) {
        EXPECT_EQ(p.seamPairs[i].a, 5 * i) << i;  // left edge, top to bottom
        EXPECT_EQ(p.seamPairs[i].b, 35 + 5 * i) << i;
        EXPECT_EQ(p.seamPairs[7 + i].a, 5 * i + 4) << i;
        EXPECT_FLOAT_EQ(p.seamPairs[i].mergeDistance, kDefaultSeamMergeDistance);
    }
    // Mesh edges: 4*7 + 6*5 + 4*6 = 82 per panel.
    const auto& d = p.items<gpu::DistanceConstraint>();
    ASSERT_EQ(d.size(), 2u * 82u + 14u);
    std::set<std::pair<std::uint32_t, std::uint32_t>> seamItems;
    for (const auto& c : d)
        if (c.restLength == 0.0f) {
            EXPECT_FLOAT_EQ(c.param, c.v0 % 5 == 0 ? 0.01f : 0.0f);
            seamItems.insert({c.v0, c.v1});
        }
    EXPECT_EQ(seamItems.size(), 14u);
    for (const SeamPair& s : p.seamPairs) EXPECT_TRUE(seamItems.count({s.a, s.b}));
    EXPECT_TRUE(batchesAreValid(p));
    EXPECT_TRUE(p.shownAt.empty());
    EXPECT_FALSE(seamPairsToMerge(p, p.positions).size());  // 0.1 m apart
    EXPECT_TRUE(hasUnmergedSeamPairs(p));
}

TEST(SewingPrep, PbdSeamsAreHard) {
    Scene scene = parse(panelsJson());
    scene.sim.mode = SolverMode::Pbd;
    const PreparedCloth p = prepareScene(scene);
    for (const auto& c : p.items<gpu::DistanceConstraint>())
        if (c.restLength == 0.0f) {
            EXPECT_EQ(c.param, 1.0f);
        }
}

TEST(SewingPrep, MergeReplacesEverySecondVertexAndConservesMass) {
    for (const char* phantoms : {"off", "3"}) {
        SCOPED_TRACE(phantoms);
        Scene scene = parse(panelsJson());
        scene.phantoms = parsePhantomSetting(phantoms);
        const PreparedCloth p = prepareScene(scene);
        // Move every b halfway towards its a, with a velocity, as a solver would have.
        std::vector<glm::vec4> x = p.positions, v = p.velocities;
        for (const SeamPair& s : p.seamPairs) {
            x[s.b].z = 0.05f;
            v[s.a] = glm::vec4(0.0f, 0.0f, 1.0f, 0.0f);
            v[s.b] = glm::vec4(0.0f, 0.0f, -1.0f, 0.0f);
        }
        const PreparedCloth m = mergeSeamPairs(p, allPairs(p), {x, v, 0.75});
        EXPECT_EQ(mergedSeamPairCount(m), 14u);
        EXPECT_FALSE(hasUnmergedSeamPairs(m));
        EXPECT_EQ(m.run.time, 0.75);
        const std::set<std::uint32_t> used = referencedVertices(m);
        ASSERT_EQ(m.shownAt.size(), m.originalVertexCount);
        ASSERT_EQ(m.run.seamMerges.size(), m.seamPairs.size());  // each pair once
        for (std::uint32_t i = 0; i < m.seamPairs.size(); ++i)
            EXPECT_EQ(m.run.seamMerges[i].time, 0.75) << i;
        for (const SeamPair& s : m.seamPairs) {
            EXPECT_TRUE(s.merged);
            EXPECT_FALSE(used.count(s.b)) << "vertex " << s.b << " still referenced";
            EXPECT_TRUE(used.count(s.a));
            EXPECT_EQ(m.positions[s.b].w, 0.0f);
            EXPECT_EQ(m.shownAt[s.b], s.a);
            EXPECT_EQ(m.shownAt[s.a], s.a);
            // Equal masses (mirror panels): the mean lies halfway, momentum cancels.
            const float wa = p.positions[s.a].w, wb = p.positions[s.b].w;
            if (wa > 0.0f && wb > 0.0f && phantoms[0] == 'o') {
                EXPECT_FLOAT_EQ(m.positions[s.a].w, 1.0f / (1.0f / wa + 1.0f / wb));
                EXPECT_NEAR(m.positions[s.a].z, 0.025f, 1e-6f);
                EXPECT_NEAR(m.velocities[s.a].z, 0.0f, 1e-6f);
            }
            EXPECT_EQ(glm::vec3(m.positions[s.b]), glm::vec3(m.positions[s.a]));
        }
        // The seam items went with the pairs; no item is degenerate.
        for (const auto& c : m.items<gpu::DistanceConstraint>()) {
            EXPECT_NE(c.restLength, 0.0f);
            EXPECT_NE(c.v0, c.v1);
        }
        EXPECT_EQ(m.items<gpu::DistanceConstraint>().size(),
                  p.items<gpu::DistanceConstraint>().size() - 14u);
        EXPECT_EQ(m.triangles.size(), p.triangles.size());  // no triangle held both of a pair
        EXPECT_TRUE(batchesAreValid(m));
        EXPECT_NEAR(totalFreeMass(m), totalFreeMass(p), 1e-6 * totalFreeMass(p));
        if (phantoms[0] != 'o') {
            EXPECT_LE(m.colorCount, 3u);
        }
        // Exports: every b at its a.
        std::vector<glm::vec4> shown = x;
        shown.resize(m.positions.size());
        showMergedVertices(m, shown);
        for (const SeamPair& s : m.seamPairs)
            EXPECT_EQ(glm::vec3(shown[s.b]), glm::vec3(shown[s.a]));
    }
}

TEST(SewingPrep, MergingInBatchesGivesTheSameDataAsAllAtOnce) {
    const PreparedCloth p = prepareScene(parse(panelsJson()));
    const PreparedCloth once = mergeAll(p);
    const PreparedCloth first = mergeSeamPairs(p, {0, 3, 8, 13}, {p.positions, p.velocities, 0.25});
    EXPECT_TRUE(hasUnmergedSeamPairs(first));
    EXPECT_TRUE(batchesAreValid(first));
    std::vector<glm::vec4> x = first.positions;
    showMergedVertices(first, x);
    const PreparedCloth twice = mergeSeamPairs(first, allPairs(first), {x, first.velocities, 0.5});
    EXPECT_EQ(test::constraintTuples(twice), test::constraintTuples(once));
    EXPECT_EQ(twice.triangles, once.triangles);
    EXPECT_EQ(twice.shownAt, once.shownAt);
    for (std::uint32_t v = 0; v < once.vertexCount(); ++v) {
        EXPECT_EQ(twice.positions[v].w, once.positions[v].w) << v;
        EXPECT_NEAR(glm::distance(glm::vec3(twice.positions[v]), glm::vec3(once.positions[v])),
                    0.0f, 1e-6f)
            << v;
    }
    // The history: every pair once, the first batch's at 0.25 s (listed first), pair 1 at 0.5 s.
    std::map<std::uint32_t, double> when;
    for (const SeamMerge& m : twice.run.seamMerges)
        EXPECT_TRUE(when.emplace(m.pair, m.time).second) << "pair " << m.pair << " twice";
    EXPECT_EQ(when.size(), twice.seamPairs.size());
    for (std::uint32_t i : {0u, 3u, 8u, 13u}) EXPECT_EQ(when[i], 0.25) << i;
    EXPECT_EQ(when[1], 0.5);
    ASSERT_GE(twice.run.seamMerges.size(), 4u);
    EXPECT_EQ(twice.run.seamMerges[3].time, 0.25);
    EXPECT_EQ(twice.run.seamMerges.back().time, 0.5);
}

TEST(SewingPrep, DegenerateItemsAndTrianglesAreDropped) {
    // One cloth, a seam joining the two ends of its bottom-left edge (vertices 20 and 21 of a
    // 4 x 4 grid): the edge between them, and the triangle holding both, go.
    const Scene scene = parse(R"({"cloths": [{"grid": {"resolution": [4, 4]}}],
        "seams": [{"a": {"cloth": 0, "vertices": {"indices": [20]}},
                   "b": {"cloth": 0, "vertices": {"indices": [21]}}}]})");
    const PreparedCloth p = prepareScene(scene);
    const PreparedCloth m = mergeAll(p);
    std::size_t withBoth = 0;
    for (const glm::uvec3& t : p.triangles) {
        const bool has20 = t.x == 20 || t.y == 20 || t.z == 20;
        const bool has21 = t.x == 21 || t.y == 21 || t.z == 21;
        withBoth += has20 && has21;
    }
    ASSERT_GE(withBoth, 1u);
    EXPECT_EQ(m.triangles.size(), p.triangles.size() - withBoth);
    EXPECT_EQ(m.cloths[0].triangleEnd, m.triangles.size());
    // The mesh edge (20, 21) and the seam's own item.
    EXPECT_EQ(m.items<gpu::DistanceConstraint>().size(),
              p.items<gpu::DistanceConstraint>().size() - 2);
    EXPECT_FALSE(referencedVertices(m).count(21));
    for (const auto& c : m.items<gpu::BendingConstraint>()) {
        std::set<std::uint32_t> vs{c.v0, c.v1, c.v2, c.v3};
        EXPECT_EQ(vs.size(), 4u);
    }
    EXPECT_TRUE(batchesAreValid(m));
}

TEST(SewingPrep, AGroupKeepsOneTetherThePinAndTheAttachment) {
    // Tethers on: each free vertex has one; after merging, one per group (the shorter one).
    const PreparedCloth p = prepareScene(parse(panelsJson(R"(, "tethers": true)")));
    const PreparedCloth m = mergeAll(p);
    std::map<std::uint32_t, int> perVertex;
    for (const gpu::Tether& t : m.tethers) {
        ++perVertex[t.vertex];
        EXPECT_GT(m.positions[t.vertex].w, 0.0f);
        EXPECT_NE(t.vertex, t.anchor);
    }
    for (auto [v, n] : perVertex) EXPECT_EQ(n, 1) << v;
    for (const SeamPair& s : m.seamPairs) {
        float la = -1.0f, lb = -1.0f;
        for (const gpu::Tether& t : p.tethers) {
            if (t.vertex == s.a) la = t.maxLength;
            if (t.vertex == s.b) lb = t.maxLength;
        }
        for (const gpu::Tether& t : m.tethers)
            if (t.vertex == s.a) {
                EXPECT_EQ(t.maxLength, std::min(la, lb));
            }
    }
    // A pinned vertex sewn to a free one pins the group; an attachment moves to the group.
    const Scene scene = parse(R"({"cloths": [
        {"grid": {"resolution": [2, 2]}, "pins": {"indices": [0]}, "attachments": [{"indices": [2]}]},
        {"grid": {"resolution": [2, 2]}, "transform": {"translate": [0, 0, 0.1]}}],
        "seams": [{"a": {"cloth": 1, "vertices": {"indices": [0, 2]}},
                   "b": {"cloth": 0, "vertices": {"indices": [0, 2]}}}]})");
    const PreparedCloth q = mergeAll(prepareScene(scene));
    EXPECT_EQ(q.positions[9].w, 0.0f);  // cloth 1's vertex 0, sewn to the pin
    EXPECT_EQ(glm::vec3(q.positions[9]), glm::vec3(0.0f - 0.5f, 0.5f, 0.0f));  // the pin's place
    ASSERT_EQ(q.attachments.size(), 1u);
    EXPECT_EQ(q.attachments[0].vertex, 11u);
    EXPECT_GT(q.positions[11].w, 0.0f);
    for (const gpu::Tether& t : q.tethers) {
        EXPECT_NE(t.vertex, 9u);
        EXPECT_NE(t.vertex, 11u);
        EXPECT_LT(t.vertex, 9u + 9u);
    }
}

TEST(SewingPrep, PairsAlreadyCloseAreMergedAtLoad) {
    // The panels coincide: every pair is 0 apart and merges before the first frame.
    const PreparedCloth p = prepareScene(parse(panelsJson("", "", 0.0f)));
    EXPECT_EQ(mergedSeamPairCount(p), 14u);
    EXPECT_EQ(p.run.time, 0.0);
    for (const auto& c : p.items<gpu::DistanceConstraint>()) EXPECT_NE(c.restLength, 0.0f);
    EXPECT_TRUE(batchesAreValid(p));
    // A merge distance of 0 never merges.
    const PreparedCloth q = prepareScene(parse(panelsJson("", R"(, "merge_distance": 0)", 0.0f)));
    EXPECT_EQ(mergedSeamPairCount(q), 0u);
    EXPECT_FALSE(hasUnmergedSeamPairs(q));
}

TEST(SewingPrep, BadSeamsAreRefusedWithTheSeamNamed) {
    // Both sides pinned at the top middle: the seam along the top edges joins two pins.
    Scene both = parse(panelsJson());
    both.seams[0].a.vertices = {{}, {"top_edge"}, {}};
    both.seams[0].b.vertices = {{}, {"top_edge"}, {}};
    EXPECT_TRUE(throwsError([&] { prepareScene(both); },
                            {"seams[0]", "two pinned or attached", "at most one"}));
    // A chain sewn to its neighbour which is attached, on the same cloth as a pin.
    Scene attached = parse(R"({"cloths": [{"grid": {"resolution": [2, 2]}, "pins": {"indices": [0]},
        "attachments": [{"indices": [1]}]}],
        "seams": [{"a": {"cloth": 0, "vertices": {"indices": [0]}},
                   "b": {"cloth": 0, "vertices": {"indices": [1]}}}]})");
    EXPECT_TRUE(throwsError([&] { prepareScene(attached); }, {"seams[0]", "two pinned"}));
    // Through a chain of seams: pin 0 ~ 4 ~ pin 8.
    Scene chain =
        parse(R"({"cloths": [{"grid": {"resolution": [2, 2]}, "pins": {"indices": [0, 8]}}],
        "seams": [{"a": {"cloth": 0, "vertices": {"indices": [0]}},
                   "b": {"cloth": 0, "vertices": {"indices": [4]}}},
                  {"a": {"cloth": 0, "vertices": {"indices": [4]}},
                   "b": {"cloth": 0, "vertices": {"indices": [8]}}}]})");
    EXPECT_TRUE(throwsError([&] { prepareScene(chain); }, {"seams[1]", "two pinned"}));
    // Programmatic scenes get the reader's checks too.
    Scene range = parse(panelsJson());
    range.seams[1].b.cloth = 2;
    EXPECT_TRUE(throwsError([&] { prepareScene(range); }, {"seams[1]", "no cloth 2"}));
    Scene lengths = parse(panelsJson());
    lengths.seams[0].b.vertices = {{}, {"bottom_edge"}, {}};
    EXPECT_TRUE(throwsError([&] { prepareScene(lengths); }, {"seams[0]", "differ in length"}));
}

// With wind, a merge rebuilds each vertex's wind area from the rest state: the merged-away
// vertex has none, the merged one both shares, and the total stays the panels' area (with
// phantom copies too, which split their original's share).
TEST(SewingPrep, WindAreasFollowAMerge) {
    std::string json = panelsJson();
    json.insert(1, R"("wind": {"velocity": [3, 0, 0]}, "phantoms": 4, )");
    const PreparedCloth p = prepareScene(parse(json));
    ASSERT_FALSE(p.seamPairs.empty());
    const double panels = 2 * 0.4 * 0.6;
    auto total = [](const PreparedCloth& q) {
        double a = 0.0;
        for (const gpu::WindVertex& w : q.windVertices) a += w.area;
        return a;
    };
    ASSERT_EQ(p.windVertices.size(), p.vertexCount());
    EXPECT_NEAR(total(p), panels, 1e-5);
    // Move the panels' positions (as a run would): areas must still come from the rest state.
    PreparedCloth moved = p;
    for (glm::vec4& x : moved.positions) x = glm::vec4(glm::vec3(x) * 1.5f, x.w);
    const PreparedCloth m = mergeSeamPairs(moved, allPairs(moved), {moved.positions, moved.velocities, 0.5});
    ASSERT_EQ(m.windVertices.size(), m.vertexCount());
    EXPECT_NEAR(total(m), panels, 1e-5);
    for (const SeamPair& s : m.seamPairs) {
        EXPECT_EQ(m.windVertices[s.b].area, 0.0f) << s.b;
        EXPECT_GT(m.windVertices[s.a].area + 0.0f, 0.0f) << s.a;
    }
}
