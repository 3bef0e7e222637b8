// --phantoms auto: the tuning file (round trip, merge, nearest size, malformed files), the
// fallback notice, and clothbench --tune-phantoms writing a file that clothsim then follows.
// No test asserts on time: which target wins is whatever the run measured.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/phantom_tuning.h"
#include "core/error.h"
#include "../common/run_program.h"
#include "vk/context.h"

using namespace cloth;
using test::runProgram;
namespace fs = std::filesystem;

namespace {

fs::path tuningDir(const std::string& name) {
    return test::scratchDir("tuning", name);
}

void writeText(const fs::path& p, const std::string& text) {
    std::ofstream(p) << text;
}

nlohmann::json readTuning(const fs::path& p) {
    std::ifstream in(p);
    return nlohmann::json::parse(in);
}

TuningSize size(std::uint32_t vertices, std::uint32_t best) {
    TuningSize s;
    s.vertices = vertices;
    s.best = best;
    return s;
}

TuningFile sampleFile() {
    TuningDevice cpu;
    cpu.backend = "cpu";
    cpu.device = "Some CPU @ 3.0GHz";
    cpu.threads = 2;
    cpu.substeps = 10;
    cpu.iterations = 1;
    TuningSize s = size(1089, 0);
    s.grid = 32;
    s.candidates = {{0, 20, 0, 1.25, 1.5}, {8, 8, 1234, 1.0 / 3.0, 0.1 + 0.2}};
    cpu.sizes = {s, size(4225, 12)};
    TuningDevice gpu;
    gpu.backend = "gpu";
    gpu.device = "llvmpipe (LLVM 15.0.6, 256 bits)";
    gpu.workgroupSize = 64;
    gpu.sizes = {size(66049, 6)};
    return {{cpu, gpu}};
}

// The parse error for `text`, or "" when it parsed.
std::string parseError(const std::string& text) {
    try {
        parseTuning(text, "t.json");
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

// A valid file's text with `best` for its only size.
std::string oneSize(const std::string& best, const std::string& vertices = "100") {
    return R"({"format": "clothsim phantom tuning", "version": 1, "devices": [
        {"backend": "cpu", "device": "X", "sizes": [{"vertices": )" +
           vertices + R"(, "best": )" + best + "}]}]}";
}

class ScopedEnv {
  public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        value ? setenv(name, value, 1) : unsetenv(name);
    }
    ~ScopedEnv() { old_ ? setenv(name_, old_->c_str(), 1) : unsetenv(name_); }

  private:
    const char* name_;
    std::optional<std::string> old_;
};

}  // namespace

TEST(Tuning, FileRoundTripsThroughJsonAndDisk) {
    const TuningFile file = sampleFile();
    EXPECT_EQ(parseTuning(tuningJson(file).dump(), "mem"), file);
    const fs::path path = tuningDir("roundtrip") / "a" / "b" / "tuning.json";  // folders made
    writeTuningFile(path.string(), file);
    const auto back = readTuningFile(path.string());
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, file);
    const nlohmann::json j = readTuning(path);
    EXPECT_EQ(j["devices"][0]["sizes"][0]["best"], "off");
    EXPECT_EQ(j["devices"][0]["sizes"][1]["best"], 12);
}

TEST(Tuning, MissingFileReadsAsNothing) {
    EXPECT_FALSE(readTuningFile((tuningDir("missing") / "none.json").string()).has_value());
    EXPECT_FALSE(readTuningFile("").has_value());
}

TEST(Tuning, MergeReplacesMeasuredSizesAndKeepsTheRest) {
    TuningFile file = sampleFile();
    TuningDevice again = file.devices[0];
    again.threads = 1;
    again.sizes = {size(4225, 0), size(16641, 10)};
    mergeTuning(file, again);
    ASSERT_EQ(file.devices.size(), 2u);
    const TuningDevice& cpu = file.devices[0];
    EXPECT_EQ(cpu.threads, 1);
    ASSERT_EQ(cpu.sizes.size(), 3u);
    EXPECT_EQ(cpu.sizes[0].vertices, 1089u);  // kept
    EXPECT_EQ(cpu.sizes[0].best, 0u);
    EXPECT_EQ(cpu.sizes[1].vertices, 4225u);  // replaced
    EXPECT_EQ(cpu.sizes[1].best, 0u);
    EXPECT_EQ(cpu.sizes[2].vertices, 16641u);  // added, in order
    EXPECT_EQ(file.devices[1], sampleFile().devices[1]);
    TuningDevice other = again;
    other.device = "Another CPU";
    mergeTuning(file, other);
    EXPECT_EQ(file.devices.size(), 3u);
    EXPECT_EQ(parseTuning(tuningJson(file).dump(), "mem"), file);
}

TEST(Tuning, NearestSizeIsNearestOnALogScaleSmallerOnATie) {
    TuningDevice d;
    d.sizes = {size(100, 6), size(400, 8), size(1600, 10)};
    auto bestFor = [&](std::uint32_t v) { return nearestSize(d, v)->best; };
    EXPECT_EQ(bestFor(0), 6u);
    EXPECT_EQ(bestFor(1), 6u);
    EXPECT_EQ(bestFor(199), 6u);  // 199/100 < 400/199
    EXPECT_EQ(bestFor(200), 6u);  // 200/100 == 400/200: the smaller
    EXPECT_EQ(bestFor(201), 8u);
    EXPECT_EQ(bestFor(400), 8u);
    EXPECT_EQ(bestFor(801), 10u);  // 1600/801 < 801/400
    EXPECT_EQ(bestFor(4000000000u), 10u);
    EXPECT_EQ(nearestSize(TuningDevice{}, 100), nullptr);
    const TuningFile file = sampleFile();
    EXPECT_NE(findDevice(file, "gpu", "llvmpipe (LLVM 15.0.6, 256 bits)"), nullptr);
    EXPECT_EQ(findDevice(file, "cpu", "llvmpipe (LLVM 15.0.6, 256 bits)"), nullptr);
    EXPECT_EQ(findDevice(file, "gpu", "llvmpipe"), nullptr);  // names match exactly
}

TEST(Tuning, AutoFollowsTheEntryOrFallsBackWithANotice) {
    const fs::path dir = tuningDir("resolve");
    const std::string path = (dir / "tuning.json").string();
    AutoPhantomContext where{"prog", path, "cpu", "Some CPU @ 3.0GHz"};
    std::ostringstream notices;
    // No file.
    PhantomSetting s = resolveAutoPhantoms(where, 1000, notices);
    EXPECT_EQ(s, (PhantomSetting{PhantomMode::Target, kDefaultAutoTarget}));
    EXPECT_EQ(notices.str(), "prog: --phantoms auto: no tuning file " + path +
                                 " (run clothbench --tune-phantoms); using the default target "
                                 "of 8 colours\n");
    // The entry says off for small cloths, 12 for larger ones.
    writeTuningFile(path, sampleFile());
    notices.str("");
    EXPECT_EQ(resolveAutoPhantoms(where, 1000, notices), (PhantomSetting{PhantomMode::Off, 0}));
    EXPECT_EQ(resolveAutoPhantoms(where, 5000, notices), (PhantomSetting{PhantomMode::Target, 12}));
    EXPECT_EQ(notices.str(), "");
    // No entry for this device.
    where.device = "Unmeasured CPU";
    s = resolveAutoPhantoms(where, 1000, notices);
    EXPECT_EQ(s.targetColors, kDefaultAutoTarget);
    EXPECT_NE(notices.str().find("no entry for cpu 'Unmeasured CPU' in " + path), std::string::npos)
        << notices.str();
    const std::string text = notices.str();
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
}

TEST(Tuning, MalformedFilesGiveAnErrorNamingTheFileAndTheProblem) {
    const std::pair<std::string, std::string> cases[] = {
        {"{", "not valid JSON"},
        {"[]", "expected a JSON object"},
        {R"({"format": "x", "version": 1, "devices": []})", "not a tuning file"},
        {R"({"format": "clothsim phantom tuning", "version": 2, "devices": []})", "version"},
        {R"({"format": "clothsim phantom tuning", "version": 1})", "missing \"devices\""},
        {R"({"format": "clothsim phantom tuning", "version": 1, "devices": {}})",
         "devices: expected an array"},
        {oneSize("\"fast\""), "devices[0].sizes[0].best: expected \"off\" or a number"},
        {oneSize("0"), "devices[0].sizes[0].best: expected an integer from 1"},
        {oneSize("2.5"), "devices[0].sizes[0].best: expected \"off\" or a number"},
        {oneSize("8", "-3"), "devices[0].sizes[0].vertices: expected an integer from 1"},
        {oneSize("8", "1e3"), "devices[0].sizes[0].vertices: expected an integer"},
        {oneSize("8", "99999999999999999999999"), "vertices: expected an integer"},
        {R"({"format": "clothsim phantom tuning", "version": 1, "devices": [
            {"backend": "tpu", "device": "X", "sizes": [{"vertices": 1, "best": 8}]}]})",
         "devices[0].backend: expected \"cpu\" or \"gpu\""},
        {R"({"format": "clothsim phantom tuning", "version": 1, "devices": [
            {"backend": "cpu", "device": "X", "sizes": []}]})",
         "at least one measured size"},
        {R"({"format": "clothsim phantom tuning", "version": 1, "devices": [
            {"backend": "cpu", "device": "X", "sizes": [{"vertices": 5, "best": 8},
                                                        {"vertices": 5, "best": 6}]}]})",
         "two entries for 5 vertices"},
        {R"({"format": "clothsim phantom tuning", "version": 1, "devices": [
            {"backend": "cpu", "device": "X", "sizes": [{"vertices": 5, "best": 8}]},
            {"backend": "cpu", "device": "X", "sizes": [{"vertices": 6, "best": 8}]}]})",
         "two entries for cpu device 'X'"},
        {R"({"format": "clothsim phantom tuning", "version": 1, "devices": [
            {"backend": "cpu", "device": "X", "sizes": [{"vertices": 5, "best": 8,
             "candidates": [{"phantoms": 8, "colors": 8, "phantom_vertices": 3,
                             "ms_per_frame": {"min": -1, "median": 2}}]}]}]})",
         "candidates[0].ms_per_frame.min: expected a time in ms"},
    };
    for (const auto& [text, fragment] : cases) {
        const std::string message = parseError(text);
        EXPECT_NE(message.find("t.json"), std::string::npos) << text << "\n-> " << message;
        EXPECT_NE(message.find(fragment), std::string::npos) << text << "\n-> " << message;
    }
    EXPECT_EQ(parseError(oneSize("\"off\"")), "");
    const fs::path dir = tuningDir("malformed");
    writeText(dir / "bad.json", "{\"format\": ");
    try {
        readTuningFile((dir / "bad.json").string());
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find((dir / "bad.json").string()), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(readTuningFile(dir.string()), Error);  // a directory
}

