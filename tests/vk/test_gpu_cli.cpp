// clothsim's GPU flags end to end: --backend gpu|auto, --device, --list-devices, --validate,
// the stats JSON, and bad input (an unknown device, a scene too large for the device); and
// clothbench's GPU records.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../common/run_program.h"
#include "vk/context.h"

using cloth::test::runProgram;
using cloth::test::sourceDir;
namespace fs = std::filesystem;

namespace {

// False (with the test skipped, or failed when CI is set) where no Vulkan device exists.
bool haveDevice() {
    auto why = cloth::vk::noVulkanReason();
    if (!why) return true;
    if (std::getenv("CI")) ADD_FAILURE() << "no Vulkan device and CI is set: " << *why;
    return false;
}

#define REQUIRE_VULKAN_DEVICE()                                             \
    if (!haveDevice()) {                                                    \
        if (!std::getenv("CI")) GTEST_SKIP() << "no Vulkan device present"; \
        return;                                                             \
    }

fs::path scratch(const std::string& name) {
    return cloth::test::scratchDir("gpu_cli", name);
}

}  // namespace

TEST(GpuCli, ListDevicesNamesEveryDevice) {
    REQUIRE_VULKAN_DEVICE();
    const auto r = runProgram("clothsim", "--list-devices");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    for (const auto& d : cloth::vk::listDevices())
        EXPECT_NE(r.output.find(std::to_string(d.index) + ": " + d.name), std::string::npos)
            << r.output;
}

