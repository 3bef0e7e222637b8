// clothcheck's modes (docs/backends.md, "Checking a GPU that rounds differently"): exact (every
// frame from the same start) and resync (the CPU reference takes the GPU's state, both start
// over from it, and each frame is judged against the error model's tolerance). On lavapipe,
// which rounds as the CPU does, a resync's discrepancy is exactly 0 while the error model's draws
// (the reference in the other rounding modes) move: the model measures something.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../common/run_program.h"

namespace fs = std::filesystem;
using cloth::test::runProgram;

namespace {

const std::string kFlag = std::string(CLOTH_TEST_SOURCE_DIR) + "/assets/scenes/flag.json";

nlohmann::json readReport(const fs::path& p) {
    std::ifstream in(p);
    return nlohmann::json::parse(in);
}

}  // namespace

// Resync every frame on the hanging cloth: the discrepancy is 0 in every frame (the same state,
// the same bits), the draws spread (each mode moves the frame), and the tolerance is the model's
// multiple of the spread at the frame closest to it.
TEST(ClothcheckModes, ResyncOnLavapipeIsExactAndTheModelSpreads) {
    const fs::path dir = cloth::test::scratchDir("test", "clothcheck_resync");
    const fs::path out = dir / "resync.json";
    const auto r = runProgram("clothcheck", "--scene hanging --mode resync --frames 8 --json " +
                                                out.string() + " --skip-without-device");
    if (r.exitCode == 77) GTEST_SKIP() << r.output;
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const nlohmann::json j = readReport(out);
    EXPECT_EQ(j["mode"], "resync");
    EXPECT_EQ(j["worst"]["max_rel"].get<double>(), 0.0) << r.output;
    EXPECT_EQ(j["frames_over"], 0);
    const double spread = j["closest"]["spread"].get<double>();
    EXPECT_GT(spread, 0.0) << "the rounding modes did not move the frame:\n" << r.output;
    // A frame's rounding (1.4e-4 of the diagonal at the scene's 60 substeps, 8.6e-6 at 10: it
    // grows with the substeps), not a different simulation (a swing moves the cloth by its size).
    EXPECT_LT(spread, 1e-3) << r.output;
    EXPECT_GE(j["closest"]["tolerance"].get<double>(),
              j["spread_multiple"].get<double>() * spread);
    EXPECT_NE(r.output.find("mode resync"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("x the spread of 3 draws of the CPU reference"), std::string::npos)
        << r.output;
    // The draws round the same stages the same way on any number of threads: the same spread.
    const fs::path one = dir / "one_thread.json";
    const auto r1 = runProgram("clothcheck", "--scene hanging --mode resync --frames 8 --threads 1 "
                                             "--json " + one.string());
    ASSERT_EQ(r1.exitCode, 0) << r1.output;
    EXPECT_EQ(readReport(one)["closest"], j["closest"]) << r1.output;
    fs::remove_all(dir);
}

// --substeps and --iterations override the scene's (hanging steps 60 substeps of 1 iteration);
// the JSON records what ran, and a count out of range is refused by name.
TEST(ClothcheckModes, SubstepsAndIterationsOverrideTheScenes) {
    const fs::path dir = cloth::test::scratchDir("test", "clothcheck_substeps");
    const fs::path own = dir / "own.json", set = dir / "set.json";
    const auto r = runProgram("clothcheck", "--scene hanging --frames 1 --skip-without-device "
                                            "--json " + own.string());
    if (r.exitCode == 77) GTEST_SKIP() << r.output;
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(readReport(own)["substeps_per_frame"], 60);
    EXPECT_EQ(readReport(own)["iterations"], 1);
    const auto r2 = runProgram("clothcheck", "--scene hanging --frames 1 --substeps 7 "
                                             "--iterations 3 --json " + set.string());
    ASSERT_EQ(r2.exitCode, 0) << r2.output;
    EXPECT_EQ(readReport(set)["substeps_per_frame"], 7);
    EXPECT_EQ(readReport(set)["iterations"], 3);
    const auto bad = runProgram("clothcheck", "--scene hanging --substeps 0");
    EXPECT_EQ(bad.exitCode, 2) << bad.output;
    EXPECT_NE(bad.output.find("--substeps"), std::string::npos) << bad.output;
    fs::remove_all(dir);
}

// The default mode on lavapipe is exact, at tolerance 0; --mode is refused by name when wrong.
TEST(ClothcheckModes, ExactIsLavapipesDefaultAndBadModesAreRefused) {
    const auto r = runProgram("clothcheck", "--scene hanging --frames 2 --skip-without-device");
    if (r.exitCode == 77) GTEST_SKIP() << r.output;
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("mode exact; tolerance: 0 (equal positions)"), std::string::npos)
        << r.output;
    const auto bad = runProgram("clothcheck", "--scene hanging --mode close");
    EXPECT_EQ(bad.exitCode, 2) << bad.output;
    EXPECT_NE(bad.output.find("clothcheck: --mode: expected exact or resync, got 'close'"),
              std::string::npos)
        << bad.output;
    const auto every = runProgram("clothcheck", "--scene hanging --resync-every 0");
    EXPECT_EQ(every.exitCode, 2) << every.output;
    EXPECT_NE(every.output.find("--resync-every: must be at least 1, got 0"), std::string::npos)
        << every.output;
}

