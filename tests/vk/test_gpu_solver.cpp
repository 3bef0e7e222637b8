// The compute solver against the CPU reference (makeCpuSolver) and a serial implementation of
// the documented stages, on hand-built scenes covering pins, attachments on moving targets,
// tethers, both dampings, several cloths, PBD, several iterations, phantoms and the grab;
// normals against a brute-force computation.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "fixtures/blade_scene.h"
#include "core/scene.h"
#include "cpu/backend.h"
#include "gpu_test.h"
#include "hand_scenes.h"
#include "prep/prepare.h"
#include "prep/solver_data.h"
#include "reference.h"
#include "vk/gpu_solver.h"

using namespace cloth;
using cloth::test::GpuTest;
using cloth::test::HandGrid;
using cloth::test::HandScene;

namespace {

struct Deviation {
    float maxAbs = 0.0f;
};

Deviation compare(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
    Deviation d;
    EXPECT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        d.maxAbs = std::max(d.maxAbs, glm::length(glm::vec3(a[i]) - glm::vec3(b[i])));
        EXPECT_EQ(a[i].w, b[i].w) << "inverse mass of vertex " << i;
    }
    return d;
}

// A 12x12 grid with every per-vertex feature the solver has: attachments on moving targets,
// tethers, rigid-motion damping and a split (phantom) vertex.
HandGrid everyFeatureGrid() {
    HandGrid g;
    g.n = 12;
    g.attachTopCorners = true;
    g.tethers = true;
    g.rigidDamping = 0.1f;
    g.phantomCopies = 2;
    return g;
}

// A sphere of `radius` at `centre` that sways (0.2 m along x, 0.1 m along z, every 0.5 s) and
// spins at `degreesPerSecond`.
ColliderDesc swayingBall(float radius, glm::vec3 centre, float degreesPerSecond) {
    ColliderDesc ball;
    ball.shape = ColliderShape::Sphere;
    ball.radius = radius;
    ball.transform.translate = centre;
    ball.motion.type = MotionType::Oscillate;
    ball.motion.amplitude = glm::vec3(0.2f, 0.0f, 0.1f);
    ball.motion.period = 0.5f;
    ball.spin.degreesPerSecond = degreesPerSecond;
    return ball;
}

}  // namespace

class GpuSolverTest : public GpuTest {
  protected:
    // Runs `frames` frames on the GPU and the serial reference; positions must agree to `tol`
    // metres, velocities to `tol * 60 * substeps`.
    void expectMatches(const PreparedCloth& p, int frames, float tol, vk::GpuSolverOptions o = {},
                       std::optional<Grab> grab = std::nullopt, bool mustMove = true) {
        o.context = ctx_;
        vk::GpuSolver gpu(p, o);
        test::SerialReference ref(p);
        auto cpu = makeCpuSolver(p, 2);
        gpu.setGrab(grab);
        ref.setGrab(grab);
        cpu->setGrab(grab);
        std::vector<glm::vec4> x, v, cx, cv;
        for (int f = 0; f < frames; ++f) {
            gpu.stepFrame();
            ref.stepFrame();
            cpu->stepFrame();
        }
        gpu.readPositions(x);
        cpu->readPositions(cx);
        Deviation d = compare(x, ref.positions());
        EXPECT_LE(d.maxAbs, tol) << "positions after " << frames << " frames (serial reference)";
        EXPECT_LE(compare(x, cx).maxAbs, tol) << "positions after " << frames << " frames (CPU)";
        EXPECT_LE(compare(cx, ref.positions()).maxAbs, tol) << "CPU against the serial reference";
        gpu.readVelocities(v);
        cpu->readVelocities(cv);
        float velTol = tol * 60.0f * static_cast<float>(p.timing.substeps);
        EXPECT_LE(compare(v, ref.velocities()).maxAbs, velTol) << "velocities";
        EXPECT_LE(compare(v, cv).maxAbs, velTol) << "velocities (CPU)";
        // The scene moved: a solver that did nothing would not pass.
        if (mustMove) {
            EXPECT_GT(compare(x, p.positions).maxAbs, 100.0f * tol) << "nothing moved";
        }
        EXPECT_NEAR(gpu.simTime(), frames / 60.0, 1e-6);
        // Equal bits, equal contacts (with a tolerance a vertex at a contact's threshold may
        // part them).
        if (tol == 0.0f) {
            EXPECT_EQ(gpu.contactCount(), cpu->contactCount()) << "contacts";
        }
        lastCpuContacts_ = cpu->contactCount();
        std::printf("max deviation %.3g m after %d frames\n", d.maxAbs, frames);
    }
    std::uint32_t lastCpuContacts_ = 0;  // the CPU reference's contacts after expectMatches' run

    // expectMatches at tolerance 0 with plain and (where the device has 64-bit integers) wide
    // memory access, then with three items per invocation (and the stages unfused if asked).
    void expectSameBitsEveryWay(const PreparedCloth& p, int frames, bool unfuseLast) {
        vk::GpuSolverOptions o;
        for (auto access : {vk::MemoryAccess::Plain, vk::MemoryAccess::Wide}) {
            if (access == vk::MemoryAccess::Wide && !ctx_->features().shaderInt64) continue;
            SCOPED_TRACE("memory access " + std::to_string(static_cast<int>(access)));
            o.memoryAccess = access;
            expectMatches(p, frames, 0.0f, o);
        }
        o.fuseStages = !unfuseLast;
        o.itemsPerInvocation = 3;
        expectMatches(p, frames, 0.0f, o);
    }
};

