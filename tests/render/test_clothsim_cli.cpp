// clothsim's rendering flags end to end: --screenshot, --record, --size with --headless, the
// stats JSON's render times, the run without arguments and without a display, bad values.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../common/run_program.h"
#include "render/image_file.h"
#include "vk/context.h"

namespace cloth {
namespace {

namespace fs = std::filesystem;
using test::runProgramIn;
using test::scratchDir;

class ClothsimCli : public ::testing::Test {
  protected:
    void SetUp() override {
        if (auto why = vk::noVulkanReason()) {
            if (std::getenv("CI")) {
                FAIL() << "no Vulkan device and CI is set: " << *why;
            }
            GTEST_SKIP() << "no Vulkan device: " << *why;
        }
    }
};

nlohmann::json readJson(const fs::path& p) {
    std::ifstream in(p);
    return nlohmann::json::parse(in);
}

void expectNoValidationMessages(const test::ProgramResult& r, const nlohmann::json& stats) {
    EXPECT_EQ(r.err.find("validation"), std::string::npos) << r.err;
    EXPECT_EQ(stats["render"]["validation"], true);
    EXPECT_EQ(stats["render"]["validation_messages"], 0);
}

TEST_F(ClothsimCli, HeadlessScreenshotAndStats) {
    const fs::path dir = scratchDir("cli", "screenshot");
    const auto r = runProgramIn("clothsim",
        "--headless --scene curtain --frames 5 --size 200x150 --screenshot shot.png "
        "--validate --backend gpu --stats stats.json",
        dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("screenshot written to shot.png"), std::string::npos) << r.out;
    const render::ImageRgba8 img = render::readPng((dir / "shot.png").string());
    EXPECT_EQ(img.width, 200);
    EXPECT_EQ(img.height, 150);
    const nlohmann::json stats = readJson(dir / "stats.json");
    expectNoValidationMessages(r, stats);
    EXPECT_EQ(stats["backend"], "gpu");
    EXPECT_EQ(stats["frames"], 5);
    EXPECT_EQ(stats["render"]["frames"], 1);
    EXPECT_EQ(stats["render"]["width"], 200);
    for (const char* pass : {"shadow", "gbuffer", "ssao", "ssao_blur", "lighting", "total"}) {
        ASSERT_TRUE(stats["render_ms"].contains(pass)) << pass;
        EXPECT_GT(stats["render_ms"][pass].get<double>(), 0.0) << pass;
    }
    EXPECT_TRUE(stats.contains("stages_ms"));
}

TEST_F(ClothsimCli, RecordWritesEveryKthFrame) {
    const fs::path dir = scratchDir("cli", "record");
    const auto r = runProgramIn("clothsim",
        "--headless --scene swirl --frames 4 --export-every 2 --size 64x48 --record frames "
        "--backend cpu --validate --stats stats.json",
        dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (int f : {0, 2, 4}) {
        const fs::path png = dir / render::framePath("frames", f);
        ASSERT_TRUE(fs::exists(png)) << png;
        EXPECT_EQ(render::readPng(png.string()).width, 64);
    }
    for (int f : {1, 3, 5}) EXPECT_FALSE(fs::exists(dir / render::framePath("frames", f)));
    const nlohmann::json stats = readJson(dir / "stats.json");
    expectNoValidationMessages(r, stats);
    EXPECT_EQ(stats["render"]["frames"], 3);
}

std::string fileText(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// A rendered run writes the OBJ frames, the glTF file and the metrics of the plain headless run,
// byte for byte: the same frames (0 and every --export-every-th, named by frame number) and the
// same rows (the CPU reference gives the same state for any thread count).
TEST_F(ClothsimCli, RenderedRunsWriteTheObjFramesAndMetricsOfThePlainRun) {
    const fs::path dir = scratchDir("cli", "rendered_outputs");
    const std::string run =
        "--headless --backend cpu --scene hanging --frames 4 --export-every 2 --threads 2 ";
    const auto plain =
        runProgramIn("clothsim",
                     run + "--export-obj plain --metrics plain.csv --export-gltf plain.glb", dir);
    ASSERT_EQ(plain.exitCode, 0) << plain.err;
    const auto rendered = runProgramIn(
        "clothsim",
        run +
            "--threads 1 --size 64x48 --record frames --export-obj rendered --metrics rendered.csv "
            "--export-gltf rendered.glb",
        dir);
    ASSERT_EQ(rendered.exitCode, 0) << rendered.err;
    ASSERT_TRUE(fs::exists(dir / "rendered.glb"));
    EXPECT_EQ(fileText(dir / "rendered.glb"), fileText(dir / "plain.glb"));
    for (int f : {0, 2, 4}) {
        char name[32];
        std::snprintf(name, sizeof name, "frame_%04d.obj", f);
        ASSERT_TRUE(fs::exists(dir / "rendered" / name)) << name;
        EXPECT_EQ(fileText(dir / "rendered" / name), fileText(dir / "plain" / name)) << name;
        EXPECT_TRUE(fs::exists(dir / render::framePath("frames", f)));
    }
    for (const char* absent : {"frame_0001.obj", "frame_0003.obj"})
        EXPECT_FALSE(fs::exists(dir / "rendered" / absent)) << absent;
    const std::string metrics = fileText(dir / "rendered.csv");
    EXPECT_EQ(std::count(metrics.begin(), metrics.end(), '\n'), 5) << metrics;  // header, 4 rows
    EXPECT_EQ(metrics, fileText(dir / "plain.csv"));
}

// --screenshot writes JPEG for .jpg and .jpeg in any case (PNG for .png); a rendered run warns
// when the cloth stretched past 20% (one substep of one iteration: several times its length).
TEST_F(ClothsimCli, JpegScreenshotAndTheStretchWarning) {
    const fs::path dir = scratchDir("cli", "jpeg");
    const auto r = runProgramIn(
        "clothsim",
        "--headless --backend cpu --scene hanging --frames 20 --substeps 1 --iterations 1 "
        "--size 64x48 --screenshot shot.JPG",
        dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("screenshot written to shot.JPG"), std::string::npos) << r.out;
    EXPECT_EQ(fileText(dir / "shot.JPG").substr(0, 3), "\xFF\xD8\xFF");
    const render::ImageRgba8 img = render::readPng((dir / "shot.JPG").string());
    EXPECT_EQ(img.width, 64);
    EXPECT_EQ(img.height, 48);
    EXPECT_NE(r.err.find("clothsim: warning: edges stretched by up to"), std::string::npos)
        << r.err;
    const auto firm = runProgramIn(
        "clothsim",
        "--headless --backend cpu --scene curtain --frames 20 --size 64x48 --screenshot shot.jpeg",
        dir);
    ASSERT_EQ(firm.exitCode, 0) << firm.err;
    EXPECT_EQ(firm.err.find("warning"), std::string::npos) << firm.err;
    EXPECT_EQ(fileText(dir / "shot.jpeg").substr(0, 3), "\xFF\xD8\xFF");
}

TEST_F(ClothsimCli, NoArgumentsWithoutDisplayWritesScreenshot) {
    const fs::path dir = scratchDir("cli", "noargs");
    const auto r = runProgramIn("clothsim", "", dir, "env -u DISPLAY -u WAYLAND_DISPLAY");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("running headless"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("screenshot written to clothsim.png"), std::string::npos) << r.out;
    const render::ImageRgba8 img = render::readPng((dir / "clothsim.png").string());
    EXPECT_EQ(img.width, 1280);
    EXPECT_EQ(img.height, 720);
}

TEST_F(ClothsimCli, WithoutDisplayArgumentsRunHeadlessWithoutImages) {
    const fs::path dir = scratchDir("cli", "nodisplay");
    const auto r =
        runProgramIn("clothsim", "--frames 3 --backend cpu", dir, "env -u DISPLAY -u WAYLAND_DISPLAY");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(fs::exists(dir / "clothsim.png"));
}

// ffprobe's view of a video's first stream (the frames counted by decoding them), or null when
// ffprobe is missing.
nlohmann::json probe(const fs::path& video) {
    const std::string command = "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                "stream=nb_read_frames,width,height,r_frame_rate,codec_name,"
                                "pix_fmt:format=duration -of json '" + video.string() + "' 2>&1";
    std::FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return nullptr;
    std::string text;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, n);
    if (pclose(pipe) != 0) {
        ADD_FAILURE() << command << ":\n" << text;
        return nullptr;
    }
    return nlohmann::json::parse(text);
}

bool haveFfprobe() {
    if (std::system("ffprobe -version >/dev/null 2>&1") == 0) return true;
    if (std::getenv("CI")) ADD_FAILURE() << "ffprobe is missing and CI is set (tools/setup.sh)";
    return false;
}

// --video: frame 0 and every K-th frame in H.264 at fps / K frames per second (24 / 2 = 12 here:
// 3 frames, 0.25 s), read back by ffprobe; an odd size gets one more column and row.
TEST_F(ClothsimCli, VideoHoldsEveryKthFrameAtTheFrameRateOverK) {
    if (!haveFfprobe()) GTEST_SKIP() << "no ffprobe";
    const fs::path dir = scratchDir("cli", "video");
    const auto r = runProgramIn("clothsim",
        "--headless --scene swirl --frames 4 --fps 24 --export-every 2 --size 64x48 "
        "--video out.mp4 --backend cpu --threads 1",
        dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("video written to out.mp4: 3 frames (0.25 s at 12 fps), 64x48, H.264"),
              std::string::npos)
        << r.out;
    const nlohmann::json p = probe(dir / "out.mp4");
    ASSERT_TRUE(p.is_object());
    const nlohmann::json& s = p["streams"].at(0);
    EXPECT_EQ(s["codec_name"], "h264");
    EXPECT_EQ(s["pix_fmt"], "yuv420p");
    EXPECT_EQ(s["width"], 64);
    EXPECT_EQ(s["height"], 48);
    EXPECT_EQ(s["nb_read_frames"], "3");
    EXPECT_EQ(s["r_frame_rate"], "12/1");
    EXPECT_NEAR(std::stod(p["format"]["duration"].get<std::string>()), 0.25, 1e-3);

    const auto odd = runProgramIn(
        "clothsim", "--headless --scene drop --frames 1 --size 65x47 --video odd.MP4", dir);
    ASSERT_EQ(odd.exitCode, 0) << odd.err;
    const nlohmann::json q = probe(dir / "odd.MP4");
    ASSERT_TRUE(q.is_object());
    EXPECT_EQ(q["streams"].at(0)["width"], 66);
    EXPECT_EQ(q["streams"].at(0)["height"], 48);
    EXPECT_EQ(q["streams"].at(0)["nb_read_frames"], "2");
    EXPECT_EQ(q["streams"].at(0)["r_frame_rate"], "60/1");
    fs::remove_all(dir);
}

// Bad --video input: one message naming the flag, exit 1, before the run.
TEST(ClothsimCliErrors, VideoRefusals) {
    const fs::path dir = scratchDir("cli", "video_errors");
    fs::create_directories(dir / "folder.mp4");
    for (const auto& [args, fragment] :
         {std::pair{"--video out.avi", "--video: expected a file ending in .mp4"},
          std::pair{"--video missing/out.mp4", "--video missing/out.mp4: no directory missing"},
          std::pair{"--video folder.mp4", "--video folder.mp4: is a directory"},
          std::pair{"--video /proc/out.mp4", "--video /proc/out.mp4: cannot write file"}}) {
        const auto r = runProgramIn("clothsim", std::string("--headless --frames 1 ") + args, dir);
        EXPECT_EQ(r.exitCode, 1) << args;
        EXPECT_NE(r.err.find(fragment), std::string::npos) << args << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    EXPECT_FALSE(fs::exists(dir / "out.avi"));
    fs::remove_all(dir);
}

TEST(ClothsimCliErrors, BadRenderFlags) {
    const fs::path dir = scratchDir("cli", "errors");
    for (const char* args :
         {"--size 12x12", "--size 640", "--size axb", "--size 640x", "--screenshot", "--record"}) {
        const auto r = runProgramIn("clothsim", std::string("--headless ") + args, dir);
        EXPECT_EQ(r.exitCode, 1) << args;
        EXPECT_NE(r.err.find("clothsim: error:"), std::string::npos) << args << ": " << r.err;
    }
    const auto r = runProgramIn("clothsim", "--headless --frames 1 --screenshot /proc/nope/x.png", dir);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("/proc/nope"), std::string::npos) << r.err;
}

// An image that cannot be written is an error naming the file and the reason (stb's writer
// reported nothing: --screenshot /dev/full said "screenshot written" and exited 0). The name
// must end in .png or .jpg: links to /dev/full.
TEST_F(ClothsimCli, ScreenshotWriteErrorsAreReported) {
    const fs::path dir = scratchDir("cli", "screenshot_errors");
    for (const char* name : {"full.png", "full.jpg"}) {
        fs::create_symlink("/dev/full", dir / name);
        const auto r = runProgramIn(
            "clothsim", std::string("--headless --frames 1 --size 64x64 --screenshot ") + name,
            dir);
        EXPECT_EQ(r.exitCode, 1) << r.err;
        EXPECT_NE(r.err.find(std::string(name) + ": cannot write file: No space left"),
                  std::string::npos)
            << r.err;
    }
}

// No Vulkan driver at all (the loader is pointed at a driver file that does not exist).
TEST(ClothsimCliNoVulkan, ImagesNeedAVulkanDevice) {
    const fs::path dir = scratchDir("cli", "novulkan");
    const auto r = runProgramIn("clothsim", "--headless --frames 2 --screenshot x.png", dir,
                               "env VK_ICD_FILENAMES=/nonexistent/icd.json");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("rendering needs a Vulkan device"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "x.png"));
}

TEST(ClothsimCliNoVulkan, VideoNeedsAVulkanDevice) {
    const fs::path dir = scratchDir("cli", "novulkan_video");
    const auto r = runProgramIn("clothsim", "--headless --frames 2 --video x.mp4", dir,
                               "env VK_ICD_FILENAMES=/nonexistent/icd.json");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("rendering needs a Vulkan device"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "x.mp4"));
}

TEST(ClothsimCliNoVulkan, NoArgumentsFallBackToTheCpuWithoutAnImage) {
    const fs::path dir = scratchDir("cli", "novulkan_noargs");
    const auto r = runProgramIn("clothsim", "", dir,
                               "env -u DISPLAY -u WAYLAND_DISPLAY "
                               "VK_ICD_FILENAMES=/nonexistent/icd.json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("simulating on the CPU without an image"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "clothsim.png"));
}

// The camera flags: refused headless without images (they would do nothing), refused when the
// position falls on the scene's target, and taken by a rendered run with the turntable (the
// camera's maths: test_scene_camera.cpp; every scene's framing: test_scene_framing.cpp).
TEST(ClothsimCliErrors, CameraFlags) {
    const fs::path dir = scratchDir("cli", "camera_errors");
    for (const char* flag : {"--fov 30", "--turntable 10", "--camera-position 0,1,3",
                             "--camera-target 0,1,0"}) {
        const auto r = runProgramIn("clothsim", std::string("--headless --frames 1 ") + flag, dir);
        EXPECT_EQ(r.exitCode, 1) << flag;
        EXPECT_NE(r.err.find("sets the camera of the window or of images: a headless run needs "
                             "--screenshot, --record or --video"),
                  std::string::npos)
            << flag << ": " << r.err;
    }
    const auto r = runProgramIn("clothsim",
                                "--headless --frames 1 --scene drop --size 64x64 --screenshot a.png "
                                "--camera-position 0,1,0",
                                dir);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("--camera-position and the scene's camera target: position equals target"),
              std::string::npos)
        << r.err;
}

// --texture: check or plain, nothing else; refused headless without images; check and plain
// give different pictures of a grid cloth (frame 0, so that the cloth is where it was loaded).
TEST(ClothsimCliErrors, TextureFlag) {
    const fs::path dir = scratchDir("cli", "texture_errors");
    auto r = runProgramIn("clothsim", "--headless --frames 1 --texture tartan", dir);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("--texture: expected check or plain, got 'tartan'"), std::string::npos)
        << r.err;
    r = runProgramIn("clothsim", "--headless --frames 1 --texture plain", dir);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("--texture sets how the cloths look in the window or in images: a "
                         "headless run needs --screenshot, --record or --video"),
              std::string::npos)
        << r.err;
}

