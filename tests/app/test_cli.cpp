// clothsim's command line: good runs produce what they promise; bad input gives a clear message
// and a non-zero exit, never a crash.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <utility>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/options.h"
#include "core/error.h"
#include "core/mesh.h"
#include "../common/run_program.h"

using namespace cloth;
using test::runProgram;
namespace fs = std::filesystem;

namespace {

fs::path cliDir(const std::string& name) {
    return test::scratchDir("test", name);
}

void expectFailure(const std::string& args, const std::string& fragment) {
    const auto r = test::expectRefusal("clothsim", args, fragment);
    EXPECT_EQ(r.output.find("internal error"), std::string::npos) << r.output;
}

// A row of tests/data/bad/README.md, "| `file` | problem | `fragment` |": file and fragment.
// (Parsed by hand: std::regex draws false -Wmaybe-uninitialized warnings from GCC 12.)
std::optional<std::pair<std::string, std::string>> fixtureRow(const std::string& line) {
    if (line.rfind("| `", 0) != 0) return std::nullopt;
    const std::size_t fileEnd = line.find('`', 3);
    const std::size_t close = line.rfind("` |");
    if (fileEnd == std::string::npos || close == std::string::npos || close <= fileEnd)
        return std::nullopt;
    const std::size_t open = line.rfind('`', close - 1);
    if (open == std::string::npos || open <= fileEnd) return std::nullopt;
    return std::pair{line.substr(3, fileEnd - 3), line.substr(open + 1, close - open - 1)};
}

}  // namespace

TEST(Cli, ParsesEveryFlag) {
    const Options o = parseOptions({"--headless", "--scene", "curtain", "--frames", "7", "--backend",
                                    "cpu", "--substeps", "3", "--iterations", "4", "--solver", "pbd",
                                    "--threads", "2", "--stretch-compliance", "1e-6",
                                    "--bend-compliance", "0.5", "--export-obj", "out",
                                    "--export-every", "5", "--stats", "s.json", "--mesh", "m.obj",
                                    "--phantoms", "8", "--device", "1", "--validate"});
    EXPECT_TRUE(o.headless && o.validate);
    EXPECT_EQ(o.scene, "curtain");
    EXPECT_EQ(*o.frames, 7);
    EXPECT_EQ(*o.sim.substeps, 3);
    EXPECT_EQ(*o.sim.iterations, 4);
    EXPECT_EQ(*o.solver, SolverMode::Pbd);
    EXPECT_EQ(*o.threads, 2);
    EXPECT_FLOAT_EQ(*o.stretchCompliance, 1e-6f);
    EXPECT_FLOAT_EQ(*o.bendCompliance, 0.5f);
    EXPECT_EQ(o.exportObjDir, "out");
    EXPECT_EQ(o.exportEvery, 5);
    EXPECT_EQ(o.statsFile, "s.json");
    EXPECT_EQ(o.mesh, "m.obj");
    EXPECT_EQ(o.phantoms->mode, PhantomMode::Target);
    EXPECT_EQ(o.phantoms->targetColors, 8u);
    EXPECT_EQ(*o.device, 1);
    const Options q = parseOptions({"--phantom-method", "cliques", "--phantom-averaging", "color"});
    EXPECT_EQ(*q.phantomMethod, PhantomMethod::Cliques);
    EXPECT_TRUE(*q.phantomsEachColor);
    EXPECT_EQ(q.team, TeamMode::Adaptive) << "the default";
    EXPECT_EQ(parseOptions({"--team", "fixed"}).team, TeamMode::Fixed);
    EXPECT_EQ(parseOptions({"--team", "fixed", "--team", "adaptive"}).team, TeamMode::Adaptive);
    const Options it = parseOptions(
        {"--iteration", "chebyshev", "--relaxation", "1.2", "--rho", "0.95", "--warmup", "3"});
    EXPECT_EQ(*it.sim.iterationScheme, IterationScheme::Chebyshev);
    Scene scene = builtinScene("hanging");
    applyOverrides(it, scene);
    EXPECT_EQ(scene.sim.iteration.scheme, IterationScheme::Chebyshev);
    EXPECT_EQ(scene.sim.iteration.relaxation, 1.2f);
    EXPECT_EQ(scene.sim.iteration.rho, 0.95f);
    EXPECT_EQ(scene.sim.iteration.warmup, 3);
}

