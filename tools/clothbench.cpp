// clothbench: solver throughput on square grids (stretch + bending), per backend and thread
// count. Warms up, repeats, reports min and median; prints a table and optionally writes JSON.
// Timing lives here, never in tests.
#include <algorithm>
#include <thread>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/frame_stats.h"
#include "app/metrics.h"
#include "app/phantom_tuning.h"
#include "app/progress.h"
#include "app/stretch_check.h"
#include "bench.h"
#include "core/error.h"
#include "cpu/backend.h"
#include "fixtures/folded_grid.h"
#include "fixtures/triangle_intersections.h"  // the brute-force crossing test
#include "prep/prepare.h"
#include "prep/solver_data.h"
#include "vk/gpu_solver.h"

namespace cloth::bench {

Scene gridScene(int n, const BenchOptions& o) {
    Scene s;
    s.name = "grid" + std::to_string(n);
    s.sim.substeps = o.substeps;
    if (o.fps) s.sim.fps = *o.fps;
    s.sim.iterations = o.iterations;
    s.sim.mode = o.mode;
    cli::applyModelFlags(o.model, o.integrator, o.springStiffness, s.sim);
    s.sim.iteration = o.iteration;
    s.phantoms = o.phantoms;
    s.sim.averagePhantomsEachColor = o.phantomsEachColor;
    ClothDesc c;
    c.name = s.name;
    GridDesc g;
    g.resX = g.resY = static_cast<std::uint32_t>(n);
    c.grid = g;
    c.transform.translate = glm::vec3(0.0f, 1.5f, 0.0f);
    c.pins.regions = {"top_corners"};
    c.tethers = o.tethers;
    if (o.stretchCompliance) c.material.stretchCompliance = *o.stretchCompliance;
    if (o.bendCompliance) c.material.bendCompliance = *o.bendCompliance;
    if (o.collisions) {
        c.pins = {};
        c.transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, 0.0f);
        c.transform.translate = glm::vec3(0.0f, 0.01f, 0.0f);
        ColliderDesc ground;
        ground.name = "ground";
        ground.shape = ColliderShape::Plane;
        s.colliders.push_back(ground);
        // Thickness and margin a quarter of an edge each: two layers keep half an edge apart
        // (5 mm of thickness on a 256^2 metre would reach past the neighbours of neighbours).
        const float edge = 1.0f / float(n);
        c.material.thickness = 0.25f * edge;
        // The layers bend as plates (1e-3 per hinge, the default before bending took a fabric's
        // rigidity), so that they settle flat as in the earlier tables: with cotton's rigidity
        // the 64^2 layers ripple, crumple and stretch by 94% at 10 substeps of one iteration.
        if (!o.bendCompliance) c.material.bendCompliance = 1e-3f;
        s.sim.selfCollision = SelfCollisionSettings{};
        s.sim.selfCollision->margin = 0.25f * edge;
        s.sim.selfCollision->detection = o.selfDetection;
        s.sim.selfCollision->bound = o.selfBoundEdges * edge;
        s.sim.selfCollision->passes = o.selfPasses;
        s.sim.selfCollision->order = o.selfOrder;
        // The folds creased where foldGrid folds them (fixtures/folded_grid.h).
        c.fixedAngles = fixtures::foldCreases(n, c.material.bendCompliance);
    } else if (o.collider != "none") {
        c.pins = {};
        c.transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, 0.0f);
        c.transform.translate = glm::vec3(0.0f, 0.9f, 0.0f);
        ColliderDesc body;
        body.name = o.collider;
        body.transform.translate = glm::vec3(0.0f, 0.5f, 0.0f);
        if (o.collider == "sphere") {
            body.shape = ColliderShape::Sphere;
            body.radius = 0.35f;
        } else {
            body.shape = ColliderShape::Mesh;
            body.objPath = o.collider.substr(5);
            const Mesh m = loadObj(body.objPath);
            float r = 0.0f;
            for (const glm::vec3& x : m.positions) r = std::max(r, glm::length(x));
            body.transform.scale = 0.35f / r;
        }
        s.colliders.push_back(body);
    }
    s.cloths.push_back(c);
    return s;
}

