// The viewer's simulation control: live settings and backend switches keep the cloth's state.
#include <sstream>

#include <gtest/gtest.h>

#include "app/phantom_tuning.h"
#include "app/viewer_sim.h"
#include "cli_run.h"
#include "cpu/cpu_solver.h"
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

// With --phantoms auto each backend has its own tuned target: B prepares the scene again with
// the other backend's, and the original vertices keep their positions and velocities.
TEST_F(RenderGpuTest, BackendSwitchWithAutoPhantomsTakesTheNewBackendsTarget) {
    const std::string tuning = (test::scratchDir("viewer_auto") / "tuning.json").string();
    auto entry = [](const std::string& backend, const std::string& device, std::uint32_t best) {
        TuningDevice d;
        d.backend = backend;
        d.device = device;
        d.sizes.push_back({1089, 32, best, {}});  // the swirl scene's 33 x 33 vertices
        return d;
    };
    writeTuningFile(tuning, TuningFile{{entry("cpu", cpuModelName(), 0),
                                        entry("gpu", ctx_->info().name, 6)}});
    Options o;
    o.scene = "swirl";
    o.backend = "cpu";
    o.threads = 2;
    o.phantoms = PhantomSetting{PhantomMode::Auto, 0};
    o.tuningFile = tuning;
    std::ostringstream notices;
    ViewerSim sim(o, ctx_, notices);
    ASSERT_EQ(sim.prepared().originalVertexCount, 1089u);
    EXPECT_EQ(sim.prepared().stats.phantomVertices, 0u);
    EXPECT_GT(sim.prepared().colorCount, 6u);

    auto originals = [&](std::vector<glm::vec4>& pos, std::vector<glm::vec4>& vel) {
        sim.solver().readPositions(pos);
        sim.solver().readVelocities(vel);
        pos.resize(sim.prepared().originalVertexCount);
        vel.resize(sim.prepared().originalVertexCount);
    };
    auto expectCarried = [](const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b,
                            const char* what) {
        ASSERT_EQ(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            ASSERT_EQ(glm::vec3(a[i]), glm::vec3(b[i])) << what << " of vertex " << i;
    };
    for (int i = 0; i < 10; ++i) sim.step();
    std::vector<glm::vec4> pos0, vel0, pos1, vel1;
    originals(pos0, vel0);
    const int generation = sim.generation();
    sim.switchBackend();
    EXPECT_EQ(sim.backend(), "gpu");
    EXPECT_GT(sim.generation(), generation);
    EXPECT_EQ(sim.frame(), 10);
    EXPECT_LE(sim.prepared().colorCount, 6u);
    EXPECT_GT(sim.prepared().stats.phantomVertices, 0u);
    originals(pos1, vel1);
    expectCarried(pos0, pos1, "position");
    expectCarried(vel0, vel1, "velocity");

    for (int i = 0; i < 5; ++i) sim.step();  // runs on with phantoms, then back to none
    originals(pos0, vel0);
    sim.switchBackend();
    EXPECT_EQ(sim.backend(), "cpu");
    EXPECT_EQ(sim.prepared().stats.phantomVertices, 0u);
    originals(pos1, vel1);
    expectCarried(pos0, pos1, "position");
    expectCarried(vel0, vel1, "velocity");
}

}  // namespace
}  // namespace cloth