TEST(Cli, RefusesBadFlagsInProcess) {
    EXPECT_THROW(parseOptions({"--bogus"}), Error);
    EXPECT_THROW(parseOptions({"--frames"}), Error);
    EXPECT_THROW(parseOptions({"--frames", "ten"}), Error);
    EXPECT_THROW(parseOptions({"--frames", "-1"}), Error);
    EXPECT_THROW(parseOptions({"--substeps", "0"}), Error);
    EXPECT_THROW(parseOptions({"--iterations", "2.5"}), Error);
    EXPECT_THROW(parseOptions({"--threads", "0"}), Error);
    EXPECT_THROW(parseOptions({"--stretch-compliance", "-1"}), Error);
    EXPECT_THROW(parseOptions({"--bend-compliance", "nan"}), Error);
    EXPECT_THROW(parseOptions({"--bend-compliance", "inf"}), Error);
    EXPECT_THROW(parseOptions({"--solver", "verlet"}), Error);
    EXPECT_THROW(parseOptions({"--backend", "cuda"}), Error);
    EXPECT_THROW(parseOptions({"--export-every", "0"}), Error);
    EXPECT_THROW(parseOptions({"--phantoms", "many"}), Error);
    EXPECT_THROW(parseOptions({"--phantom-method", "greedy"}), Error);
    EXPECT_THROW(parseOptions({"--phantom-averaging", "sometimes"}), Error);
    EXPECT_THROW(parseOptions({"--iteration", "sor"}), Error);
    EXPECT_THROW(parseOptions({"--rho", "x"}), Error);
    EXPECT_THROW(parseOptions({"--warmup", "0"}), Error);
    EXPECT_THROW(parseOptions({"--team", "pinned"}), Error);
    EXPECT_THROW(parseOptions({"--team"}), Error);
    for (auto bad : {std::vector<std::string>{"--rho", "1"}, {"--relaxation", "2.5"},
                     {"--relaxation", "-1"}}) {
        Scene scene = builtinScene("hanging");
        EXPECT_THROW(applyOverrides(parseOptions(bad), scene), Error) << bad[0];
    }
}

TEST(Cli, BadFlagsExitNonZeroWithAMessage) {
    expectFailure("--bogus", "unknown option '--bogus'");
    expectFailure("--frames", "--frames: 1 required N missing");  // CLI11's wording
    expectFailure("--frames ten", "expected an integer");
    expectFailure("--substeps 0", "must be at least 1");
    expectFailure("--threads 0", "must be at least 1");
    // Ranges of decimals in the project's wording, not CLI11's ("Value 0 not in range ...").
    expectFailure("--memory-limit 0", "--memory-limit: must be at least 0.001, got 0");
    expectFailure("--spring-stiffness 0", "--spring-stiffness: must be above 0, got 0");
    expectFailure("--bend-rigidity 1e9", "--bend-rigidity: must be at most 1000, got 1e9");
    expectFailure("--team 2", "--team: expected adaptive or fixed, got '2'");
    expectFailure("--stretch-compliance -3", "must not be negative");
    expectFailure("--bend-compliance nan", "expected a finite number");
    expectFailure("--headless --frames 1 --iteration chebyshev --rho 1.5", "rho 1.500000 is outside");
    expectFailure("--headless --scene no_such_scene", "no_such_scene");
    expectFailure("--headless --scene /nonexistent/scene.json", "/nonexistent/scene.json");
    expectFailure("--headless --mesh /nonexistent/cloth.obj", "/nonexistent/cloth.obj");
    expectFailure("--headless --frames 1 --backend cpu --export-obj /proc/clothsim_no", "/proc/clothsim_no");
    expectFailure("--headless --frames 1 --backend cpu --stats /nonexistent/dir/s.json",
                  "/nonexistent/dir/s.json");
}

TEST(Cli, HelpAndSceneListSucceed) {
    const auto help = runProgram("clothsim", "--help");
    EXPECT_EQ(help.exitCode, 0);
    for (const char* flag : {"--headless", "--scene", "--frames", "--backend", "--mesh", "--substeps",
                             "--iterations", "--solver", "--threads", "--stretch-compliance",
                             "--bend-compliance", "--export-obj", "--export-every", "--stats",
                             "--metrics", "--list-scenes"})
        EXPECT_NE(help.output.find(flag), std::string::npos) << flag;
    const auto list = runProgram("clothsim", "--list-scenes");
    EXPECT_EQ(list.exitCode, 0);
    for (const char* scene : {"hanging", "curtain", "swirl", "drop"})
        EXPECT_NE(list.output.find(scene), std::string::npos) << scene;
}