PreparedCloth prepareGrid(int n, const BenchOptions& o, const std::string& backend,
                          const std::string& device) {
    PrepareOptions popt;
    popt.phantoms = o.phantoms;
    popt.phantomMethod = o.phantomMethod;
    const AutoPhantomContext tuning{"clothbench", tuningPath(o.tuning), backend, device};
    popt.resolveAuto = [&](std::uint32_t vertices) {
        return resolveAutoPhantoms(tuning, vertices, std::cerr);
    };
    PreparedCloth p = prepareScene(gridScene(n, o), popt);
    if (o.collisions) fixtures::foldGrid(p, n);
    return p;
}


double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Measured measure(Solver& solver, const BenchOptions& o, const std::string& what) {
    // The run's frames so far (app/progress.h): on a terminal a line erased before the run's
    // row is printed, in a log a line every few seconds.
    Progress progress(what.empty() ? ProgressMode::Off : progressMode(std::cerr, o.quiet),
                      std::cerr, "clothbench: " + what, o.warmup + o.repeats * o.frames);
    int done = 0;
    for (int i = 0; i < o.warmup; ++i) {
        solver.stepFrame();
        progress.update(++done);
    }
    Measured m;
    const std::uint64_t detections = solver.selfCounts().detections;
    for (int r = 0; r < o.repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int f = 0; f < o.frames; ++f) {
            const auto f0 = std::chrono::steady_clock::now();
            solver.stepFrame();
            const auto f1 = std::chrono::steady_clock::now();
            const double ms = std::chrono::duration<double, std::milli>(f1 - f0).count();
            m.stages.add(ms, solver.stageTimes());
            m.singleMs.push_back(ms);
            progress.update(++done);
        }
        const auto t1 = std::chrono::steady_clock::now();
        m.frameMs.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count() / o.frames);
    }
    m.detectionsPerFrame = double(solver.selfCounts().detections - detections) /
                           double(std::max(1, o.repeats * o.frames));
    return m;
}

