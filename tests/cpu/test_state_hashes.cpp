// The CPU reference reproduces the pinned state hashes of every built-in scene, and the other
// models theirs (tests/common/state_hashes.h), on 1 and 2 threads: a restructuring that claims "no change in behaviour" is
// held to the bit.
#include <cstdio>

#include <gtest/gtest.h>

#include "../common/state_hashes.h"
#include "cpu/backend.h"

using namespace cloth;

namespace {

std::uint64_t cpuHash(const PreparedCloth& p, int threads, int frames = test::kPinnedFrames) {
    auto solver = makeCpuSolver(p, threads, std::nullopt, 0);
    for (int f = 0; f < frames; ++f) solver->stepFrame();
    std::vector<glm::vec4> pos, vel;
    solver->readPositions(pos);
    solver->readVelocities(vel);
    return test::fnv1aState(pos, vel);
}

}  // namespace

TEST(StateHashes, CpuReferenceMatchesThePinnedHashes) {
    for (const test::PinnedState& pin : test::kPinnedStates) {
        const PreparedCloth p =
            prepareScene(test::pinnedScene(pin), test::pinnedOptions(pin.phantoms));
        if (pin.phantoms > 0) {
            ASSERT_GT(p.phantomGroups.size(), 0u) << pin.scene;
        }
        const std::uint64_t h1 = cpuHash(p, 1);
        std::printf("{\"%s\", %u, %u, 0x%016llxull},\n", pin.scene, pin.phantoms, pin.substeps,
                    static_cast<unsigned long long>(h1));
        EXPECT_EQ(h1, pin.hash) << pin.scene << " phantoms " << pin.phantoms;
        EXPECT_EQ(cpuHash(p, 2), h1) << pin.scene << " on 2 threads";
    }
}

TEST(StateHashes, CpuModelsMatchTheirPinnedHashes) {
    for (const test::PinnedModelState& pin : test::kPinnedModelStates) {
        const PreparedCloth p = prepareScene(test::pinnedModelScene(pin));
        const std::uint64_t h1 = cpuHash(p, 1, test::kPinnedModelFrames);
        std::printf("{\"%s\", \"%s\", 0x%016llxull},\n", pin.scene, pin.variant,
                    static_cast<unsigned long long>(h1));
        EXPECT_EQ(h1, pin.hash) << pin.scene << " " << pin.variant;
        EXPECT_EQ(cpuHash(p, 2, test::kPinnedModelFrames), h1)
            << pin.scene << " " << pin.variant << " on 2 threads";
    }
}