TEST_F(GpuSolverTest, HangingClothWithPinsAndBending) {
    HandScene s;
    s.cloths.push_back(HandGrid{});
    expectMatches(test::buildHandScene(s), 30, 2e-5f);
}

TEST_F(GpuSolverTest, AttachmentsOnCirclesWithTethers) {
    HandScene s;
    HandGrid g;
    g.attachTopCorners = true;
    g.tethers = true;
    s.cloths.push_back(g);
    PreparedCloth p = test::buildHandScene(s);
    ASSERT_EQ(p.attachments.size(), 2u);
    ASSERT_FALSE(p.tethers.empty());
    expectMatches(p, 30, 2e-5f);
}

TEST_F(GpuSolverTest, LinearAndRigidDampingOnTwoCloths) {
    HandScene s;
    HandGrid a;
    a.linearDamping = 0.5f;
    a.tethers = true;
    HandGrid b;
    b.origin = {2.0f, 0.5f, 0.3f};
    b.n = 5;
    b.rigidDamping = 0.05f;
    b.pinTopCorners = false;  // falls and tumbles freely
    b.bendParam = 1e-4f;
    s.cloths = {a, b};
    PreparedCloth p = test::buildHandScene(s);
    ASSERT_EQ(p.segments.size(), 2u);
    expectMatches(p, 30, 2e-5f);
}

TEST_F(GpuSolverTest, PbdModeAndSeveralIterations) {
    HandScene s;
    HandGrid g;
    g.stretchParam = 0.9f;  // PBD k'
    g.bendParam = 0.05f;
    s.cloths.push_back(g);
    s.sim.mode = SolverMode::Pbd;
    s.sim.iterations = 3;
    s.sim.substeps = 4;
    expectMatches(test::buildHandScene(s), 30, 2e-5f);
}

TEST_F(GpuSolverTest, XpbdMultipliersCarryAcrossIterations) {
    HandScene s;
    s.cloths.push_back(HandGrid{});
    s.sim.iterations = 4;
    s.sim.substeps = 3;
    expectMatches(test::buildHandScene(s), 30, 2e-5f);
}

TEST_F(GpuSolverTest, PhantomVerticesAreAveraged) {
    HandScene s;
    HandGrid g;
    g.phantomCopies = 3;
    g.attachTopCorners = true;
    g.rigidDamping = 0.02f;
    s.cloths.push_back(g);
    PreparedCloth p = test::buildHandScene(s);
    ASSERT_EQ(p.phantomGroups.size(), 1u);
    ASSERT_EQ(p.vertexCount(), p.originalVertexCount + 3);
    expectMatches(p, 30, 2e-5f);
    p.sim.averagePhantomsEachColor = true;  // also after every colour
    expectMatches(p, 30, 2e-5f);
    p.sim.averagePhantomsEachColor = false;
    // Grabbing the split vertex pulls all its copies.
    const std::uint32_t split = p.phantomMembers[p.phantomGroups[0].first];
    expectMatches(p, 20, 2e-5f, {}, Grab{split, {0.4f, -0.3f, 0.3f}});
}

TEST_F(GpuSolverTest, GrabAloneAndOnAnAttachedVertex) {
    HandScene s;
    HandGrid g;
    g.attachTopCorners = true;
    s.cloths.push_back(g);
    PreparedCloth p = test::buildHandScene(s);
    expectMatches(p, 20, 2e-5f, {}, Grab{24, {0.3f, -0.2f, 0.4f}});
    expectMatches(p, 20, 2e-5f, {}, Grab{p.attachments[1].vertex, {1.2f, 0.1f, 0.0f}});
}

TEST_F(GpuSolverTest, EveryWorkgroupSizeBatchingAndPlanAgree) {
    HandScene s;
    s.cloths.push_back(everyFeatureGrid());
    s.sim.substeps = 5;
    s.sim.iterations = 2;
    PreparedCloth p = test::buildHandScene(s);
    vk::GpuSolverOptions o;
    o.colorRunItems = 0;  // one dispatch per colour here; runs: ColorRuns* below
    for (std::uint32_t wg : {32u, 128u, 512u}) {
        SCOPED_TRACE("workgroup size " + std::to_string(wg));
        o.workgroupSize = wg;
        expectMatches(p, 10, 2e-5f, o);
    }
    o.workgroupSize = 32;
    for (std::uint32_t items : {1u, 3u, 16u}) {
        for (auto batching : {vk::ColorBatching::BothTypes, vk::ColorBatching::PerType}) {
            SCOPED_TRACE("items " + std::to_string(items) + ", batching " +
                         std::to_string(static_cast<int>(batching)));
            o.itemsPerInvocation = items;
            o.colorBatching = batching;
            expectMatches(p, 10, 2e-5f, o);
        }
    }
    o.itemsPerInvocation = 0;
    for (auto access : {vk::MemoryAccess::Plain, vk::MemoryAccess::Wide}) {
        if (access == vk::MemoryAccess::Wide && !ctx_->features().shaderInt64) continue;
        SCOPED_TRACE("memory access " + std::to_string(static_cast<int>(access)));
        o.memoryAccess = access;
        expectMatches(p, 10, 2e-5f, o);
    }
    o.fuseStages = false;
    expectMatches(p, 10, 2e-5f, o);
}

