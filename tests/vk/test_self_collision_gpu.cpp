// Self-collision on the GPU (src/vk/self/) against the CPU reference (src/cpu/self/), which it
// must match bit for bit: after a detection from the same positions the linear BVH is the CPU's
// node for node (codes, order, children, bounds, parents, range ends), the candidates, the
// contacts and every vertex's bound are the CPU's in the same order, on folded and jittered
// cloths, two cloths, flat cloths with equal codes, and lists and scans longer than a driver's
// loop limit; the whole solver gives the CPU's positions in both orders; a frame waits on the host
// once; every dispatch's workgroups grow with the cloth; buffers that overflow grow and the frame
// is redone, with the result of large buffers.
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <random>

#include "fixtures/triangle_intersections.h"
#include "gpu_test.h"
#include "cpu/backend.h"
#include "cpu/self/self_collision.h"
#include "cpu/thread_pool.h"
#include "kernels/self_jobs.h"
#include "prep/prepare.h"
#include "vk/gpu_solver.h"
#include "vk/self/self_collision_gpu.h"

using namespace cloth;

namespace {

Scene clothScene(std::uint32_t n, int cloths) {
    Scene s;
    s.name = "self-gpu";
    for (int k = 0; k < cloths; ++k) {
        ClothDesc c;
        c.name = "cloth" + std::to_string(k);
        GridDesc g;
        g.width = g.height = 0.6f;
        g.resX = g.resY = n;
        c.grid = g;
        c.tethers = false;
        c.transform.rotateDegrees = glm::vec3(0.0f, 90.0f * float(k), 0.0f);
        s.cloths.push_back(c);
    }
    s.sim.selfCollision = SelfCollisionSettings{};
    return s;
}

class SelfCollisionGpuTest : public test::GpuTest {
  protected:
    std::size_t contactsSeen_ = 0;
    std::size_t mostList_ = 0;  // the longest list of a vertex's candidates compared
    // A first substep from start x and predicted y on both backends (the tree built, a
    // detection, the candidates tested), compared.
    void expectSameDetection(const PreparedCloth& p, const std::vector<glm::vec4>& x,
                             const std::vector<glm::vec4>& y, std::uint32_t capacity = 1u << 16) {
        SelfCollision cpu(p);
        ThreadPool pool(2);
        pool.run([&](int member, int size) {
            cpu.collide(pool, member, size, x.data(), y.data(), true,
                        [&](int) { pool.barrier(); });
        });
        const Lbvh& want = cpu.tree();

        vk::OneShot once(*ctx_, "self-collision test");
        vk::Buffer positions = vk::deviceBuffer(*ctx_, 16 * x.size(), "positions");
        vk::Buffer predicted = vk::deviceBuffer(*ctx_, 16 * y.size(), "predicted");
        vk::Buffer triangles = vk::deviceBuffer(*ctx_, 12 * p.triangles.size(), "triangles");
        vk::upload(*ctx_, once, positions, x.data(), 16 * x.size());
        vk::upload(*ctx_, once, predicted, y.data(), 16 * y.size());
        vk::upload(*ctx_, once, triangles, p.triangles.data(), 12 * p.triangles.size());
        vk::GpuSelfCollision gpu(*ctx_, p, positions, predicted, triangles, capacity);
        for (int tries = 0;; ++tries) {  // (as the solver: grown, once more)
            gpu.beginFrame();
            once.run([&](VkCommandBuffer cb) {
                gpu.recordFrameStart(cb);
                gpu.recordStart(cb);
                gpu.recordCollide(cb, true);
            });
            if (!gpu.overflowed()) break;
            ASSERT_LT(tries, 8);
            gpu.grow();
            once.run([&](VkCommandBuffer cb) { gpu.recordRestore(cb); });
        }
        EXPECT_EQ(gpu.truncated(), 0u);
        const gpu::SelfState st = gpu.state();
        const SelfCollisionCounts counts = cpu.counts();
        EXPECT_EQ(st.detections, 1u);
        EXPECT_EQ(st.pairs, counts.candidatePairs);
        EXPECT_EQ(st.tested, counts.primitivePairs);
        EXPECT_EQ(st.walkNodes, counts.walkNodes);
        EXPECT_EQ(st.contacts, counts.contacts);
        // The same candidates, contacts and bounds in the same order, bit for bit.
        const std::vector<gpu::SelfCandidate> cands = gpu.readCandidates(once);
        ASSERT_EQ(cands.size(), cpu.candidates().size());
        for (std::size_t i = 0; i < cands.size(); ++i)
            ASSERT_EQ(0, std::memcmp(&cands[i], &cpu.candidates()[i], sizeof cands[i]))
                << "candidate " << i << " of " << cands.size();
        const std::vector<gpu::SelfContact> contacts = gpu.readContacts(once);
        const std::vector<gpu::SelfContact> cpuContacts = cpu.contacts();
        ASSERT_EQ(contacts.size(), cpuContacts.size());
        for (std::size_t i = 0; i < contacts.size(); ++i)
            ASSERT_EQ(0, std::memcmp(&contacts[i], &cpuContacts[i], sizeof contacts[i]))
                << "contact " << i << " of " << contacts.size();
        std::vector<std::uint32_t> offsets, slots;
        gpu.readLists(once, offsets, slots);
        EXPECT_EQ(offsets, cpu.listOffsets());
        for (std::size_t i = 0; i < slots.size(); ++i)
            if (slots[i] != cpu.listSlots()[i]) {
                std::uint32_t v = 0;
                while (offsets[v + 1] <= i) ++v;
                std::printf("slot %zu (vertex %u, list %u..%u): gpu", i, v, offsets[v], offsets[v + 1]);
                for (std::uint32_t k = offsets[v]; k < offsets[v + 1]; ++k) std::printf(" %u", slots[k]);
                std::printf("\n cpu");
                for (std::uint32_t k = offsets[v]; k < offsets[v + 1]; ++k) std::printf(" %u", cpu.listSlots()[k]);
                std::printf("\n");
                ADD_FAILURE();
                break;
            }
        const std::vector<glm::vec4> detected = gpu.readDetected(once);
        ASSERT_EQ(detected.size(), cpu.detected().size());
        for (std::size_t v = 0; v < detected.size(); ++v)
            ASSERT_EQ(0, std::memcmp(&detected[v], &cpu.detected()[v], sizeof(glm::vec4)))
                << "vertex " << v << ": gpu " << detected[v].x << " " << detected[v].y << " "
                << detected[v].z << " beta " << detected[v].w << ", cpu " << cpu.detected()[v].x
                << " " << cpu.detected()[v].y << " " << cpu.detected()[v].z << " beta "
                << cpu.detected()[v].w;
        contactsSeen_ += contacts.size();
        std::vector<std::size_t> list(p.originalVertexCount, 0);
        for (const gpu::SelfCandidate& c : cands)
            for (int k = 0; k < 4; ++k) mostList_ = std::max(mostList_, ++list[c.vertices[k]]);

        const vk::GpuSelfCollision::Tree got = gpu.readTree(once);
        EXPECT_EQ(got.codes, want.codes);
        EXPECT_EQ(got.order, want.order);
        EXPECT_EQ(got.parent, want.parent);
        EXPECT_EQ(got.rangeEnd, want.rangeEnd);
        ASSERT_EQ(got.nodes.size(), want.nodes.size());
        for (std::size_t k = 0; k < want.nodes.size(); ++k) {
            const gpu::LbvhNode& a = got.nodes[k];
            const gpu::LbvhNode& b = want.nodes[k];
            ASSERT_EQ(0, std::memcmp(&a, &b, sizeof a))
                << "node " << k << " of " << want.nodes.size() << ": gpu (" << a.minX << " "
                << a.minY << " " << a.minZ << " | " << a.maxX << " " << a.maxY << " " << a.maxZ
                << " | " << a.left << " " << a.right << ") cpu (" << b.minX << " " << b.minY
                << " " << b.minZ << " | " << b.maxX << " " << b.maxY << " " << b.maxZ << " | "
                << b.left << " " << b.right << ")";
        }
    }
};

glm::vec3 jitter(std::mt19937& rng, float r) {
    std::uniform_real_distribution<float> u(-r, r);
    return {u(rng), u(rng), u(rng)};
}

}  // namespace