// --help is generated from the flags' definitions (CLI11): the description line, the groups,
// each flag with the form of its value, and the detail of the old usage text (defaults, allowed
// values, the window's keys).
TEST(Cli, HelpIsGeneratedFromTheFlags) {
    const auto help = runProgram("clothsim", "--help");
    ASSERT_EQ(help.exitCode, 0) << help.output;
    for (const char* text :
         {"clothsim: real-time XPBD cloth simulation", "Usage: clothsim [OPTIONS]", "General:",
          "Scene:", "Solver:", "Iteration scheme:", "Phantom vertices:", "Output:",
          "-h,--help", "--scene NAME|FILE.json", "--backend cpu|gpu|auto", "--device N",
          "--threads N", "--phantoms off|auto|N", "--iteration gs|jacobi|chebyshev",
          "--solver xpbd|pbd", "--size WxH", "--tuning FILE", "(default: sphere)",
          "(default: auto = GPU if available, else CPU)", "space pause, N step",
          "Exit status: 0 on success, 1 on bad input"})
        EXPECT_NE(help.output.find(text), std::string::npos) << text << "\n" << help.output;
    EXPECT_EQ(runProgram("clothsim", "-h").output, help.output);
    EXPECT_EQ(usageText(), help.output);
    EXPECT_TRUE(parseOptions({"--frames", "3", "--help"}).help);
    EXPECT_TRUE(parseOptions({"--frames", "ten", "--help", "--bogus"}).help);  // help first
    EXPECT_FALSE(parseOptions({"--frames", "3"}).help);
}

// Unknown flags and stray arguments are refused with their name; a bad value of an enum flag
// names the flag, the allowed values and the value; one line, exit 1.
TEST(Cli, UnknownFlagsAndBadChoicesAreRefusedByName) {
    for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
             {"--bogus --headless", "clothsim: error: unknown option '--bogus' (see --help)"},
             {"--headless stray", "clothsim: error: unexpected argument 'stray' (see --help)"},
             {"--backend cuda",
              "clothsim: error: --backend: expected cpu, gpu or auto, got 'cuda'"},
             {"--solver verlet", "--solver: expected xpbd or pbd, got 'verlet'"},
             {"--iteration sor", "--iteration: expected gs, jacobi or chebyshev, got 'sor'"},
             {"--phantom-method greedy",
              "--phantom-method: expected repair or cliques, got 'greedy'"},
             {"--phantom-averaging sometimes",
              "--phantom-averaging: expected iteration or color, got 'sometimes'"},
             {"--phantoms many", "--phantoms: bad phantom setting 'many'"},
             {"--size 640", "--size: expected WxH (e.g. 1280x720), got '640'"},
             {"--size 12x12", "--size: must be at least 16, got 12"},
             {"--size 20000x20", "--size: at most 16384x16384, got 20000x20"},
             {"--rho 1", "--rho: rho 1.000000 is outside [0, 1)"},
             {"--relaxation x", "--relaxation: expected a finite number, got 'x'"},
             {"--screenshot shot.bmp",
              "--screenshot: expected a file ending in .png, .jpg or .jpeg (any case), got "
              "'shot.bmp'"},
             {"--headless --screenshot shot", "--screenshot: expected a file ending in .png"}}) {
        SCOPED_TRACE(args);
        const auto r = test::expectRefusal("clothsim", args, message);
        EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    }
    EXPECT_THROW(parseOptions({"--headless", "--", "--frames"}), Error);
}

// --screenshot takes PNG and JPEG names in any case (the format follows the extension).
TEST(Cli, ScreenshotExtensions) {
    for (const char* name : {"a.png", "b.PNG", "c.jpg", "d.JPEG", "dir/e.jpeg"})
        EXPECT_EQ(parseOptions({"--screenshot", name}).screenshot, name);
    EXPECT_THROW(parseOptions({"--screenshot", "f.gif"}), Error);
}

// As before CLI11: the last of a repeated flag wins; integers are decimal ("010" is ten).
TEST(Cli, RepeatedFlagsAndDecimalIntegers) {
    EXPECT_EQ(*parseOptions({"--frames", "3", "--frames", "5"}).frames, 5);
    EXPECT_EQ(*parseOptions({"--substeps", "010"}).sim.substeps, 10);
    EXPECT_EQ(*parseOptions({"--frames=7"}).frames, 7);
    EXPECT_EQ(parseOptions({"--backend", "gpu", "--backend", "cpu"}).backend, "cpu");
    EXPECT_THROW(parseOptions({"--substeps", "0x10"}), Error);
    EXPECT_EQ(*parseOptions({"--size", "640x480"}).size, std::make_pair(640, 480));
}