TEST_F(GpuSolverTest, NormalsMatchABruteForceSum) {
    HandScene s;
    s.cloths.push_back(HandGrid{});
    PreparedCloth p = test::buildHandScene(s);
    vk::GpuSolverOptions o;
    o.context = ctx_;
    vk::GpuSolver gpu(p, o);
    for (int f = 0; f < 10; ++f) gpu.stepFrame();
    std::vector<glm::vec4> x, n;
    gpu.readPositions(x);
    gpu.readNormals(n);
    ASSERT_EQ(n.size(), p.originalVertexCount);
    // Brute force, in double: every triangle adds its area-weighted normal to its corners.
    std::vector<glm::dvec3> sum(p.originalVertexCount, glm::dvec3(0.0));
    for (const auto& t : p.triangles) {
        glm::dvec3 a(x[t.x]), b(x[t.y]), c(x[t.z]);
        glm::dvec3 tn = glm::cross(b - a, c - a);
        sum[t.x] += tn;
        sum[t.y] += tn;
        sum[t.z] += tn;
    }
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v) {
        glm::dvec3 want = glm::normalize(sum[v]);
        EXPECT_NEAR(glm::length(glm::dvec3(n[v]) - want), 0.0, 1e-5) << "vertex " << v;
        EXPECT_NEAR(glm::length(glm::vec3(n[v])), 1.0f, 1e-5f);
    }
}

TEST_F(GpuSolverTest, CountsDispatchesBarriersAndStageTimes) {
    HandScene s;
    HandGrid g;
    g.attachTopCorners = true;
    g.tethers = true;
    s.cloths.push_back(g);
    s.sim.substeps = 4;
    PreparedCloth p = test::buildHandScene(s);
    std::uint32_t mixed = 0, single = 0;  // colours holding both types / one type
    for (std::uint32_t c = 0; c < p.colorCount; ++c) {
        bool d = p.set<gpu::DistanceConstraint>().colorOffsets[c + 1] > p.set<gpu::DistanceConstraint>().colorOffsets[c];
        bool b = p.set<gpu::BendingConstraint>().colorOffsets[c + 1] > p.set<gpu::BendingConstraint>().colorOffsets[c];
        (d && b ? mixed : single) += 1;
    }
    ASSERT_GT(mixed, 0u);
    vk::GpuSolverOptions o;
    o.context = ctx_;
    o.timestampInterval = 1;
    o.colorBatching = vk::ColorBatching::BothTypes;
    o.colorRunItems = 0;
    vk::GpuSolver gpu(p, o);
    gpu.stepFrame();
    // Fused plan: predict once; per substep one dispatch per colour, attachments, tethers and
    // one velocity pass (fused with the next prediction); normals at the end.
    std::uint32_t perSubstep = p.colorCount + 3;
    auto c = gpu.counters();
    EXPECT_EQ(c.dispatches, 1 + 4 * perSubstep + 1);
    EXPECT_EQ(c.barriers, c.dispatches);  // the frame's first barrier, then one between each pair
    auto names = [](const std::vector<StageTime>& times) {
        std::vector<std::string> out;
        for (const auto& t : times) out.push_back(t.name);
        return out;
    };
    std::vector<std::string> all(kStageNames, kStageNames + kStageCount);
    EXPECT_EQ(names(gpu.stageTimes()), all);  // always every stage, in order
    if (ctx_->timestamps()) {
        double stages = 0.0, groups = 0.0;
        for (const auto& t : gpu.stageTimes()) {
            EXPECT_GE(t.ms, 0.0) << t.name;
            stages += t.ms;
        }
        for (const auto& t : gpu.dispatchGroupTimes()) groups += t.ms;
        EXPECT_GT(stages, 0.0);
        EXPECT_NEAR(stages, groups, 1e-9 * groups + 1e-12);  // fused groups are split, not lost
        auto g = names(gpu.dispatchGroupTimes());
        EXPECT_NE(std::find(g.begin(), g.end(), "distance+bending"), g.end());
        EXPECT_NE(std::find(g.begin(), g.end(), "predict+velocities"), g.end());
    }
    // One dispatch per type and no fused stages: every stage is timed on its own.
    o.colorBatching = vk::ColorBatching::PerType;
    o.fuseStages = false;
    vk::GpuSolver split(p, o);
    split.stepFrame();
    perSubstep = 2 * mixed + single + 4;
    EXPECT_EQ(split.counters().dispatches, 4 * perSubstep + 1);
    if (ctx_->timestamps()) {
        std::vector<std::string> want = {"predict", "distance",   "bending", "attachments",
                                         "tethers", "velocities", "normals"};
        EXPECT_EQ(names(split.dispatchGroupTimes()), want);
        for (const auto& t : split.stageTimes()) {
            if (t.name == "phantoms" || t.name == "damping") {
                EXPECT_EQ(t.ms, 0.0) << t.name;
            }
        }
    }
    // Timestamps every other frame: the times of the last timed frame stay.
    o.timestampInterval = 2;
    vk::GpuSolver sampled(p, o);
    sampled.stepFrame();
    auto first = sampled.dispatchGroupTimes();
    sampled.stepFrame();
    auto second = sampled.dispatchGroupTimes();
    ASSERT_EQ(first.size(), second.size());
    for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i].ms, second[i].ms);
}