TEST_F(SelfCollisionGpuTest, TheHierarchyIsTheCpusNodeForNode) {
    for (auto [n, cloths] : {std::pair{24u, 1}, std::pair{13u, 2}, std::pair{1u, 1}}) {
        const PreparedCloth p = prepareScene(clothScene(n, cloths));
        std::mt19937 rng(n);
        std::vector<glm::vec4> x = p.positions, y = p.positions;
        for (std::size_t v = 0; v < x.size(); ++v) {
            // Folded in two about x = 0, jittered; predicted moved a little.
            glm::vec3 r(x[v]);
            if (r.x > 0.0f) r = glm::vec3(-r.x, r.y, r.z + 0.01f);
            x[v] = glm::vec4(r + jitter(rng, 0.003f), x[v].w);
            y[v] = x[v] + glm::vec4(jitter(rng, 0.01f), 0.0f);
        }
        expectSameDetection(p, x, y);
        // Flat and still: many equal codes (the index breaks the ties).
        expectSameDetection(p, p.positions, p.positions);
    }
    EXPECT_GT(contactsSeen_, 100u);
}

namespace {

// A square cloth of n x n cells folded across one in-plane axis into `layers` layers `gap` apart,
// jittered; y: x moved a little.
void foldedLayers(const PreparedCloth& p, int layers, float gap, std::vector<glm::vec4>& x,
                  std::vector<glm::vec4>& y) {
    // The grid's plane: the axis along which the cloth is flat is its normal.
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::vec4& v : p.positions) {
        lo = glm::min(lo, glm::vec3(v));
        hi = glm::max(hi, glm::vec3(v));
    }
    const glm::vec3 extent = hi - lo;
    const int normal = extent.x < extent.y ? (extent.x < extent.z ? 0 : 2) : (extent.y < extent.z ? 1 : 2);
    const int along = (normal + 1) % 3;  // folded across this in-plane axis
    const float layer = extent[along] / float(layers);
    std::mt19937 rng(7);
    x = p.positions;
    y = p.positions;
    for (std::size_t v = 0; v < x.size(); ++v) {
        glm::vec3 r(x[v]);
        const float u = r[along] - lo[along];
        const int k = std::min(layers - 1, static_cast<int>(u / layer));
        const float w = u - layer * float(k);
        r[along] = lo[along] + (k % 2 == 0 ? w : layer - w);
        r[normal] = lo[normal] + gap * float(k);
        x[v] = glm::vec4(r + jitter(rng, 0.0005f), x[v].w);
        y[v] = x[v] + glm::vec4(jitter(rng, 0.001f), 0.0f);
    }
}

}  // namespace

