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
#include "cpu/backend.h"
#include "prep/prepare.h"
#include "prep/solver_data.h"
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
        sc.iteration = o.iteration;  // its relaxation and warm-up
        sc.iteration.scheme = IterationScheme::GaussSeidel;
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
    PreparedCloth p = oneSubstep(start);
    p.sim.iterations = iterations;
    p.sim.iteration = s.iteration;
    prepareSolverData(p);
    auto solver = make(p);
    return median(measure(*solver, o).frameMs);
}

// The scheme's cloth from `state`: `state` itself, or with phantoms (the scene prepared for the
// scheme's target, its copies on their originals).
PreparedCloth schemeCloth(const Scene& scene, const PreparedCloth& state, const Scheme& s,
                          const BenchOptions& o) {
    if (!s.phantomTarget) return state;
    PrepareOptions ph;
    ph.phantoms = PhantomSetting{PhantomMode::Target, s.phantomTarget};
    ph.phantomMethod = o.phantomMethod;
    PreparedCloth p = prepareScene(scene, ph);
    copyStateOntoPhantoms(state, p);
    return p;
}

nlohmann::json runBackend(const std::string& backend, int n, const SolverFactory& make,
                          const std::string& device, const BenchOptions& o) {
    // The start: the grid settled by Gauss-Seidel at the settle settings. No tethers: they
    // would hide the convergence being measured (they cap the stretch whatever the iterations).
    BenchOptions settleOpt = o;
    settleOpt.tethers = false;
    settleOpt.phantoms = PhantomSetting{PhantomMode::Off, 0};
    settleOpt.substeps = o.settleSubsteps;
    settleOpt.iterations = o.settleIterations;
    PrepareOptions popt;
    popt.phantoms = settleOpt.phantoms;
    const Scene scene = gridScene(n, settleOpt);
    const PreparedCloth base = prepareScene(scene, popt);
    const PreparedCloth start = settledStart(base, make, o.settleFrames);
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
        const PreparedCloth p = schemeCloth(scene, start, s, o);
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

// --experiment horizontal | kick: Cheng 2023's other two experiments, frame by frame. A horizontal
// n x n cloth at 1.5 m pinned at its four corners, no tethers; "horizontal": it falls under
// gravity and hangs; "kick": no gravity, and the vertices within 0.1 m of its centre start at
// kKickSpeed downward. Each scheme runs --frames frames at --substeps x --iterations; per frame the
// metrics of app/metrics.h (and the total energy, kinetic + elastic, for the kick).
constexpr float kKickSpeed = 0.2f;  // m/s: the kicked disc moves a fifth of an edge per frame

nlohmann::json runFrames(const std::string& backend, int n, const SolverFactory& make,
                         const std::string& device, const BenchOptions& o) {
    Scene scene = gridScene(n, o);
    ClothDesc& c = scene.cloths[0];
    c.transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, 0.0f);
    c.transform.translate = glm::vec3(0.0f, 1.5f, 0.0f);
    c.pins.regions = {"top_corners", "bottom_corners"};
    c.tethers = false;
    const bool kick = o.experiment == "kick";
    if (kick) scene.sim.gravity = glm::vec3(0.0f);
    PrepareOptions popt;
    popt.phantoms = PhantomSetting{PhantomMode::Off, 0};
    const PreparedCloth base = prepareScene(scene, popt);
    PreparedCloth kicked = base;
    glm::vec3 centre(0.0f);
    for (std::uint32_t i = 0; i < base.originalVertexCount; ++i)
        centre += glm::vec3(base.positions[i]) / float(base.originalVertexCount);
    std::uint32_t moving = 0;
    if (kick)
        for (std::uint32_t i = 0; i < base.originalVertexCount; ++i)
            if (glm::length(glm::vec3(base.positions[i]) - centre) < 0.1f &&
                base.positions[i].w > 0.0f) {
                kicked.velocities[i] = glm::vec4(0.0f, -kKickSpeed, 0.0f, 0.0f);
                ++moving;
            }
    const std::string kickText = kick ? ", " + std::to_string(moving) + " vertices kicked at " +
                                            std::to_string(kKickSpeed).substr(0, 4) + " m/s"
                                      : std::string();
    std::printf("%s grid %d, %s: %u constraints, %d frames of %dx%d%s\n", backend.c_str(), n,
                o.experiment.c_str(), base.constraintCount(), o.frames, o.substeps, o.iterations,
                kickText.c_str());
    nlohmann::json schemes = nlohmann::json::array();
    for (const Scheme& s : schemesOf(o)) {
        PreparedCloth p = schemeCloth(scene, kicked, s, o);
        p.sim.iteration = s.iteration;
        prepareSolverData(p);
        auto solver = make(p);
        solver->keepMultipliers(true);
        nlohmann::json frames = nlohmann::json::array();
        FrameMetrics m;
        int diverged = 0;
        for (int f = 1; f <= o.frames; ++f) {
            solver->stepFrame();
            m = measureFrame(p, *solver);
            if (!std::isfinite(m.residualNorm) || !std::isfinite(m.kineticEnergy)) {
                diverged = f;  // NaN or infinite positions: the scheme blew up
                break;
            }
            frames.push_back({{"frame", f},
                              {"residual", m.residualNorm},
                              {"residual_strain", m.residualStrain},
                              {"kinetic_energy", m.kineticEnergy},
                              {"elastic_energy", m.elasticEnergy.value_or(0.0)},
                              {"energy", m.kineticEnergy + m.elasticEnergy.value_or(0.0)}});
        }
        if (diverged)
            std::printf("  %-20s diverged (non-finite positions) at frame %d\n", s.label.c_str(),
                        diverged);
        else
            std::printf("  %-20s last frame: residual %.4g, residual strain %.4g, energy %.4g J\n",
                        s.label.c_str(), m.residualNorm, m.residualStrain,
                        m.kineticEnergy + m.elasticEnergy.value_or(0.0));
        std::fflush(stdout);
        schemes.push_back({{"label", s.label},
                           {"colours", p.colorCount},
                           {"diverged_at_frame", diverged ? nlohmann::json(diverged) : nullptr},
                           {"frames", frames}});
    }
    return {{"backend", backend}, {"device", device},       {"grid", n},
            {"experiment", o.experiment}, {"substeps", o.substeps}, {"iterations", o.iterations},
            {"constraints", base.constraintCount()}, {"schemes", schemes}};
}

}  // namespace

int convergenceBench(const BenchOptions& o) {
    if (o.experiment != "substep" && o.experiment != "horizontal" && o.experiment != "kick")
        throw Error("--experiment: expected substep, horizontal or kick, got '" + o.experiment +
                    "'");
    auto run = o.experiment == "substep" ? runBackend : runFrames;
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
            runs.push_back(run("cpu", n, make,
                                      cpuModelName() + ", " + std::to_string(threads) + " threads",
                                      o));
        }
        if (gpu) {
            SolverFactory make = [&](const PreparedCloth& p) -> std::unique_ptr<Solver> {
                vk::GpuSolverOptions g;
                g.context = ctx;
                return std::make_unique<vk::GpuSolver>(p, g);
            };
            runs.push_back(run("gpu", n, make, ctx->info().name, o));
        }
    }
    if (!o.json.empty())
        writeJsonFile(o.json, {{"device", cpuModelName()},
                               {"gpu", ctx ? ctx->info().name : ""},
                               {"experiment", o.experiment},
                               {"settle", {{"frames", o.settleFrames},
                                           {"substeps", o.settleSubsteps},
                                           {"iterations", o.settleIterations}}},
                               {"runs", runs}});
    return 0;
}

}  // namespace cloth::bench