TEST(Cli, HeadlessRunWritesStatsAndObjFrames) {
    const fs::path dir = cliDir("export");
    const fs::path stats = dir / "stats.json";
    const auto r = runProgram("clothsim", "--headless --backend cpu --scene hanging --frames 6 --threads 2 "
                                          "--team fixed --export-obj " + (dir / "obj").string() +
                                          " --export-every 3 --stats " + stats.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    // Frames 0, 3 and 6 were written, with every vertex and triangle of the scene.
    for (const char* f : {"frame_0000.obj", "frame_0003.obj", "frame_0006.obj"})
        EXPECT_TRUE(fs::exists(dir / "obj" / f)) << f;
    EXPECT_FALSE(fs::exists(dir / "obj" / "frame_0001.obj"));
    const Mesh first = loadObj((dir / "obj" / "frame_0000.obj").string());
    const Mesh last = loadObj((dir / "obj" / "frame_0006.obj").string());
    ASSERT_EQ(first.positions.size(), last.positions.size());
    EXPECT_EQ(first.triangles, last.triangles);

    std::ifstream in(stats);
    const nlohmann::json j = nlohmann::json::parse(in);
    EXPECT_EQ(j["vertices"].get<std::size_t>(), first.positions.size());
    EXPECT_EQ(j["triangles"].get<std::size_t>(), first.triangles.size());
    EXPECT_EQ(j["frames"], 6);
    EXPECT_EQ(j["backend"], "cpu");
    EXPECT_EQ(j["threads"], 2);
    // --team fixed: every frame on both threads, and the reason counted (cpu/team.h).
    EXPECT_EQ(j["threads_used"], 2);
    EXPECT_EQ(j["team"]["mode"], "fixed");
    EXPECT_EQ(j["team"]["frames"], nlohmann::json({{"fixed", 6}}));
    EXPECT_NE(r.output.find("team fixed, 2 of 2 threads (fixed: 6 frames)"), std::string::npos)
        << r.output;
    EXPECT_GT(j["colors"].get<int>(), 1);
    EXPECT_GT(j["constraints"]["distance"].get<int>(), 0);
    EXPECT_GT(j["constraints"]["bending"].get<int>(), 0);
    for (const char* k : {"mean", "min", "max"}) EXPECT_GT(j["ms_per_frame"][k].get<double>(), 0.0);
    EXPECT_GE(j["ms_per_frame"]["max"].get<double>(), j["ms_per_frame"]["min"].get<double>());
    for (const char* k : {"wind", "predict", "distance", "bending", "velocities", "normals"})
        EXPECT_TRUE(j["stages_ms"].contains(k)) << k;
    EXPECT_EQ(j["stages_ms"]["wind"].get<double>(), 0.0);  // no wind in `hanging`
    EXPECT_TRUE(j["wind"].is_null());
    fs::remove_all(dir);
}

// Fewer threads used than the solver has: the backend line says why (the team's reason), not
// only that (`drop`, 1,089 vertices, is too small for two threads to pay).
TEST(Cli, FewerThreadsUsedSayWhy) {
    const auto r = runProgram("clothsim", "--headless --backend cpu --scene drop --frames 2 --threads 2");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("2 threads, 1 used by the last frame: small cloth)"), std::string::npos)
        << r.output;
}