// No invocation loops more than a few thousand times (llvmpipe ends every loop of an invocation
// silently after 65535 iterations in all): the prefix sums and the unions of the partial boxes
// and of the motion's ranges run by workgroups over levels of SELF_SCAN_BLOCK (256) items
// (shaders/lib/block_scan.glsl), and a vertex's list is sorted by a heap sort. A 96^2 cloth 4 m
// wide (edges of 42 mm) folded in two layers 3 mm apart, with one vertex moved 3 m out (the
// scene's box then depends on its triangles alone): 18,432 triangles, so 576 partial boxes in
// workgroups of 32 (lavapipe's) take three blocks and a top level. Both backends build the same
// tree and find the same candidates, contacts and bounds.
TEST_F(SelfCollisionGpuTest, ScansAndBoxUnionsLongerThanADriversLoopLimitRunByLevels) {
    Scene s = clothScene(96, 1);
    s.cloths[0].grid->width = s.cloths[0].grid->height = 4.0f;
    PreparedCloth p = prepareScene(s);
    ASSERT_GT(p.triangles.size(), 32u * gpu::SELF_SCAN_BLOCK * 2u);
    std::vector<glm::vec4> x, y;
    foldedLayers(p, 2, 0.003f, x, y);
    x[x.size() / 2 + 7] += glm::vec4(3.0f, 3.0f, 3.0f, 0.0f);  // out of the cloth's box
    y[y.size() / 2 + 7] = x[x.size() / 2 + 7];
    expectSameDetection(p, x, y, 1u << 22);
    EXPECT_GT(contactsSeen_, 2u * 8192u);
    std::printf("folded 96^2 cloth: %zu contacts\n", contactsSeen_);
}