TEST(Tuning, PathComesFromTheFlagThenTheEnvironment) {
    EXPECT_EQ(tuningPath(std::string("f.json")), "f.json");
    {
        ScopedEnv a("CLOTHSIM_TUNING", "/env/t.json"), b("XDG_CONFIG_HOME", "/xdg");
        EXPECT_EQ(tuningPath(std::nullopt), "/env/t.json");
        EXPECT_EQ(tuningPath(std::string("f.json")), "f.json");
    }
    {
        ScopedEnv a("CLOTHSIM_TUNING", ""), b("XDG_CONFIG_HOME", "/xdg"), c("HOME", "/home/u");
        EXPECT_EQ(tuningPath(std::nullopt), "/xdg/clothsim/tuning.json");
    }
    {
        ScopedEnv a("CLOTHSIM_TUNING", nullptr), b("XDG_CONFIG_HOME", ""), c("HOME", "/home/u");
        EXPECT_EQ(tuningPath(std::nullopt), "/home/u/.config/clothsim/tuning.json");
    }
    {
        ScopedEnv a("CLOTHSIM_TUNING", nullptr), b("XDG_CONFIG_HOME", nullptr), c("HOME", nullptr);
        EXPECT_EQ(tuningPath(std::nullopt), "");
    }
}

// ---- end to end --------------------------------------------------------------------------------