// --model mass_spring with --integrator and --spring-stiffness: the run reports its springs and
// its steps (7 per substep for 500 N/m on `hanging`: the plan's own figures, checked against
// stability in tests/cpu/test_mass_spring.cpp); the GPU runs it with validation on (its bits:
// clothcheck.mass_spring*); bad values are refused by name.
TEST(Cli, ProjectiveDynamicsRunsOnTheCpuAndReportsItsTerms) {
    const fs::path dir = cliDir("pd");
    const fs::path stats = dir / "stats.json";
    const auto r = runProgram("clothsim", "--headless --backend cpu --scene sphere --frames 3 "
                                          "--model pd --iterations 5 --stats " + stats.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    // 48 x 48 quads: 4608 triangles; interior edges 2 * 48 * 47 + 48 * 48 = 6816.
    EXPECT_NE(r.output.find("4608 strain and 6816 bending terms (model pd, 5 local/global "
                            "iterations per substep)"),
              std::string::npos)
        << r.output;
    std::ifstream in(stats);
    const nlohmann::json j = nlohmann::json::parse(in);
    EXPECT_EQ(j["model"], "pd");
    EXPECT_EQ(j["pd"]["factorizations"], 1.0);
    EXPECT_GT(j["collisions"]["colliders"].get<int>(), 0);
    // The direct (LDLT) global step is the CPU's only: the GPU asks for the Jacobi one.
    expectFailure("--headless --backend gpu --scene hanging --frames 1 --model pd",
                  "model pd on the GPU: iteration gs (the direct LDLT global step) is not built "
                  "for it; the GPU runs the Jacobi global step");
    // The Jacobi global step (Chebyshev-accelerated) on the CPU: no factor.
    const auto c = runProgram("clothsim", "--headless --backend cpu --scene hanging --frames 2 "
                                          "--model pd --iteration chebyshev --relaxation 0.5 "
                                          "--stretch-compliance 1e-4 --stats " + stats.string());
    ASSERT_EQ(c.exitCode, 0) << c.output;
    std::ifstream cin(stats);
    const nlohmann::json jc = nlohmann::json::parse(cin);
    EXPECT_EQ(jc["pd"]["factorizations"], 0.0);
    fs::remove_all(dir);
    // A relaxation past the bound that converges on every cloth (prep/projective.h).
    expectFailure("--headless --backend cpu --scene hanging --frames 1 --model pd --iteration jacobi",
                  "model pd: the Jacobi global step (iteration jacobi) converges on every cloth "
                  "only with a relaxation of at most 0.5, got 1;");
    // The swirl's top corners ride hard attachments on circles: this model runs them now.
    const auto swirl = runProgram("clothsim", "--headless --backend cpu --scene swirl --frames 2 "
                                              "--model pd --stretch-compliance 1e-4");
    EXPECT_EQ(swirl.exitCode, 0) << swirl.output;
    // The tube's seams: PD's seam terms (tests/cpu/test_models_seams.cpp).
    const auto tube = runProgram("clothsim", "--headless --backend cpu --scene " +
                                                 std::string(CLOTH_TEST_SOURCE_DIR) +
                                                 "/assets/scenes/tube.json --frames 1 --model pd");
    EXPECT_EQ(tube.exitCode, 0) << tube.output;
    EXPECT_NE(tube.output.find("bending and 42 seam terms"), std::string::npos) << tube.output;
    // pleats.json's creases: PD's fixed-angle terms (tests/cpu/test_pd_fixed_angle.cpp), in place
    // of their edges' bends (5 creases of 20 edges); the angle springs of mass_spring and fem
    // (tests/cpu/test_models_fixed_angle.cpp), one per crease edge.
    const std::string pleats = std::string(CLOTH_TEST_SOURCE_DIR) + "/assets/scenes/pleats.json";
    const auto pleated = runProgram("clothsim", "--headless --backend cpu --scene " + pleats +
                                                    " --frames 1 --model pd");
    EXPECT_EQ(pleated.exitCode, 0) << pleated.output;
    EXPECT_NE(pleated.output.find("960 strain, 1296 bending and 100 fixed-angle terms"),
              std::string::npos)
        << pleated.output;
    const auto femPleated = runProgram("clothsim", "--headless --backend cpu --scene " + pleats +
                                                       " --frames 1 --model fem");
    EXPECT_EQ(femPleated.exitCode, 0) << femPleated.output;
    EXPECT_NE(femPleated.output.find("960 membrane elements, 1296 bending terms and 100 angle springs"),
              std::string::npos)
        << femPleated.output;
    expectFailure("--headless --backend cpu --scene " + std::string(CLOTH_TEST_SOURCE_DIR) +
                      "/assets/scenes/self_collision.json --frames 1 --model pd",
                  "/assets/scenes/self_collision.json: model pd on the CPU reference: "
                  "self-collision is not built for it");  // the file given, then the table's refusal
}

TEST(Cli, FemRunsOnTheCpuAndWarnsWhenItsSolvesStopShort) {
    const fs::path dir = cliDir("fem");
    const fs::path stats = dir / "stats.json";
    const auto r = runProgram("clothsim", "--headless --backend cpu --scene hanging --frames 2 "
                                          "--model fem --stretch-compliance 1e-3 --stats " +
                                              stats.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("2048 membrane elements, 3008 bending terms (model fem, backward "
                            "Euler by conjugate "
                            "gradients to 1e-06)"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("warning: model fem"), std::string::npos) << r.output;
    std::ifstream in(stats);
    const nlohmann::json j = nlohmann::json::parse(in);
    EXPECT_EQ(j["model"], "fem");
    EXPECT_EQ(j["fem"]["bending_terms"], 3008);
    EXPECT_EQ(j["fem"]["cg_unconverged_steps"], 0.0);
    EXPECT_GT(j["fem"]["cg_iterations_per_frame"].get<double>(), 0.0);
    fs::remove_all(dir);
    // The default material (1e8 N/m) in at most 5 CG iterations a step: stopped short, said so.
    const fs::path scene = dir.parent_path() / "fem_short.json";
    {
        std::ofstream out(scene);
        out << R"({"name": "short", "model": "fem", "fem": {"max_iterations": 5},
                   "cloths": [{"name": "c", "grid": {"width": 1, "height": 1, "resolution": [8, 8]},
                               "pins": {"regions": ["top_corners"]}}]})";
    }
    const auto s = runProgram("clothsim", "--headless --backend cpu --frames 2 --scene " + scene.string());
    EXPECT_EQ(s.exitCode, 0) << s.output;
    EXPECT_NE(s.output.find("warning: model fem: the conjugate gradients stopped at "
                            "fem.max_iterations short of fem.tolerance"),
              std::string::npos)
        << s.output;
    fs::remove(scene);
    expectFailure("--headless --backend gpu --scene hanging --frames 1 --model fem",
                  "model fem on the GPU: the model is not built for it; the CPU reference runs it");
}

