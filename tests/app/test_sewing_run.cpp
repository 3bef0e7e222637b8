// Sewing through whole runs on the CPU reference (src/app/sewing_step.h): stage 1 pulls the
// pairs together, stage 2 merges them, the tube scene hangs, and the result does not depend on
// the thread count.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>

#include <gtest/gtest.h>

#include "../common/state_hashes.h"
#include "app/sewing_step.h"
#include "app/simulation.h"
#include "core/mesh.h"
#include "cpu/cpu_solver.h"
#include "prep/prepare.h"
#include "prep/sewing.h"
#include "run_program.h"

using namespace cloth;

namespace {

std::string tubePath() {
    return test::sourceDir() + "/assets/scenes/tube.json";
}

// The largest distance between the two vertices of a pair, where each is shown.
double largestGap(const PreparedCloth& p, std::vector<glm::vec4> x) {
    showMergedVertices(p, x);
    double gap = 0.0;
    for (const SeamPair& s : p.seamPairs)
        gap = std::max(gap, double(glm::distance(glm::vec3(x[s.a]), glm::vec3(x[s.b]))));
    return gap;
}

struct Run {
    PreparedCloth prepared;
    std::unique_ptr<Solver> solver;
    std::vector<int> mergeFrames;  // frames after which pairs merged
    std::vector<glm::vec4> x, v;
};

// `frames` frames of `scene` on `threads` threads, merging after every frame.
Run runScene(const Scene& scene, int threads, int frames,
             const std::function<void(int, Run&)>& perFrame = {}) {
    Run r;
    r.prepared = prepareScene(scene);
    r.solver = makeCpuSolver(r.prepared, threads);
    for (int f = 1; f <= frames; ++f) {
        r.solver->stepFrame();
        if (std::optional<PreparedCloth> sewn = sewCloseSeams(r.prepared, *r.solver)) {
            r.prepared = std::move(*sewn);
            r.solver = makeCpuSolver(r.prepared, threads);
            r.mergeFrames.push_back(f);
        }
        if (perFrame) perFrame(f, r);
    }
    r.solver->readPositions(r.x);
    r.solver->readVelocities(r.v);
    return r;
}

}  // namespace

TEST(SewingRun, StageOnePullsEachPairTogether) {
    Scene scene = loadSceneFile(tubePath());
    for (SeamDesc& s : scene.seams) s.mergeDistance = 0.0f;  // stage 1 only
    std::vector<double> gaps;
    const Run r = runScene(scene, 2, 120, [&](int, Run& run) {
        std::vector<glm::vec4> x;
        run.solver->readPositions(x);
        gaps.push_back(largestGap(run.prepared, x));
    });
    EXPECT_TRUE(r.mergeFrames.empty());
    int rises = 0;
    for (std::size_t i = 1; i < gaps.size(); ++i) rises += gaps[i] > gaps[i - 1] ? 1 : 0;
    std::printf("largest seam gap: 0.2 m at rest, frame 10 %.3g, 30 %.3g, 60 %.3g, 120 %.3g m; "
                "%d of 119 frames rose\n",
                gaps[9], gaps[29], gaps[59], gaps[119], rises);
    EXPECT_LT(gaps[9], 0.2);
    EXPECT_LT(gaps[59], gaps[9]);
    EXPECT_LT(gaps[119], kDefaultSeamMergeDistance);  // would merge at the default distance
    EXPECT_LE(rises, 12);  // monotone but for small wobbles
}

TEST(SewingRun, TubeMergesEverySeamPairAndHangsOpen) {
    Options o;
    o.scene = tubePath();
    o.backend = "cpu";
    o.threads = 2;
    std::ostringstream notices;
    Simulation sim = loadSimulation(o, notices);
    const std::size_t pairs = sim.prepared.seamPairs.size();
    ASSERT_EQ(pairs, 42u);
    int first = 0, last = 0;
    std::vector<glm::vec4> x;
    for (int f = 1; f <= 300; ++f) {
        sim.solver->stepFrame();
        if (sewAfterFrame(sim, notices) > 0) {
            if (!first) first = f;
            last = f;
        }
    }
    sim.solver->readPositions(x);
    checkFinite(x, sim.prepared.vertexCount(), 300);
    const PreparedCloth& p = sim.prepared;
    EXPECT_EQ(mergedSeamPairCount(p), pairs);
    EXPECT_EQ(largestGap(p, x), 0.0);
    // Open as a tube: the middles of the two panels (vertex 6 of row 10) stay apart, the seams
    // between them.
    const std::uint32_t n = p.originalVertexCount / 2, mid = 10 * 13 + 6;
    const glm::vec3 front(x[mid]), back(x[n + mid]);
    const double open = glm::distance(front, back);
    std::printf("tube: first merge at frame %d, last at frame %d, %zu pairs; panels' middles %.3f m "
                "apart at frame 300, lowest point y = %.3f m\n",
                first, last, pairs, open, [&] {
                    float lo = 1e9f;
                    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v) lo = std::min(lo, x[v].y);
                    return double(lo);
                }());
    EXPECT_GT(first, 1);
    EXPECT_LE(last, 300);
    EXPECT_GT(open, 0.05);
    EXPECT_TRUE(notices.str().empty()) << notices.str();
}

TEST(SewingRun, SameBitsForOneTwoAndThreeThreadsThroughMerges) {
    const Scene scene = loadSceneFile(tubePath());
    const Run one = runScene(scene, 1, 100);
    ASSERT_FALSE(one.mergeFrames.empty()) << "no merge in 100 frames: the test checks nothing";
    const std::uint64_t want = test::fnv1aState(one.x, one.v);
    for (int threads : {2, 3}) {
        const Run r = runScene(scene, threads, 100);
        EXPECT_EQ(r.mergeFrames, one.mergeFrames) << threads;
        EXPECT_EQ(test::fnv1aState(r.x, r.v), want) << threads << " threads";
    }
}

TEST(SewingRun, ExportedObjShowsEachPairAtOnePosition) {
    const Scene scene = loadSceneFile(tubePath());
    Run r = runScene(scene, 2, 100);
    ASSERT_GT(mergedSeamPairCount(r.prepared), 0u);
    const auto dir = test::scratchDir("sewing", "export");
    ObjExporter exporter(dir.string(), 1, r.prepared);
    exporter.write(100, r.x);
    const Mesh m = loadObj((dir / "frame_0100.obj").string());
    ASSERT_EQ(m.positions.size(), r.prepared.originalVertexCount);
    for (const SeamPair& s : r.prepared.seamPairs) {
        if (!s.merged()) continue;
        EXPECT_EQ(m.positions[s.a], m.positions[s.b]) << s.a << " " << s.b;
        for (const glm::uvec3& t : m.triangles) EXPECT_TRUE(t.x != s.b && t.y != s.b && t.z != s.b);
    }
    std::filesystem::remove_all(dir);
}