// A small cloth folded in six layers 2.5 mm apart: a vertex's list holds hundreds of candidates
// (a heap sort on the GPU, std::sort on the CPU: the same lists). Both backends give the same
// candidates, contacts and bounds.
TEST_F(SelfCollisionGpuTest, ListsOfHundredsOfCandidatesPerVertexAgree) {
    const PreparedCloth p = prepareScene(clothScene(12, 1));
    std::vector<glm::vec4> x, y;
    foldedLayers(p, 6, 0.0025f, x, y);
    expectSameDetection(p, x, y, 1u << 10);  // (grows: the overflow path too)
    std::printf("six layers: %zu contacts, %zu candidates in the longest list\n", contactsSeen_,
                mostList_);
    EXPECT_GT(mostList_, 200u);
}

namespace {

// Two cloths dropped crosswise onto a sphere on the ground: self-collision within each and
// between the two, colliders, phantoms.
Scene dropScene() {
    Scene s = clothScene(10, 2);
    for (std::size_t k = 0; k < s.cloths.size(); ++k) {
        s.cloths[k].transform.rotateDegrees = glm::vec3(-90.0f, 35.0f * float(k), 0.0f);
        s.cloths[k].transform.translate = glm::vec3(0.0f, 0.45f + 0.08f * float(k), 0.0f);
        s.cloths[k].material.bendCompliance = 10.0f;
    }
    ColliderDesc ball;
    ball.shape = ColliderShape::Sphere;
    ball.radius = 0.12f;
    ball.transform.translate = glm::vec3(0.0f, 0.12f, 0.0f);
    ColliderDesc ground;
    ground.shape = ColliderShape::Plane;
    s.colliders = {ball, ground};
    s.sim.substeps = 4;
    s.sim.iterations = 2;
    s.phantoms = {PhantomMode::Target, 6};
    return s;
}

}  // namespace

// The whole solver: the GPU's positions are the CPU reference's, bit for bit, frame after frame,
// with the same counts (contacts, the last detection's pairs, detections, clamps), through the
// layers' landing on each other; no two triangles pass through each other in any checked frame
// of the GPU's run; and each frame is one submission and one wait on the host, its commands
// recorded only around the tree's rebuilds. In both of the GPU's orders: vertex and Jacobi.
TEST_F(SelfCollisionGpuTest, TheSolverGivesTheCpusBits) {
    for (SelfCollisionSettings::Order order :
         {SelfCollisionSettings::Order::Vertex, SelfCollisionSettings::Order::Jacobi}) {
        SCOPED_TRACE(selfContactOrderName(order));
        Scene scene = dropScene();
        scene.sim.selfCollision->order = order;
        const PreparedCloth p = prepareScene(scene);
        ASSERT_GT(p.phantomGroups.size(), 0u);
        auto cpu = makeCpuSolver(p, 2);
        vk::GpuSolverOptions o;
        o.context = ctx_;
        o.selfContactCapacity = 1u << 18;  // no redo (AnOverflowGrowsTheBuffersAndRedoesTheFrame)
        vk::GpuSolver gpu(p, o);
        std::vector<glm::vec4> a, b;
        std::uint64_t most = 0, recordings = 0;
        for (int f = 1; f <= 45; ++f) {
            cpu->stepFrame();
            gpu.stepFrame();
            const vk::FrameCounters k = gpu.counters();
            recordings += k.recordings;
            EXPECT_EQ(k.submissions, 1u) << f;
            EXPECT_EQ(k.hostWaits, 1u) << f;
            EXPECT_EQ(k.redoneFrames, 0u) << f;
            const Solver::SelfCounts c = cpu->selfCounts(), g = gpu.selfCounts();
            EXPECT_EQ(g.contacts, c.contacts) << f;
            EXPECT_EQ(g.candidatePairs, c.candidatePairs) << f;
            EXPECT_EQ(g.primitivePairs, c.primitivePairs) << f;
            EXPECT_EQ(g.walkNodes, c.walkNodes) << f;
            EXPECT_EQ(g.candidates, c.candidates) << f;
            EXPECT_EQ(g.detections, c.detections) << f;
            EXPECT_EQ(g.clamped, c.clamped) << f;
            EXPECT_EQ(g.rebuilds, c.rebuilds) << f;
            most = std::max<std::uint64_t>(most, c.contacts);
            if (f % 5 != 0) continue;
            cpu->readPositions(a);
            gpu.readPositions(b);
            ASSERT_EQ(a.size(), b.size());
            ASSERT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec4))) << "frame " << f;
            EXPECT_EQ(fixtures::intersectingTrianglePairs(p.triangles, b).size(), 0u) << "frame " << f;
        }
        EXPECT_GT(most, 50u);
        EXPECT_EQ(gpu.selfGrowths(), 0u);
        // The frame's commands are recorded at the first frame and around the tree's rebuilds
        // (the rebuild's frame and the next), and submitted again in between.
        EXPECT_GE(recordings, 1u);
        EXPECT_LE(recordings, 1u + 2u * gpu.selfCounts().rebuilds);
        EXPECT_LT(recordings, 45u / 3u);
        EXPECT_LT(gpu.selfCounts().detections, 45u * 4u) << "a detection in every substep";
    }
}

