// The CPU reference reproduces the pinned state hashes of every built-in scene (tests/common/
// state_hashes.h) on 1 and 2 threads: a restructuring that claims "no change in behaviour" is
// held to the bit.
#include <cstdio>

#include <gtest/gtest.h>

#include "../common/state_hashes.h"
#include "cpu/backend.h"

using namespace cloth;

namespace {

std::uint64_t cpuHash(const PreparedCloth& p, int threads) {
    auto solver = makeCpuSolver(p, threads, std::nullopt, 0);
    for (int f = 0; f < test::kPinnedFrames; ++f) solver->stepFrame();
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
