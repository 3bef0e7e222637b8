// clothbench's throughput table (the numbers themselves are never asserted: timing is for the
// benchmark, not for tests): the records it writes and its refusal of bad options.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cpu/batch_kernels.h"
#include "../common/run_program.h"

using namespace cloth;
using test::runProgram;
namespace fs = std::filesystem;

namespace {

fs::path benchDir(const std::string& name) {
    return test::scratchDir("bench", name);
}

void expectRefused(const std::string& args, const std::string& fragment) {
    test::expectRefusal("clothbench", args, fragment);
}

// clothbench with `args` and --json into `json`: its result and, when it exited with 0, the
// JSON it wrote (else null).
struct BenchRun {
    test::ProgramResult result;
    nlohmann::json doc;
};

BenchRun runBench(const fs::path& json, const std::string& args) {
    BenchRun run{runProgram("clothbench", args + " --json " + json.string()), nullptr};
    if (run.result.exitCode == 0) {
        std::ifstream in(json);
        run.doc = nlohmann::json::parse(in);
    }
    return run;
}

}  // namespace

// One record per grid, kernel variant and thread count, each naming its kernels; "best" is the
// variant the solver uses by default.
TEST(Clothbench, CpuKernelsAreMeasuredAndRecorded) {
    const auto [r, doc] = runBench(benchDir("kernels") / "bench.json",
                                   "--grids 3,4 --threads 1,2 --cpu-kernels scalar,best"
                                   " --warmup 0 --frames 1 --repeats 1");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    ASSERT_EQ(doc["runs"].size(), 8u);
    std::set<std::string> seen;
    for (const auto& run : doc["runs"]) {
        EXPECT_EQ(run["backend"], "cpu");
        seen.insert(run["cpu_kernels"].get<std::string>() + "/" +
                    std::to_string(run["grid"].get<int>()) + "/" +
                    std::to_string(run["threads"].get<int>()));
        EXPECT_GT(run["solves_per_second"].get<double>(), 0.0);
        // What the timed cloth looks like one frame after the timing (app/metrics.h).
        const nlohmann::json& a = run["accuracy"];
        EXPECT_EQ(a["after_frames"].get<int>(), 0 + 1 * 1 + 1);
        EXPECT_GE(a["max_stretch"].get<double>(), a["mean_stretch"].get<double>());
        EXPECT_GT(a["lowest_drop_m"].get<double>(), 0.0);  // it hangs from two corners
        EXPECT_GT(a["kinetic_energy"].get<double>(), 0.0);
        EXPECT_GE(a["residual_max"].get<double>(), 0.0);
        // Stretch, bending and (the default) tethers to the two pins.
        EXPECT_TRUE(run["tethers"].get<bool>());
        EXPECT_GT(run["constraints"]["tethers"].get<int>(), 0);
        EXPECT_EQ(run["constraints"]["distance"].get<int>() +
                      run["constraints"]["bending"].get<int>() +
                      run["constraints"]["tethers"].get<int>(),
                  run["constraints"]["total"].get<int>());
    }
    const std::string best = batchIsaName(bestBatchIsa());
    for (const std::string& k : {std::string("scalar"), best})
        for (int g : {3, 4})
            for (int t : {1, 2})
                EXPECT_TRUE(seen.count(k + "/" + std::to_string(g) + "/" + std::to_string(t)))
                    << k << " " << g << " " << t;
    EXPECT_NE(r.output.find("scalar"), std::string::npos) << r.output;  // in the printed table
}

// --team fixed: every frame of every run on all of --threads, each counted as fixed; adaptive
// (the default) says why in the same object.
TEST(Clothbench, TheTeamObjectSaysWhyFramesRanOnTheirThreads) {
    const auto [r, doc] = runBench(benchDir("team") / "bench.json",
                                   "--grids 4 --threads 1,2 --team fixed --warmup 1 --frames 2 "
                                   "--repeats 1");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    ASSERT_EQ(doc["runs"].size(), 2u);
    for (const auto& run : doc["runs"]) {
        const nlohmann::json& team = run["team"];
        EXPECT_EQ(team["mode"], "fixed");
        EXPECT_EQ(team["threads_used"], run["threads"]);
        EXPECT_EQ(run["threads_used"], run["threads"]);
        EXPECT_EQ(team["reason"], "fixed");
        ASSERT_EQ(team["frames"].size(), 1u) << team.dump();
        EXPECT_GT(team["frames"]["fixed"].get<int>(), 0);
    }
    // A 4 x 4 cloth is too small for two threads: adaptive runs it on one, and says so.
    const auto [a, adaptive] = runBench(benchDir("team_adaptive") / "bench.json",
                                        "--grids 4 --threads 2 --warmup 1 --frames 2 --repeats 1");
    ASSERT_EQ(a.exitCode, 0) << a.output;
    const nlohmann::json& team = adaptive["runs"][0]["team"];
    EXPECT_EQ(team["mode"], "adaptive");
    EXPECT_EQ(team["threads_used"], 1);
    EXPECT_EQ(team["reason"], "small cloth");
}

