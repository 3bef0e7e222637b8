// The command-line pieces clothsim, clothbench and clothcheck share (app/cli.h), and clothcheck's
// command line (its bad input exits 2; none of these runs needs a Vulkan device).
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "app/cli.h"
#include "core/error.h"
#include "../common/run_program.h"

using namespace cloth;
using test::runProgram;

namespace {

// `problem` from the validator for `text`, and the text as CLI11 then converts it.
std::pair<std::string, std::string> check(const CLI::Validator& v, std::string text) {
    std::string problem = v(text);
    return {problem, text};
}

void expectClothcheckRefusal(const std::string& args, const std::string& fragment) {
    SCOPED_TRACE(args);
    const auto r = runProgram("clothcheck", args);
    EXPECT_EQ(r.exitCode, 2) << r.output;
    EXPECT_NE(r.output.find(fragment), std::string::npos) << "expected '" << fragment << "' in:\n"
                                                          << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    EXPECT_EQ(r.output.find("Sanitizer"), std::string::npos) << r.output;
}

}  // namespace

TEST(CliShared, IntegerValidatorChecksRangesAndWritesDecimal) {
    const CLI::Validator v = cli::integer(1, 10000);
    EXPECT_EQ(check(v, "42"), std::make_pair(std::string(), std::string("42")));
    EXPECT_EQ(check(v, "010").second, "10");  // decimal, where CLI11 alone reads octal
    EXPECT_EQ(check(v, "ten").first, "expected an integer, got 'ten'");
    EXPECT_EQ(check(v, "2.5").first, "expected an integer, got '2.5'");
    EXPECT_EQ(check(v, "").first, "expected an integer, got ''");
    EXPECT_EQ(check(v, "0").first, "must be at least 1, got 0");
    EXPECT_EQ(check(v, "10001").first, "must be at most 10000, got 10001");
    EXPECT_EQ(check(v, "99999999999999999999").first,
              "must be at most 10000, got 99999999999999999999");
    EXPECT_EQ(check(v, "-99999999999999999999").first,
              "must be at least 1, got -99999999999999999999");
}

TEST(CliShared, NumberValidators) {
    EXPECT_EQ(check(cli::finite(), "1e-3").first, "");
    EXPECT_EQ(check(cli::finite(), "nan").first, "expected a finite number, got 'nan'");
    EXPECT_EQ(check(cli::nonNegative(), "-1").first, "expected a number >= 0, got '-1'");
    EXPECT_EQ(check(cli::compliance(), "0").first, "");
    EXPECT_EQ(check(cli::compliance(), "-3").first, "must not be negative, got -3");
    EXPECT_EQ(check(cli::compliance(), "inf").first, "expected a finite number, got 'inf'");
    EXPECT_EQ(check(cli::compliance(), "2e6").first,
              "2e6 is softer than any material (at most 1e6)");
    EXPECT_EQ(check(cli::rhoRange(), "0.9").first, "");
    EXPECT_NE(check(cli::rhoRange(), "1").first.find("rho 1.000000 is outside [0, 1)"),
              std::string::npos);
    EXPECT_NE(
        check(cli::relaxationRange(), "0").first.find("relaxation 0.000000 is outside (0, 2)"),
        std::string::npos);
}

TEST(CliShared, ChoicesAndLists) {
    EXPECT_EQ(check(cli::oneOf({"cpu", "gpu", "all"}), "gpu").first, "");
    EXPECT_EQ(check(cli::oneOf({"cpu", "gpu", "all"}), "fpga").first,
              "expected cpu, gpu or all, got 'fpga'");
    EXPECT_EQ(check(cli::oneOf({"on", "off"}), "").first, "expected on or off, got ''");
    EXPECT_EQ(cli::parseIntList("32,64", 1), (std::vector<int>{32, 64}));
    EXPECT_EQ(cli::parseIntList("7", 0, 10), (std::vector<int>{7}));
    try {
        cli::parseIntList("1,2000", 1, 1024);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "must be at most 1024, got 2000");
    }
    EXPECT_THROW(cli::parseIntList("", 1), Error);
    EXPECT_THROW(cli::parseIntList("1,,2", 1), Error);
    EXPECT_THROW(cli::parseIntList("0", 1), Error);
}