// Colour runs: one workgroup solves consecutive colours in one dispatch. The same constraints in
// the same order as one dispatch per colour, so the same bits on any device.
class ColorRunTest : public GpuSolverTest {
  protected:
    static PreparedCloth scene() {
        HandScene s;
        s.cloths.push_back(everyFeatureGrid());
        HandGrid plain;
        plain.n = 5;
        plain.origin = {2.0f, 0.0f, 0.0f};
        s.cloths.push_back(plain);
        s.sim.substeps = 4;
        s.sim.iterations = 2;  // multipliers stored and loaded inside the run
        return test::buildHandScene(s);
    }

    struct Run {
        std::vector<glm::vec4> x, v;
        vk::FrameCounters counters;
    };
    Run run(const PreparedCloth& p, vk::GpuSolverOptions o, int frames) {
        o.context = ctx_;
        o.colorBatching = vk::ColorBatching::BothTypes;  // one dispatch per colour without runs
        vk::GpuSolver gpu(p, o);
        for (int f = 0; f < frames; ++f) gpu.stepFrame();
        Run r;
        gpu.readPositions(r.x);
        gpu.readVelocities(r.v);
        r.counters = gpu.counters();
        return r;
    }

    static void expectSameBits(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
        ASSERT_EQ(a.size(), b.size());
        EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec4)), 0);
    }
};

TEST_F(ColorRunTest, AllColoursInOneRunGiveTheSameBitsAsOneDispatchPerColour) {
    PreparedCloth p = scene();
    ASSERT_GT(p.colorCount, 4u);
    for (std::uint32_t c = 0; c < p.colorCount; ++c)
        ASSERT_GT(p.set<gpu::DistanceConstraint>().colorOffsets[c + 1] - p.set<gpu::DistanceConstraint>().colorOffsets[c] +
                      p.set<gpu::BendingConstraint>().colorOffsets[c + 1] - p.set<gpu::BendingConstraint>().colorOffsets[c],
                  0u);
    // Runs with the automatic workgroup (64 on CPU devices) and, as on GPUs, with the other
    // kernels' size: lanes left idle (512) and several items per invocation (32).
    for (std::uint32_t wg : {32u, 512u}) {
      for (std::uint32_t runWg : {0u, wg}) {
        SCOPED_TRACE("workgroup size " + std::to_string(wg) + ", run workgroup size " +
                     std::to_string(runWg));
        vk::GpuSolverOptions o;
        o.workgroupSize = wg;
        o.colorRunWorkgroupSize = runWg;
        o.colorRunItems = 0;
        Run perColour = run(p, o, 12);
        o.colorRunItems = 1u << 30;
        Run runs = run(p, o, 12);
        expectSameBits(runs.x, perColour.x);
        expectSameBits(runs.v, perColour.v);
        // Each iteration's colours: one dispatch instead of one per colour.
        const std::uint32_t saved = p.timing.substeps * p.sim.iterations * (p.colorCount - 1);
        EXPECT_EQ(runs.counters.dispatches, perColour.counters.dispatches - saved);
        EXPECT_EQ(runs.counters.barriers, perColour.counters.barriers - saved);
        // And both agree with the CPU reference and the serial reference.
        expectMatches(p, 12, 2e-5f, o);
      }
    }
}

TEST_F(ColorRunTest, LargeColoursBreakRunsAndTheResultStaysTheSame) {
    PreparedCloth p = scene();
    std::vector<std::uint32_t> sizes;
    for (std::uint32_t c = 0; c < p.colorCount; ++c)
        sizes.push_back(p.set<gpu::DistanceConstraint>().colorOffsets[c + 1] - p.set<gpu::DistanceConstraint>().colorOffsets[c] +
                        p.set<gpu::BendingConstraint>().colorOffsets[c + 1] - p.set<gpu::BendingConstraint>().colorOffsets[c]);
    // A threshold between the smallest and the largest colour: some colours in runs, some not.
    std::vector<std::uint32_t> sorted = sizes;
    std::sort(sorted.begin(), sorted.end());
    const std::uint32_t limit = sorted[sorted.size() / 2];
    ASSERT_LT(limit, sorted.back());
    // The plan: runs of 2 or more consecutive colours of at most `limit` items.
    std::uint32_t dispatches = 0;
    for (std::uint32_t c = 0; c < p.colorCount;) {
        std::uint32_t end = c;
        while (end < p.colorCount && sizes[end] <= limit) ++end;
        dispatches += 1;
        c = end - c >= 2 ? end : c + 1;
    }
    ASSERT_LT(dispatches, p.colorCount) << "the scene should have at least one run";
    vk::GpuSolverOptions o;
    o.colorRunItems = 0;
    Run perColour = run(p, o, 12);
    o.colorRunItems = limit;
    Run runs = run(p, o, 12);
    expectSameBits(runs.x, perColour.x);
    expectSameBits(runs.v, perColour.v);
    EXPECT_EQ(runs.counters.dispatches, perColour.counters.dispatches -
                                            p.timing.substeps * p.sim.iterations *
                                                (p.colorCount - dispatches));
}

