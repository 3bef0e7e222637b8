// The viewer's simulation control: live settings and backend switches keep the cloth's state.
#include <sstream>

#include <gtest/gtest.h>

#include "app/viewer_sim.h"
#include "render_test.h"

namespace cloth {
namespace {

using test::RenderGpuTest;

ViewerSim makeSim(const std::shared_ptr<vk::Context>& ctx, std::ostream& notices) {
    Options o;
    o.scene = "swirl";
    o.backend = "cpu";
    o.threads = 2;
    return ViewerSim(o, ctx, notices);
}

TEST_F(RenderGpuTest, SettingsChangeKeepsStateAndAppliesSettings) {
    std::ostringstream notices;
    ViewerSim sim = makeSim(ctx_, notices);
    for (int i = 0; i < 20; ++i) sim.step();
    std::vector<glm::vec4> before, after, normals;
    sim.read(before, normals);
    SimControls c = sim.controls();
    c.substeps = 13;
    c.bendCompliance = 0.5f;
    c.gravity = {0.0f, -5.0f, 0.0f};
    const int generation = sim.generation();
    sim.apply(c);
    EXPECT_GT(sim.generation(), generation);
    EXPECT_EQ(sim.prepared().sim.substeps, 13);
    EXPECT_EQ(sim.controls(), c);
    EXPECT_EQ(sim.frame(), 20);
    sim.read(after, normals);
    for (std::uint32_t i = 0; i < sim.prepared().originalVertexCount; ++i)
        ASSERT_EQ(glm::vec3(after[i]), glm::vec3(before[i])) << "vertex " << i;
}

TEST_F(RenderGpuTest, BackendSwitchCarriesTheStateExactly) {
    std::ostringstream notices;
    ViewerSim sim = makeSim(ctx_, notices);
    for (int i = 0; i < 10; ++i) sim.step();
    std::vector<glm::vec4> cpuPos, cpuVel, gpuPos, gpuVel, normals;
    sim.solver().readPositions(cpuPos);
    sim.solver().readVelocities(cpuVel);
    sim.switchBackend();
    EXPECT_EQ(sim.backend(), "gpu");
    ASSERT_TRUE(sim.gpuBuffers().has_value());
    sim.solver().readPositions(gpuPos);
    sim.solver().readVelocities(gpuVel);
    ASSERT_EQ(gpuPos.size(), cpuPos.size());
    for (std::size_t i = 0; i < cpuPos.size(); ++i) {
        ASSERT_EQ(gpuPos[i], cpuPos[i]) << "vertex " << i;
        ASSERT_EQ(glm::vec3(gpuVel[i]), glm::vec3(cpuVel[i])) << "vertex " << i;
    }
    sim.step();  // and it runs on
    sim.switchBackend();
    EXPECT_EQ(sim.backend(), "cpu");
    EXPECT_FALSE(sim.gpuBuffers().has_value());
}

}  // namespace
}  // namespace cloth
