// clothbench --convergence: residual against iterations and against time for each iteration
// scheme (Gauss-Seidel, Jacobi, Chebyshev at each rho) and for Gauss-Seidel with phantom targets,
// from one settled start state per grid (app/convergence.h), and the iterations and time each
// needs to bring the residual to a fraction of the initial one.
//
// Time: a measurement frame's own time includes the first frame's costs (the GPU's pipeline
// builds), so each scheme is timed apart, like the throughput rows: --warmup frames, then
// --repeats repeats of --frames frames, at 1 iteration and at --time-iterations iterations (one
// substep each); ms(K) is the straight line through the two medians, and the JSON has both.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/convergence.h"
#include "app/frame_stats.h"
#include "bench.h"
#include "core/error.h"
#include "cpu/cpu_solver.h"
#include "prep/prepare.h"
#include "vk/gpu_solver.h"

namespace cloth::bench {
namespace {

struct Scheme {
    std::string label;
    IterationSettings iteration;
    std::uint32_t phantomTarget = 0;  // 0: off
};

std::vector<Scheme> schemesOf(const BenchOptions& o) {
    std::vector<Scheme> out;
    for (const std::string& s : o.convergenceSchemes) {
        Scheme sc;
        sc.iteration.relaxation = o.relaxation;
        sc.iteration.warmup = o.chebyshevWarmup;
        if (s == "gs") {
            sc.label = "gs";
        } else if (s == "jacobi") {
            sc.label = "jacobi";
            sc.iteration.scheme = IterationScheme::Jacobi;
        } else if (s.rfind("chebyshev:", 0) == 0) {
            sc.iteration.scheme = IterationScheme::Chebyshev;
            char* end = nullptr;
            const std::string r = s.substr(10);
            sc.iteration.rho = std::strtof(r.c_str(), &end);
            if (r.empty() || *end) throw Error("--schemes: bad rho in '" + s + "'");
            sc.label = "chebyshev rho " + r;
        } else if (s.rfind("phantoms:", 0) == 0) {
            const std::string t = s.substr(9);
            sc.phantomTarget = static_cast<std::uint32_t>(std::atoi(t.c_str()));
            if (sc.phantomTarget < 1) throw Error("--schemes: bad target in '" + s + "'");
            sc.label = "gs phantoms " + t;
        } else {
            throw Error("--schemes: expected gs, jacobi, chebyshev:RHO or phantoms:TARGET, got '" +
                        s + "'");
        }
        checkIterationSettings(sc.iteration, "--schemes " + s);
        out.push_back(sc);
    }
    return out;
}

// ms per frame (median of the repeats) of one substep with `iterations` iterations.
double frameMs(const PreparedCloth& start, const SolverFactory& make, const Scheme& s,
               int iterations, const BenchOptions& o) {
    PreparedCloth p = start;
    p.sim.frameDt = start.sim.frameDt / static_cast<float>(start.sim.substeps);
    p.sim.substeps = 1;
    p.sim.iterations = iterations;
    p.sim.iteration = s.iteration;
    auto solver = make(p);
    for (int i = 0; i < o.warmup; ++i) solver->stepFrame();
    std::vector<double> ms;
    for (int r = 0; r < o.repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int f = 0; f < o.frames; ++f) solver->stepFrame();
        const auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count() / o.frames);
    }
    return median(ms);
}