TEST_F(ColorRunTest, NoRunsWhenPhantomsAreAveragedAfterEveryColour) {
    PreparedCloth p = scene();
    p.sim.averagePhantomsEachColor = true;
    vk::GpuSolverOptions o;
    o.colorRunItems = 0;
    Run perColour = run(p, o, 6);
    o.colorRunItems = 1u << 30;
    Run asked = run(p, o, 6);
    EXPECT_EQ(asked.counters.dispatches, perColour.counters.dispatches);
    expectSameBits(asked.x, perColour.x);
}

TEST_F(ColorRunTest, AutomaticThresholdByDeviceType) {
    PreparedCloth p = scene();
    vk::GpuSolverOptions o;
    o.context = ctx_;
    o.workgroupSize = 128;
    vk::GpuSolver gpu(p, o);
    const bool cpuDevice = ctx_->info().type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    EXPECT_EQ(gpu.colorRunItems(), cpuDevice ? vk::kCpuDeviceColorRunItems : 128u);
    EXPECT_EQ(gpu.colorRunWorkgroupSize(), cpuDevice ? 64u : 128u);
    o.colorRunItems = 7;
    o.colorRunWorkgroupSize = 256;
    vk::GpuSolver set(p, o);
    EXPECT_EQ(set.colorRunItems(), 7u);
    EXPECT_EQ(set.colorRunWorkgroupSize(), 256u);
}

TEST_F(GpuSolverTest, AsynchronousFramesGiveTheSameResult) {
    HandScene s;
    s.cloths.push_back(HandGrid{});
    PreparedCloth p = test::buildHandScene(s);
    vk::GpuSolverOptions o;
    o.context = ctx_;
    vk::GpuSolver sync(p, o);
    o.synchronous = false;
    vk::GpuSolver async(p, o);
    for (int f = 0; f < 5; ++f) {
        sync.stepFrame();
        async.stepFrame();
    }
    std::vector<glm::vec4> a, b;
    sync.readPositions(a);
    async.readPositions(b);
    EXPECT_EQ(compare(a, b).maxAbs, 0.0f);
}

TEST_F(GpuSolverTest, SharedBuffersDescribeThePositionsAndNormals) {
    HandScene s;
    s.cloths.push_back(HandGrid{});
    PreparedCloth p = test::buildHandScene(s);
    vk::GpuSolverOptions o;
    o.context = ctx_;
    vk::GpuSolver gpu(p, o);
    auto b = gpu.sharedBuffers();
    EXPECT_NE(b.positions.buffer, VK_NULL_HANDLE);
    EXPECT_EQ(b.positions.size, 16u * p.vertexCount());
    EXPECT_EQ(b.normals.size, 16u * p.originalVertexCount);
    EXPECT_EQ(b.triangles.size, 12u * p.triangles.size());
    EXPECT_EQ(b.triangleCount, p.triangles.size());
    EXPECT_EQ(gpu.context(), ctx_);
}

TEST_F(GpuSolverTest, RefusesBadWorkgroupSizesAndGrabs) {
    HandScene s;
    s.cloths.push_back(HandGrid{});
    PreparedCloth p = test::buildHandScene(s);
    vk::GpuSolverOptions o;
    o.context = ctx_;
    o.workgroupSize = 48;
    EXPECT_THROW(vk::GpuSolver bad(p, o), Error);
    o.workgroupSize = 1u << 16;
    EXPECT_THROW(vk::GpuSolver bad(p, o), Error);
    o.workgroupSize = 64;
    o.colorRunWorkgroupSize = 48;
    EXPECT_THROW(vk::GpuSolver bad(p, o), Error);
    o.colorRunWorkgroupSize = 1u << 16;
    EXPECT_THROW(vk::GpuSolver bad(p, o), Error);
    o.colorRunWorkgroupSize = 0;
    vk::GpuSolver gpu(p, o);
    EXPECT_THROW(gpu.setGrab(Grab{100000, {}}), Error);
}