// The shared flags on an app of their own: parse() refuses unknown flags and names the flag of a
// bad value, and answers true for --help.
TEST(CliShared, ParseRefusesUnknownFlagsAndNamesTheFlag) {
    std::optional<int> device, threads;
    std::optional<PhantomSetting> phantoms;
    std::optional<IterationScheme> iteration;
    std::vector<int> grids = {1};
    bool validate = false;
    const auto make = [&](CLI::App& app) {
        cli::configure(app);
        cli::addDevice(app, device);
        cli::addThreads(app, threads);
        cli::addPhantoms(app, phantoms);
        cli::addIteration(app, iteration);
        cli::addValidate(app, validate);
        cli::addIntList(app, "--grids", grids, 1, 100, "grids");
    };
    const auto parse = [&](const std::vector<std::string>& args) {
        CLI::App app;
        make(app);
        return cli::parse(app, args);
    };
    const auto message = [&](const std::vector<std::string>& args) -> std::string {
        try {
            parse(args);
        } catch (const Error& e) {
            return e.what();
        }
        return "(no error)";
    };
    EXPECT_FALSE(parse({"--device", "1", "--threads", "4", "--phantoms", "auto", "--iteration",
                        "jacobi", "--validate", "--grids", "3,4"}));
    EXPECT_EQ(*device, 1);
    EXPECT_EQ(*threads, 4);
    EXPECT_EQ(phantoms->mode, PhantomMode::Auto);
    EXPECT_EQ(*iteration, IterationScheme::Jacobi);
    EXPECT_TRUE(validate);
    EXPECT_EQ(grids, (std::vector<int>{3, 4}));
    EXPECT_TRUE(parse({"--help"}));
    EXPECT_EQ(message({"--bogus"}), "unknown option '--bogus' (see --help)");
    EXPECT_EQ(message({"stray"}), "unexpected argument 'stray' (see --help)");
    EXPECT_EQ(message({"--threads", "2000"}), "--threads: must be at most 1024, got 2000");
    EXPECT_EQ(message({"--grids", "1,x"}),
              "--grids: expected a comma-separated list of integers >= 1, got '1,x'");
    EXPECT_EQ(message({"--iteration", "sor"}),
              "--iteration: expected gs, jacobi or chebyshev, got 'sor'");
    EXPECT_EQ(message({"--phantoms", "0"}).rfind("--phantoms: bad phantom setting '0'", 0), 0u);
    EXPECT_EQ(message({"--device"}), "--device: 1 required N missing");
    CLI::App app;
    make(app);
    const std::string help = app.help();
    for (const char* flag : {"--device N", "--threads N", "--phantoms off|auto|N",
                             "--iteration gs|jacobi|chebyshev", "--validate", "--grids LIST"})
        EXPECT_NE(help.find(flag), std::string::npos) << flag << "\n" << help;
}

TEST(ClothcheckCli, HelpIsGeneratedFromTheFlags) {
    const auto help = runProgram("clothcheck", "--help");
    ASSERT_EQ(help.exitCode, 0) << help.output;
    for (const char* text :
         {"clothcheck: runs the scene on the CPU reference and on the Vulkan solver",
          "Usage: clothcheck [OPTIONS]", "General:", "Solver:", "Vulkan:", "-h,--help",
          "--scene NAME|FILE REQUIRED", "--tolerance T", "--phantoms off|auto|N",
          "--iteration gs|jacobi|chebyshev", "--device N", "--validate", "--workgroup-size N",
          "--skip-without-device", "--mode exact|resync", "--resync-every K",
          "Exit status: 0 when"})
        EXPECT_NE(help.output.find(text), std::string::npos) << text << "\n" << help.output;
    EXPECT_EQ(runProgram("clothcheck", "-h").output, help.output);
}

