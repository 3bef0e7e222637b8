// What clothsim and clothbench tell the person running them, end to end: a progress line on a
// terminal and none in a pipe, the warning when the cloth stretched past 20% of its edges' rest
// lengths, and the shipped scene files in --list-scenes.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "../common/run_program.h"

namespace cloth {
namespace {

namespace fs = std::filesystem;
using test::runProgramIn;

// `program args` in `cwd` under script(1), which gives it a pseudo-terminal for stdin, stdout
// and stderr: what it printed there, both streams together. `args` must hold no double quote.
test::ProgramResult runOnTerminal(const std::string& program, const std::string& args,
                                  const fs::path& cwd) {
    const std::string command = "cd '" + cwd.string() + "' && script -qec \"'" + test::buildDir() +
                                "/" + program + "' " + args + "\" /dev/null 2>&1";
    test::ProgramResult r;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return r;
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, n);
    r.exitCode = test::exitCodeOf(pclose(pipe));
    return r;
}

constexpr const char* kStretchWarning = "warning: edges stretched by up to";

// The same run prints its progress on a terminal (the first update at once, then erased) and
// nothing extra when stderr is a pipe and the run ends within 5 s (a log's first line comes
// after 5 s: test_progress.cpp); --quiet prints nothing on a terminal either.
TEST(RunReports, ProgressOnATerminalOnly) {
    const fs::path dir = test::scratchDir("reports", "progress");
    const std::string run = "--headless --backend cpu --threads 1 --scene curtain --frames 5";
    const auto tty = runOnTerminal("clothsim", run, dir);
    ASSERT_EQ(tty.exitCode, 0) << tty.output;
    EXPECT_NE(tty.output.find("\rclothsim: frame 1 of 5, "), std::string::npos) << tty.output;
    EXPECT_NE(tty.output.find(" ms/frame, "), std::string::npos) << tty.output;
    EXPECT_NE(tty.output.find("\r\x1b[K"), std::string::npos) << "the line is not erased";

    const auto quiet = runOnTerminal("clothsim", run + " --quiet", dir);
    ASSERT_EQ(quiet.exitCode, 0) << quiet.output;
    EXPECT_EQ(quiet.output.find("frame 1 of 5"), std::string::npos) << quiet.output;
    EXPECT_EQ(quiet.output.find("\rclothsim:"), std::string::npos) << quiet.output;
    EXPECT_NE(quiet.output.find("scene curtain"), std::string::npos) << quiet.output;

    const auto piped = runProgramIn("clothsim", run, dir);
    ASSERT_EQ(piped.exitCode, 0) << piped.err;
    EXPECT_EQ(piped.err, "");  // no progress and no warning: the curtain stays within 5%
    EXPECT_EQ(piped.out.find('\r'), std::string::npos) << piped.out;
    EXPECT_NE(piped.out.find("scene curtain"), std::string::npos) << piped.out;

    const std::string bench =
        "--grids 4 --threads 1 --cpu-kernels best --warmup 1 --frames 1 --repeats 1";
    const auto benchTty = runOnTerminal("clothbench", bench, dir);
    ASSERT_EQ(benchTty.exitCode, 0) << benchTty.output;
    EXPECT_NE(benchTty.output.find("\rclothbench: cpu 4x4, 1 threads, "), std::string::npos)
        << benchTty.output;
    const auto benchQuiet = runOnTerminal("clothbench", bench + " --quiet", dir);
    ASSERT_EQ(benchQuiet.exitCode, 0) << benchQuiet.output;
    EXPECT_EQ(benchQuiet.output.find("\rclothbench:"), std::string::npos) << benchQuiet.output;
    EXPECT_NE(benchQuiet.output.find("cpu       4x4"), std::string::npos) << benchQuiet.output;
    const auto benchPiped = runProgramIn("clothbench", bench, dir);
    ASSERT_EQ(benchPiped.exitCode, 0) << benchPiped.err;
    EXPECT_EQ(benchPiped.err, "");
    fs::remove_all(dir);
}

// One substep of one iteration a frame lets the hanging cloth's edges stretch by several times
// their length; ten iterations hold the curtain within 5%. Plain headless runs check every 10th
// frame (or every frame with --metrics).
TEST(RunReports, StretchWarningOnlyWhenTheClothStretches) {
    const fs::path dir = test::scratchDir("reports", "stretch");
    for (const char* extra : {"", " --metrics m.csv"}) {
        SCOPED_TRACE(extra);
        const auto soft = runProgramIn(
            "clothsim",
            std::string("--headless --backend cpu --scene hanging --frames 20 --substeps 1 "
                        "--iterations 1") +
                extra,
            dir);
        ASSERT_EQ(soft.exitCode, 0) << soft.err;
        EXPECT_EQ(soft.err.rfind(std::string("clothsim: ") + kStretchWarning, 0), 0u) << soft.err;
        // `hanging` has tethers (the default): the cure says so rather than advising them.
        EXPECT_NE(soft.err.find("past 20%: raise --iterations or --substeps (the cloth's tethers "
                                "already tie it to the pins)"),
                  std::string::npos)
            << soft.err;
        EXPECT_EQ(std::count(soft.err.begin(), soft.err.end(), '\n'), 1) << soft.err;
        const auto firm = runProgramIn(
            "clothsim", std::string("--headless --backend cpu --scene curtain --frames 20") + extra,
            dir);
        ASSERT_EQ(firm.exitCode, 0) << firm.err;
        EXPECT_EQ(firm.err.find(kStretchWarning), std::string::npos) << firm.err;
    }
    // clothbench: the timed cloth's stretch one frame after the timing.
    const std::string bench =
        "--grids 8 --threads 1 --cpu-kernels best --warmup 10 --frames 2 --repeats 1";
    const auto soft =
        runProgramIn("clothbench", bench + " --substeps 1 --iterations 1 --tethers off", dir);
    ASSERT_EQ(soft.exitCode, 0) << soft.err;
    EXPECT_NE(soft.err.find(std::string("clothbench: ") + kStretchWarning), std::string::npos)
        << soft.err;
    EXPECT_NE(soft.err.find("(grid 8 on cpu after 13 frames; 1 of 1 runs), past 20%"),
              std::string::npos)
        << soft.err;
    EXPECT_NE(soft.err.find("or turn --tethers on"), std::string::npos) << soft.err;
    const auto firm = runProgramIn("clothbench", bench + " --iterations 10", dir);
    ASSERT_EQ(firm.exitCode, 0) << firm.err;
    EXPECT_EQ(firm.err.find(kStretchWarning), std::string::npos) << firm.err;
    fs::remove_all(dir);
}

// --list-scenes: the built-in scenes, then every shipped scene file with its name.
TEST(RunReports, ListScenesShowsTheShippedFiles) {
    const fs::path dir = test::scratchDir("reports", "list");
    const auto r = runProgramIn("clothsim", "--list-scenes", dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out.rfind("hanging\t", 0), 0u) << r.out;
    std::size_t files = 0;
    for (const auto& e : fs::directory_iterator(fs::path(test::sourceDir()) / "assets" / "scenes"))
        if (e.path().extension() == ".json") {
            ++files;
            const std::string row = "assets/scenes/" + e.path().filename().string() + "\t";
            EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
        }
    EXPECT_GE(files, 20u);
    EXPECT_NE(r.out.find("assets/scenes/flag.json\tflag\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("assets/scenes/multiple_objects.json\tmultiple_objects\n"),
              std::string::npos);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace cloth