TEST(Cli, MassSpringModelRunsOnTheCpuAndReportsItsSteps) {
    const fs::path dir = cliDir("mass_spring");
    const fs::path stats = dir / "stats.json";
    const auto r = runProgram("clothsim", "--headless --backend cpu --scene hanging --frames 3 "
                                          "--model mass_spring --integrator verlet "
                                          "--spring-stiffness 500 --stats " + stats.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("6206 springs (model mass_spring, verlet of "), std::string::npos)
        << r.output;
    std::ifstream in(stats);
    const nlohmann::json j = nlohmann::json::parse(in);
    EXPECT_EQ(j["model"], "mass_spring");
    EXPECT_EQ(j["mass_spring"]["integrator"], "verlet");
    EXPECT_EQ(j["mass_spring"]["springs"]["structural"], 2 * 33 * 32);
    EXPECT_GT(j["mass_spring"]["steps_per_substep"].get<double>(), 1.0);
    EXPECT_LE(j["mass_spring"]["step_s"].get<double>(), j["mass_spring"]["step_limit_s"].get<double>());
    fs::remove_all(dir);
    const auto gpu = runProgram("clothsim", "--headless --backend gpu --validate --scene hanging "
                                            "--frames 2 --model mass_spring --spring-stiffness 500");
    if (gpu.output.find("no Vulkan device") == std::string::npos || std::getenv("CI")) {
        EXPECT_EQ(gpu.exitCode, 0) << gpu.output;
    }
    expectFailure("--headless --scene hanging --model fem2", "--model");
    expectFailure("--headless --scene hanging --integrator rk4", "--integrator");
    expectFailure("--headless --scene hanging --spring-stiffness -5", "--spring-stiffness");
    // The swirl's top corners ride hard attachments on circles: this model runs them now.
    const auto swirl = runProgram("clothsim", "--headless --backend cpu --scene swirl --frames 2 "
                                              "--model mass_spring --spring-stiffness 500");
    EXPECT_EQ(swirl.exitCode, 0) << swirl.output;
    // The tube's seams: springs of rest length 0 (tests/cpu/test_models_seams.cpp).
    const auto tube = runProgram("clothsim", "--headless --backend cpu --scene " +
                                                 std::string(CLOTH_TEST_SOURCE_DIR) +
                                                 "/assets/scenes/tube.json --frames 1 "
                                                 "--model mass_spring --spring-stiffness 500");
    EXPECT_EQ(tube.exitCode, 0) << tube.output;
    expectFailure("--headless --backend cpu --scene " + std::string(CLOTH_TEST_SOURCE_DIR) +
                      "/assets/scenes/self_collision.json --frames 1 --model mass_spring "
                      "--spring-stiffness 500",
                  "/assets/scenes/self_collision.json: model mass_spring on the CPU reference: "
                  "self-collision is not built for it; model xpbd runs it");
}

// Headless, the flags of the window and of images would do nothing: each is refused by name.
TEST(Cli, HeadlessRunsRefuseFlagsThatWouldDoNothing) {
    expectFailure("--headless --backend cpu --scene hanging --frames 1 --size 640x480",
                  "--size sets the size of the window or of images");
    expectFailure("--headless --backend cpu --scene hanging --frames 1 --no-vsync",
                  "--no-vsync applies to the window");
    expectFailure("--headless --backend cpu --scene hanging --frames 1 --texture plain",
                  "--texture sets how the cloths look in the window or in images");
    expectFailure("--headless --backend cpu --scene hanging --frames 1 --export-every 3",
                  "--export-every needs --export-obj, --export-gltf, --record or --video");
}