// The built-in scenes as prepareScene() builds them (at a lower resolution, for test time).
// Solver::readMultipliers: the GPU keeps the last iteration's multipliers when asked (with one
// iteration too, where it otherwise stores none), and they are the CPU reference's,
// for every constraint type (continuum.json has all five: stretch and dihedral bending on the
// creased cloth with its fixed angles, StVK and isometric bending on the other two).
TEST_F(GpuSolverTest, MultipliersAreTheCpusForEveryType) {
    for (int iterations : {2, 1}) {
        SCOPED_TRACE(std::to_string(iterations) + " iterations");
        Scene scene =
            loadSceneFile(std::string(CLOTH_TEST_SOURCE_DIR) + "/tests/data/gpu/continuum.json");
        scene.sim.iterations = iterations;
        const PreparedCloth p = prepareScene(scene);
        vk::GpuSolverOptions o;
        o.context = ctx_;
        vk::GpuSolver gpu(p, o);
        gpu.keepMultipliers(true);
        auto cpu = makeCpuSolver(p, 2);
        for (int f = 0; f < 5; ++f) {
            gpu.stepFrame();
            cpu->stepFrame();
        }
        for (std::size_t t = 0; t < gpu::kConstraintTypeCount; ++t) {
            SCOPED_TRACE("type " + std::to_string(t));
            std::vector<glm::vec4> g, c;
            gpu.readMultipliers(t, g);
            cpu->readMultipliers(t, c);
            ASSERT_EQ(g.size(), c.size());
            ASSERT_GT(c.size(), 0u);
            // Equal values (bits but for the sign of a zero: with one iteration the driver
            // folds the multiplier's 0 + dl into dl, which keeps a -0 that the CPU's sum turns
            // into +0; the positions are the same bits either way).
            std::size_t differ = 0;
            for (std::size_t i = 0; i < g.size(); ++i) differ += g[i] != c[i];
            EXPECT_EQ(differ, 0u);
            std::size_t nonzero = 0;
            for (const glm::vec4& l : c) nonzero += l != glm::vec4(0.0f);
            EXPECT_GT(nonzero, c.size() / 2);  // the cloths hang: nearly every constraint pulls
        }
        // Solver::readState (one transfer for all of it) reads the same bits as the reads one
        // buffer at a time, with and without the multipliers.
        auto same = [](const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
            return a.size() == b.size() &&
                   std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec4)) == 0;
        };
        std::vector<glm::vec4> x, v, x1, v1;
        std::array<std::vector<glm::vec4>, gpu::kConstraintTypeCount> lambdas;
        gpu.readState(x1, v1, lambdas.data());
        gpu.readPositions(x);
        gpu.readVelocities(v);
        EXPECT_GT(x.size(), 0u);
        EXPECT_TRUE(same(x1, x));
        EXPECT_TRUE(same(v1, v));
        for (std::size_t t = 0; t < gpu::kConstraintTypeCount; ++t) {
            std::vector<glm::vec4> g;
            gpu.readMultipliers(t, g);
            EXPECT_GT(g.size(), 0u);
            EXPECT_TRUE(same(lambdas[t], g)) << "type " << t;
        }
        std::vector<glm::vec4> x2, v2;
        gpu.readState(x2, v2, nullptr);
        EXPECT_TRUE(same(x2, x));
        EXPECT_TRUE(same(v2, v));
    }
}

TEST_F(GpuSolverTest, BuiltinScenesMatchTheCpuReference) {
    for (const std::string& name : builtinSceneNames()) {
        SCOPED_TRACE(name);
        Scene scene = builtinScene(name);
        for (auto& cloth : scene.cloths)
            if (cloth.grid) cloth.grid->resX = cloth.grid->resY = 10;
        // hanging and curtain barely move from their rest state in 20 frames.
        expectMatches(prepareScene(scene), 20, 2e-5f, {}, std::nullopt, false);
    }
}

// A frame's commands are recorded once and submitted again while what they depend on holds: the
// times, which change every frame, are read from the clock buffer (BINDING_CLOCK). A scene whose
// every time-reading kernel runs (attachments on circles, gusty wind, a collider that moves and
// spins) records its first frame only and gives the CPU's bits at tolerance 0 in every frame, so
// a stale time in a submitted frame would show. A grab's target is in the commands: each frame
// of a grab is recorded, and the first after it.
TEST_F(GpuSolverTest, AFrameIsRecordedOnceAndSubmittedAgain) {
    Scene scene = builtinScene("swirl");
    scene.cloths[0].grid->resX = scene.cloths[0].grid->resY = 10;
    WindSettings w;
    w.velocity = glm::vec3(2.0f, 0.0f, 5.0f);
    w.gusts = {0.5f, 0.7f, 3};
    scene.sim.wind = w;
    scene.colliders = {swayingBall(0.2f, glm::vec3(0.0f, 1.5f, 0.25f), 120.0f)};
    scene.sim.substeps = 4;
    scene.sim.iterations = 2;
    const PreparedCloth p = prepareScene(scene);
    ASSERT_FALSE(p.attachments.empty());
    ASSERT_TRUE(p.sim.wind.has_value());

    vk::GpuSolverOptions o;
    o.context = ctx_;
    vk::GpuSolver gpu(p, o);
    auto cpu = makeCpuSolver(p, 2);
    std::vector<glm::vec4> x, cx, v, cv;
    const auto expectCpuBits = [&](const std::string& when) {
        gpu.readPositions(x);
        cpu->readPositions(cx);
        gpu.readVelocities(v);
        cpu->readVelocities(cv);
        EXPECT_EQ(compare(x, cx).maxAbs, 0.0f) << "positions, " << when;
        EXPECT_EQ(compare(v, cv).maxAbs, 0.0f) << "velocities, " << when;
    };
    const auto step = [&](std::uint32_t recordings, int frame) {
        gpu.stepFrame();
        cpu->stepFrame();
        EXPECT_EQ(gpu.counters().recordings, recordings) << "frame " << frame;
        EXPECT_EQ(gpu.counters().submissions, 1u) << "frame " << frame;
        expectCpuBits("frame " + std::to_string(frame));
    };
    int frame = 0;
    for (; frame < 24; ++frame) step(frame == 0 ? 1u : 0u, frame);
    EXPECT_GT(compare(x, p.positions).maxAbs, 0.1f) << "the cloth moved";
    EXPECT_GT(cpu->contactCount(), 0u) << "the collider touched the cloth";

    const Grab grab{5, glm::vec3(0.3f, 1.2f, 0.4f)};
    gpu.setGrab(grab);
    cpu->setGrab(grab);
    for (int k = 0; k < 3; ++k, ++frame) step(1u, frame);
    gpu.setGrab(std::nullopt);
    cpu->setGrab(std::nullopt);
    step(1u, frame++);
    step(0u, frame++);
}