TEST(Clothbench, BadOptionsAreRefused) {
    expectRefused("--cpu-kernels neon", "--cpu-kernels: expected a comma-separated list");
    expectRefused("--cpu-kernels ''", "--cpu-kernels: empty list");
    if (!batchIsaAvailable(BatchIsa::Avx2))
        expectRefused("--cpu-kernels avx2", "avx2 is not available on this CPU");
    if (!batchIsaAvailable(BatchIsa::Avx512))
        expectRefused("--cpu-kernels avx512", "avx512 is not available on this CPU");
    expectRefused("--grids 0", "--grids: expected a comma-separated list of integers >= 1");
    expectRefused("--backend fpga", "--backend: expected cpu, gpu or all");
    expectRefused("--substeps 1000000", "--substeps: must be at most 10000, got 1000000");
    expectRefused("--iterations 1000000", "--iterations: must be at most 10000");
    expectRefused("--threads 1,1000000", "--threads: must be at most 1024, got 1000000");
    expectRefused("--frames 99999999999", "--frames: must be at most 2147483647");
    expectRefused("--no-such-option 1", "unknown option '--no-such-option'");
    expectRefused("--solver gs", "--solver: expected xpbd or pbd");
    expectRefused("--tethers maybe", "--tethers: expected on or off");
    expectRefused("--team pinned", "--team: expected adaptive or fixed, got 'pinned'");
    expectRefused("--team", "--team: 1 required");
    expectRefused("--team fixed --work-per-thread 5",
                  "--team fixed runs every frame on all of --threads: --work-per-thread 5 does "
                  "not apply");
    // The compliance check clothsim makes (app/cli.h), with its words.
    expectRefused("--stretch-compliance -1", "--stretch-compliance: must not be negative, got -1");
    expectRefused("--bend-compliance 1e7", "--bend-compliance: 1e7 is softer than any material");
    expectRefused("--convergence --schemes gs,sor",
                  "--schemes: expected gs, jacobi, chebyshev:RHO or phantoms:TARGET, got 'sor'");
    expectRefused("--convergence --schemes chebyshev:1.5", "rho 1.500000 is outside [0, 1)");
    expectRefused("--convergence --experiment storm", "--experiment: expected substep, horizontal");
    expectRefused("--relaxation 2", "relaxation 2.000000 is outside (0, 2)");
    expectRefused("--collisions --grids 16,8",
                  "--collisions: grids must be at least 10 (four layers and three folds of two "
                  "edges), got 8");
}

// --help is generated from the flags' definitions (CLI11), in groups, with the old usage text's
// detail (defaults, allowed values) in each flag's description.
TEST(Clothbench, HelpIsGeneratedFromTheFlags) {
    const auto help = runProgram("clothbench", "--help");
    ASSERT_EQ(help.exitCode, 0) << help.output;
    for (const char* text :
         {"clothbench: solver throughput on square grids", "Usage: clothbench [OPTIONS]",
          "General:", "Phantom vertices:", "Phantom tuning:", "Convergence:", "GPU:", "-h,--help",
          "--backend cpu|gpu|all", "--grids LIST", "--threads LIST", "--cpu-kernels LIST",
          "--tethers on|off", "--device N", "--workgroup-sizes LIST", "--tune-phantoms",
          "--convergence", "(default: 32,64,128,256)", "stages_ms from a separate profile run"})
        EXPECT_NE(help.output.find(text), std::string::npos) << text << "\n" << help.output;
    EXPECT_EQ(runProgram("clothbench", "-h").output, help.output);
    EXPECT_EQ(runProgram("clothbench", "--grids x --help").output, help.output);
}

