// clothcheck: runs a scene on the CPU reference and the Vulkan solver from the same prepared
// data and prints, per frame, how far apart matching vertices are.
//
//   clothcheck --scene NAME|FILE --frames N [--tolerance T] [--phantoms off|auto|N]
//              [--tuning FILE] [--device N] [--validate] [--workgroup-size N] [--threads N] [--every K]
//              [--iteration gs|jacobi|chebyshev] [--iterations N] [--json FILE]
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

#include <nlohmann/json.hpp>

#include "app/frame_stats.h"
#include "app/phantom_tuning.h"
#include "app/sewing_step.h"
#include "core/error.h"
#include "core/scene.h"
#include "cpu/cpu_solver.h"
#include "deviation.h"
#include "prep/prepare.h"
#include "prep/sewing.h"
#include "vk/gpu_solver.h"

namespace {

using namespace cloth;

struct Args {
    std::string scene;
    int frames = 120;
    double tolerance = 1e-4;
    std::optional<PhantomSetting> phantoms;
    std::optional<std::string> tuning;
    std::optional<std::uint32_t> device;
    bool validate = false;
    std::uint32_t workgroupSize = 64;
    int threads = 0;
    int every = 1;
    bool skipWithoutDevice = false;
    std::optional<IterationScheme> iteration;
    std::optional<int> iterations;
    std::string json;
};

const char* kUsage =
    "usage: clothcheck --scene NAME|FILE [--frames N] [--tolerance T] [--phantoms off|auto|N]\n"
    "                  [--tuning FILE] [--device N] [--validate] [--workgroup-size N] [--threads N] [--every K]\n"
    "                  [--skip-without-device] [--iteration gs|jacobi|chebyshev] [--iterations N]\n"
    "                  [--json FILE]\n"
    "Runs the scene on the CPU reference and on the Vulkan solver from the same prepared data and\n"
    "prints per frame the largest and RMS distance between matching original vertices, in metres\n"
    "and relative to the cloth's bounding-box diagonal (rest state). Exits 1 when the largest\n"
    "relative distance exceeds the tolerance (default 1e-4; 0: equal positions), or on a\n"
    "validation message.\n"
    "--phantoms auto takes the GPU's target from the tuning file (clothsim --help, --tuning).\n"
    "--iteration and --iterations override the scene's iteration scheme and count.\n"
    "--json FILE also writes the result (devices, worst frame, validation messages) as JSON.\n";

long parseInt(const std::string& flag, const std::string& text, long lo, long hi) {
    std::size_t used = 0;
    long v = 0;
    try {
        v = std::stol(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || v < lo || v > hi)
        throw Error(flag + ": expected an integer in [" + std::to_string(lo) + ", " +
                    std::to_string(hi) + "], got '" + text + "'");
    return v;
}

double parseDouble(const std::string& flag, const std::string& text) {
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || !(v >= 0.0) || !std::isfinite(v))
        throw Error(flag + ": expected a number >= 0, got '" + text + "'");
    return v;
}

Args parseArgs(int argc, char** argv) {
    Args a;
    for (int i = 1; i < argc; ++i) {
        std::string f = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw Error(f + " needs a value");
            return argv[++i];
        };
        if (f == "--help" || f == "-h") {
            std::cout << kUsage;
            std::exit(0);
        } else if (f == "--scene") {
            a.scene = value();
        } else if (f == "--frames") {
            a.frames = static_cast<int>(parseInt(f, value(), 1, 1000000));
        } else if (f == "--tolerance") {
            a.tolerance = parseDouble(f, value());
        } else if (f == "--phantoms") {
            a.phantoms = parsePhantomSetting(value());
        } else if (f == "--tuning") {
            a.tuning = value();
        } else if (f == "--device") {
            a.device = static_cast<std::uint32_t>(parseInt(f, value(), 0, 1 << 20));
        } else if (f == "--validate") {
            a.validate = true;
        } else if (f == "--workgroup-size") {
            a.workgroupSize = static_cast<std::uint32_t>(parseInt(f, value(), 1, 1 << 16));
        } else if (f == "--threads") {
            a.threads = static_cast<int>(parseInt(f, value(), 1, 1024));
        } else if (f == "--every") {
            a.every = static_cast<int>(parseInt(f, value(), 1, 1000000));
        } else if (f == "--iteration") {
            a.iteration = parseIterationScheme(value());
        } else if (f == "--iterations") {
            a.iterations = static_cast<int>(parseInt(f, value(), 1, 100000));
        } else if (f == "--json") {
            a.json = value();
        } else if (f == "--skip-without-device") {
            a.skipWithoutDevice = true;
        } else {
            throw Error("unknown argument '" + f + "' (see --help)");
        }
    }
    if (a.scene.empty()) throw Error("--scene is required (see --help)");
    return a;
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
            {"cpu", {{"device", cpu.deviceName()}, {"threads", cpu.threadCount()}}},
            {"gpu",
             {{"name", gpu.name},
              {"type", vk::deviceTypeName(gpu.type)},
              {"vendor", vk::vendorName(gpu.vendorId)},
              {"driver", gpu.driverName},
              {"driver_info", gpu.driverInfo},
              {"driver_version", gpu.driverVersion},
              {"api_version", vk::versionString(gpu.apiVersion)}}},
            {"workgroup_size", args.workgroupSize},
            {"tolerance", args.tolerance},
            {"validation", args.validate}};
}