// Wind (Step::Wind): drag and lift from the current normals, gusts, phantom copies sharing the
// area, on both access widths, fused or not. The same bits as the CPU reference and the serial
// reference, velocities included.
TEST_F(GpuSolverTest, WindGivesTheSameBitsAsTheCpu) {
    Scene scene = builtinScene("curtain");
    ClothDesc& c = scene.cloths[0];
    c.grid->resX = c.grid->resY = 8;
    c.material.rigidDamping = 0.1f;  // the damping pass too, before the wind's
    WindSettings w;
    w.velocity = glm::vec3(3.0f, 0.5f, 8.0f);
    w.gusts = {0.5f, 0.7f, 11};
    scene.sim.wind = w;
    scene.sim.substeps = 4;
    scene.sim.iterations = 2;
    scene.phantoms = {PhantomMode::Target, 6};
    const PreparedCloth p = prepareScene(scene);
    ASSERT_GT(p.phantomGroups.size(), 0u);
    expectSameBitsEveryWay(p, 20, true);

    // The wind pass, and the prediction it keeps apart from the velocity pass, are counted and
    // timed as their own stages.
    vk::GpuSolverOptions counted;
    counted.context = ctx_;
    counted.timestampInterval = 1;
    PreparedCloth still = p;
    still.sim.wind.reset();
    vk::GpuSolver windy(p, counted), calm(still, counted);
    windy.stepFrame();
    calm.stepFrame();
    // Per substep a wind pass and a prediction, where without wind one prediction is fused into
    // each velocity (here damping) pass.
    EXPECT_EQ(windy.counters().dispatches, calm.counters().dispatches + 2 * 4 - 1);
    if (ctx_->timestamps()) {
        for (const auto& t : windy.stageTimes()) {
            if (t.name == std::string("wind")) {
                EXPECT_GT(t.ms, 0.0);
            }
        }
        for (const auto& t : calm.stageTimes()) {
            if (t.name == std::string("wind")) {
                EXPECT_EQ(t.ms, 0.0);
            }
        }
    }
}

// Rigid colliders (Step::Collisions, Contacts, Restitution): every analytic shape, moving,
// oscillating and spinning, with friction, restitution and phantom copies, on both access widths
// and with several vertices per invocation: the same bits as the CPU reference and the serial
// reference, velocities included, and the same contact count.
TEST_F(GpuSolverTest, CollidersGiveTheSameBitsAsTheCpu) {
    Scene scene = builtinScene("drop");
    for (auto& c : scene.cloths) {
        c.grid->resX = c.grid->resY = 10;
        c.transform.translate = glm::vec3(0.0f, 0.9f, 0.0f);
        c.transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, 0.0f);
        c.pins = {};
        c.attachments.clear();
        c.material.thickness = 0.01f;
    }
    ColliderDesc ground;
    ground.shape = ColliderShape::Plane;
    ground.transform.rotateDegrees = glm::vec3(0.0f, 0.0f, 5.0f);
    ColliderDesc ball = swayingBall(0.25f, glm::vec3(0.1f, 0.4f, 0.0f), 180.0f);
    ball.spin.reversePeriod = 0.2f;
    ball.restitution = 0.4f;
    ColliderDesc capsule;
    capsule.shape = ColliderShape::Capsule;
    capsule.radius = 0.08f;
    capsule.halfHeight = 0.3f;
    capsule.transform.translate = glm::vec3(-0.3f, 0.5f, 0.2f);
    capsule.transform.rotateDegrees = glm::vec3(90.0f, 0.0f, 20.0f);
    capsule.motion.type = MotionType::Circle;
    capsule.motion.radius = 0.1f;
    capsule.motion.period = 0.6f;
    ColliderDesc box;
    box.shape = ColliderShape::Box;
    box.halfExtents = glm::vec3(0.15f, 0.1f, 0.2f);
    box.radius = 0.03f;
    box.transform.translate = glm::vec3(0.3f, 0.6f, -0.2f);
    box.motion.type = MotionType::Linear;
    box.motion.velocity = glm::vec3(0.0f, -0.5f, 0.0f);
    box.start = 0.1f;
    box.staticFriction = 0.9f;
    box.kineticFriction = 0.7f;
    scene.colliders = {ground, ball, capsule, box};
    scene.sim.substeps = 4;
    scene.sim.iterations = 2;
    scene.phantoms = {PhantomMode::Target, 6};
    const PreparedCloth p = prepareScene(scene);
    ASSERT_GT(p.phantomGroups.size(), 0u);
    expectSameBitsEveryWay(p, 30, false);  // the GPU's contacts are the CPU's in each run
    EXPECT_GT(lastCpuContacts_, 0u);

    // The contact passes timed as their own stages (they run in every substep, with contacts
    // or without).
    vk::GpuSolverOptions o;
    o.context = ctx_;
    o.timestampInterval = 1;
    vk::GpuSolver gpu(p, o);
    for (int f = 0; f < 3; ++f) gpu.stepFrame();
    if (ctx_->timestamps()) {
        int timed = 0;
        for (const auto& t : gpu.stageTimes())
            if (t.name == std::string("contacts") || t.name == std::string("collisions")) {
                EXPECT_GT(t.ms, 0.0) << t.name;
                ++timed;
            }
        EXPECT_GT(timed, 0) << "no contact stage among the stages timed";
    }
}