// A scene with wind reports it, and the time of its stage.
TEST(Cli, StatsOfAWindyScene) {
    const fs::path dir = cliDir("wind");
    const fs::path stats = dir / "stats.json";
    const fs::path flag = fs::path(test::sourceDir()) / "assets" / "scenes" / "flag.json";
    const auto r = runProgram("clothsim", "--headless --backend cpu --frames 3 --scene " +
                                              flag.string() + " --stats " + stats.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    std::ifstream in(stats);
    const nlohmann::json j = nlohmann::json::parse(in);
    EXPECT_EQ(j["wind"]["velocity"], nlohmann::json({8.0, 0.0, 6.0}));
    EXPECT_FLOAT_EQ(j["wind"]["drag"].get<float>(), 0.106f);
    EXPECT_GT(j["stages_ms"]["wind"].get<double>(), 0.0);
    fs::remove_all(dir);
}

TEST(Cli, MeshFlagReplacesTheClothAndKeepsNamedPins) {
    const fs::path dir = cliDir("mesh");
    // A 3x2-vertex strip as an OBJ; the hanging scene pins its top corners.
    const Mesh strip = makeGrid({0.5f, 0.25f, 2, 1, GridPattern::Regular, 1});
    saveObj((dir / "strip.obj").string(), strip.positions, strip.triangles);
    const auto r = runProgram("clothsim", "--headless --backend cpu --scene hanging --frames 30 --mesh " +
                                              (dir / "strip.obj").string() + " --export-obj " +
                                              (dir / "out").string() + " --export-every 30");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const Mesh end = loadObj((dir / "out" / "frame_0030.obj").string());
    ASSERT_EQ(end.positions.size(), 6u);
    // Vertices 0 and 2 (top corners) stay put relative to each other; the bottom fell.
    EXPECT_NEAR(glm::distance(end.positions[0], end.positions[2]), 0.5f, 1e-4f);
    EXPECT_LT(end.positions[4].y, end.positions[1].y);
    fs::remove_all(dir);
}

// Every bad-input fixture (tests/data/bad/README.md lists file and expected message fragment)
// fails through the command line with its message and exit code 1.
TEST(Cli, EveryBadInputFixtureFailsCleanly) {
    const fs::path dir = fs::path(test::sourceDir()) / "tests" / "data" / "bad";
    std::ifstream table(dir / "README.md");
    ASSERT_TRUE(table) << "missing " << (dir / "README.md");
    std::string line;
    int checked = 0;
    while (std::getline(table, line)) {
        const auto row = fixtureRow(line);
        if (!row) continue;
        const auto& [name, fragment] = *row;
        const std::string file = (dir / name).string();
        const bool isMesh = file.size() > 4 && file.substr(file.size() - 4) == ".obj";
        const std::string args = std::string("--headless --backend cpu --frames 1 ") +
                                 (isMesh ? "--mesh " : "--scene ") + file;
        SCOPED_TRACE(name);
        // One run, both fragments looked for in its output (it was run once for each).
        const auto r = test::expectRefusal("clothsim", args, fragment);
        EXPECT_EQ(r.output.find("internal error"), std::string::npos) << r.output;
        EXPECT_NE(r.output.find(name), std::string::npos)  // the message names the file
            << "clothsim " << args << ": expected '" << name << "' in:\n" << r.output;
        ++checked;
    }
    EXPECT_GE(checked, 20);
}

// A scene far larger than this machine's memory is refused at once, from its description, not
// after minutes of allocating: 32000 x 32000 quads need about 240 GiB for the solver's arrays.
TEST(Cli, SceneLargerThanMemoryIsRefusedAtOnce) {
    const double memory = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
    if (memory > 200.0 * (1ull << 30)) GTEST_SKIP() << "this machine has over 200 GiB of memory";
    const fs::path dir = cliDir("huge");
    const fs::path scene = dir / "huge.json";
    std::ofstream(scene) << R"({"name": "huge", "cloths": [{"grid": )"
                         << R"({"resolution": [32000, 32000]}, "pins": {"regions": ["top_corners"]}}]})";
    for (const char* backend : {"cpu", "auto"}) {
        SCOPED_TRACE(backend);
        expectFailure(std::string("--headless --frames 1 --backend ") + backend + " --scene " +
                          scene.string(),
                      "scene 'huge' is too large: needs about");
    }
}

// Issue 15: flag values beyond the limits scene files have, or beyond what a float holds, are
// refused with the flag and the limit; an integer that is merely too large says so.
TEST(Cli, FlagLimitsNameTheFlagAndTheLimit) {
    expectFailure("--substeps 1000000", "--substeps: must be at most 10000, got 1000000");
    expectFailure("--iterations 1000000", "--iterations: must be at most 10000, got 1000000");
    expectFailure("--frames 99999999999", "--frames: must be at most 2147483647, got 99999999999");
    expectFailure("--frames -99999999999", "--frames: must be at least 0");
    expectFailure("--threads 1000000", "--threads: must be at most 1024");
    expectFailure("--stretch-compliance 1e39",
                  "--stretch-compliance: 1e39 is softer than any material");
    expectFailure("--bend-compliance 1e7", "--bend-compliance: 1e7 is softer than any material");
    EXPECT_EQ(*parseOptions({"--substeps", "10000"}).sim.substeps, 10000);
    EXPECT_EQ(*parseOptions({"--frames", "2147483647"}).frames, 2147483647);
}

// Only regular files are read as meshes, scenes and tuning files: /dev/zero and a FIFO are
// refused at once with the file named (a FIFO used to block forever, /dev/zero to fill memory).
TEST(Cli, NonRegularInputFilesAreRefused) {
    const fs::path dir = cliDir("fifo");
    const fs::path fifo = dir / "pipe.obj";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    expectFailure("--headless --backend cpu --frames 1 --mesh /dev/zero",
                  "/dev/zero: cannot read file: it is a character device, not a regular file");
    expectFailure("--headless --backend cpu --frames 1 --scene /dev/zero", "/dev/zero");
    expectFailure("--headless --backend cpu --frames 1 --mesh " + fifo.string(),
                  fifo.string() + ": cannot read file: it is a FIFO");
    expectFailure("--headless --backend cpu --frames 1 --phantoms auto --tuning /dev/zero",
                  "tuning file /dev/zero: cannot read file: it is a character device");
    expectFailure("--headless --backend cpu --frames 1 --phantoms auto --tuning " + fifo.string(),
                  "it is a FIFO");
    // The same file named by the environment (CLOTHSIM_TUNING; the tests set it to a file
    // that does not exist, restored below).
    const char* before = std::getenv("CLOTHSIM_TUNING");
    const std::string saved = before ? before : "";
    ::setenv("CLOTHSIM_TUNING", "/dev/zero", 1);
    expectFailure("--headless --backend cpu --frames 1 --phantoms auto",
                  "tuning file /dev/zero: cannot read file: it is a character device");
    if (before)
        ::setenv("CLOTHSIM_TUNING", saved.c_str(), 1);
    else
        ::unsetenv("CLOTHSIM_TUNING");
    fs::remove_all(dir);
}

// Output files: a FIFO that no process reads is refused at once (it blocked forever), a full
// device is a write error (it was a silent success), a directory is named as the problem.
TEST(Cli, OutputFilesReportEveryWriteError) {
    const fs::path dir = cliDir("outputs");
    const fs::path fifo = dir / "stats.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string run = "--headless --backend cpu --frames 1 --scene drop ";
    expectFailure(run + "--stats " + fifo.string(),
                  fifo.string() + ": cannot write file: it is a FIFO that no process is reading");
    expectFailure(run + "--stats /dev/full", "/dev/full: cannot write file: No space left");
    expectFailure(run + "--stats " + dir.string(),
                  dir.string() + ": cannot write file: Is a directory");
    expectFailure(run + "--export-obj /dev/null",
                  "--export-obj /dev/null: cannot create directory");
    const auto ok = runProgram("clothsim", run + "--stats /dev/null");
    EXPECT_EQ(ok.exitCode, 0) << ok.output;
    fs::remove_all(dir);
}

// Values that would freeze or collapse the cloth, or overflow the solver, are refused at load
// with the reason, also when they reach the builder without a scene file (--mesh).
TEST(Cli, MeaninglessPhysicsIsRefusedAtLoad) {
    const fs::path dir = cliDir("physics");
    const auto tri = [&](const std::string& name, float size) {
        const fs::path p = dir / name;
        saveObj(p.string(), {{0, 0, 0}, {size, 0, 0}, {0, size, 0}, {size, size, 0}},
                {{0, 1, 2}, {1, 3, 2}});
        return p.string();
    };
    expectFailure("--headless --backend cpu --frames 1 --mesh " + tri("tiny.obj", 1e-20f),
                  "too small to simulate");
    expectFailure("--headless --backend cpu --frames 1 --mesh " + tri("huge.obj", 1e38f),
                  "beyond the sane range of positions");
    fs::remove_all(dir);
}