TEST(ClothcheckCli, BadInputExitsTwoNamingTheFlag) {
    expectClothcheckRefusal("--scene hanging --bogus", "clothcheck: unknown option '--bogus'");
    expectClothcheckRefusal("--frames 3", "clothcheck: --scene is required");
    expectClothcheckRefusal("--scene hanging --iteration sor",
                            "clothcheck: --iteration: expected gs, jacobi or chebyshev, got 'sor'");
    expectClothcheckRefusal("--scene hanging --phantoms lots",
                            "clothcheck: --phantoms: bad phantom setting 'lots'");
    expectClothcheckRefusal("--scene hanging --frames 0", "--frames: must be at least 1, got 0");
    expectClothcheckRefusal("--scene hanging --tolerance -1",
                            "--tolerance: expected a number >= 0, got '-1'");
    expectClothcheckRefusal("--scene hanging --threads 2000",
                            "--threads: must be at most 1024, got 2000");
    expectClothcheckRefusal("--scene hanging --workgroup-size x",
                            "--workgroup-size: expected an integer, got 'x'");
    expectClothcheckRefusal("--scene hanging --json", "--json: 1 required FILE missing");
}

// --start-frame: the CPU reference runs the first frames alone and both backends go on from its
// state, equal to the last bit (the hanging cloth, frames 6-8); the frames are numbered on.
// --min-self-pairs fails a check whose scene never reaches the asked number of close pairs (the
// hanging cloth has no self-collision: none).
TEST(ClothcheckCli, StartFrameAndMinSelfPairs) {
    const auto ok = runProgram("clothcheck", "--scene hanging --start-frame 5 --frames 3 "
                                             "--tolerance 0 --skip-without-device");
    if (ok.exitCode == 77) GTEST_SKIP() << ok.output;
    EXPECT_EQ(ok.exitCode, 0) << ok.output;
    EXPECT_NE(ok.output.find("ran frames 1-5 alone"), std::string::npos) << ok.output;
    EXPECT_NE(ok.output.find("\n     8 "), std::string::npos) << ok.output;
    EXPECT_EQ(ok.output.find("\n     1 "), std::string::npos) << ok.output;
    const auto unreached = runProgram("clothcheck", "--scene hanging --frames 2 "
                                                    "--min-self-pairs 1 --skip-without-device");
    EXPECT_EQ(unreached.exitCode, 1) << unreached.output;
    EXPECT_NE(unreached.output.find("at most 0 close triangle pairs"), std::string::npos)
        << unreached.output;
    EXPECT_NE(unreached.output.find("NOT REACHED"), std::string::npos) << unreached.output;
    expectClothcheckRefusal("--scene hanging --start-frame -1",
                            "--start-frame: must be at least 0, got -1");
}

// --fps in every program that runs scenes, and clothsim's --start-frame: one message naming the
// flag, a non-zero exit (clothcheck's bad input exits 2).
TEST(CliShared, FrameRateAndStartFrameAreRefusedByName) {
    const std::pair<const char*, const char*> fps[] = {
        {"0", "--fps: must be between 1 and 1000 frames per second, got 0"},
        {"-24", "--fps: must be between 1 and 1000 frames per second, got -24"},
        {"1001", "--fps: must be between 1 and 1000 frames per second, got 1001"},
        {"nan", "--fps: expected a finite number, got 'nan'"},
        {"abc", "--fps: expected a finite number, got 'abc'"},
    };
    for (const auto& [value, fragment] : fps) {
        for (const auto& [program, run] :
             {std::pair{"clothsim", "--headless --fps "}, std::pair{"clothbench", "--fps "}}) {
            const auto r = runProgram(program, std::string(run) + value);
            SCOPED_TRACE(std::string(program) + " --fps " + value);
            EXPECT_EQ(r.exitCode, 1) << r.output;
            EXPECT_NE(r.output.find(fragment), std::string::npos) << r.output;
        }
        expectClothcheckRefusal(std::string("--scene drop --fps ") + value, fragment);
    }
    for (const auto& [value, fragment] :
         {std::pair{"1.5", "--start-frame: expected an integer, got '1.5'"},
          std::pair{"-1", "--start-frame: must be at least 0, got -1"},
          std::pair{"10000001", "--start-frame: must be at most 10000000"}}) {
        const auto r = runProgram("clothsim", std::string("--headless --start-frame ") + value);
        EXPECT_EQ(r.exitCode, 1) << r.output;
        EXPECT_NE(r.output.find(fragment), std::string::npos) << r.output;
    }
}