namespace {

nlohmann::json record(const PreparedCloth& p, int grid, const Solver& solver, const Measured& m,
                      const BenchOptions& o) {
    const double minMs = *std::min_element(m.frameMs.begin(), m.frameMs.end());
    const double medMs = median(m.frameMs);
    const double slowestMs = *std::max_element(m.singleMs.begin(), m.singleMs.end());
    const double medianFrameMs = median(m.singleMs);
    // XPBD: constraint projections; the mass-spring model: spring updates (a spring per step).
    double solvesPerFrame = double(p.coloredItemCount()) * o.iterations * p.timing.substeps;
    nlohmann::json model = {{"name", clothModelName(p.sim.model)}};
    if (p.sim.model == ClothModel::MassSpring) {
        double steps = 1.0;
        for (const Solver::ModelFigure& f : solver.modelFigures()) {
            model[f.name] = f.value;
            if (f.name == "steps_per_substep") steps = f.value;
        }
        model["integrator"] = integratorName(p.sim.massSpring.integrator);
        model["springs"] = p.springTerms.springs.size();
        solvesPerFrame = double(p.springTerms.springs.size()) * steps * p.timing.substeps;
    }
    if (p.sim.model == ClothModel::Projective) {
        // Projective dynamics: term projections (triangles and hinges) per iteration.
        for (const Solver::ModelFigure& f : solver.modelFigures()) model[f.name] = f.value;
        model["strain_terms"] = p.pdTerms.triangles.size();
        model["bending_terms"] = p.pdTerms.bends.size();
        solvesPerFrame = double(p.pdTerms.triangles.size() + p.pdTerms.bends.size()) *
                         o.iterations * p.timing.substeps;
    }
    nlohmann::json stages = nlohmann::json::object();
    for (int i = 0; i < kStageCount; ++i) stages[kStageNames[i]] = m.stages.stageMeanMs(i);
    return {{"backend", solver.backendName()},
            {"device", solver.deviceName()},
            {"grid", grid},
            {"vertices", p.originalVertexCount},
            {"constraints", constraintCounts(p)},
            {"threads", solver.threadCount()},
            {"threads_used", solver.threadsUsed()},
            {"team", teamJson(solver)},
            {"colors", p.colorCount},
            {"colors_before_phantoms", p.stats.colorsBeforePhantoms},
            {"phantom_vertices", p.stats.phantomVertices},
            {"phantom_averaging", p.sim.averagePhantomsEachColor ? "color" : "iteration"},
            {"substeps", o.substeps},
            {"fps", p.sim.fps},
            {"iterations", o.iterations},
            {"solver", p.sim.mode == SolverMode::Pbd ? "pbd" : "xpbd"},
            {"model", model},
            {"iteration", iterationJson(p.sim.iteration)},
            {"ms_per_frame", {{"min", minMs}, {"median", medMs}}},
            // Single frames: the slowest against the median frame (hitches, e.g. threads that
            // wait for a core another process holds).
            {"frame_ms_single", {{"median", medianFrameMs}, {"slowest", slowestMs},
                                 {"slowest_over_median", slowestMs / medianFrameMs}}},
            {"ms_per_substep", medMs / p.timing.substeps},
            {"ms_per_substep_min", minMs / p.timing.substeps},
            {"solves_per_second", solvesPerFrame / (medMs / 1000.0)},
            {"solves_per_second_max", solvesPerFrame / (minMs / 1000.0)},
            {"stages_ms", stages},
            {"collider", o.collider},
            {"tethers", o.tethers},
            {"vertices_in_contact", solver.contactCount()},
            {"prepare_ms", p.stats.prepareMs}};
}

// What the timed cloth looks like: one more frame after the timing (so that keeping the
// multipliers costs the timed frames nothing), its convergence metrics (app/metrics.h) and how
// far its lowest vertex has dropped below its rest height. Throughput is only half of a
// solver's worth: a cloth that stretches to many times its size is cheap but not cloth.
nlohmann::json accuracy(const PreparedCloth& p, Solver& solver, const BenchOptions& o) {
    solver.keepMultipliers(true);
    solver.stepFrame();
    std::vector<glm::vec4> x;
    const FrameMetrics m = measureFrame(p, solver, &x);
    float low = 1e30f, rest = 1e30f;
    for (std::uint32_t i = 0; i < p.originalVertexCount; ++i) {
        low = std::min(low, x[i].y);
        rest = std::min(rest, p.positions[i].y);
    }
    return {{"after_frames", o.warmup + o.repeats * o.frames + 1},
            {"residual_l2", m.residualNorm},
            {"residual_max", m.residualMax},
            {"max_stretch", m.maxStretch},
            {"mean_stretch", m.meanStretch},
            {"kinetic_energy", m.kineticEnergy},
            {"lowest_drop_m", double(rest) - double(low)}};
}

// Triangle pairs sharing no vertex that pass through each other where the solver is now.
std::size_t crossingPairs(const PreparedCloth& p, Solver& solver) {
    std::vector<glm::vec4> x;
    solver.readPositions(x);
    return fixtures::intersectingTrianglePairs(p.triangles, x).size();
}

// --collisions: the self-collision run's stages per substep, the hierarchy's rebuild and refit
// rate, the candidates and contacts per vertex, the detections, rebuilds and clamps, and the same
// cloth's frame without self-collision. crossings: triangle pairs sharing no vertex that pass
// through each other at the end of the timed run (brute force, double precision).
void addCollisionFigures(nlohmann::json& r, const PreparedCloth& p, const Solver::SelfCounts& c,
                         std::size_t crossings, const nlohmann::json& without) {
    const nlohmann::json& st = r["stages_ms"];
    double build = 0.0, self = 0.0, stamped = 0.0;
    for (const char* k : {"self_rebuild", "self_refit"}) build += st[k].get<double>();
    for (int i = kStageSelfRebuild; i <= kStageSelfClamp; ++i)
        self += st[kStageNames[i]].get<double>();
    for (int i = 0; i < kStageCount; ++i) stamped += st[kStageNames[i]].get<double>();
    const double perStep = 1.0 / p.timing.substeps;
    const double vertices = double(p.originalVertexCount);
    nlohmann::json steps = nlohmann::json::object();
    for (int i = kStageSelfRebuild; i <= kStageSelfClamp; ++i)
        steps[kStageNames[i]] = st[kStageNames[i]].get<double>() * perStep;
    const double withoutMs = without["ms_per_frame"]["median"].get<double>();
    const double frameMs = r["ms_per_frame"]["median"].get<double>();
    r["self_collision"] = {
        {"triangles", p.triangles.size()},
        {"order", selfContactOrderName(p.sim.selfCollision->order)},
        {"passes", p.sim.selfCollision->passes},
        {"stage_ms_per_substep", steps},
        {"ms_per_substep", self * perStep},
        {"build_ms_per_substep", build * perStep},
        {"candidate_pairs_per_vertex", double(c.candidatePairs) / vertices},
        {"primitive_pairs_per_vertex", double(c.primitivePairs) / vertices},
        {"walk_nodes_per_triangle", double(c.walkNodes) / double(p.triangles.size())},
        {"contacts_per_vertex", double(c.contacts) / vertices},
        {"detection", selfDetectionName(p.sim.selfCollision->detection)},
        {"candidates_per_vertex", double(c.candidates) / vertices},
        {"candidates_tested_per_vertex", double(c.evaluated) / vertices},
        {"detections_per_frame", r["detections_per_frame"]},
        {"rebuilds", c.rebuilds},
        {"clamped_vertices", c.clamped},
        {"crossing_triangle_pairs", crossings},
        {"frame_ms_without", withoutMs},
        {"frame_ms_other_stages", frameMs - self},
        // The frame's time that no stamped stage holds: on the GPU, of the profile run's frames
        // (the same frames as the timed run's first), their wall-clock time less their stamps
        // (submission, the host's wait, what lies between dispatches); on the CPU, of the timed
        // frames.
        {"frame_ms_outside_stamped_stages",
         (r.contains("profiled_frame_ms") ? r["profiled_frame_ms"].get<double>() : frameMs) -
             stamped},
        {"self_over_solver_without", self / withoutMs},
        {"frame_over_frame_without", frameMs / withoutMs}};
}

std::uint32_t workPerThread(const BenchOptions& o) {
    return static_cast<std::uint32_t>(o.workPerThread);
}

nlohmann::json runCpu(const PreparedCloth& p, int grid, int threads, BatchIsa kernels,
                      const BenchOptions& o) {
    const std::string what = "cpu " + std::to_string(grid) + "x" + std::to_string(grid) + ", " +
                             std::to_string(threads) + " threads, " + batchIsaName(kernels);
    nlohmann::json without;
    if (p.sim.selfCollision) {  // the same folded cloth without self-collision first
        PreparedCloth plain = p;
        plain.sim.selfCollision.reset();
        prepareSolverData(plain);
        auto solver = makeCpuSolver(plain, threads, kernels, workPerThread(o));
        without =
            record(plain, grid, *solver, measure(*solver, o, what + ", without self-collision"), o);
    }
    auto solver = makeCpuSolver(p, threads, kernels, workPerThread(o));
    const Measured m = measure(*solver, o, what);
    nlohmann::json r = record(p, grid, *solver, m, o);
    r["detections_per_frame"] = m.detectionsPerFrame;
    r["cpu_kernels"] = batchIsaName(kernels);
    if (p.sim.selfCollision)
        addCollisionFigures(r, p, solver->selfCounts(), crossingPairs(p, *solver), without);
    r["accuracy"] = accuracy(p, *solver, o);
    return r;
}

// ---- GPU ----------------------------------------------------------------------------------------

}  // namespace