// Unknown flags are refused by name; a bad value of a list flag or an enum flag names the flag;
// an integer flag takes one integer (it took the first of a list). One line, exit 1.
TEST(Clothbench, UnknownFlagsAndBadListsAndChoicesAreRefusedByName) {
    for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
             {"--bogus", "clothbench: error: unknown option '--bogus' (see --help)"},
             {"--grids 32,x",
              "clothbench: error: --grids: expected a comma-separated list of integers >= 1, got "
              "'32,x'"},
             {"--grids ''", "--grids: empty list"},
             {"--tune-targets 6,,8", "--tune-targets: expected a comma-separated list"},
             {"--workgroup-sizes 64,-1", "--workgroup-sizes: expected a comma-separated list"},
             {"--threads 0", "--threads: expected a comma-separated list of integers >= 1"},
             {"--backend auto",
              "clothbench: error: --backend: expected cpu, gpu or all, got 'auto'"},
             {"--iteration sor", "--iteration: expected gs, jacobi or chebyshev, got 'sor'"},
             {"--phantom-averaging x", "--phantom-averaging: expected iteration or color, got 'x'"},
             {"--collider cube", "--collider: expected none, sphere or mesh:PATH, got 'cube'"},
             {"--substeps 5,6", "--substeps: expected an integer, got '5,6'"},
             {"--device -1", "--device: must be at least 0, got -1"},
             {"--self-bound 0", "--self-bound: must be above 0, got 0"},
             {"--self-passes 2.5", "--self-passes: expected an integer, got '2.5'"},
             {"--stable-seconds 0", "--stable-seconds: must be at least 0.01, got 0"},
             {"--model-scenes hanging,foo",
              "--model-scenes: expected hanging, square5 or drape, got 'foo'"},
             {"--rho 1", "--rho: rho 1.000000 is outside [0, 1)"},
             {"--grids", "--grids: 1 required LIST missing"}}) {
        SCOPED_TRACE(args);
        const auto r = test::expectRefusal("clothbench", args, message);
        EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    }
}

// --iteration: the throughput rows run and record the scheme.
TEST(Clothbench, IterationSchemeRowsRecordTheirScheme) {
    const auto [r, doc] = runBench(benchDir("scheme") / "bench.json",
                                   "--grids 4 --threads 1 --iteration chebyshev --rho 0.7"
                                   " --iterations 3 --warmup 0 --frames 1 --repeats 1");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    ASSERT_EQ(doc["runs"].size(), 1u);
    const nlohmann::json& it = doc["runs"][0]["iteration"];
    EXPECT_EQ(it["scheme"], "chebyshev");
    EXPECT_FLOAT_EQ(it["rho"].get<float>(), 0.7f);
    EXPECT_GT(doc["runs"][0]["stages_ms"]["jacobi_sums"].get<double>(), 0.0);
}

// --collisions: the folded cloth's self-collision figures, with the triangle pairs that cross at
// the end of the timed run counted by brute force (none: the layers are kept apart). The folded
// cloth starts at rest (every edge at its rest length, the folds creased at their angles), so
// it settles without tearing at its folds: its longest edge stays within 5% of its rest length
// (the folds of stop 18, chords of half circles against bending's flat rest angle: 142% on
// this grid, and 4 crossing pairs).
TEST(Clothbench, CollisionRowsRecordStagesAndCrossings) {
    const auto [r, doc] = runBench(benchDir("collisions") / "bench.json",
                                   "--collisions --grids 12 --threads 1 --warmup 2"
                                   " --frames 1 --repeats 1");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    ASSERT_EQ(doc["runs"].size(), 1u);
    const nlohmann::json& c = doc["runs"][0]["self_collision"];
    EXPECT_EQ(c["crossing_triangle_pairs"].get<std::size_t>(), 0u);
    EXPECT_LT(doc["runs"][0]["accuracy"]["max_stretch"].get<double>(), 0.05);
    EXPECT_GT(c["candidate_pairs_per_vertex"].get<double>(), 0.0);
    EXPECT_GT(c["self_over_solver_without"].get<double>(), 0.0);
    EXPECT_NE(r.output.find("0 crossing triangle pairs at the end"), std::string::npos)
        << r.output;
}