namespace {

// Per job of a frame's self-collision dispatches, their workgroups in all (indirect ones from
// the sizes the state holds for them: the gated ones' planned sizes, the candidates' and the
// pool's now).
std::map<std::uint32_t, std::uint64_t> workgroupsPerJob(const vk::GpuSelfCollision& self) {
    const gpu::SelfState st = self.state();
    std::map<std::uint32_t, std::uint64_t> out;
    for (const vk::GpuSelfCollision::Dispatch& d : self.dispatchLog()) {
        glm::uvec4 g(d.groupsX, d.groupsY, 1, 0);
        if (d.indirect) {
            const VkDeviceSize gates = offsetof(gpu::SelfState, gate);
            if (d.offset >= gates && d.offset < gates + 16 * gpu::SELF_GATES)
                g = st.gateSizes[(d.offset - gates) / 16];
            else if (d.offset == offsetof(gpu::SelfState, longListGroups))
                g = st.longListGroups;
            else if (d.offset == offsetof(gpu::SelfState, placeGroups))  // the chunks taken
                g = gpu::selfGroups2D(st.poolChunks * gpu::SELF_POOL_CHUNK, 1);
            else
                g = st.candidateGroups;  // over the candidates (new or old ones)
        }
        out[d.job] += std::uint64_t(g.x) * g.y;
    }
    return out;
}

}  // namespace

// No self-collision stage runs on a fixed number of invocations while its work grows with the
// cloth: the same folded cloth at 8^2 and 32^2 (16 times the vertices and triangles), in
// workgroups of one invocation so that workgroups count invocations; every job of the small
// frame is in the large one, and its invocations in the frame grow at least 4 times, but for the
// jobs made to take one workgroup over what levels have reduced to one block (the scans' and
// unions' tops). (Jobs that only the large cloth needs, the levels of longer scans,
// come on top.)
TEST_F(SelfCollisionGpuTest, EveryDispatchsWorkgroupsGrowWithTheCloth) {
    std::map<std::uint32_t, std::uint64_t> jobs[2];
    int k = 0;
    for (std::uint32_t n : {8u, 32u}) {
        const PreparedCloth p = prepareScene(clothScene(n, 1));
        std::vector<glm::vec4> x, y;
        foldedLayers(p, 2, 0.003f, x, y);
        vk::OneShot once(*ctx_, "self-collision test");
        vk::Buffer positions = vk::deviceBuffer(*ctx_, 16 * x.size(), "positions");
        vk::Buffer predicted = vk::deviceBuffer(*ctx_, 16 * y.size(), "predicted");
        vk::Buffer triangles = vk::deviceBuffer(*ctx_, 12 * p.triangles.size(), "triangles");
        vk::upload(*ctx_, once, positions, x.data(), 16 * x.size());
        vk::upload(*ctx_, once, predicted, y.data(), 16 * y.size());
        vk::upload(*ctx_, once, triangles, p.triangles.data(), 12 * p.triangles.size());
        vk::GpuSelfCollision gpu(*ctx_, p, positions, predicted, triangles, 0, 1);
        for (int tries = 0;; ++tries) {
            gpu.beginFrame();
            once.run([&](VkCommandBuffer cb) {
                gpu.recordFrameStart(cb);
                gpu.recordStart(cb);
                gpu.recordCollide(cb, true);
                gpu.recordSolve(cb);
                gpu.recordClamp(cb);
            });
            if (!gpu.overflowed()) break;
            ASSERT_LT(tries, 8);
            gpu.grow();
            once.run([&](VkCommandBuffer cb) { gpu.recordRestore(cb); });
        }
        ASSERT_GT(gpu.state().candidates, 0u);
        jobs[k++] = workgroupsPerJob(gpu);
    }
    const std::set<std::uint32_t> once = {gpu::SELF_JOB_SCAN_TOP, gpu::SELF_JOB_MOTION_REDUCE,
                                          gpu::SELF_JOB_BOX_REDUCE};
    EXPECT_GT(jobs[0].size(), 20u);
    for (const auto& [job, groups] : jobs[0]) {
        ASSERT_TRUE(jobs[1].count(job)) << "job " << job;
        if (once.count(job)) continue;
        EXPECT_GE(jobs[1][job], 4 * groups)
            << "job " << job << ": " << groups << " then " << jobs[1][job] << " invocations";
    }
}

