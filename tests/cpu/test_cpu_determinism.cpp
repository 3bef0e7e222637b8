// The CPU reference gives bit-identical results for any thread count (ENGINEERING.md habit 8).
#include <cstring>

#include <gtest/gtest.h>

#include "cpu/cpu_solver.h"
#include "prep/prepare.h"
#include "scenes.h"

using namespace cloth;

namespace {

std::uint64_t fnv1a(const std::vector<glm::vec4>& v) {
    std::uint64_t h = 1469598103934665603ull;
    const auto* bytes = reinterpret_cast<const unsigned char*>(v.data());
    for (size_t i = 0; i < v.size() * sizeof(glm::vec4); ++i) {
        h ^= bytes[i];
        h *= 1099511628211ull;
    }
    return h;
}

// Everything at once: two cloths (one with a circling attachment and both kinds of damping),
// tethers, stretch and bending, several iterations.
Scene everythingScene() {
    Scene s = test::hangingScene(12);
    s.sim.iterations = 3;
    s.sim.substeps = 4;
    ClothDesc swirl = s.cloths[0];
    swirl.name = "swirl";
    swirl.pins = {};
    swirl.transform.translate.x = 2.0f;
    AttachmentDesc a;
    a.vertices.regions = {"top_corners"};
    a.motion.type = MotionType::Circle;
    a.motion.radius = 0.2f;
    a.motion.period = 1.0f;
    swirl.attachments.push_back(a);
    swirl.material.linearDamping = 0.2f;
    swirl.material.rigidDamping = 0.3f;
    s.cloths.push_back(swirl);
    return s;
}

std::uint64_t hashAfter(const PreparedCloth& p, int threads, int frames) {
    auto solver = makeCpuSolver(p, threads);
    for (int i = 0; i < frames; ++i) solver->stepFrame();
    std::vector<glm::vec4> pos, vel;
    solver->readPositions(pos);
    solver->readVelocities(vel);
    pos.insert(pos.end(), vel.begin(), vel.end());
    return fnv1a(pos);
}

}  // namespace

TEST(CpuDeterminism, SameHashForOneTwoAndFourThreads) {
    const PreparedCloth p = prepareScene(everythingScene(), {});
    ASSERT_GT(p.attachments.size(), 0u);
    ASSERT_GT(p.tethers.size(), 0u);
    const std::uint64_t h1 = hashAfter(p, 1, 100);
    EXPECT_EQ(hashAfter(p, 2, 100), h1);
    EXPECT_EQ(hashAfter(p, 4, 100), h1);
    EXPECT_EQ(hashAfter(p, 3, 100), h1);
    // The run moved something: the hash differs from the initial state's.
    EXPECT_NE(hashAfter(p, 1, 0), h1);
}