std::shared_ptr<vk::Context> openGpu(const BenchOptions& o) {
    vk::ContextOptions c;
    if (o.device) c.deviceIndex = static_cast<std::uint32_t>(*o.device);
    return std::make_shared<vk::Context>(c);
}

namespace {

nlohmann::json gpuDevice(const vk::Context& ctx) {
    const vk::DeviceInfo& d = ctx.info();
    return {{"name", d.name},
            {"type", vk::deviceTypeName(d.type)},
            {"vendor", vk::vendorName(d.vendorId)},
            {"vendor_id", d.vendorId},
            {"driver", d.driverName},
            {"driver_info", d.driverInfo},
            {"driver_version", d.driverVersion},
            {"api_version", vk::versionString(d.apiVersion)}};
}

bool workgroupSizeAllowed(const vk::Context& ctx, int wg) {
    const auto& lim = ctx.limits();
    return wg > 0 && (wg & (wg - 1)) == 0 && std::uint32_t(wg) <= lim.maxComputeWorkGroupSize[0] &&
           std::uint32_t(wg) <= lim.maxComputeWorkGroupInvocations;
}

// Per-stage GPU times: a run with timestamps on every frame and nothing fused, so that each
// dispatch belongs to one stage. It steps the timed run's --warmup frames first (at least one:
// pipelines compile on first use), so that its --profile-frames frames are the timed run's
// first frames (self-collision's detections and candidates grow as a cloth settles); their
// wall-clock time, host wait included, is what the stamps are taken from
// (frame_ms_outside_stamped_stages).
nlohmann::json profileStages(const PreparedCloth& p, vk::GpuSolverOptions options,
                             const BenchOptions& o) {
    options.timestampInterval = 1;
    options.fuseStages = false;
    options.colorBatching = vk::ColorBatching::PerType;
    options.colorRunItems = 0;  // a run solves both types in one dispatch
    vk::GpuSolver solver(p, options);
    for (int f = 0; f < std::max(1, o.warmup); ++f) solver.stepFrame();
    std::vector<double> sum(kStageCount, 0.0);
    double wallMs = 0.0;
    for (int f = 0; f < o.profileFrames; ++f) {
        const auto t0 = std::chrono::steady_clock::now();
        solver.stepFrame();
        wallMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                      .count();
        const auto times = solver.stageTimes();
        for (int i = 0; i < kStageCount; ++i) sum[i] += times[i].ms;
    }
    nlohmann::json stages = nlohmann::json::object();
    for (int i = 0; i < kStageCount; ++i) stages[kStageNames[i]] = sum[i] / o.profileFrames;
    return {{"stages", stages}, {"frame_ms", wallMs / o.profileFrames}};
}

nlohmann::json runGpu(const PreparedCloth& p, int grid, int wg,
                      const std::shared_ptr<vk::Context>& ctx, const BenchOptions& o) {
    vk::GpuSolverOptions options;
    options.context = ctx;
    options.workgroupSize = static_cast<std::uint32_t>(wg);
    if (o.smallColorItems) options.smallColorItems = static_cast<std::uint32_t>(*o.smallColorItems);
    if (o.items) options.itemsPerInvocation = static_cast<std::uint32_t>(*o.items);
    if (o.colorRunItems) options.colorRunItems = static_cast<std::uint32_t>(*o.colorRunItems);
    if (o.colorRunWorkgroup)
        options.colorRunWorkgroupSize = static_cast<std::uint32_t>(*o.colorRunWorkgroup);
    const std::string what = "gpu " + std::to_string(grid) + "x" + std::to_string(grid) +
                             ", workgroup " + std::to_string(wg);
    nlohmann::json without;
    if (p.sim.selfCollision) {  // the same folded cloth without self-collision first
        PreparedCloth plain = p;
        plain.sim.selfCollision.reset();
        prepareSolverData(plain);
        vk::GpuSolver solver(plain, options);
        without =
            record(plain, grid, solver, measure(solver, o, what + ", without self-collision"), o);
    }
    nlohmann::json r;
    Solver::SelfCounts selfCounts;
    std::size_t crossings = 0;
    {
        vk::GpuSolver solver(p, options);
        const std::uint64_t growths = solver.selfGrowths();
        const std::uint64_t recorded = solver.recordedFrames();
        const Measured m = measure(solver, o, what);
        r = record(p, grid, solver, m, o);
        r["detections_per_frame"] = m.detectionsPerFrame;
        selfCounts = solver.selfCounts();
        if (p.sim.selfCollision) crossings = crossingPairs(p, solver);
        const vk::FrameCounters c = solver.counters();
        r["workgroup_size"] = wg;
        r["dispatches_per_frame"] = c.dispatches;
        r["barriers_per_frame"] = c.barriers;
        // The last timed frame's counts (every frame submits the same dispatches; its command
        // buffer recorded anew only when what they depend on changed: recordings 0 when it
        // submitted an earlier frame's), and the frames the run recorded and redid (warm-up and
        // timed frames).
        r["counters"] = {{"dispatches_per_frame", c.dispatches},
                         {"self_dispatches_per_frame", c.selfDispatches},
                         {"self_dispatches_per_substep",
                          double(c.selfDispatches) / double(p.timing.substeps)},
                         {"barriers_per_frame", c.barriers},
                         {"submissions_per_frame", c.submissions},
                         {"host_waits_per_frame", c.hostWaits},
                         {"recordings_last_frame", c.recordings},
                         {"recorded_frames", solver.recordedFrames() - recorded},
                         {"redone_frames", solver.selfGrowths() - growths}};
        r["items_per_invocation"] = solver.itemsPerInvocation();
        r["color_types_per_dispatch"] = solver.colorTypesTogether() ? 2 : 1;
        r["wide_memory_access"] = solver.wideMemoryAccess();
        r["color_run_items"] = solver.colorRunItems();
        r["color_run_workgroup_size"] = solver.colorRunWorkgroupSize();
        r["accuracy"] = accuracy(p, solver, o);
    }
    const nlohmann::json profiled = profileStages(p, options, o);
    r["stages_ms"] = profiled["stages"];
    r["profiled_frame_ms"] = profiled["frame_ms"];
    if (p.sim.selfCollision) addCollisionFigures(r, p, selfCounts, crossings, without);
    return r;
}

void printRow(const nlohmann::json& r) {
    const bool gpu = r.contains("workgroup_size");
    // Threads asked for, and in brackets those used where fewer.
    std::string threads = std::to_string(r["threads"].get<int>());
    if (r.contains("threads_used") && r["threads_used"] != r["threads"])
        threads += "(" + std::to_string(r["threads_used"].get<int>()) + ")";
    std::printf("%-5s %5dx%-5d %8u %7s %6d %12.3f %12.3f %10.1f %8s %6s %9.1f\n",
                r["backend"].get<std::string>().c_str(), r["grid"].get<int>(), r["grid"].get<int>(),
                r["vertices"].get<unsigned>(), threads.c_str(), r["colors"].get<int>(),
                r["ms_per_substep_min"].get<double>(), r["ms_per_substep"].get<double>(),
                r["solves_per_second"].get<double>() / 1e6,
                gpu ? std::to_string(r["workgroup_size"].get<int>()).c_str()
                    : r["cpu_kernels"].get<std::string>().c_str(),
                gpu ? std::to_string(r["dispatches_per_frame"].get<int>()).c_str() : "-",
                r["frame_ms_single"]["slowest_over_median"].get<double>());
    if (r.contains("accuracy")) {
        const nlohmann::json& a = r["accuracy"];
        std::printf("      after %d frames: edge stretch largest %.3g%%, mean %.3g%%; residual "
                    "largest %.3g; lowest vertex %.3g m below its rest height\n",
                    a["after_frames"].get<int>(), 100.0 * a["max_stretch"].get<double>(),
                    100.0 * a["mean_stretch"].get<double>(), a["residual_max"].get<double>(),
                    a["lowest_drop_m"].get<double>());
    }
    if (r.contains("self_collision")) {
        const nlohmann::json& c = r["self_collision"];
        const nlohmann::json& st = c["stage_ms_per_substep"];
        std::printf("      self-collision per substep: %.3f ms (rebuild %.3f, motion %.3f, refit "
                    "%.3f, gather %.3f, lists %.3f, evaluate %.3f, solve %.3f, clamp %.3f); per "
                    "vertex %.2f candidates (%.2f tested), %.2f contacts; %.2f detections per "
                    "frame, %llu rebuilds, %llu clamps; %zu crossing triangle pairs at the end; "
                    "frame %.2f ms, %.2f ms without: %.2fx\n",
                    c["ms_per_substep"].get<double>(), st["self_rebuild"].get<double>(),
                    st["self_motion"].get<double>(), st["self_refit"].get<double>(),
                    st["self_gather"].get<double>(), st["self_lists"].get<double>(),
                    st["self_evaluate"].get<double>(), st["self_contacts"].get<double>(),
                    st["self_clamp"].get<double>(), c["candidates_per_vertex"].get<double>(),
                    c["candidates_tested_per_vertex"].get<double>(),
                    c["contacts_per_vertex"].get<double>(),
                    c["detections_per_frame"].get<double>(),
                    static_cast<unsigned long long>(c["rebuilds"].get<std::uint64_t>()),
                    static_cast<unsigned long long>(c["clamped_vertices"].get<std::uint64_t>()),
                    c["crossing_triangle_pairs"].get<std::size_t>(),
                    r["ms_per_frame"]["median"].get<double>(), c["frame_ms_without"].get<double>(),
                    c["frame_over_frame_without"].get<double>());
        if (r.contains("counters")) {
            const nlohmann::json& k = r["counters"];
            std::printf("      per frame: %d dispatches (self-collision %.1f per substep), %d "
                        "barriers, %d submissions, %d host waits; %d frames recorded, %d "
                        "redone\n",
                        k["dispatches_per_frame"].get<int>(),
                        k["self_dispatches_per_substep"].get<double>(),
                        k["barriers_per_frame"].get<int>(), k["submissions_per_frame"].get<int>(),
                        k["host_waits_per_frame"].get<int>(), k["recorded_frames"].get<int>(),
                        k["redone_frames"].get<int>());
        }
    }
    std::fflush(stdout);
}

// One warning for the runs whose cloth stretched past 20% after the timing (the records'
// accuracy; app/stretch_check.h), naming the largest; empty when none did.
std::string stretchWarning(const nlohmann::json& runs, const BenchOptions& o) {
    const nlohmann::json* worst = nullptr;
    int past = 0;
    for (const nlohmann::json& r : runs) {
        const double s = r["accuracy"]["max_stretch"].get<double>();
        if (s > kStretchWarningLimit) ++past;
        if (!worst || s > (*worst)["accuracy"]["max_stretch"].get<double>()) worst = &r;
    }
    if (past == 0) return "";
    const nlohmann::json& w = *worst;
    const std::string where =
        "grid " + std::to_string(w["grid"].get<int>()) + " on " + w["backend"].get<std::string>() +
        " after " + std::to_string(w["accuracy"]["after_frames"].get<int>()) + " frames; " +
        std::to_string(past) + " of " + std::to_string(runs.size()) + " runs";
    if (o.model == ClothModel::MassSpring)
        return cloth::stretchWarning("clothbench", w["accuracy"]["max_stretch"].get<double>(), where,
                                     "these timings are of rubber, not cloth; raise "
                                     "--spring-stiffness, or turn --tethers on");
    return cloth::stretchWarning(
        "clothbench", w["accuracy"]["max_stretch"].get<double>(), where,
        o.tethers ? "these timings are of rubber, not cloth; raise --iterations or --substeps "
                    "(tethers are on), or lower --stretch-compliance"
                  : "these timings are of rubber, not cloth; raise --iterations or --substeps, "
                    "or turn --tethers on");
}

int benchMain(int argc, char** argv) {
    const BenchOptions o = parseBenchOptions(std::vector<std::string>(argv + 1, argv + argc));
    if (o.help) {
        std::cout << benchHelp();
        return 0;
    }
    if (o.tunePhantoms) return tunePhantoms(o);
    if (o.convergence) return convergenceBench(o);
    if (o.stableStep) return stableStepBench(o);
    if (o.models) return modelsBench(o);
    if (o.textile) return textileBench(o);
    if (o.kernelParts) return kernelPartsBench(o);
    const bool cpu = o.backend != "gpu", gpu = o.backend != "cpu";
    // --busy-threads: other work competing for the cores (as a game's render thread would),
    // spinning from here to the end.
    std::vector<std::jthread> busy;  // stopped and joined when they go out of scope
    for (int i = 0; i < o.busyThreads; ++i)
        busy.emplace_back([](std::stop_token stop) {
            volatile std::uint64_t x = 0;
            while (!stop.stop_requested()) x = x + 1;
        });
    std::shared_ptr<vk::Context> ctx;
    std::vector<int> sizes;
    if (gpu) {
        ctx = openGpu(o);
        for (int wg : o.workgroupSizes)
            if (workgroupSizeAllowed(*ctx, wg)) sizes.push_back(wg);
        if (sizes.empty()) throw Error("--workgroup-sizes: none is allowed by " + ctx->info().name);
    }
    nlohmann::json runs = nlohmann::json::array();
    std::printf("device: %s\n", cpuModelName().c_str());
    if (ctx)
        std::printf("gpu: %s (%s, %s %s, Vulkan %s)\n", ctx->info().name.c_str(),
                    vk::deviceTypeName(ctx->info().type), ctx->info().driverName.c_str(),
                    ctx->info().driverInfo.c_str(),
                    vk::versionString(ctx->info().apiVersion).c_str());
    if (o.busyThreads > 0) std::printf("busy threads beside the runs: %d\n", o.busyThreads);
    std::printf("%-5s %11s %8s %7s %6s %12s %12s %10s %8s %6s %9s\n", "back", "grid", "verts",
                "threads", "colors", "ms/sub(min)", "ms/sub(med)", "Msolves/s", "wg/kern",
                "disp", "slow/med");
    for (int n : o.grids) {
        if (cpu) {  // prepared per backend: --phantoms auto may differ between them
            const PreparedCloth p = prepareGrid(n, o, "cpu", cpuModelName());
            for (BatchIsa k : o.cpuKernels) {
                for (int t : o.threads) {
                    runs.push_back(runCpu(p, n, t, k, o));
                    printRow(runs.back());
                }
            }
        }
        if (gpu) {
            const PreparedCloth p = prepareGrid(n, o, "gpu", ctx->info().name);
            for (int wg : sizes) {
                runs.push_back(runGpu(p, n, wg, ctx, o));
                printRow(runs.back());
            }
        }
    }
    std::cerr << stretchWarning(runs, o);
    if (!o.json.empty()) {
        nlohmann::json doc = {{"device", cpuModelName()},
                              {"substeps", o.substeps},
                              {"iterations", o.iterations},
                              {"busy_threads", o.busyThreads},
                              {"runs", runs}};
        if (ctx) doc["gpu"] = gpuDevice(*ctx);
        writeJsonFile(o.json, doc);
    }
    return 0;
}

}  // namespace
}  // namespace cloth::bench

int main(int argc, char** argv) {
    try {
        return cloth::bench::benchMain(argc, argv);
    } catch (const cloth::Error& e) {
        std::cerr << "clothbench: error: " << e.what() << "\n";
        return 1;
    } catch (const std::bad_alloc&) {
        std::cerr << "clothbench: error: out of memory (a grid too large for this machine?)\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "clothbench: internal error: " << e.what() << "\n";
        return 1;
    }
}