// The sharp-feature contacts (feature_contacts.h: per-triangle sums, per-vertex means, phantom
// copies) on a blade mesh that moves and spins, with phantoms: the same bits as the CPU and the
// serial reference, and the same contact count.
TEST_F(GpuSolverTest, SharpFeatureContactsGiveTheSameBitsAsTheCpu) {
    Scene scene = fixtures::bladeScene();
    ColliderDesc& blade = scene.colliders[0];
    blade.motion.type = MotionType::Oscillate;
    blade.motion.amplitude = glm::vec3(0.05f, 0.02f, 0.0f);
    blade.motion.period = 0.7f;
    blade.spin.axis = glm::vec3(0.0f, 1.0f, 0.0f);
    blade.spin.degreesPerSecond = 40.0f;
    scene.sim.substeps = 4;
    scene.sim.iterations = 2;
    scene.phantoms = {PhantomMode::Target, 5};
    const PreparedCloth p = prepareScene(scene);
    ASSERT_GT(p.phantomGroups.size(), 0u);
    ASSERT_GT(p.meshFeatures.size(), 0u);
    expectSameBitsEveryWay(p, 40, false);  // the GPU's contacts are the CPU's in each run
    EXPECT_GT(lastCpuContacts_, 0u);
}


// Jacobi and Chebyshev iterations (shaders/solver/jacobi.glsl): the same bits as the CPU
// reference, positions, velocities and multipliers, on every constraint type (continuum.json)
// and on a grid with every per-vertex feature (attachments on moving targets, tethers, damping,
// phantom copies), with plain and wide memory access and several items per invocation.
TEST_F(GpuSolverTest, JacobiAndChebyshevGiveTheSameBitsAsTheCpu) {
    Scene continuum =
        loadSceneFile(std::string(CLOTH_TEST_SOURCE_DIR) + "/tests/data/gpu/continuum.json");
    HandScene grid;
    grid.cloths.push_back(everyFeatureGrid());
    for (IterationScheme scheme : {IterationScheme::Jacobi, IterationScheme::Chebyshev}) {
        SCOPED_TRACE(iterationSchemeName(scheme));
        continuum.sim.iteration.scheme = scheme;
        continuum.sim.iteration.warmup = 1;  // Chebyshev's weights from the second iteration on
        continuum.sim.iterations = 4;
        PreparedCloth ps[2] = {prepareScene(continuum), test::buildHandScene(grid)};
        ps[1].sim.iteration = continuum.sim.iteration;
        ps[1].sim.iterations = 4;
        prepareSolverData(ps[1]);
        for (const PreparedCloth& p : ps) {
            // The CPU reference runs once; each variant's GPU run is compared with it.
            auto cpu = makeCpuSolver(p, 2);
            for (int f = 0; f < 8; ++f) cpu->stepFrame();
            std::vector<glm::vec4> c, cv, g;
            cpu->readPositions(c);
            cpu->readVelocities(cv);
            std::vector<std::vector<glm::vec4>> cm(gpu::kConstraintTypeCount);
            for (std::size_t t = 0; t < cm.size(); ++t) cpu->readMultipliers(t, cm[t]);
            EXPECT_GT(compare(c, p.positions).maxAbs, 1e-3f) << "nothing moved";
            auto differ = [&g](const std::vector<glm::vec4>& want) {  // -1: sizes differ
                if (g.size() != want.size()) return std::ptrdiff_t(-1);
                std::ptrdiff_t n = 0;
                for (std::size_t i = 0; i < g.size(); ++i) n += g[i] != want[i];
                return n;
            };
            for (int variant = 0; variant < 3; ++variant) {
                vk::GpuSolverOptions o;
                o.context = ctx_;
                if (variant == 1 && !ctx_->features().shaderInt64) continue;
                o.memoryAccess = variant == 1 ? vk::MemoryAccess::Wide : vk::MemoryAccess::Plain;
                if (variant == 2) o.itemsPerInvocation = 3;
                SCOPED_TRACE("variant " + std::to_string(variant));
                vk::GpuSolver gpu(p, o);
                for (int f = 0; f < 8; ++f) gpu.stepFrame();
                gpu.readPositions(g);
                EXPECT_EQ(differ(c), 0) << "positions";
                gpu.readVelocities(g);
                EXPECT_EQ(differ(cv), 0) << "velocities";
                for (std::size_t t = 0; t < gpu::kConstraintTypeCount; ++t) {
                    gpu.readMultipliers(t, g);
                    EXPECT_EQ(differ(cm[t]), 0) << "multipliers of type " << t;
                }
            }
        }
    }
}