// Contact buffers far too small at first: the first frames with contacts overflow, the buffers
// grow and the frames run again, and five frames after the contacts' buffer first grew the run
// is where one with large buffers is, bit for bit.
TEST_F(SelfCollisionGpuTest, AnOverflowGrowsTheBuffersAndRedoesTheFrame) {
    const PreparedCloth p = prepareScene(dropScene());
    std::vector<glm::vec4> results[2];
    std::uint64_t growths[2];
    int frames = 40;  // the first run stops 5 frames after its first growth
    for (int run = 0; run < 2; ++run) {
        vk::GpuSolverOptions o;
        o.context = ctx_;
        o.selfContactCapacity = run == 0 ? 8u : (1u << 18);
        vk::GpuSolver gpu(p, o);
        for (int f = 0; f < frames; ++f) {
            const std::uint64_t grown = gpu.selfGrowths();
            gpu.stepFrame();
            // A redone frame counts its extra submissions and waits: the growth's transfer, the
            // restore, the frame again.
            const vk::FrameCounters k = gpu.counters();
            EXPECT_EQ(k.redoneFrames, gpu.selfGrowths() - grown);
            EXPECT_EQ(k.hostWaits, 1u + 3u * k.redoneFrames);
            EXPECT_EQ(k.submissions, k.hostWaits);
            if (run == 0 && gpu.selfContactCapacity() > 8u && frames == 40) frames = f + 6;
        }
        gpu.readPositions(results[run]);
        growths[run] = gpu.selfGrowths();
        if (run == 0) {
            EXPECT_GT(gpu.selfContactCapacity(), 8u);
        }
    }
    EXPECT_GT(growths[0], 0u);
    EXPECT_EQ(growths[1], 0u);
    ASSERT_EQ(results[0].size(), results[1].size());
    EXPECT_EQ(0, std::memcmp(results[0].data(), results[1].data(),
                             results[0].size() * sizeof(glm::vec4)));
}

// The sequential (Gauss-Seidel) order is the CPU reference's alone: the GPU refuses it with a
// message naming the key and the orders it solves, rather than solving another silently.
TEST_F(SelfCollisionGpuTest, TheSequentialOrderIsRefusedWithAReason) {
    Scene s = dropScene();
    s.sim.selfCollision->order = SelfCollisionSettings::Order::Sequential;
    const PreparedCloth p = prepareScene(s);
    vk::GpuSolverOptions o;
    o.context = ctx_;
    try {
        vk::GpuSolver gpu(p, o);
        ADD_FAILURE() << "the GPU solver took the sequential order";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("self_collision.order \"sequential\""),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("\"vertex\""), std::string::npos) << e.what();
    }
}
