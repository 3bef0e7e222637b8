// clothbench --tune-phantoms: which phantom colour target gives the shortest frame, per backend,
// device and grid size. The candidates run interleaved (one repeat of each in turn), so that a
// change in the machine's load hits all of them alike; the fastest repeat decides, and a target
// must beat phantoms off by --tune-margin percent to be chosen.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "app/backend.h"
#include "app/convergence.h"
#include "app/frame_stats.h"
#include "app/phantom_tuning.h"
#include "bench.h"
#include "core/error.h"
#include "cpu/backend.h"
#include "prep/prepare.h"

namespace cloth::bench {
namespace {

struct Candidate {
    std::uint32_t target = 0;  // 0 = off
    PreparedCloth prepared;
};

// Phantoms off, then each target that needs phantoms on this grid (a target at or above the
// colours without phantoms changes nothing).
std::vector<Candidate> candidates(int n, const BenchOptions& o) {
    std::vector<Candidate> out;
    PrepareOptions popt;
    popt.phantoms = PhantomSetting{PhantomMode::Off, 0};
    popt.phantomMethod = o.phantomMethod;
    const Scene scene = gridScene(n, o);
    out.push_back({0, prepareScene(scene, popt)});
    const std::uint32_t colorsOff = out[0].prepared.colorCount;
    std::vector<int> targets = o.tuneTargets;
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    for (int t : targets) {
        if (std::uint32_t(t) >= colorsOff) continue;
        popt.phantoms = PhantomSetting{PhantomMode::Target, std::uint32_t(t)};
        out.push_back({std::uint32_t(t), prepareScene(scene, popt)});
    }
    return out;
}

double secondsToMs(std::chrono::steady_clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

// Mean frame time of each repeat, per solver; the solvers take turns.
std::vector<std::vector<double>> timeInterleaved(std::vector<std::unique_ptr<Solver>>& solvers,
                                                 const BenchOptions& o) {
    for (auto& s : solvers)  // at least one frame: GPU pipelines compile on first use
        for (int i = 0; i < std::max(o.warmup, 1); ++i) s->stepFrame();
    std::vector<std::vector<double>> ms(solvers.size());
    for (int r = 0; r < o.repeats; ++r)
        for (std::size_t i = 0; i < solvers.size(); ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            for (int f = 0; f < o.frames; ++f) solvers[i]->stepFrame();
            ms[i].push_back(secondsToMs(std::chrono::steady_clock::now() - t0) / o.frames);
        }
    return ms;
}

std::unique_ptr<Solver> makeSolver(Backend& backend, const BenchOptions& o,
                                   const PreparedCloth& p) {
    BackendRequest req;  // as clothsim runs: workgroup size 64, no timestamps
    req.backend = backend.name;
    req.threads = o.threads.back();
    return createSolver(backend, req, shareCopy(p), std::cerr);  // (each candidate keeps its own)
}

TuningSize tuneSize(int n, const std::vector<Candidate>& cands, Backend& backend,
                    const BenchOptions& o) {
    std::vector<std::unique_ptr<Solver>> solvers;
    for (const Candidate& c : cands) solvers.push_back(makeSolver(backend, o, c.prepared));
    const auto ms = timeInterleaved(solvers, o);
    TuningSize size;
    size.vertices = cands[0].prepared.originalVertexCount;
    size.grid = static_cast<std::uint32_t>(n);
    for (std::size_t i = 0; i < cands.size(); ++i) {
        const PreparedCloth& p = cands[i].prepared;
        size.candidates.push_back({cands[i].target, p.colorCount, p.stats.phantomVertices,
                                   *std::min_element(ms[i].begin(), ms[i].end()), median(ms[i])});
    }
    // Accuracy: phantoms trade colours for convergence per iteration. From one start (phantoms
    // off settled for --settle-frames frames at the tuned settings, copied onto each candidate's
    // phantoms), the residual after one substep of the tuned iterations; a candidate whose
    // residual is above off's is charged the iterations it needs to come down to off's
    // (frame time scaled by iterations: conservative, the fixed part of a frame does not grow).
    const SolverFactory make = [&](const PreparedCloth& p) { return makeSolver(backend, o, p); };
    const PreparedCloth start = settledStart(cands[0].prepared, make, o.settleFrames);
    const IterationSettings gs;
    const int k = o.iterations;
    double offResidual = 0.0;
    for (std::size_t i = 0; i < cands.size(); ++i) {
        TuningCandidate& c = size.candidates[i];
        PreparedCloth from = start;
        if (i > 0) {
            from = cands[i].prepared;
            copyStateOntoPhantoms(start, from);
        }
        c.residual = measureConvergence(from, make, gs, k).residual;
        if (i == 0) offResidual = *c.residual;
        if (*c.residual <= offResidual) {
            c.iterationsToMatch = k;
            c.msToMatch = c.msMin;
            continue;
        }
        const auto reach = iterationsToReach(from, make, gs, offResidual, 16 * k);
        c.iterationsToMatch = reach ? reach->iterations : -1;
        if (reach) c.msToMatch = c.msMin * reach->iterations / k;
    }
    // candidates[0] is off; the fastest to off's accuracy must beat it by the margin.
    auto cost = [](const TuningCandidate& c) {
        return c.msToMatch.value_or(std::numeric_limits<double>::infinity());
    };
    const auto fastest = std::min_element(
        size.candidates.begin(), size.candidates.end(),
        [&](const TuningCandidate& a, const TuningCandidate& b) { return cost(a) < cost(b); });
    const double needed = size.candidates[0].msMin * (1.0 - o.tuneMarginPercent / 100.0);
    size.best = cost(*fastest) < needed ? fastest->target : 0;
    return size;
}

void printSize(const TuningDevice& d, const TuningSize& s) {
    for (const TuningCandidate& c : s.candidates)
        std::printf("%-4s %5ux%-5u %8u %8s %6u %9u %12.3f %12.3f %10.3e %6d %12.3f %s\n",
                    d.backend.c_str(), s.grid, s.grid, s.vertices,
                    phantomTargetName(c.target).c_str(), c.colors, c.phantomVertices, c.msMin,
                    c.msMedian, c.residual.value_or(0.0), c.iterationsToMatch.value_or(0),
                    c.msToMatch.value_or(-1.0), c.target == s.best ? "best" : "");
    std::fflush(stdout);
}

TuningDevice deviceEntry(const Backend& backend, const BenchOptions& o) {
    TuningDevice d;
    d.backend = backend.name;
    d.device = deviceName(backend);
    if (backend.name == "cpu") d.threads = o.threads.back();
    if (backend.name == "gpu") d.workgroupSize = int(BackendRequest{}.workgroupSize);
    d.substeps = o.substeps;
    d.iterations = o.iterations;
    return d;
}

}  // namespace

int tunePhantoms(const BenchOptions& o) {
    const std::string path = tuningPath(o.tuning);
    // Read first: a malformed file stops the run before the measuring, and is never overwritten.
    TuningFile file = readTuningFile(path).value_or(TuningFile{});
    if (path.empty())
        throw Error(
            "--tune-phantoms: no place for the tuning file: give --tuning FILE or set "
            "CLOTHSIM_TUNING, XDG_CONFIG_HOME or HOME");
    std::vector<Backend> backends;
    if (o.backend != "gpu") backends.push_back(Backend{});
    if (o.backend != "cpu") {
        Backend g;
        g.name = "gpu";
        g.context = openGpu(o);
        backends.push_back(g);
    }
    std::vector<TuningDevice> devices;
    for (const Backend& b : backends) {
        devices.push_back(deviceEntry(b, o));
        const TuningDevice& d = devices.back();
        if (b.name == "cpu")
            std::printf("cpu: %s, %d threads\n", d.device.c_str(), d.threads);
        else
            std::printf("gpu: %s, workgroup size %d\n", d.device.c_str(), d.workgroupSize);
    }
    std::printf("%-4s %11s %8s %8s %6s %9s %12s %12s %10s %6s %12s\n", "back", "grid", "verts",
                "phantoms", "colors", "phantom_v", "ms/frame min", "ms/frame med", "residual",
                "it=off", "ms to =off");
    std::vector<int> grids = o.grids;  // one entry per size in the file
    std::sort(grids.begin(), grids.end());
    grids.erase(std::unique(grids.begin(), grids.end()), grids.end());
    for (int n : grids) {
        const std::vector<Candidate> cands = candidates(n, o);
        for (std::size_t b = 0; b < backends.size(); ++b) {
            devices[b].sizes.push_back(tuneSize(n, cands, backends[b], o));
            printSize(devices[b], devices[b].sizes.back());
        }
    }
    for (const TuningDevice& d : devices) mergeTuning(file, d);
    writeTuningFile(path, file);
    std::printf("wrote %s\n", path.c_str());
    if (!o.json.empty()) writeTuningFile(o.json, TuningFile{devices});  // this run alone
    return 0;
}

}  // namespace cloth::bench