int run(const Args& args) {
    const auto start = std::chrono::steady_clock::now();
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
    contextOptions.deviceIndex = args.device;
    contextOptions.messageLog = log;
    vk::GpuSolverOptions gpuOptions;
    gpuOptions.context = std::make_shared<vk::Context>(contextOptions);
    gpuOptions.workgroupSize = args.workgroupSize;

    Scene scene = resolveScene(args.scene);
    if (args.iteration) scene.sim.iteration.scheme = *args.iteration;
    if (args.iterations) scene.sim.iterations = *args.iterations;
    PrepareOptions prepOptions;
    prepOptions.phantoms = args.phantoms;
    const AutoPhantomContext tuning{"clothcheck", tuningPath(args.tuning), "gpu",
                                    gpuOptions.context->info().name};
    prepOptions.resolveAuto = [&](std::uint32_t vertices) {
        return resolveAutoPhantoms(tuning, vertices, std::cerr);
    };
    PreparedCloth prepared = prepareScene(scene, prepOptions);
    auto gpu = vk::makeGpuSolver(prepared, gpuOptions);
    auto cpu = makeCpuSolver(prepared, args.threads > 0 ? args.threads : defaultThreadCount());

    const auto diagonals = check::segmentDiagonals(prepared, prepared.positions);
    std::printf("clothcheck: scene '%s': %u vertices (%u original), %u constraints, %u colours\n",
                args.scene.c_str(), prepared.vertexCount(), prepared.originalVertexCount,
                prepared.constraintCount(), prepared.colorCount);
    std::printf("  cpu: %s, %d threads\n  gpu: %s%s\n", cpu->deviceName().c_str(),
                cpu->threadCount(), gpu->deviceName().c_str(),
                args.validate ? " (validation on)" : "");
    std::printf("%6s %12s %12s %12s %12s\n", "frame", "max_m", "rms_m", "max_rel", "rms_rel");

    nlohmann::json result = resultJson(args, prepared, *cpu, gpuOptions.context->info());
    std::vector<glm::vec4> a, b;
    check::Deviation worst;
    int worstFrame = 0;
    bool sewingAgrees = true;
    for (int f = 1; f <= args.frames; ++f) {
        cpu->stepFrame();
        gpu->stepFrame();
        cpu->readPositions(a);
        gpu->readPositions(b);
        check::Deviation d = check::compare(prepared, diagonals, a, b);
        if (f % args.every == 0 || f == args.frames)
            std::printf("%6d %12.3e %12.3e %12.3e %12.3e\n", f, d.maxAbs, d.rmsAbs, d.maxRel,
                        d.rmsRel);
        if (!(d.maxRel <= worst.maxRel) || f == 1) {
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
        gpu = vk::makeGpuSolver(*gpuSewn, gpuOptions);
        cpu = makeCpuSolver(prepared, args.threads > 0 ? args.threads : defaultThreadCount());
    }
    gpu.reset();  // validation messages about teardown count too
    gpuOptions.context.reset();
    const bool close = worst.maxRel <= args.tolerance && sewingAgrees;
    std::printf(
        "largest relative distance %.3e (%.3e m, vertex %u) at frame %d; tolerance %.1e: %s\n",
        worst.maxRel, worst.maxAbs, worst.worstVertex, worstFrame, args.tolerance,
        close ? "ok" : "EXCEEDED");
    if (args.validate)
        std::printf("validation messages: %llu\n",
                    static_cast<unsigned long long>(log->count.load()));
    const bool ok = close && !(args.validate && log->count.load() > 0);
    if (!args.json.empty()) {
        result["worst"] = {{"max_rel", worst.maxRel},
                           {"max_m", worst.maxAbs},
                           {"rms_rel", worst.rmsRel},
                           {"vertex", worst.worstVertex},
                           {"frame", worstFrame}};
        result["sewing_agrees"] = sewingAgrees;
        result["validation_messages"] = log->count.load();
        result["ok"] = ok;
        result["seconds"] =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        writeJsonFile(args.json, result);
    }
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    Args args;
    try {
        args = parseArgs(argc, argv);
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