namespace {

struct RunStats {
    std::string device;
    unsigned colors = 0, colorsBefore = 0, phantomVertices = 0, vertices = 0;
};

// clothsim --phantoms auto on the hanging scene (32x32 quads), one frame; its stats.
RunStats runAuto(const std::string& backend, const fs::path& tuning, const fs::path& dir,
                 std::string* output = nullptr) {
    const fs::path stats = dir / "stats.json";
    fs::remove(stats);
    const auto r = runProgram("clothsim", "--headless --backend " + backend +
                                              " --phantoms auto --frames 1 --tuning " +
                                              tuning.string() + " --stats " + stats.string());
    EXPECT_EQ(r.exitCode, 0) << r.output;
    if (output) *output = r.output;
    if (r.exitCode != 0) return {};
    const nlohmann::json j = readTuning(stats);
    return {j["device"].get<std::string>(), j["colors"].get<unsigned>(),
            j["colors_before_phantoms"].get<unsigned>(), j["phantom_vertices"].get<unsigned>(),
            j["vertices"].get<unsigned>()};
}

// What the stats must show for a tuned `best` (0 = off).
void expectFollows(const RunStats& s, std::uint32_t best) {
    if (best == 0) {
        EXPECT_EQ(s.phantomVertices, 0u);
        EXPECT_EQ(s.colors, s.colorsBefore);
    } else {
        ASSERT_GT(s.colorsBefore, best);
        EXPECT_GT(s.phantomVertices, 0u);
        EXPECT_LE(s.colors, best);
    }
}

// clothbench --tune-phantoms on tiny grids, then clothsim --phantoms auto follows the file: the
// measured best, and then hand-set bests ("off" and 7) in the entry clothbench wrote.
void tuneThenRun(const std::string& backend, const std::string& name) {
    const fs::path dir = tuningDir(name);
    const fs::path tuning = dir / "cfg" / "tuning.json";
    const auto bench = runProgram(
        "clothbench", "--tune-phantoms --backend " + backend +
                          " --grids 8,4 --tune-targets 7,10 --warmup 0 --frames 1 --repeats 1"
                          " --threads 1 --tuning " +
                          tuning.string());
    ASSERT_EQ(bench.exitCode, 0) << bench.output;
    EXPECT_NE(bench.output.find("wrote " + tuning.string()), std::string::npos) << bench.output;
    auto file = readTuningFile(tuning.string());
    ASSERT_TRUE(file.has_value());
    ASSERT_EQ(file->devices.size(), 1u);
    TuningDevice& d = file->devices[0];
    EXPECT_EQ(d.backend, backend);
    ASSERT_EQ(d.sizes.size(), 2u);
    EXPECT_EQ(d.sizes[0].vertices, 25u);  // 4x4 quads
    EXPECT_EQ(d.sizes[1].vertices, 81u);  // 8x8 quads: nearest to the default scene's 2401
    for (const TuningSize& s : d.sizes) {
        ASSERT_GE(s.candidates.size(), 3u);  // off, 7, 10 (both below the grids' colours)
        EXPECT_EQ(s.candidates[0].target, 0u);
        EXPECT_EQ(s.candidates[0].phantomVertices, 0u);
        for (const TuningCandidate& c : s.candidates) EXPECT_LE(c.colors, c.target ? c.target : 99);
        // Judged by accuracy too: off's residual, each target's iterations to reach it (or -1),
        // and the best one reaches it (off does at its own iterations, 1 here).
        for (const TuningCandidate& c : s.candidates) {
            ASSERT_TRUE(c.residual.has_value());
            ASSERT_TRUE(c.iterationsToMatch.has_value());
            EXPECT_TRUE(*c.iterationsToMatch == -1 || *c.iterationsToMatch >= 1);
            EXPECT_EQ(c.msToMatch.has_value(), *c.iterationsToMatch >= 1);
            if (*c.residual <= *s.candidates[0].residual) {
                EXPECT_EQ(*c.iterationsToMatch, 1);
            }
        }
        EXPECT_EQ(*s.candidates[0].iterationsToMatch, 1);
        for (const TuningCandidate& c : s.candidates)
            if (c.target == s.best) {
                EXPECT_TRUE(c.msToMatch.has_value());
            }
    }

    const RunStats measured = runAuto(backend, tuning, dir);
    EXPECT_EQ(measured.device, d.device);
    EXPECT_EQ(measured.vertices, 2401u);  // the default scene, sphere: 48 x 48 quads
    expectFollows(measured, d.sizes[1].best);
    for (std::uint32_t best : {0u, 7u}) {
        d.sizes[1].best = best;
        writeTuningFile(tuning.string(), *file);
        std::string output;
        expectFollows(runAuto(backend, tuning, dir, &output), best);
        EXPECT_EQ(output.find("--phantoms auto:"), std::string::npos) << output;  // no notice
    }
    if (backend == "gpu") {  // clothcheck takes the GPU's entry (best 7 now)
        const auto check = runProgram("clothcheck",
                                      "--scene hanging --frames 2 --phantoms auto"
                                      " --tuning " +
                                          tuning.string());
        EXPECT_EQ(check.exitCode, 0) << check.output;
        EXPECT_EQ(check.output.find("--phantoms auto:"), std::string::npos) << check.output;
        EXPECT_TRUE(check.output.find(" 7 colours") != std::string::npos ||
                    check.output.find(" 6 colours") != std::string::npos)
            << check.output;
    }
}

bool haveVulkanDevice() {
    auto why = vk::noVulkanReason();
    if (why && std::getenv("CI")) ADD_FAILURE() << "no Vulkan device and CI is set: " << *why;
    return !why;
}

}  // namespace

