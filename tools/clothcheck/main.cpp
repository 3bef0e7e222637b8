// clothcheck: runs a scene on the CPU reference and the Vulkan solver from the same prepared
// data and prints, per frame, how far apart matching vertices are.
// Its flags: clothcheck --help (generated from defineArgs below).
//
// Exit status: 0 when the largest relative distance stays within the tolerance (and, with
// --validate, no validation message appeared); 1 when not; 2 for bad input; 77 when no Vulkan
// device exists at all and --skip-without-device was given (never when CI is set).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/frame_stats.h"
#include "app/phantom_tuning.h"
#include "app/sewing_step.h"
#include "core/error.h"
#include "core/scene.h"
#include "cpu/float_env.h"
#include "cpu/backend.h"
#include "deviation.h"
#include "error_model.h"
#include "inject.h"
#include "prep/prepare.h"
#include "prep/sewing.h"
#include "vk/backend.h"
#include "vk/gpu_solver.h"

namespace {

using namespace cloth;

struct Args {
    std::string scene;
    int frames = 120;
    std::optional<check::Mode> mode;  // default: exact on a bit-exact device, else resync
    int resyncEvery = 1;
    std::optional<double> tolerance;  // default: 0 (exact), the error model's (resync)
    std::optional<check::Injection> inject;
    std::optional<int> emulateRounding;  // a seed
    std::optional<double> injectScale;  // --inject compliance's (default 1e-3)
    std::optional<PhantomSetting> phantoms;
    std::optional<std::string> tuning;
    std::optional<int> device;
    bool validate = false;
    std::uint32_t workgroupSize = 64;
    std::optional<int> threads;  // default: all hardware threads
    int every = 1;
    bool skipWithoutDevice = false;
    cli::SimFlags sim;  // --iteration, --relaxation, --substeps, --iterations, --fps, --model,
                        // --integrator, --spring-stiffness
    std::string json;
    int startFrame = 0;
    std::optional<int> minSelfPairs;
};

// clothcheck's flags, their help and their checks (CLI11, through app/cli.h).
void defineArgs(CLI::App& app, Args& a) {
    using cli::addInt;
    app.name("clothcheck");
    app.description(
        "clothcheck: runs the scene on the CPU reference and on the Vulkan solver from the same\n"
        "prepared data and prints per frame the largest and RMS distance between matching\n"
        "original vertices, in metres and relative to the cloth's bounding-box diagonal (rest\n"
        "state).");
    cli::configure(app);
    app.footer(
        "Exit status: 0 when the largest relative distance stays within the tolerance (and, with\n"
        "--validate, no validation message appeared); 1 when not; 2 for bad input or any error;\n"
        "77 when no Vulkan device exists at all and --skip-without-device was given (never when\n"
        "CI is set).");
    app.add_option("--scene", a.scene, "built-in scene or scene file")
        ->type_name("NAME|FILE")
        ->required();
    addInt(app, "--frames", a.frames, 1, 1000000, "frames to run on both backends (default: 120)");
    cli::addParsed(
        app, "--mode", a.mode,
        [](const std::string& text) {
            if (text == "exact") return check::Mode::Exact;
            if (text == "resync") return check::Mode::Resync;
            throw Error("expected exact or resync, got '" + text + "'");
        },
        "exact: both backends run on from the same start and every frame is compared "
        "(tolerance 0 unless given); resync: the CPU reference takes the GPU's state "
        "(positions, velocities, time) every --resync-every frames, both start over from it, "
        "and each frame's discrepancy is judged against the error model's tolerance "
        "(docs/backends.md) (default: exact on lavapipe, which rounds as the CPU does; resync "
        "on any other device)")
        ->type_name("exact|resync");
    addInt(app, "--resync-every", a.resyncEvery, 1, 1000000,
           "resync: the CPU reference takes the GPU's state every K-th frame (default: 1)")
        ->type_name("K");
    app.add_option("--tolerance", a.tolerance,
                   "the largest relative distance allowed (default: 0, equal positions, in exact "
                   "mode; the error model's per frame in resync mode); exceeding it exits 1")
        ->check(cli::nonNegative())
        ->type_name("T");
    cli::addParsed(app, "--inject", a.inject, check::parseInjection,
                   "put a bug into the GPU side only, to see the verdict catch it: compliance "
                   "(every XPBD compliance times 1 + --inject-scale), skip-colour (the first "
                   "colour left out of the first iteration of each frame's first substep), "
                   "gradient-sign (distance constraint 0 moves its second vertex the wrong way), "
                   "missing-barrier (colours 0 and 1 of that iteration solved in one workgroup "
                   "without the barrier between them) or drop-contact (the collider contacts of "
                   "one vertex in 97 unprojected)")
        ->type_name("KIND");
    app.add_option("--inject-scale", a.injectScale,
                   "--inject compliance: the relative change (default: 1e-3)")
        ->check(cli::finite())
        ->type_name("S");
    addInt(app, "--start-frame", a.startFrame, 0, 1000000,
           "the CPU reference runs the first K frames alone; both backends then start from its "
           "state (positions, velocities, time; multipliers and contact memory start empty on "
           "both) and are compared from frame K + 1 (default: 0)")
        ->type_name("K");
    addInt(app, "--min-self-pairs", a.minSelfPairs, 0, 2000000000,
           "fail unless, in some compared frame, self-collision's last substep found at least N "
           "close triangle pairs on both backends (a check that a scene reaches a regime)")
        ->type_name("N");
    addInt(app, "--every", a.every, 1, 1000000,
           "print every K-th frame (and the last) (default: 1)")
        ->type_name("K");
    app.add_option("--json", a.json,
                   "also write the result (devices, worst frame, validation messages) as JSON")
        ->type_name("FILE");
    app.add_flag("--skip-without-device", a.skipWithoutDevice,
                 "exit 77 (a skipped test) when no Vulkan device exists, unless CI is set");

    app.option_defaults()->group("Solver");
    cli::addIteration(app, a.sim.iterationScheme,
                      std::string(cli::kIterationHelp) + " (default: the scene's)");
    cli::addRelaxation(app, a.sim.relaxation,
                       "Jacobi and Chebyshev: relaxation gamma in (0, 2) (default: the scene's)");
    addInt(app, "--substeps", a.sim.substeps, 1, 100000,
           "substeps per 1/60 s, whatever the frame rate (default: the scene's)");
    addInt(app, "--iterations", a.sim.iterations, 1, 100000,
           "constraint iterations per substep (default: the scene's)");
    cli::addFps(app, a.sim.fps);
    cli::addModel(app, a.sim.model, "cloth model (default: the scene's, normally xpbd)");
    cli::addIntegrator(app, a.sim.integrator, "model mass_spring: the integrator (default: the scene's)");
    cli::addSpringStiffness(app, a.sim.springStiffness);
    cli::addThreads(app, a.threads,
                    "CPU reference's worker threads, at most 1024 (default: all hardware threads)");
    cli::addPhantoms(
        app, a.phantoms,
        std::string(cli::kPhantomsHelp) + "; auto takes the GPU's target (default: the scene's)");
    cli::addTuning(app, a.tuning);

    app.option_defaults()->group("Vulkan");
    cli::addDevice(app, a.device);
    cli::addValidate(app, a.validate,
                     "enable the Vulkan validation layer; a validation message fails the check");
    addInt(app, "--emulate-rounding", a.emulateRounding, 1, cli::kIntMax,
           "a device that rounds differently, on any device: every float division and square "
           "root of the compute shaders off by up to 2 ulp, pseudo-random per call from seed N "
           "(vk/rounding_emulation.h); the default mode is then resync")
        ->type_name("SEED");
    addInt(app, "--workgroup-size", a.workgroupSize, 1, 1 << 16,
           "the Vulkan solver's compute workgroup size (default: 64)");
}

// What --json writes: the devices, the scene's size, the worst frame and the verdict.
nlohmann::json resultJson(const Args& args, const PreparedCloth& prepared, const Solver& cpu,
                          const vk::DeviceInfo& gpu) {
    return {{"scene", args.scene},
            {"frames", args.frames},
            {"vertices", prepared.vertexCount()},
            {"original_vertices", prepared.originalVertexCount},
            {"constraints", prepared.constraintCount()},
            {"colours", prepared.colorCount},
            {"substeps_per_frame", prepared.timing.substeps},
            {"iterations", prepared.sim.iterations},
            {"cpu",
             {{"device", cpu.deviceName()},
              {"threads", cpu.threadCount()},
              {"subnormals", referenceKeepsSubnormals() ? "kept" : "flushed"}}},
            {"gpu",
             {{"name", gpu.name},
              {"type", vk::deviceTypeName(gpu.type)},
              {"vendor", vk::vendorName(gpu.vendorId)},
              {"driver", gpu.driverName},
              {"driver_info", gpu.driverInfo},
              {"driver_version", gpu.driverVersion},
              {"api_version", vk::versionString(gpu.apiVersion)}}},
            {"workgroup_size", args.workgroupSize},
            {"emulate_rounding", args.emulateRounding ? nlohmann::json(*args.emulateRounding)
                                                      : nlohmann::json()},
            {"tolerance", args.tolerance ? nlohmann::json(*args.tolerance) : nlohmann::json()},
            {"validation", args.validate}};
}

// A device that rounds as the CPU reference does: lavapipe (llvmpipe's compiled shaders, the
// CPU's SSE arithmetic, and the project's rules in docs/backends.md make it bit for bit equal).
bool bitExactDevice(const vk::DeviceInfo& gpu) {
    return gpu.driverName == "llvmpipe";
}

// `prepared` with the CPU reference's state after `frames` frames (sewing merges included): the
// positions, velocities and time a solver made from it starts from.
PreparedCloth cpuStateAfter(PreparedCloth prepared, int frames, int threads) {
    auto cpu = makeCpuSolver(prepared, threads);
    for (int f = 1; f <= frames; ++f) {
        cpu->stepFrame();
        if (std::optional<PreparedCloth> sewn = sewCloseSeams(prepared, *cpu)) {
            prepared = std::move(*sewn);
            cpu = makeCpuSolver(prepared, threads);
        }
    }
    cpu->readState(prepared.positions, prepared.velocities, nullptr);
    prepared.run.time = cpu->simTime();
    std::printf("clothcheck: the CPU reference ran frames 1-%d alone; both backends start from "
                "its state\n", frames);
    return prepared;
}

int run(const Args& args) {
    const auto start = std::chrono::steady_clock::now();
    if (args.injectScale && args.inject != check::Injection::Compliance)
        throw Error("--inject-scale is the change --inject compliance makes; no compliance is "
                    "injected");
    const double injectScale = args.injectScale.value_or(1e-3);
    if (auto why = vk::noVulkanReason()) {
        if (args.skipWithoutDevice && !std::getenv("CI")) {
            std::printf("clothcheck: skipped: no Vulkan device (%s)\n", why->c_str());
            return 77;
        }
        throw Error("no Vulkan device: " + *why);
    }
    auto log = std::make_shared<vk::MessageLog>();
    vk::ContextOptions contextOptions;
    contextOptions.validation = args.validate;
    if (args.device) contextOptions.deviceIndex = static_cast<std::uint32_t>(*args.device);
    contextOptions.messageLog = log;
    if (args.emulateRounding)
        contextOptions.emulatedRoundingSeed = static_cast<std::uint32_t>(*args.emulateRounding);
    vk::GpuSolverOptions gpuOptions;
    gpuOptions.context = std::make_shared<vk::Context>(contextOptions);
    gpuOptions.workgroupSize = args.workgroupSize;
    // The reference computes subnormals as the device does: flushed where the device flushes
    // them (the GPU solver asks it to), kept where it cannot (lavapipe), so that a run making
    // subnormals gives both backends the same bits (docs/backends.md, "Subnormal floats").
    const ScopedSubnormals subnormals(!gpuOptions.context->info().denormFlushToZero32);

    Scene scene = resolveScene(args.scene);
    cli::applySimFlags(args.sim, scene.sim);
    PrepareOptions prepOptions;
    prepOptions.phantoms = args.phantoms;
    const AutoPhantomContext tuning{"clothcheck", tuningPath(args.tuning), "gpu",
                                    gpuOptions.context->info().name};
    prepOptions.resolveAuto = [&](std::uint32_t vertices) {
        return resolveAutoPhantoms(tuning, vertices, std::cerr);
    };
    PreparedCloth prepared = prepareScene(scene, prepOptions);
    const int threads = args.threads.value_or(defaultThreadCount());
    if (args.startFrame > 0) prepared = cpuStateAfter(std::move(prepared), args.startFrame, threads);
    // The GPU's data and options: the scene's, or with --inject's bug in them.
    if (args.inject) gpuOptions.fault = check::gpuFault(*args.inject);
    const auto gpuData = [&](const PreparedCloth& p) {
        return args.inject ? check::injected(p, {*args.inject, injectScale}) : p;
    };
    auto gpu = vk::makeGpuSolver(gpuData(prepared), gpuOptions);
    auto cpu = makeCpuSolver(prepared, threads);
    if (args.inject)
        std::printf("clothcheck: injected into the GPU side: %s%s\n",
                    check::injectionName(*args.inject),
                    args.inject == check::Injection::Compliance
                        ? (" (every compliance times 1 + " + std::to_string(injectScale) + ")").c_str()
                        : "");
    const check::Mode mode = args.mode.value_or(
        bitExactDevice(gpuOptions.context->info()) && !args.emulateRounding ? check::Mode::Exact
                                                                            : check::Mode::Resync);
    const bool resync = mode == check::Mode::Resync;
    const std::string toleranceModel =
        args.tolerance ? "given (--tolerance)"
                       : (resync ? check::errorModelDescription() : "equal positions");

    const auto diagonals = check::segmentDiagonals(prepared, prepared.positions);
    std::printf("clothcheck: scene '%s': %u vertices (%u original), %u constraints, %u colours\n",
                args.scene.c_str(), prepared.vertexCount(), prepared.originalVertexCount,
                prepared.constraintCount(), prepared.colorCount);
    std::printf("  cpu: %s, %d threads\n  gpu: %s%s%s\n", cpu->deviceName().c_str(),
                cpu->threadCount(), gpu->deviceName().c_str(),
                args.validate ? " (validation on)" : "",
                args.emulateRounding ? " (divisions and square roots off by up to 2 ulp: "
                                       "--emulate-rounding)"
                                     : "");
    if (resync)
        std::printf("  mode resync: the CPU reference takes the GPU's state every %d frame%s; "
                    "tolerance: %s\n",
                    args.resyncEvery, args.resyncEvery == 1 ? "" : "s", toleranceModel.c_str());
    else
        std::printf("  mode exact; tolerance: %s\n",
                    args.tolerance ? std::to_string(*args.tolerance).c_str() : "0 (equal positions)");
    if (resync)
        std::printf("%6s %12s %12s %12s %12s %12s %12s\n", "frame", "max_m", "rms_m", "max_rel",
                    "rms_rel", "spread_rel", "tolerance");
    else
        std::printf("%6s %12s %12s %12s %12s\n", "frame", "max_m", "rms_m", "max_rel", "rms_rel");

    nlohmann::json result = resultJson(args, prepared, *cpu, gpuOptions.context->info());
    std::vector<glm::vec4> a, b;
    check::Deviation worst;
    int worstFrame = 0;
    // Resync: the frame whose discrepancy comes closest to (or furthest past) its tolerance.
    struct Judged {
        int frame = 0;
        double discrepancy = 0.0, spread = 0.0, tolerance = 0.0, ratio = -1.0;
    } closest;
    int framesOver = 0;
    bool sewingAgrees = true;
    bool resyncNext = false;  // after the solvers were made anew from sewn data
    check::RoundingDraws draws;
    std::uint64_t mostPairs = 0;  // self-collision's close triangle pairs, on both backends
    double cpuSeconds = 0, gpuSeconds = 0;  // each backend's frames, its read-back included
    double modelSeconds = 0;                // the error model's draws
    const int first = args.startFrame + 1;
    for (int f = first; f <= args.startFrame + args.frames; ++f) {
        if (resync && (f == first || resyncNext || (f - first) % args.resyncEvery == 0)) {
            resyncNext = false;
            if (f != first) {  // both start over from the GPU's state
                gpu->readState(prepared.positions, prepared.velocities, nullptr);
                prepared.run.time = gpu->simTime();
                cpu = makeCpuSolver(prepared, threads);
                if (!gpu->restart(prepared.positions, prepared.velocities, prepared.run.time)) {
                    gpu.reset();
                    gpu = vk::makeGpuSolver(gpuData(prepared), gpuOptions);
                }
            }
            draws.start(prepared, threads);
        }
        const auto t0 = std::chrono::steady_clock::now();
        cpu->stepFrame();
        cpu->readPositions(a);
        const auto t1 = std::chrono::steady_clock::now();
        gpu->stepFrame();
        gpu->readPositions(b);
        const auto t2 = std::chrono::steady_clock::now();
        cpuSeconds += std::chrono::duration<double>(t1 - t0).count();
        gpuSeconds += std::chrono::duration<double>(t2 - t1).count();
        mostPairs = std::max(mostPairs, std::min(cpu->selfCounts().candidatePairs,
                                                 gpu->selfCounts().candidatePairs));
        check::Deviation d = check::compare(prepared, diagonals, a, b);
        double spread = 0.0;
        double tolerance = args.tolerance.value_or(0.0);
        if (resync) {
            draws.step();
            spread = draws.spread(prepared, diagonals, a);
            modelSeconds +=
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t2).count();
            if (!args.tolerance) tolerance = check::resyncTolerance(spread);
        }
        const bool within = d.maxRel <= tolerance;  // false for NaN
        if (!within) ++framesOver;
        const double ratio = tolerance > 0.0 ? d.maxRel / tolerance
                                             : (d.maxRel == 0.0 ? 0.0 : INFINITY);
        if (!(ratio <= closest.ratio)) closest = {f, d.maxRel, spread, tolerance, ratio};
        if (f % args.every == 0 || f == args.startFrame + args.frames || !within) {
            if (resync)
                std::printf("%6d %12.3e %12.3e %12.3e %12.3e %12.3e %12.3e%s\n", f, d.maxAbs,
                            d.rmsAbs, d.maxRel, d.rmsRel, spread, tolerance,
                            within ? "" : "  over");
            else
                std::printf("%6d %12.3e %12.3e %12.3e %12.3e\n", f, d.maxAbs, d.rmsAbs,
                            d.maxRel, d.rmsRel);
        }
        if (!(d.maxRel <= worst.maxRel) || f == first) {
            worst = d;
            worstFrame = f;
        }
        // Sewing: each backend decides from its own positions which seam pairs merge.
        std::optional<PreparedCloth> cpuSewn = sewCloseSeams(prepared, *cpu);
        std::optional<PreparedCloth> gpuSewn = sewCloseSeams(prepared, *gpu);
        if (!cpuSewn && !gpuSewn) continue;
        const std::uint32_t before = mergedSeamPairCount(prepared);
        if (!cpuSewn || !gpuSewn ||
            mergedSeamPairCount(*cpuSewn) != mergedSeamPairCount(*gpuSewn)) {
            std::printf("frame %d: the backends merge different seam pairs (cpu %u, gpu %u)\n", f,
                        cpuSewn ? mergedSeamPairCount(*cpuSewn) - before : 0u,
                        gpuSewn ? mergedSeamPairCount(*gpuSewn) - before : 0u);
            sewingAgrees = false;
            break;
        }
        std::printf("frame %d: %u seam pairs merged on both backends (%u of %zu)\n", f,
                    mergedSeamPairCount(*cpuSewn) - before, mergedSeamPairCount(*cpuSewn),
                    prepared.seamPairs.size());
        cpu.reset();
        gpu.reset();
        prepared = std::move(*cpuSewn);
        gpu = vk::makeGpuSolver(gpuData(*gpuSewn), gpuOptions);
        cpu = makeCpuSolver(prepared, threads);
        resyncNext = true;
    }
    gpu.reset();  // validation messages about teardown count too
    gpuOptions.context.reset();
    const bool close = framesOver == 0 && sewingAgrees;
    if (resync) {
        std::printf("largest discrepancy %.3e of the diagonal (%.3e m, vertex %u) at frame %d\n",
                    worst.maxRel, worst.maxAbs, worst.worstVertex, worstFrame);
        std::printf("closest to its tolerance: frame %d, discrepancy %.3e, spread %.3e, "
                    "tolerance %.3e (%s): %d of %d frames over: %s\n",
                    closest.frame, closest.discrepancy, closest.spread, closest.tolerance,
                    toleranceModel.c_str(), framesOver, args.frames, close ? "ok" : "EXCEEDED");
    } else {
        std::printf(
            "largest relative distance %.3e (%.3e m, vertex %u) at frame %d; tolerance %.1e: %s\n",
            worst.maxRel, worst.maxAbs, worst.worstVertex, worstFrame,
            args.tolerance.value_or(0.0), close ? "ok" : "EXCEEDED");
    }
    std::printf("time stepping and reading back: cpu %.2f s, gpu %.2f s", cpuSeconds, gpuSeconds);
    if (resync) std::printf(", the error model's draws %.2f s", modelSeconds);
    std::printf("\n");
    if (args.validate)
        std::printf("validation messages: %llu\n",
                    static_cast<unsigned long long>(log->count.load()));
    bool reached = true;
    if (args.minSelfPairs) {
        reached = mostPairs >= std::uint64_t(*args.minSelfPairs);
        std::printf("self-collision: at most %llu close triangle pairs in a substep; at least "
                    "%d asked: %s\n",
                    static_cast<unsigned long long>(mostPairs), *args.minSelfPairs,
                    reached ? "ok" : "NOT REACHED");
    }
    const bool ok = close && reached && !(args.validate && log->count.load() > 0);
    if (!args.json.empty()) {
        result["mode"] = resync ? "resync" : "exact";
        if (args.inject)
            result["inject"] = {{"kind", check::injectionName(*args.inject)},
                                {"scale", injectScale}};
        result["tolerance_model"] = toleranceModel;
        if (resync) {
            result["resync_every"] = args.resyncEvery;
            result["spread_multiple"] = check::kSpreadMultiple;
            result["closest"] = {{"frame", closest.frame},
                                 {"discrepancy", closest.discrepancy},
                                 {"spread", closest.spread},
                                 {"tolerance", closest.tolerance}};
            result["model_seconds"] = modelSeconds;
        }
        result["frames_over"] = framesOver;
        result["worst"] = {{"max_rel", worst.maxRel},
                           {"max_m", worst.maxAbs},
                           {"rms_rel", worst.rmsRel},
                           {"vertex", worst.worstVertex},
                           {"frame", worstFrame}};
        result["sewing_agrees"] = sewingAgrees;
        result["start_frame"] = args.startFrame;
        result["most_self_pairs"] = mostPairs;
        result["validation_messages"] = log->count.load();
        result["ok"] = ok;
        result["cpu_seconds"] = cpuSeconds;
        result["gpu_seconds"] = gpuSeconds;
        result["seconds"] =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        writeJsonFile(args.json, result);
    }
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    // A line at a time, also into a file or pipe: a run stopped by a time limit leaves the rows
    // it printed (the GPU check's logs of a run past its limit were empty).
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    Args args;
    try {
        CLI::App app;
        defineArgs(app, args);
        if (cli::parse(app, std::vector<std::string>(argv + 1, argv + argc))) {
            std::cout << app.help();
            return 0;
        }
    } catch (const cloth::Error& e) {
        std::fprintf(stderr, "clothcheck: %s\n", e.what());
        return 2;
    }
    try {
        return run(args);
    } catch (const cloth::Error& e) {
        std::fprintf(stderr, "clothcheck: %s\n", e.what());
        return 2;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "clothcheck: out of memory (a scene too large for this machine?)\n");
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "clothcheck: internal error: %s\n", e.what());
        return 2;
    }
}