// --convergence on a tiny grid, both kinds: the JSON has a curve per scheme with the residual
// falling for Gauss-Seidel, the reach table, and the frame experiments' per-frame metrics.
TEST(Clothbench, ConvergenceRunsRecordCurvesAndReach) {
    const auto [r, doc] = runBench(benchDir("convergence") / "c.json",
                                   "--convergence --grids 4 --backend cpu --threads 1 --warmup 0"
                                   " --frames 1 --repeats 1 --settle-frames 5 --max-iterations 64"
                                   " --stretch-compliance 1e-3 --schemes gs,jacobi,chebyshev:0.9,"
                                   "phantoms:6");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    ASSERT_EQ(doc["runs"].size(), 1u);
    const nlohmann::json& run = doc["runs"][0];
    EXPECT_GT(run["initial_residual"].get<double>(), 0.0);
    ASSERT_EQ(run["schemes"].size(), 4u);
    const nlohmann::json& gs = run["schemes"][0];
    EXPECT_EQ(gs["label"], "gs");
    ASSERT_EQ(gs["curve"].size(), 7u);  // 1, 2, 4, .. 64 iterations
    EXPECT_LT(gs["curve"][6]["relative"].get<double>(), gs["curve"][0]["relative"].get<double>());
    EXPECT_EQ(run["schemes"][3]["colours"].get<int>(), 6);
    for (const auto& s : run["schemes"]) EXPECT_EQ(s["reach"].size(), 3u);

    const auto [k, kd] = runBench(benchDir("convergence") / "k.json",
                                  "--convergence --experiment kick --grids 4 --backend cpu"
                                  " --threads 1 --frames 3 --substeps 2 --iterations 2"
                                  " --schemes gs,jacobi");
    ASSERT_EQ(k.exitCode, 0) << k.output;
    const nlohmann::json& kr = kd["runs"][0];
    EXPECT_EQ(kr["experiment"], "kick");
    for (const auto& s : kr["schemes"]) {
        ASSERT_EQ(s["frames"].size(), 3u);
        EXPECT_GT(s["frames"][0]["kinetic_energy"].get<double>(), 0.0);  // it was kicked
    }
}

// --solver pbd: the rows say so, and PBD's residual is C alone (the metrics still come).
TEST(Clothbench, PbdRunsAreRecordedAsPbd) {
    const auto [r, doc] = runBench(benchDir("pbd") / "bench.json",
                                   "--grids 4 --threads 1 --solver pbd --iterations 3"
                                   " --warmup 0 --frames 1 --repeats 1");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    ASSERT_EQ(doc["runs"].size(), 1u);
    EXPECT_EQ(doc["runs"][0]["solver"], "pbd");
    EXPECT_EQ(doc["runs"][0]["iterations"], 3);
    EXPECT_GT(doc["runs"][0]["accuracy"]["residual_max"].get<double>(), 0.0);
}

// --stable-step on the implicit models: tried from the cap (0.1 s, one step a frame) down, both
// stay stable there (backward Euler and projective dynamics have no step limit), on a 5 m
// cloth of Trendafilov 2021's springs (43 N/m as a membrane of compliance 1/43); XPBD is
// refused by name.
TEST(Clothbench, TheImplicitModelsAreStableAtTheStableStepsCap) {
    const fs::path dir = benchDir("stable_step");
    for (const char* model : {"fem", "pd"}) {
        const fs::path scene = dir / (std::string(model) + ".json");
        std::ofstream(scene) << R"({"name": "square5", "model": ")" << model << R"(",
            "cloths": [{"name": "cloth", "grid": {"width": 5, "height": 5, "resolution": [11, 11]},
            "transform": {"translate": [0, 5, 0]},
            "material": {"density": 0.16, "stretch_compliance": 0.02326},
            "pins": {"regions": ["top_corners"]}, "tethers": false}]})";
        const auto [r, doc] = runBench(dir / (std::string(model) + "_out.json"),
                                       "--stable-step --stable-seconds 0.5 --threads 1 --scene " +
                                           scene.string());
        ASSERT_EQ(r.exitCode, 0) << r.output;
        ASSERT_EQ(doc["rows"].size(), 1u);
        const auto& row = doc["rows"][0];
        EXPECT_EQ(row["model"], model);
        EXPECT_EQ(row["stable_at_cap"], true) << r.output;
        EXPECT_DOUBLE_EQ(row["bisected_step_s"].get<double>(), 0.1);
    }
    expectRefused("--stable-step --scene hanging", "model xpbd, which has no step limit");
}