TEST(GpuCli, GpuBackendRunsWithValidationAndReportsTheDevice) {
    REQUIRE_VULKAN_DEVICE();
    const fs::path stats = scratch("stats") / "stats.json";
    const auto r = runProgram("clothsim",
                              "--headless --backend gpu --validate --device 0 "
                              "--scene swirl --frames 5 --stats " +
                                  stats.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(r.output.find("validation"), std::string::npos) << r.output;
    std::ifstream in(stats);
    const nlohmann::json j = nlohmann::json::parse(in);
    EXPECT_EQ(j["backend"], "gpu");
    EXPECT_EQ(j["device"], cloth::vk::listDevices().at(0).name);
    EXPECT_EQ(j["frames"], 5);
    EXPECT_GT(j["ms_per_frame"]["mean"].get<double>(), 0.0);
    // The frames' command buffers: recorded for the first frame and again when the stage
    // timestamps come or go, the other frames submitting those again (the swirl's clock is in
    // a buffer); none redone.
    ASSERT_TRUE(j.contains("gpu")) << j.dump();
    EXPECT_GE(j["gpu"]["frames_recorded"].get<double>(), 1.0);
    EXPECT_LT(j["gpu"]["frames_recorded"].get<double>(), 5.0);
    EXPECT_EQ(j["gpu"]["frames_redone"].get<double>(), 0.0);
}

// VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation, as the Vulkan documentation suggests, with
// --validate: the loader's notice about the variable is shown, not counted, and a clean run
// exits 0. (A real validation message still counts: GpuTest.LoaderNotice... in test_context.)
TEST(GpuCli, ValidateWithVkInstanceLayersSetPassesACleanRun) {
    REQUIRE_VULKAN_DEVICE();
    const char* before = std::getenv("VK_INSTANCE_LAYERS");
    const std::string saved = before ? before : "";
    ::setenv("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation", 1);
    const auto r = runProgram("clothsim", "--headless --backend gpu --validate --device 0 "
                                          "--scene hanging --frames 2");
    if (before)
        ::setenv("VK_INSTANCE_LAYERS", saved.c_str(), 1);
    else
        ::unsetenv("VK_INSTANCE_LAYERS");
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(r.output.find("vulkan validation"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("vulkan notice"), std::string::npos) << r.output;
}

TEST(GpuCli, AutoPicksAGpuOrSaysWhyNot) {
    REQUIRE_VULKAN_DEVICE();
    const fs::path stats = scratch("auto") / "stats.json";
    const auto r =
        runProgram("clothsim", "--headless --scene drop --frames 2 --stats " + stats.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    std::ifstream in(stats);
    const nlohmann::json j = nlohmann::json::parse(in);
    auto best = cloth::vk::preferredDevice();
    ASSERT_TRUE(best.has_value());
    if (best->type == VK_PHYSICAL_DEVICE_TYPE_CPU) {
        EXPECT_EQ(j["backend"], "cpu");
        EXPECT_NE(r.output.find(best->name + " is a CPU implementation of Vulkan, slower than the "
                                "CPU reference: using the CPU reference solver (--backend gpu "
                                "uses it anyway)"),
                  std::string::npos)
            << r.output;
    } else {
        EXPECT_EQ(j["backend"], "gpu");
    }
}

// An error found while the run starts (a mesh that cannot be read, an export folder that does
// not exist, a scene file too large for --memory-limit) is the only line on stderr: the automatic
// backend's notice (on a machine whose only Vulkan device is a CPU, "using the CPU reference
// solver") waits until the run has started. The same when the frames are rendered (--screenshot:
// the viewer's simulation), where the too-large refusal names the file given too.
TEST(GpuCli, AnErrorAtTheStartIsTheOnlyLine) {
    REQUIRE_VULKAN_DEVICE();
    const fs::path dir = scratch("start_error");
    const fs::path big = dir / "big.json";
    std::ofstream(big) << R"({"name": "big", "cloths": [{"grid": {"resolution": [3000, 3000]}}]})";
    for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
             {"--mesh " + (dir / "missing.obj").string(), "missing.obj: cannot open file"},
             {"--scene drop --export-gltf " + (dir / "nodir" / "x.gltf").string(),
              "no directory"},
             {"--memory-limit 4 --scene " + big.string(),
              big.string() + ": scene 'big' is too large"},
             {"--screenshot " + (dir / "a.png").string() + " --mesh " +
                  (dir / "missing.obj").string(),
              "missing.obj: cannot open file"},
             {"--screenshot " + (dir / "a.png").string() + " --memory-limit 4 --scene " +
                  big.string(),
              big.string() + ": scene 'big' is too large"}}) {
        SCOPED_TRACE(args);
        const auto r =
            cloth::test::expectRefusal("clothsim", "--headless --frames 1 " + args, message);
        std::string text = r.output;
        while (!text.empty() && text.back() == '\n') text.pop_back();
        EXPECT_EQ(text.find('\n'), std::string::npos) << r.output;
        EXPECT_EQ(r.output.find("using the CPU reference solver"), std::string::npos) << r.output;
    }
    // and the notice still comes once the run starts (AutoPicksAGpuOrSaysWhyNot)
}

TEST(GpuCli, UnknownDeviceIndexIsAClearError) {
    REQUIRE_VULKAN_DEVICE();
    for (const char* backend : {"gpu", "auto"}) {
        const auto r = runProgram(
            "clothsim", std::string("--headless --frames 1 --backend ") + backend + " --device 99");
        EXPECT_EQ(r.exitCode, 1) << r.output;
        EXPECT_NE(r.output.find("--device 99: no such Vulkan device"), std::string::npos)
            << r.output;
    }
}

TEST(GpuCli, SceneTooLargeForTheDeviceIsAClearError) {
    REQUIRE_VULKAN_DEVICE();
    // The smallest square grid whose bending constraints (about 3 n^2 of 32 bytes) exceed the
    // device's largest storage buffer: refused from the scene description, before preparing.
    // Also when the frame is rendered (--screenshot), where the viewer's simulation prepares.
    cloth::vk::Context ctx;
    const double range = ctx.limits().maxStorageBufferRange;
    const int n = static_cast<int>(std::sqrt(range / 96.0)) + 16;
    const fs::path scene = scratch("too_large") / "too_large.json";
    std::ofstream(scene) << R"({"name": "too_large", "cloths": [{"name": "big", "grid": )"
                         << R"({"width": 10, "height": 10, "resolution": [)" << n << ", " << n
                         << R"(]}, "pins": {"regions": ["top_corners"]}}]})";
    const std::string screenshot = " --screenshot " + (scene.parent_path() / "x.png").string();
    for (const std::string& extra : {std::string(), screenshot}) {
        const auto r = runProgram(
            "clothsim", "--headless --frames 1 --backend gpu --scene " + scene.string() + extra);
        EXPECT_EQ(r.exitCode, 1) << r.output;
        EXPECT_NE(r.output.find("scene 'too_large' is too large for the GPU"), std::string::npos)
            << r.output;
        // The file given, then the scene's name key (also when rendered: the viewer's load).
        EXPECT_NE(r.output.find(scene.string() + ": scene 'too_large'"), std::string::npos)
            << r.output;
        EXPECT_NE(r.output.find("bending constraints need"), std::string::npos) << r.output;
    }
}

// The Jacobi iterations' buffers count too: a grid whose constraints fit but whose Jacobi deltas
// (a vec4 per item vertex, about 18 n^2 of 16 bytes) do not is refused, naming them.
TEST(GpuCli, JacobiBuffersTooLargeForTheDeviceAreAClearError) {
    REQUIRE_VULKAN_DEVICE();
    cloth::vk::Context ctx;
    const double range = ctx.limits().maxStorageBufferRange;
    const int n = static_cast<int>(std::sqrt(range / 288.0)) + 16;
    ASSERT_LT(96.0 * n * n, range);  // the bending constraints themselves fit
    const fs::path scene = scratch("jacobi_large") / "jacobi_large.json";
    std::ofstream(scene) << R"({"name": "jacobi_large", "iteration": "jacobi", "cloths": [)"
                         << R"({"name": "big", "grid": {"width": 10, "height": 10, "resolution": [)"
                         << n << ", " << n << R"(]}, "pins": {"regions": ["top_corners"]}}]})";
    const auto r =
        runProgram("clothsim", "--headless --frames 1 --backend gpu --scene " + scene.string());
    EXPECT_EQ(r.exitCode, 1) << r.output;
    EXPECT_NE(r.output.find("scene 'jacobi_large' is too large for the GPU"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("jacobi deltas need"), std::string::npos) << r.output;
}

// clothbench --backend all: one CPU record and one GPU record per workgroup size, each GPU
// record with the keys the issue lists (workgroup size, per-stage times, dispatches) and the
// colour-run setting it ran with; --color-run-items 0 gives one dispatch per colour.
TEST(GpuBench, RecordsPerWorkgroupSizeWithStagesDispatchesAndColourRuns) {
    REQUIRE_VULKAN_DEVICE();
    const auto device = cloth::vk::preferredDevice();
    ASSERT_TRUE(device.has_value());
    auto bench = [](const std::string& extra, const fs::path& json) {
        const auto r = runProgram("clothbench",
                                  "--backend all --grids 6 --threads 1 --workgroup-sizes 32,64"
                                  " --warmup 0 --frames 1 --repeats 1 --profile-frames 1 "
                                  "--json " + json.string() + " " + extra);
        EXPECT_EQ(r.exitCode, 0) << r.output;
        std::ifstream in(json);
        return in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json();
    };
    const fs::path dir = scratch("bench");
    const nlohmann::json runs = bench("", dir / "runs.json");
    const nlohmann::json off = bench("--color-run-items 0", dir / "off.json");
    ASSERT_TRUE(runs.is_object() && off.is_object());
    EXPECT_EQ(runs["gpu"]["name"], device->name);
    ASSERT_EQ(runs["runs"].size(), 3u);
    ASSERT_EQ(off["runs"].size(), 3u);
    EXPECT_EQ(runs["runs"][0]["backend"], "cpu");
    const bool cpuDevice = device->type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    for (int i : {1, 2}) {
        const auto& r = runs["runs"][i];
        const auto& o = off["runs"][i];
        const int wg = i == 1 ? 32 : 64;
        EXPECT_EQ(r["backend"], "gpu");
        EXPECT_EQ(r["workgroup_size"], wg);
        EXPECT_EQ(r["color_run_items"].get<int>(), cpuDevice ? 2048 : wg);
        EXPECT_EQ(o["color_run_items"].get<int>(), 0);
        EXPECT_EQ(r["color_run_workgroup_size"].get<int>(), cpuDevice ? 64 : wg);
        for (const char* stage : {"predict", "distance", "bending", "velocities", "normals"})
            EXPECT_TRUE(r["stages_ms"].contains(stage)) << stage;
        EXPECT_GT(r["solves_per_second"].get<double>(), 0.0);
        // A 6x6 grid's colours are all small: runs replace the colours' dispatches (at least
        // two colours each substep) by one.
        const int colors = r["colors"].get<int>();
        ASSERT_GT(colors, 2);
        EXPECT_LE(r["dispatches_per_frame"].get<int>() + 10 * (colors - 1),
                  o["dispatches_per_frame"].get<int>());
        EXPECT_GT(r["dispatches_per_frame"].get<int>(), 0);
    }
}
