// clothbench's command line: its flags, their help and their checks (CLI11, through app/cli.h).
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli.h"
#include "bench.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/material_presets.h"
#include "cpu/backend.h"

namespace cloth::bench {
namespace {

constexpr int kMaxSteps = int(limits::kMaxSubsteps);  // as in scene files and clothsim
using cli::kIntMax;

// --cpu-kernels: names of BatchIsa, or "best" for bestBatchIsa(); each must run on this CPU.
std::vector<BatchIsa> parseKernels(const std::string& text) {
    std::vector<BatchIsa> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        BatchIsa isa;
        try {
            isa = item == "best" ? bestBatchIsa() : batchIsaFromName(item);
        } catch (const Error&) {
            throw Error(
                "expected a comma-separated list of best, avx512, avx2, sse2, portable and "
                "scalar, got '" +
                text + "'");
        }
        if (!batchIsaAvailable(isa))
            throw Error(std::string(batchIsaName(isa)) + " is not available on this CPU (" +
                        cpuModelName() + ")");
        if (std::find(out.begin(), out.end(), isa) == out.end()) out.push_back(isa);
    }
    if (out.empty()) throw Error("empty list");
    return out;
}

// --schemes: the comma-separated names as they are (convergence_bench.cpp checks them).
std::vector<std::string> splitSchemes(const std::string& text) {
    std::vector<std::string> out;
    for (std::size_t b = 0; b <= text.size();) {
        std::size_t e = text.find(',', b);
        if (e == std::string::npos) e = text.size();
        out.push_back(text.substr(b, e - b));
        b = e + 1;
    }
    return out;
}

CLI::Validator colliderName() {
    return CLI::Validator(
        [](std::string& v) -> std::string {
            if (v == "none" || v == "sphere" || v.rfind("mesh:", 0) == 0) return "";
            return "expected none, sphere or mesh:PATH, got '" + v + "'";
        },
        "");
}

void defineOptions(CLI::App& app, BenchOptions& o) {
    using cli::addInt;
    app.name("clothbench");
    app.description("clothbench: solver throughput on square grids with stretch and bending");
    cli::configure(app);
    app.footer(
        "The GPU frame times come from runs without timestamps; stages_ms from a separate "
        "profile run of\nthe same size with timestamps and one dispatch per stage and "
        "constraint type.\n\nExit status: 0 on success, 1 on bad input or any error.");

    cli::addChoice(app, "--backend", o.backend, {"cpu", "gpu", "all"},
                   "backends to measure (default: cpu)");
    cli::addIntList(app, "--grids", o.grids, 1, kIntMax,
                    "grid resolutions in quads per side (default: 32,64,128,256)");
    cli::addIntList(app, "--threads", o.threads, 1, cli::kMaxThreads,
                    "CPU thread counts, each at most 1024 (default: 1 and all hardware threads)");
    cli::addInt(app, "--work-per-thread", o.workPerThread, 0, kIntMax,
                "the CPU solver's work per barrier of a substep that pays for one more thread "
                "(default: " + std::to_string(kCpuWorkPerThread) +
                    "; 0: every run on all of --threads); the threads a run used are reported "
                    "beside the threads asked for");
    cli::addTeam(app, o.team,
                 "CPU thread team: adaptive (default) runs each frame on the threads the cloth "
                 "and the machine's load allow (fewer while other processes use the cores; the "
                 "JSON's team object says why); fixed runs every frame on all of --threads");
    cli::addInt(app, "--busy-threads", o.busyThreads, 0, cli::kMaxThreads,
                "threads that spin beside the runs, competing for the cores as another busy "
                "process would (default: 0); see each run's slowest frame against its median");
    cli::addParsed(app, "--cpu-kernels", o.cpuKernels, parseKernels,
                   "how the CPU solves a colour's batch: best (default: avx512, else avx2 where "
                   "the CPU has it, else sse2), avx512, avx2, sse2, portable (blocks of 16 in "
                   "plain C++) or scalar (one constraint at a time); all give the same bits")
        ->type_name("LIST");
    app.add_option("--collider", o.collider,
                   "none (default), sphere, or mesh:PATH (a closed OBJ mesh scaled to the "
                   "sphere's size): the cloth lies flat just above it and drapes over it (its "
                   "contact stages are then timed too)")
        ->check(colliderName())
        ->type_name("C");
    app.add_flag("--quiet", o.quiet,
                 "no progress line (on a terminal: one line rewritten in place; in a log: a "
                 "line every 5 s)");
    app.add_flag("--collisions", o.collisions,
                 "self-collision: each grid (at least 10) starts just above the ground folded "
                 "into four layers 1.41 edges apart (joined by two-edge folds), which settle on "
                 "each other (thickness and margin a quarter of an edge each), timed per stage "
                 "with self-collision and, in the same run, without it; the triangle pairs "
                 "crossing at the end of the run are counted");
    cli::addParsed(
        app, "--self-detection", o.selfDetection, parseSelfDetection,
        "with --collisions: bounded (default: candidates gathered within reach plus twice a "
        "bound of the vertices' motion, detected again when a vertex leaves its bounds) or "
        "every_substep (docs/collisions.md)")
        ->check(cli::oneOf({"every_substep", "bounded"}))
        ->type_name("D");
    app.add_option("--self-bound", o.selfBoundEdges,
                   "with --collisions: the least bound, in edges (default 0.0625)")
        ->check(cli::positive(1e6))
        ->type_name("EDGES");
    app.add_option("--self-passes", o.selfPasses,
                   "with --collisions: passes over the contacts per iteration (default 4)")
        ->transform(cli::integer(1, 10000))
        ->type_name("N");
    cli::addParsed(app, "--self-order", o.selfOrder, parseSelfContactOrder,
                   "with --collisions: jacobi (default) or vertex (docs/collisions.md)")
        ->check(cli::oneOf({"vertex", "jacobi"}))
        ->type_name("O");
    cli::addParsed(
        app, "--tethers", o.tethers, [](const std::string& v) { return v == "on"; },
        "tethers from every vertex to the pins (default: on; the tables of earlier "
        "sessions were measured without them)")
        ->check(cli::oneOf({"on", "off"}))
        ->type_name("on|off");
    addInt(app, "--substeps", o.substeps, 1, kMaxSteps,
           "substeps per 1/60 s, at most 10000 (default: 10)");
    cli::addFps(app, o.fps);
    addInt(app, "--iterations", o.iterations, 1, kMaxSteps,
           "iterations per substep, at most 10000 (default: 1)");
    cli::addSolver(app, o.mode, "constraint solver (default: xpbd; PBD uses the stiffnesses k)");
    cli::addModel(app, o.model, "cloth model (default: xpbd; docs/models.md)");
    cli::addIntegrator(app, o.integrator, "model mass_spring: the integrator (default: symplectic)");
    cli::addSpringStiffness(app, o.springStiffness);
    cli::addIteration(app, o.iteration.scheme,
                      "the throughput rows' scheme: gs (default), jacobi or chebyshev");
    cli::addRho(app, o.iteration.rho,
                "Chebyshev's rho in [0, 1) (default 0.9; --relaxation and --chebyshev-warmup "
                "below apply too)");
    addInt(app, "--warmup", o.warmup, 0, kIntMax, "frames before timing (default: 10)");
    addInt(app, "--frames", o.frames, 1, kIntMax, "frames per timed repeat (default: 10)");
    addInt(app, "--repeats", o.repeats, 1, kIntMax,
           "timed repeats; min and median are reported (default: 5)");
    app.add_option("--json", o.json, "also write the results as JSON")->type_name("FILE");

    app.option_defaults()->group(cli::kPhantomGroup);
    cli::addPhantoms(app, o.phantoms, std::string(cli::kPhantomsHelp) + " (default: off)");
    cli::addPhantomMethod(app, o.phantomMethod, "repair (default) or cliques");
    cli::addPhantomAveraging(app, o.phantomsEachColor, "iteration (default) or color");
    cli::addTuning(app, o.tuning,
                   "the tuning file --phantoms auto reads and --tune-phantoms writes (default: "
                   "$CLOTHSIM_TUNING, else $XDG_CONFIG_HOME/clothsim/tuning.json, else "
                   "~/.config/clothsim/tuning.json)");

    app.option_defaults()->group("Phantom tuning");
    app.add_flag("--tune-phantoms", o.tunePhantoms,
                 "per backend (and device) and grid, measure the frame time with phantoms off "
                 "and with each target of --tune-targets that needs phantoms (runs interleaved, "
                 "--warmup/--frames/--repeats as above; CPU with the largest of --threads, GPU "
                 "with workgroup size 64, as clothsim runs them), and write the fastest into the "
                 "tuning file");
    cli::addIntList(app, "--tune-targets", o.tuneTargets, 1, kIntMax,
                    "colour targets to try (default: 6,8,10,12,16)");
    addInt(app, "--tune-margin", o.tuneMarginPercent, 0, kIntMax,
           "a target wins over phantoms off only when it reaches off's accuracy this much "
           "faster than off (default: 5). Accuracy: from one start (off settled for "
           "--settle-frames frames), the XPBD residual after one substep at --iterations; a "
           "target whose residual is higher is charged the iterations it needs to match off's "
           "(its fastest frame time scaled by them), and never wins if 16x the iterations do "
           "not")
        ->type_name("PERCENT");

    app.option_defaults()->group("Stable step");
    app.add_flag("--stable-step", o.stableStep,
                 "model mass_spring: per integrator (forward Euler when damped), the largest step "
                 "that stays stable for --stable-seconds, by bisection, against the theory's "
                 "limit from the highest natural frequency (docs/models.md); on --scene, else on "
                 "each grid (springs, gravity, pins and damping; no tethers)");
    app.add_option("--scene", o.scene, "with --stable-step: a built-in scene or a scene file")
        ->type_name("NAME|FILE.json");
    app.add_option("--stable-seconds", o.stableSeconds,
                   "with --stable-step: simulated seconds a step must stay stable for (default 2)")
        ->check(cli::number(0.01, 1000.0))
        ->type_name("S");

    app.option_defaults()->group("Kernel parts");
    app.add_flag("--kernel-parts", o.kernelParts,
                 "where the CPU block kernels' time goes, one thread, per constraint type: the "
                 "whole solve, the move alone (records, gather, scatter) and the maths alone, in "
                 "ns per solve, on each --grids grid with dihedral and with isometric bending, "
                 "after --warmup frames; --repeats interleaved rounds of --frames sweeps over "
                 "every colour; the first --cpu-kernels (avx2 or avx512); --json writes the rows");

    app.option_defaults()->group("Textile");
    app.add_flag("--textile", o.textile,
                 "the textile lab's tests of every material preset on the CPU reference: the "
                 "Cusick drape coefficient and folds (grid and irregular discs, three resolutions "
                 "each) and the cantilever bending length along weft and warp "
                 "(docs/model.md#the-textile-tests); --json writes the rows");
    app.add_option("--textile-presets", o.textilePresets, "with --textile: the presets to test")
        ->delimiter(',')
        ->type_name("NAME,...");
    app.add_option("--textile-frames", o.textileFrames,
                   "with --textile: frames each test settles for (default 180)")
        ->transform(cli::integer(1, 100000))
        ->type_name("N");
    app.add_option("--textile-substeps", o.textileSubsteps,
                   "with --textile: substeps per 1/60 s (default 20)")
        ->transform(cli::integer(1, 10000))
        ->type_name("N");
    app.add_option("--textile-iterations", o.textileIterations,
                   "with --textile: iterations per substep (default 4)")
        ->transform(cli::integer(1, 10000))
        ->type_name("N");

    app.option_defaults()->group("Models");
    app.add_flag("--models", o.models,
                 "every cloth model (XPBD by Gauss-Seidel, Jacobi and Chebyshev, PD, FEM, "
                 "mass-spring) on --model-scenes at each --grids size, the same material (an "
                 "isotropic StVK membrane of 300 N/m, or --model-preset's; no tethers): ms per "
                 "frame, strain, sag and the position "
                 "error against a reference run (XPBD Gauss-Seidel at 8x the substeps and "
                 "iterations); CPU, --threads' first value (default 2)");
    app.add_option("--model-scenes", o.modelScenes,
                   "with --models: hanging, square5 (Trendafilov 2021's 5 m square), drape "
                   "(default: all three)")
        ->check(cli::oneOf({"hanging", "square5", "drape"}))
        ->delimiter(',')
        ->type_name("NAME,...");
    app.add_option("--model-rows", o.modelRows,
                   "with --models: the rows to run besides the reference (default: all of them)")
        ->check(cli::oneOf({"xpbd_gs", "xpbd_gs_more", "xpbd_jacobi", "xpbd_chebyshev", "pd",
                               "pd_more", "pd_jacobi", "pd_chebyshev", "fem", "fem_more",
                               "mass_spring"}))
        ->delimiter(',')
        ->type_name("NAME,...");
    app.add_option("--model-frames", o.modelFrames, "with --models: frames per run (default 60)")
        ->transform(cli::integer(10, 100000))
        ->type_name("N");
    std::vector<std::string> presets;
    for (std::string_view name : materialPresetNames()) presets.emplace_back(name);
    app.add_option("--model-preset", o.modelPreset,
                   "with --models: every model (and the reference) on this material preset "
                   "(density, membrane, bending along weft and warp; docs/model.md#presets) in "
                   "place of the isotropic 300 N/m membrane")
        ->check(cli::oneOf(presets))
        ->type_name("NAME");

    app.option_defaults()->group("Convergence");
    app.add_flag("--convergence", o.convergence,
                 "per grid and backend: residual against iterations (1, 2, 4, .., "
                 "--max-iterations) and against time for each of --schemes, from one start (the "
                 "grid settled by Gauss-Seidel; never tethered: tethers would hide the "
                 "convergence); one substep of the settle's length per measurement; the "
                 "iterations and ms each scheme needs to bring the residual to 1e-1, 1e-2 and "
                 "1e-3 of the initial one; time per frame from --warmup/--frames/--repeats runs "
                 "at 1 and --time-iterations iterations (tools/plot_convergence.py plots it)");
    app.add_option("--experiment", o.experiment,
                   "substep (the above, default), or Cheng 2023's frame-by-frame ones on a "
                   "horizontal cloth pinned at its four corners: horizontal (it falls and hangs) "
                   "or kick (no gravity, its centre starts at 0.2 m/s down): per frame the "
                   "residual, residual strain and energies of each scheme (--frames frames at "
                   "--substeps x --iterations)")
        ->type_name("E");
    cli::addParsed(app, "--schemes", o.convergenceSchemes, splitSchemes,
                   "gs, jacobi, chebyshev:RHO, phantoms:TARGET (Gauss-Seidel with phantoms) "
                   "(default: gs,jacobi,chebyshev:0.6,chebyshev:0.9,phantoms:8)")
        ->type_name("LIST");
    cli::addRelaxation(app, o.iteration.relaxation,
                       "Jacobi and Chebyshev relaxation gamma in (0, 2) (default: 1)");
    addInt(app, "--chebyshev-warmup", o.iteration.warmup, 1, kIntMax,
           "Chebyshev's plain iterations before acceleration (default: 2)")
        ->type_name("S");
    addInt(app, "--settle-frames", o.settleFrames, 0, kIntMax, "frames of the start (default: 60)");
    addInt(app, "--settle-substeps", o.settleSubsteps, 1, kMaxSteps,
           "... their substeps (default: 10; also the measured substep's length)");
    addInt(app, "--settle-iterations", o.settleIterations, 1, kMaxSteps,
           "... and iterations (default: 20)");
    addInt(app, "--max-iterations", o.maxIterations, 1, kMaxSteps,
           "the longest measurement (default: 1024)");
    addInt(app, "--time-iterations", o.timeIterations, 2, kMaxSteps,
           "the second iteration count of the time per frame (default: 32)");
    app.add_option("--stretch-compliance", o.stretchCompliance,
                   "the grid's stretch compliance in m/N, 0 to 1e6 (default: the material's, "
                   "1e-8)")
        ->check(cli::compliance())
        ->type_name("X");
    app.add_option("--bend-compliance", o.bendCompliance,
                   "expert: the grid's hinges' bending compliance in 1/(N m), 0 to 1e6 (default: each "
                   "hinge's from the bending rigidity, the preset cotton's)")
        ->check(cli::compliance())
        ->type_name("X");

    app.option_defaults()->group("GPU");
    cli::addIntList(app, "--workgroup-sizes", o.workgroupSizes, 1, kIntMax,
                    "compute workgroup sizes (default: 32,64,128,256,512, those the device "
                    "allows)");
    cli::addDevice(app, o.device);
    addInt(app, "--profile-frames", o.profileFrames, 1, kIntMax,
           "frames of the per-stage profile run (default: 3)");
    addInt(app, "--small-color-items", o.smallColorItems, 0, kIntMax,
           "CPU devices: colours with fewer constraints than this go in one dispatch for both "
           "types (default: 4096)");
    addInt(app, "--items-per-invocation", o.items, 1, kIntMax,
           "constraints or vertices per shader invocation (default: 1)");
    addInt(app, "--color-run-items", o.colorRunItems, 0, kIntMax,
           "consecutive colours of at most N constraints each are solved by one workgroup in "
           "one dispatch; 0 = never (default: 2048 on CPU devices, the workgroup size on GPUs)");
    addInt(app, "--color-run-workgroup-size", o.colorRunWorkgroup, 1, kIntMax,
           "workgroup size of a colour run (default: 64 on CPU devices, --workgroup-sizes' "
           "size on GPUs)");
}

}  // namespace