// A tolerance given by hand replaces the model's, and a discrepancy past it fails: resync every
// 4 frames with the GPU restarted from its own state, still 0 at tolerance 0.
TEST(ClothcheckModes, ResyncEveryKFramesStaysExact) {
    const auto r = runProgram("clothcheck", "--scene swirl --mode resync --resync-every 4 "
                                            "--frames 9 --tolerance 0 --skip-without-device");
    if (r.exitCode == 77) GTEST_SKIP() << r.output;
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("every 4 frames; tolerance: given (--tolerance)"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("0 of 9 frames over: ok"), std::string::npos) << r.output;
}

// A device that rounds differently (--emulate-rounding): exact comparison fails (the emulation
// changes bits), resync passes (every frame within the error model's tolerance), and its
// discrepancy is not 0.
TEST(ClothcheckModes, EmulatedRoundingFailsExactAndPassesResync) {
    const fs::path dir = cloth::test::scratchDir("test", "clothcheck_emulated");
    const auto exact = runProgram("clothcheck", "--scene " + kFlag + " --frames 10 --mode exact "
                                                "--emulate-rounding 1 --skip-without-device");
    if (exact.exitCode == 77) GTEST_SKIP() << exact.output;
    EXPECT_EQ(exact.exitCode, 1) << exact.output;
    EXPECT_NE(exact.output.find("EXCEEDED"), std::string::npos) << exact.output;
    const fs::path out = dir / "resync.json";
    const auto resync = runProgram("clothcheck", "--scene " + kFlag + " --frames 10 "
                                                 "--emulate-rounding 1 --json " + out.string());
    EXPECT_EQ(resync.exitCode, 0) << resync.output;
    EXPECT_NE(resync.output.find("mode resync"), std::string::npos) << resync.output;
    const nlohmann::json j = readReport(out);
    EXPECT_GT(j["worst"]["max_rel"].get<double>(), 0.0) << resync.output;
    EXPECT_EQ(j["frames_over"], 0) << resync.output;
    EXPECT_EQ(j["emulate_rounding"], 1);
    fs::remove_all(dir);
}

