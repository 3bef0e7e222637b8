// The Vulkan solver (with the options it picks for this device) and the serial reference of
// the documented stages reproduce the pinned state hashes of the CPU reference
// (tests/common/state_hashes.h): the three are bit for bit the same on every built-in scene. The
// other models' Vulkan solvers (mass_spring, pd's Jacobi and Chebyshev steps) reproduce theirs.
#include <gtest/gtest.h>

#include "../common/state_hashes.h"
#include "gpu_test.h"
#include "reference.h"
#include "vk/backend.h"
#include "vk/gpu_solver.h"

using namespace cloth;

class StateHashTest : public test::GpuTest {};

TEST_F(StateHashTest, GpuSolverAndSerialReferenceMatchThePinnedHashes) {
    for (const test::PinnedState& pin : test::kPinnedStates) {
        const PreparedCloth p =
            prepareScene(test::pinnedScene(pin), test::pinnedOptions(pin.phantoms));
        vk::GpuSolverOptions o;
        o.context = ctx_;
        vk::GpuSolver gpu(p, o);
        test::SerialReference ref(p);
        for (int f = 0; f < test::kPinnedFrames; ++f) {
            gpu.stepFrame();
            ref.stepFrame();
        }
        std::vector<glm::vec4> pos, vel;
        gpu.readPositions(pos);
        gpu.readVelocities(vel);
        EXPECT_EQ(test::fnv1aState(pos, vel), pin.hash)
            << pin.scene << " phantoms " << pin.phantoms << " on " << gpu.deviceName();
        EXPECT_EQ(test::fnv1aState(ref.positions(), ref.velocities()), pin.hash)
            << pin.scene << " phantoms " << pin.phantoms << " (serial reference)";
    }
}

TEST_F(StateHashTest, GpuModelsMatchTheCpuModelsPinnedHashes) {
    int checked = 0;
    for (const test::PinnedModelState& pin : test::kPinnedModelStates) {
        const std::string variant = pin.variant;
        if (variant == "fem" || variant == "pd gs") continue;  // CPU only (core/model_support.h)
        const PreparedCloth p = prepareScene(test::pinnedModelScene(pin));
        vk::GpuSolverOptions o;
        o.context = ctx_;
        auto gpu = vk::makeGpuSolver(p, o);
        for (int f = 0; f < test::kPinnedModelFrames; ++f) gpu->stepFrame();
        std::vector<glm::vec4> pos, vel;
        gpu->readPositions(pos);
        gpu->readVelocities(vel);
        EXPECT_EQ(test::fnv1aState(pos, vel), pin.hash)
            << pin.scene << " " << pin.variant << " on " << gpu->deviceName();
        ++checked;
    }
    EXPECT_EQ(checked, 8);
}
