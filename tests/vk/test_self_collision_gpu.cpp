// Self-collision on the GPU (src/vk/self_collision_gpu.h) against the CPU reference
// (src/cpu/self_collision.h), which it must match bit for bit: the linear BVH built from the
// same positions is the CPU's node for node (codes, order, children, bounds, parents, range
// ends), and the contacts found are the CPU's in the same order, on folded and jittered cloths,
// two cloths, and boxes with equal codes; the whole solver gives the CPU's positions; buffers
// that overflow grow and the frame is redone, with the result of large buffers.
#include <cstdio>
#include <cstring>
#include <random>

#include "fixtures/triangle_intersections.h"
#include "gpu_test.h"
#include "cpu/cpu_solver.h"
#include "cpu/self_collision.h"
#include "cpu/thread_pool.h"
#include "kernels/self_jobs.h"
#include "prep/prepare.h"
#include "vk/gpu_solver.h"
#include "vk/self_collision_gpu.h"

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
    std::uint32_t mostColors_ = 0;  // colored order: the most colours and rounds compared
    std::uint64_t mostRounds_ = 0;
    // Builds both trees from start x and predicted y and compares them.
    void expectSameTree(const PreparedCloth& p, const std::vector<glm::vec4>& x,
                        const std::vector<glm::vec4>& y, std::uint32_t capacity = 1u << 16,
                        std::uint32_t pairCapacity = 0, std::uint32_t rounds = 0) {
        SelfCollision cpu(p);
        ThreadPool pool(2);
        pool.run([&](int member, int size) {
            cpu.detect(pool, member, size, x.data(), y.data(), [&](int) { pool.barrier(); });
        });
        const Lbvh& want = cpu.tree();

        vk::OneShot once(*ctx_, "self-collision test");
        vk::Buffer positions = vk::deviceBuffer(*ctx_, 16 * x.size(), "positions");
        vk::Buffer predicted = vk::deviceBuffer(*ctx_, 16 * y.size(), "predicted");
        vk::Buffer triangles = vk::deviceBuffer(*ctx_, 12 * p.triangles.size(), "triangles");
        vk::upload(*ctx_, once, positions, x.data(), 16 * x.size());
        vk::upload(*ctx_, once, predicted, y.data(), 16 * y.size());
        vk::upload(*ctx_, once, triangles, p.triangles.data(), 12 * p.triangles.size());
        vk::GpuSelfCollision gpu(*ctx_, p, positions, predicted, triangles, capacity,
                                 pairCapacity);
        if (rounds > 0) gpu.recordRounds(rounds);
        gpu.beginFrame();
        for (int tries = 0;; ++tries) {  // (as the solver: more colours or rounds, once more)
            once.run([&](VkCommandBuffer cb) {
                gpu.recordStart(cb);
                gpu.recordDetect(cb);
            });
            if (!gpu.overflowed()) break;
            ASSERT_LE(gpu.contactCount(), gpu.capacity());
            ASSERT_LT(tries, 8);
            gpu.grow();
        }
        const vk::GpuSelfCollision::Tree got = gpu.readTree(once);
        // The same contacts in the same order, bit for bit.
        const std::vector<gpu::SelfContact> contacts = gpu.readContacts(once);
        EXPECT_EQ(gpu.truncated(), 0u);
        EXPECT_EQ(gpu.candidatePairs(), cpu.counts().candidatePairs);
        EXPECT_EQ(gpu.primitivePairs(), cpu.counts().primitivePairs);
        ASSERT_EQ(contacts.size(), cpu.contacts().size());
        EXPECT_LE(gpu.contactCount(), gpu.capacity());  // (overflowed() also counts colours)
        for (std::size_t i = 0; i < contacts.size(); ++i)
            ASSERT_EQ(0, std::memcmp(&contacts[i], &cpu.contacts()[i], sizeof contacts[i]))
                << "contact " << i << " of " << contacts.size();
        if (p.sim.selfCollision->order == SelfCollisionSettings::Order::Colored) {
            // The same colours (the GPU's rounds, the CPU's greedy pass in priority order), the
            // same contacts in each colour: in any order within one on the GPU (its places are
            // taken by atomics; the contacts of a colour share no vertex, so any order gives
            // the same bits).
            vk::GpuSelfCollision::Colors colors = gpu.readColors(once);
            EXPECT_EQ(colors.colorOf, cpu.colors());
            EXPECT_EQ(colors.offsets, cpu.colorOffsets());
            if (colors.offsets == cpu.colorOffsets())
                for (std::size_t k = 0; k + 1 < colors.offsets.size(); ++k)
                    std::sort(colors.order.begin() + colors.offsets[k],
                              colors.order.begin() + colors.offsets[k + 1]);
            EXPECT_EQ(colors.order, cpu.colorOrder());
            std::uint32_t most = 0;
            for (std::uint32_t c : colors.colorOf) most = std::max(most, c + 1);
            mostColors_ = std::max(mostColors_, most);
            mostRounds_ = std::max<std::uint64_t>(mostRounds_, cpu.counts().colorRounds);
        }
        const SelfCollisionCounts counts = cpu.counts();
        EXPECT_EQ(gpu.candidatePairs(), counts.candidatePairs);
        EXPECT_EQ(gpu.primitivePairs(), counts.primitivePairs);
        contactsSeen_ += contacts.size();

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
        expectSameTree(p, x, y);
        // Flat and still: many equal codes (the index breaks the ties).
        expectSameTree(p, p.positions, p.positions);
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

// No invocation loops more than a few hundred times (llvmpipe ends every loop of an invocation
// silently after 65535 iterations in all): the prefix sums and the union of the partial boxes
// run by workgroups over levels of SELF_SCAN_BLOCK (256) items (shaders/lib/block_scan.glsl). A
// 96^2 cloth 4 m wide (edges of 42 mm) folded in two layers 3 mm apart, with one vertex moved
// 3 m out (the scene's box then depends on its triangles alone): 18,432 triangles, so 576
// partial boxes in workgroups of 32 (lavapipe's) take three blocks and a top level; 325,000
// close pairs take 1,271 blocks, whose sums take five, then the top; 57,000 contacts spread
// over them (more than the 2 x 8,192 of the one-invocation colouring this replaced). Both
// backends build the same tree and find the same pairs, contacts and colours.
TEST_F(SelfCollisionGpuTest, ScansAndBoxUnionsLongerThanADriversLoopLimitRunByLevels) {
    Scene s = clothScene(96, 1);
    s.cloths[0].grid->width = s.cloths[0].grid->height = 4.0f;
    PreparedCloth p = prepareScene(s);
    ASSERT_GT(p.triangles.size(), 32u * gpu::SELF_SCAN_BLOCK * 2u);
    std::vector<glm::vec4> x, y;
    foldedLayers(p, 2, 0.003f, x, y);
    x[x.size() / 2 + 7] += glm::vec4(3.0f, 3.0f, 3.0f, 0.0f);  // out of the cloth's box
    y[y.size() / 2 + 7] = x[x.size() / 2 + 7];
    expectSameTree(p, x, y, 1u << 17, 1u << 21, 128);  // (measured: 99 rounds, one frame)
    SelfCollision cpu(p);
    ThreadPool pool(2);
    pool.run([&](int member, int size) {
        cpu.detect(pool, member, size, x.data(), y.data(), [&](int) { pool.barrier(); });
    });
    EXPECT_GT(cpu.counts().candidatePairs,
              std::uint64_t(gpu::SELF_SCAN_BLOCK) * gpu::SELF_SCAN_BLOCK * 4u);
    EXPECT_GT(cpu.contacts().size(), 2u * 8192u);
    std::printf("folded 96^2 cloth: %llu close pairs, %zu contacts, %llu rounds\n",
                static_cast<unsigned long long>(cpu.counts().candidatePairs),
                cpu.contacts().size(), static_cast<unsigned long long>(cpu.counts().colorRounds));
}

// A small cloth folded in six layers 2.5 mm apart: every vertex is in well over a hundred
// contacts, so most contacts find all SELF_COLORS first-fit colours taken and take the overflow
// colour of their round. Both backends give the same contacts and colours.
TEST_F(SelfCollisionGpuTest, ContactsPastTheFirstFitColoursTakeTheOverflowColourOfTheirRound) {
    const PreparedCloth p = prepareScene(clothScene(12, 1));
    std::vector<glm::vec4> x, y;
    foldedLayers(p, 6, 0.0025f, x, y);
    expectSameTree(p, x, y, 1u << 13, 1u << 16, 384);  // (measured: 371 rounds, one frame)
    std::printf("six layers: %zu contacts, %u colours, %llu rounds\n", contactsSeen_,
                mostColors_, static_cast<unsigned long long>(mostRounds_));
    EXPECT_GT(mostColors_, gpu::SELF_COLORS + 8u);  // overflow colours of several rounds compared
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
// with the same contact counts, through the layers' landing on each other; and no two triangles
// pass through each other in any checked frame of the GPU's run.
// In both of the GPU's orders: Jacobi, and Gauss-Seidel by colours (whose passes start out
// recording 8 colours' dispatches and redo frames that need more).
TEST_F(SelfCollisionGpuTest, TheSolverGivesTheCpusBits) {
    for (SelfCollisionSettings::Order order :
         {SelfCollisionSettings::Order::Jacobi, SelfCollisionSettings::Order::Colored}) {
        SCOPED_TRACE(selfContactOrderName(order));
        Scene scene = dropScene();
        scene.sim.selfCollision->order = order;
        const PreparedCloth p = prepareScene(scene);
        ASSERT_GT(p.phantomGroups.size(), 0u);
        auto cpu = makeCpuSolver(p, 2);
        vk::GpuSolverOptions o;
        o.context = ctx_;
        vk::GpuSolver gpu(p, o);
        std::vector<glm::vec4> a, b;
        std::uint64_t most = 0;
        for (int f = 1; f <= 45; ++f) {
            cpu->stepFrame();
            gpu.stepFrame();
            const Solver::SelfCounts c = cpu->selfCounts(), g = gpu.selfCounts();
            EXPECT_EQ(g.contacts, c.contacts) << f;
            EXPECT_EQ(g.candidatePairs, c.candidatePairs) << f;
            EXPECT_EQ(g.primitivePairs, c.primitivePairs) << f;
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
        // The colours recorded grew from 8 (and frames were redone): the bits above include
        // those redos.
        if (order == SelfCollisionSettings::Order::Colored) {
            EXPECT_GT(gpu.selfColorsRecorded(), 8u);
        }
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
        o.selfContactCapacity = run == 0 ? 8u : (1u << 16);
        vk::GpuSolver gpu(p, o);
        for (int f = 0; f < frames; ++f) {
            gpu.stepFrame();
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
        EXPECT_NE(std::string(e.what()).find("\"colored\""), std::string::npos) << e.what();
    }
}

// Bounded detection runs on the CPU reference alone so far: the GPU refuses it by name.
TEST_F(SelfCollisionGpuTest, BoundedDetectionIsRefusedWithAReason) {
    Scene s = dropScene();
    s.sim.selfCollision->detection = SelfCollisionSettings::Detection::Bounded;
    const PreparedCloth p = prepareScene(s);
    vk::GpuSolverOptions o;
    o.context = ctx_;
    try {
        vk::GpuSolver gpu(p, o);
        ADD_FAILURE() << "the GPU solver took bounded detection";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("self_collision.detection \"bounded\""),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("\"every_substep\""), std::string::npos)
            << e.what();
    }
}