// Seeded bugs in the GPU side fail resync under the emulated rounding: a colour left out of one
// iteration of each frame's first substep, a distance constraint's gradient with the wrong sign
// at one vertex, the compliances 1% too large on the tube (its seams), collider contacts dropped,
// two colours without the barrier between them; refused where they cannot apply. The flag runs
// at 15 substeps, not its own 140: a bug in one substep weighs less in a frame of more substeps,
// whose rounding spreads more (docs/backends.md).
TEST(ClothcheckModes, InjectedBugsFailResync) {
    const auto tube = runProgram("clothcheck", "--scene " + std::string(CLOTH_TEST_SOURCE_DIR) +
                                                   "/assets/scenes/tube.json --frames 10 "
                                                   "--emulate-rounding 1 --skip-without-device "
                                                   "--inject compliance --inject-scale 1e-2");
    if (tube.exitCode == 77) GTEST_SKIP() << tube.output;
    EXPECT_EQ(tube.exitCode, 1) << tube.output;
    EXPECT_NE(tube.output.find("EXCEEDED"), std::string::npos) << tube.output;
    for (const char* bug : {"--inject skip-colour", "--inject gradient-sign"}) {
        SCOPED_TRACE(bug);
        const auto r = runProgram("clothcheck", "--scene " + kFlag +
                                                    " --substeps 15 --frames 10 --emulate-rounding 1 "
                                                    "--skip-without-device " + std::string(bug));
        if (r.exitCode == 77) GTEST_SKIP() << r.output;
        EXPECT_EQ(r.exitCode, 1) << r.output;
        EXPECT_NE(r.output.find("injected into the GPU side"), std::string::npos) << r.output;
        EXPECT_NE(r.output.find("EXCEEDED"), std::string::npos) << r.output;
    }
    // On the collider test scene (a cloth falling onto shapes and a ground): colliders' contacts
    // dropped at one vertex in 97; colours 0 and 1 of one iteration per frame solved without the
    // barrier between them, which reorders the updates of the vertices they share (on
    // llvmpipe; a race on GPUs) and moves a frame by 4e-4 of the diagonal against a tolerance
    // of 6e-6 once the cloth lies on the shapes (frame 19; 1e-7 while it falls: frame 9).
    for (const char* bug : {"--inject drop-contact", "--inject missing-barrier"}) {
        SCOPED_TRACE(bug);
        const auto r = runProgram("clothcheck", "--scene " + std::string(CLOTH_TEST_SOURCE_DIR) +
                                                    "/tests/data/gpu/colliders.json --frames 20 "
                                                    "--emulate-rounding 1 " + std::string(bug));
        EXPECT_EQ(r.exitCode, 1) << r.output;
        EXPECT_NE(r.output.find("EXCEEDED"), std::string::npos) << r.output;
    }
    const auto noCollider = runProgram("clothcheck", "--scene hanging --frames 1 "
                                                     "--inject drop-contact");
    EXPECT_EQ(noCollider.exitCode, 2) << noCollider.output;
    EXPECT_NE(noCollider.output.find("the scene has no collider"), std::string::npos)
        << noCollider.output;
    const auto jacobi = runProgram("clothcheck", "--scene hanging --frames 1 --iteration jacobi "
                                                 "--inject skip-colour --skip-without-device");
    if (jacobi.exitCode == 77) GTEST_SKIP() << jacobi.output;
    EXPECT_EQ(jacobi.exitCode, 2) << jacobi.output;
    EXPECT_NE(jacobi.output.find("--inject skip-colour is a bug of the Gauss-Seidel colour passes"),
              std::string::npos)
        << jacobi.output;
    const auto model = runProgram("clothcheck", "--scene hanging --frames 1 --model mass_spring "
                                                "--inject compliance --skip-without-device");
    EXPECT_EQ(model.exitCode, 2) << model.output;
    EXPECT_NE(model.output.find("the scene's model is mass_spring"), std::string::npos)
        << model.output;
    const auto bad = runProgram("clothcheck", "--scene hanging --inject typo");
    EXPECT_EQ(bad.exitCode, 2) << bad.output;
    EXPECT_NE(bad.output.find("--inject: expected compliance, skip-colour, gradient-sign, "
                              "missing-barrier or drop-contact, got 'typo'"),
              std::string::npos)
        << bad.output;
}