BenchOptions parseBenchOptions(const std::vector<std::string>& args) {
    BenchOptions o;
    CLI::App app;
    defineOptions(app, o);
    o.help = cli::parse(app, args);
    if (o.help) return o;
    if (o.collisions)
        for (int n : o.grids)
            if (n < fixtures::kFoldMinGrid)
                throw Error("--collisions: grids must be at least " + std::to_string(fixtures::kFoldMinGrid) +
                            " (four layers and three folds of two edges), got " +
                            std::to_string(n));
    if (o.threads.empty()) o.threads = {1, defaultThreadCount()};
    if (o.cpuKernels.empty()) o.cpuKernels = {bestBatchIsa()};
    if (o.team == TeamMode::Fixed) {
        if (o.workPerThread > 0)
            throw Error("--team fixed runs every frame on all of --threads: --work-per-thread " +
                        std::to_string(o.workPerThread) + " does not apply");
        o.workPerThread = 0;
    }
    if (o.workPerThread < 0) o.workPerThread = kCpuWorkPerThread;
    std::sort(o.threads.begin(), o.threads.end());
    o.threads.erase(std::unique(o.threads.begin(), o.threads.end()), o.threads.end());
    return o;
}

std::string benchHelp() {
    BenchOptions o;
    CLI::App app;
    defineOptions(app, o);
    return app.help();
}

}  // namespace cloth::bench
