// The viewer's simulation control: live settings and backend switches keep the cloth's state.
#include <sstream>

#include <gtest/gtest.h>

#include <imgui.h>

#include "app/hud.h"
#include "app/phantom_tuning.h"
#include "app/viewer_sim.h"
#include "../common/run_program.h"
#include "cpu/backend.h"
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
    c.bendRigidity = 2e-5f;
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
    // The iteration scheme too (the HUD's combo and sliders), and a bad value is refused.
    c.iteration.scheme = IterationScheme::Chebyshev;
    c.iteration.rho = 0.8f;
    sim.apply(c);
    EXPECT_EQ(sim.prepared().sim.iteration.scheme, IterationScheme::Chebyshev);
    EXPECT_EQ(sim.prepared().sim.iteration.rho, 0.8f);
    EXPECT_EQ(sim.controls(), c);
    sim.step();
    c.iteration.rho = 1.0f;
    EXPECT_THROW(sim.apply(c), Error);
}

// The HUD's model combo: a switch keeps the cloth's state and runs the new model; a model the
// scene has something it lacks for is refused, and the run goes on as it was.
TEST_F(RenderGpuTest, ModelSwitchKeepsStateOrIsRefusedLeavingTheRunAsItWas) {
    std::ostringstream notices;
    Options o;
    o.scene = "hanging";
    o.backend = "cpu";
    o.threads = 2;
    ViewerSim sim(o, ctx_, notices);
    for (int i = 0; i < 5; ++i) sim.step();
    std::vector<glm::vec4> before, after, normals;
    sim.read(before, normals);
    SimControls c = sim.controls();
    EXPECT_EQ(c.model, ClothModel::Xpbd);
    c.model = ClothModel::Projective;
    c.stretchCompliance = 1e-4f;
    sim.apply(c);
    EXPECT_EQ(sim.prepared().sim.model, ClothModel::Projective);
    EXPECT_EQ(sim.prepared().pdTerms.triangles.size(), 2048u);
    sim.read(after, normals);
    for (std::uint32_t i = 0; i < sim.prepared().originalVertexCount; ++i)
        ASSERT_EQ(glm::vec3(after[i]), glm::vec3(before[i])) << "vertex " << i;
    sim.step();
    EXPECT_EQ(sim.frame(), 6);
    // This scene has self-collision, which FEM does not run: refused, the solver goes on.
    sim.loadScene(std::string(CLOTH_TEST_SOURCE_DIR) + "/assets/scenes/self_collision.json");
    EXPECT_EQ(sim.prepared().sim.model, ClothModel::Xpbd);
    c = sim.controls();
    c.model = ClothModel::Fem;
    try {
        sim.apply(c);
        ADD_FAILURE() << "fem with self-collision was not refused";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(
                      "model fem on the CPU reference: self-collision is not built for it"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(sim.controls().model, ClothModel::Xpbd);
    EXPECT_EQ(sim.prepared().sim.model, ClothModel::Xpbd);
    sim.step();  // the solver is still there
}

// The HUD's convergence plots: with metrics on, each step keeps that frame's metrics (the same
// as measuring the solver afterwards, on either backend, bit for bit between them), at most
// as many as asked; reset clears them and switching off stops them.
TEST_F(RenderGpuTest, MetricsAreKeptPerFrameWhileSwitchedOn) {
    std::ostringstream notices;
    ViewerSim cpu = makeSim(ctx_, notices);
    ViewerSim gpu = makeSim(ctx_, notices);
    gpu.setBackend("gpu");
    for (ViewerSim* sim : {&cpu, &gpu}) {
        sim->step();  // off: nothing kept
        EXPECT_TRUE(sim->metrics().empty());
        sim->setMetrics(true);
        for (int i = 0; i < 5; ++i) sim->step();
        ASSERT_EQ(sim->metrics().size(), 5u);
        const FrameMetrics now = measureFrame(sim->prepared(), sim->solver());
        EXPECT_EQ(sim->metrics().back().residualNorm, now.residualNorm);
        EXPECT_EQ(sim->metrics().back().kineticEnergy, now.kineticEnergy);
        EXPECT_GT(now.kineticEnergy, 0.0);
        EXPECT_GT(now.residualMax, 0.0);
    }
    for (std::size_t k = 0; k < 5; ++k) {  // the same state on both backends, the same metrics
        EXPECT_EQ(cpu.metrics()[k].residualNorm, gpu.metrics()[k].residualNorm) << k;
        EXPECT_EQ(cpu.metrics()[k].maxStretch, gpu.metrics()[k].maxStretch) << k;
        EXPECT_EQ(*cpu.metrics()[k].elasticEnergy, *gpu.metrics()[k].elasticEnergy) << k;
    }
    cpu.reset();
    EXPECT_TRUE(cpu.metrics().empty());
    cpu.step();
    EXPECT_EQ(cpu.metrics().size(), 1u);
    cpu.setMetrics(true, 3);  // (the HUD keeps kMetricsFrames)
    for (int i = 0; i < 4; ++i) cpu.step();
    ASSERT_EQ(cpu.metrics().size(), 3u);  // the oldest dropped
    EXPECT_EQ(cpu.metrics().back().kineticEnergy,
              measureFrame(cpu.prepared(), cpu.solver()).kineticEnergy);
    cpu.setMetrics(false);
    cpu.step();
    EXPECT_TRUE(cpu.metrics().empty());
}

// The HUD draws the plots (Dear ImGui without a window: a context, its fonts and a few frames):
// with metrics on, the convergence section opens and its plots add to what is drawn.
TEST_F(RenderGpuTest, TheHudPlotsTheMetrics) {
    std::ostringstream notices;
    ViewerSim sim = makeSim(ctx_, notices);
    sim.setMetrics(true);
    for (int i = 0; i < 3; ++i) sim.step();
    auto hudVertices = [&] {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(1280, 4000);  // tall: nothing clipped
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        HudInput in;
        in.sim = &sim;
        HudState state;
        render::ShadingSettings shading;
        for (int frame = 0; frame < 3; ++frame) {  // (an auto-sized window shows from the 2nd)
            ImGui::NewFrame();
            const HudActions a = drawHud(in, state, shading);
            EXPECT_FALSE(a.metrics.has_value());  // nothing clicked
            ImGui::Render();
        }
        const int vertices = ImGui::GetDrawData()->TotalVtxCount;
        ImGui::DestroyContext();
        return vertices;
    };
    const int with = hudVertices();
    sim.setMetrics(false);
    const int without = hudVertices();
    EXPECT_GT(without, 0);
    EXPECT_GT(with, without + 500);  // five plots of three frames, their labels and the checkbox
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
    const std::string tuning = (test::scratchDir("cli", "viewer_auto") / "tuning.json").string();
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