nlohmann::json runBackend(const std::string& backend, int n, const SolverFactory& make,
                          const std::string& device, const BenchOptions& o) {
    // The start: the grid settled by Gauss-Seidel at the settle settings.
    BenchOptions settleOpt = o;
    settleOpt.phantoms = PhantomSetting{PhantomMode::Off, 0};
    settleOpt.substeps = o.settleSubsteps;
    settleOpt.iterations = o.settleIterations;
    PrepareOptions popt;
    popt.phantoms = settleOpt.phantoms;
    const Scene scene = gridScene(n, settleOpt);
    const PreparedCloth base = prepareScene(scene, popt);
    PreparedCloth start;
    {
        auto settle = make(base);
        for (int f = 0; f < o.settleFrames; ++f) settle->stepFrame();
        start = withSolverState(base, *settle);
    }
    const double initial = initialResidual(start);
    std::printf("%s grid %d: %u vertices, %u constraints; start: %d frames of %dx%d Gauss-Seidel; "
                "initial residual %.4g\n",
                backend.c_str(), n, start.vertexCount(), start.constraintCount(), o.settleFrames,
                o.settleSubsteps, o.settleIterations, initial);
    std::printf("  %-20s %7s %9s %9s %10s", "scheme", "colours", "ms@1", "ms/iter", "res@max");
    for (double f : o.reachFractions) std::printf("   iter@%-7.0e ms@%-7.0e", f, f);
    std::printf("\n");
    nlohmann::json schemes = nlohmann::json::array();
    for (const Scheme& s : schemesOf(o)) {
        PreparedCloth p = start;
        if (s.phantomTarget) {
            PrepareOptions ph;
            ph.phantoms = PhantomSetting{PhantomMode::Target, s.phantomTarget};
            ph.phantomMethod = o.phantomMethod;
            p = prepareScene(scene, ph);
            copyStateOntoPhantoms(start, p);
        }
        nlohmann::json curve = nlohmann::json::array();
        ConvergencePoint last;
        for (int k = 1; k <= o.maxIterations; k *= 2) {
            last = measureConvergence(p, make, s.iteration, k);
            curve.push_back({{"iterations", k},
                             {"residual", last.residual},
                             {"residual_max", last.residualMax},
                             {"relative", last.residual / initial}});
        }
        const double ms1 = frameMs(p, make, s, 1, o);
        const double msK = frameMs(p, make, s, o.timeIterations, o);
        const double perIteration = (msK - ms1) / std::max(1, o.timeIterations - 1);
        auto msAt = [&](int k) { return ms1 + (k - 1) * perIteration; };
        std::printf("  %-20s %7u %9.3f %9.4f %10.3e", s.label.c_str(), p.colorCount, ms1,
                    perIteration, last.residual / initial);
        nlohmann::json reach = nlohmann::json::array();
        for (double f : o.reachFractions) {
            auto r = iterationsToReach(p, make, s.iteration, f * initial, o.maxIterations);
            if (r) {
                std::printf("   %11d %10.3f", r->iterations, msAt(r->iterations));
                reach.push_back({{"fraction", f},
                                 {"iterations", r->iterations},
                                 {"ms", msAt(r->iterations)}});
            } else {
                std::printf("   %11s %10s", "-", "-");
                reach.push_back({{"fraction", f}, {"iterations", nullptr}, {"ms", nullptr}});
            }
        }
        std::printf("\n");
        std::fflush(stdout);
        schemes.push_back({{"label", s.label},
                           {"scheme", iterationSchemeName(s.iteration.scheme)},
                           {"relaxation", s.iteration.relaxation},
                           {"rho", s.iteration.rho},
                           {"warmup", s.iteration.warmup},
                           {"phantom_target", s.phantomTarget},
                           {"colours", p.colorCount},
                           {"vertices", p.vertexCount()},
                           {"ms_one_iteration", ms1},
                           {"ms_time_iterations", msK},
                           {"ms_per_iteration", perIteration},
                           {"curve", curve},
                           {"reach", reach}});
    }
    return {{"backend", backend},
            {"device", device},
            {"grid", n},
            {"vertices", start.vertexCount()},
            {"constraints", start.constraintCount()},
            {"initial_residual", initial},
            {"schemes", schemes}};
}

}  // namespace

int convergenceBench(const BenchOptions& o) {
    nlohmann::json runs = nlohmann::json::array();
    const bool cpu = o.backend != "gpu", gpu = o.backend != "cpu";
    std::shared_ptr<vk::Context> ctx;
    if (gpu) ctx = openGpu(o);
    const int threads = o.threads.back();
    for (int n : o.grids) {
        if (cpu) {
            SolverFactory make = [&](const PreparedCloth& p) {
                return makeCpuSolver(p, threads, o.cpuKernels.front());
            };
            runs.push_back(runBackend("cpu", n, make,
                                      cpuModelName() + ", " + std::to_string(threads) + " threads",
                                      o));
        }
        if (gpu) {
            SolverFactory make = [&](const PreparedCloth& p) -> std::unique_ptr<Solver> {
                vk::GpuSolverOptions g;
                g.context = ctx;
                return std::make_unique<vk::GpuSolver>(p, g);
            };
            runs.push_back(runBackend("gpu", n, make, ctx->info().name, o));
        }
    }
    if (!o.json.empty())
        writeJsonFile(o.json, {{"device", cpuModelName()},
                               {"gpu", ctx ? ctx->info().name : ""},
                               {"settle", {{"frames", o.settleFrames},
                                           {"substeps", o.settleSubsteps},
                                           {"iterations", o.settleIterations}}},
                               {"runs", runs}});
    return 0;
}

}  // namespace cloth::bench