TEST(TuningEndToEnd, ClothbenchTunesAndClothsimFollowsOnTheCpu) {
    tuneThenRun("cpu", "e2e_cpu");
}

TEST(TuningEndToEnd, ClothbenchTunesAndClothsimFollowsOnTheGpu) {
    if (!haveVulkanDevice()) GTEST_SKIP() << "no Vulkan device present";
    tuneThenRun("gpu", "e2e_gpu");
}

TEST(TuningEndToEnd, ATargetMustBeatOffByTheMargin) {
    // No target can be 100% faster than off, so every size says off, and auto runs without.
    const fs::path dir = tuningDir("margin");
    const fs::path tuning = dir / "tuning.json";
    const auto bench = runProgram("clothbench",
                                  "--tune-phantoms --backend cpu --grids 4,6"
                                  " --tune-margin 100 --warmup 0 --frames 1"
                                  " --repeats 1 --threads 1 --tuning " +
                                      tuning.string());
    ASSERT_EQ(bench.exitCode, 0) << bench.output;
    const auto file = readTuningFile(tuning.string());
    ASSERT_TRUE(file && file->devices.size() == 1u);
    ASSERT_EQ(file->devices[0].sizes.size(), 2u);
    for (const TuningSize& s : file->devices[0].sizes) {
        EXPECT_EQ(s.best, 0u);
        EXPECT_GE(s.candidates.size(), 2u);  // off and at least one target were measured
    }
    expectFollows(runAuto("cpu", tuning, dir), 0);
}