TEST_F(ClothsimCli, TextureCheckAndPlainDiffer) {
    const fs::path dir = scratchDir("cli", "texture");
    for (const char* texture : {"check", "plain"}) {
        const auto r = runProgramIn("clothsim",
                                    std::string("--headless --validate --backend cpu --scene curtain "
                                                "--frames 0 --size 160x120 --screenshot ") +
                                        texture + ".png --texture " + texture,
                                    dir);
        ASSERT_EQ(r.exitCode, 0) << r.err;
    }
    const render::ImageRgba8 check = render::readPng((dir / "check.png").string());
    const render::ImageRgba8 plain = render::readPng((dir / "plain.png").string());
    ASSERT_EQ(check.pixels.size(), plain.pixels.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < check.pixels.size(); i += 4)
        differ += std::abs(int(check.pixels[i]) - int(plain.pixels[i])) > 3;
    EXPECT_GT(differ, check.pixels.size() / 4 / 50) << "pixels that differ: " << differ;
}

TEST_F(ClothsimCli, CameraFlagsInARenderedRun) {
    const fs::path dir = scratchDir("cli", "camera");
    const auto r = runProgramIn("clothsim",
                                "--headless --scene hanging --frames 2 --size 64x36 --screenshot "
                                "a.png --camera-position 0.5,2.5,2.5 --camera-target 0,1.5,0 "
                                "--fov 50 --turntable 90",
                                dir);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir / "a.png"));
}

}  // namespace
}  // namespace cloth