// --stable-step --integrator adaptive_verlet: Trendafilov 2021's experiment on its heavy cloth.
// The naive remainder after a 0.0165 s step (0.16 ms) resonates at over 100 per second and runs
// off; the plan's rule shares that remainder (two equal steps) and stays; each row's growth is
// the period map's (docs/models.md "Unequal steps").
TEST(Clothbench, AdaptiveVerletsNaiveRemainderRunsOffWhereThePlansPatternDoesNot) {
    const auto [r, doc] = runBench(benchDir("adaptive") / "out.json",
                                   "--stable-step --stable-seconds 2 --integrator adaptive_verlet"
                                   " --scene " + test::sourceDir() +
                                       "/assets/scenes/trendafilov_springs_heavy.json");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const nlohmann::json& rows = doc["rows"];
    ASSERT_EQ(rows.size(), 6u) << r.output;
    for (const nlohmann::json& row : rows) {
        if (row["longest_step_s"].get<double>() != 0.0165) continue;
        const bool naive = row["pattern"] == "naive remainder";
        EXPECT_EQ(row["ran_off"], naive) << row.dump();
        if (naive)
            EXPECT_GT(row["growth_per_s"].get<double>(), 100.0);
        else
            EXPECT_LE(row["growth_per_s"].get<double>(), 1e-3);
    }
}

// --models on a 4 x 4 cloth, two rows: the reference row has no error against itself, each row
// its ms per frame, strain and error (the position difference every 10th frame); --model-rows
// picks the rows, and an unknown one is refused by name.
TEST(Clothbench, ModelsComparesTheChosenRowsWithTheReference) {
    const auto [r, doc] = runBench(benchDir("models") / "out.json",
                                   "--models --grids 4 --model-scenes hanging --model-frames 10"
                                   " --model-rows xpbd_gs,mass_spring");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const nlohmann::json& rows = doc["rows"];
    ASSERT_EQ(rows.size(), 3u) << r.output;
    EXPECT_EQ(rows[0]["model"], "reference");
    EXPECT_EQ(rows[0]["rms_error_of_size"].get<double>(), 0.0);
    EXPECT_EQ(rows[1]["model"], "xpbd_gs");
    EXPECT_EQ(rows[2]["model"], "mass_spring");
    for (const nlohmann::json& row : rows) {
        EXPECT_GT(row["ms_per_frame"].get<double>(), 0.0) << row.dump();
        EXPECT_GT(row["sag_m"].get<double>(), 0.0) << row.dump();  // the cloth hangs
    }
    for (int i : {1, 2}) {
        const double rms = rows[i]["rms_error_of_size"].get<double>();
        EXPECT_GT(rms, 0.0) << rows[i].dump();  // not the reference's own run
        EXPECT_LT(rms, 0.2) << rows[i].dump();
        EXPECT_LE(rms, rows[i]["max_error_of_size"].get<double>());
    }
    expectRefused("--models --grids 4 --model-rows xpbd_gs,bogus",
                  "--model-rows: expected xpbd_gs, xpbd_gs_more, xpbd_jacobi, xpbd_chebyshev, pd, "
                  "pd_more, pd_jacobi, pd_chebyshev, fem, fem_more or mass_spring, got 'bogus'");
}

// --model-preset puts every row, the reference's included, on a measured fabric: the JSON names
// it, and the reference hangs otherwise than on the default isotropic membrane (cotton: 0.22
// kg/m^2, 2 kN/m, 52 N/m in shear, against 0.2, 300 and 150); an unknown preset is refused.
TEST(Clothbench, ModelsRunOnAMaterialPreset) {
    const std::string common = "--models --grids 4 --model-scenes hanging --model-frames 10 "
                               "--model-rows xpbd_gs";
    const auto [r, doc] = runBench(benchDir("models_preset") / "out.json",
                                   common + " --model-preset cotton");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(doc["material"], "cotton");
    const auto [d, plain] = runBench(benchDir("models_plain") / "out.json", common);
    ASSERT_EQ(d.exitCode, 0) << d.output;
    EXPECT_EQ(plain["material"], "isotropic_300");
    ASSERT_EQ(doc["rows"].size(), 2u);
    ASSERT_EQ(plain["rows"].size(), 2u);
    EXPECT_NE(doc["rows"][0]["sag_m"].get<double>(), plain["rows"][0]["sag_m"].get<double>());
    expectRefused("--models --grids 4 --model-preset burlap", "--model-preset");
}