TEST(TuningEndToEnd, MissingEntryFallsBackWithOneNoticeLine) {
    const fs::path dir = tuningDir("fallback");
    std::string output;
    const RunStats s = runAuto("cpu", dir / "absent.json", dir, &output);
    EXPECT_NE(
        output.find("clothsim: --phantoms auto: no tuning file " + (dir / "absent.json").string()),
        std::string::npos)
        << output;
    EXPECT_LE(s.colors, kDefaultAutoTarget);
    EXPECT_GT(s.phantomVertices, 0u);
    // The environment variable names the file too (ctest points it at a file that is absent).
    const auto r = runProgram("clothsim", "--headless --backend cpu --phantoms auto --frames 1");
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("no tuning file"), std::string::npos) << r.output;
}

TEST(TuningEndToEnd, MalformedFileFailsEveryProgramCleanlyOnlyWhenAutoIsAsked) {
    const fs::path dir = tuningDir("bad_e2e");
    const fs::path bad = dir / "bad.json";
    writeText(bad, oneSize("\"fast\""));
    const std::string flags = " --phantoms auto --tuning " + bad.string();
    const auto sim = runProgram("clothsim", "--headless --backend cpu --frames 1" + flags);
    const auto bench = runProgram("clothbench",
                                  "--grids 4 --warmup 0 --frames 1 --repeats 1"
                                  " --threads 1" +
                                      flags);
    const auto tune =
        runProgram("clothbench", "--tune-phantoms --grids 4 --tuning " + bad.string());
    for (const auto* r : {&sim, &bench, &tune}) {
        EXPECT_EQ(r->exitCode, 1) << r->output;
        EXPECT_NE(r->output.find("tuning file " + bad.string() + ": devices[0].sizes[0].best"),
                  std::string::npos)
            << r->output;
        EXPECT_EQ(r->output.find("Sanitizer"), std::string::npos) << r->output;
    }
    std::stringstream kept;  // clothbench --tune-phantoms did not overwrite it
    kept << std::ifstream(bad).rdbuf();
    EXPECT_EQ(kept.str(), oneSize("\"fast\""));
    const auto off = runProgram("clothsim",
                                "--headless --backend cpu --frames 1 --phantoms 8"
                                " --tuning " +
                                    bad.string());
    EXPECT_EQ(off.exitCode, 0) << off.output;  // the file is read only for auto
}
