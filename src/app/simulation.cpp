#include "app/simulation.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "app/backend.h"
#include "app/exporters.h"
#include "app/frame_stats.h"
#include "app/memory_estimate.h"
#include "app/metrics.h"
#include "app/phantom_tuning.h"
#include "app/progress.h"
#include "app/sewing_step.h"
#include "app/stretch_check.h"
#include "core/error.h"
#include "core/stopwatch.h"
#include "prep/prepare.h"
#include "prep/projective.h"
#include "prep/sewing.h"

namespace cloth {

namespace {

// What the summary line says of the model: XPBD's constraints and colours, the springs and
// steps of the mass-spring model, or projective dynamics' terms and iterations.
std::string modelSummary(const PreparedCloth& p, const Solver& solver) {
    if (p.sim.model == ClothModel::Xpbd)
        return std::to_string(p.constraintCount()) + " constraints, " +
               std::to_string(p.colorCount) + " colours";
    if (p.sim.model == ClothModel::Fem) {
        char tolerance[32];
        std::snprintf(tolerance, sizeof tolerance, "%.3g", double(p.sim.fem.tolerance));
        const std::string angles =
            p.springTerms.angles.empty()
                ? std::string()
                : " and " + std::to_string(p.springTerms.angles.size()) + " angle springs";
        return std::to_string(p.femTerms.triangles.size()) + " membrane elements, " +
               std::to_string(p.femTerms.bends.size()) + " bending terms" + angles +
               " (model fem, backward Euler by conjugate gradients to " + tolerance + ")";
    }
    if (p.sim.model == ClothModel::Projective) {
        const std::size_t seams = pdSeamTermCount(p);
        const std::size_t angles = pdTermCount(p, gpu::PD_TERM_FIXED_ANGLE);
        std::vector<std::string> kinds = {
            std::to_string(p.pdTerms.triangles.size()) + " strain",
            std::to_string(p.pdTerms.bends.size() - seams - angles) + " bending"};
        if (angles) kinds.push_back(std::to_string(angles) + " fixed-angle");
        if (seams) kinds.push_back(std::to_string(seams) + " seam");
        std::string list = kinds[0];
        for (std::size_t i = 1; i < kinds.size(); ++i)
            list += (i + 1 == kinds.size() ? " and " : ", ") + kinds[i];
        return list + " terms (model pd, " + std::to_string(p.sim.iterations) +
               " local/global iterations per substep)";
    }
    std::string s =
        std::to_string(p.springTerms.springs.size()) + " springs" +
        (p.springTerms.angles.empty()
             ? std::string()
             : " and " + std::to_string(p.springTerms.angles.size()) + " angle springs") +
        " (model " + clothModelName(p.sim.model) + ", " +
        integratorName(p.sim.massSpring.integrator);
    for (const Solver::ModelFigure& f : solver.modelFigures()) {
        char text[64];
        if (f.name == "steps_per_substep")
            std::snprintf(text, sizeof text, ", %.0f steps per substep", f.value);
        else if (f.name == "step_s")
            std::snprintf(text, sizeof text, " of %.3g s", f.value);
        else
            continue;
        s += text;
    }
    return s + ")";
}

// Why the last frame ran on fewer threads than the solver has: its team's reason (cpu/team.h).
std::string usedWhy(const Solver& solver) {
    const auto r = solver.teamReport();
    return r && !r->reason.empty() ? " by the last frame: " + r->reason : std::string();
}

}  // namespace

Simulation loadSimulation(const Options& options, std::ostream& notices, std::ostream* progress) {
    Simulation sim;
    sim.scene = resolveScene(options.scene);
    applyOverrides(options, sim.scene);
    BackendRequest& request = sim.request;
    request.backend = options.backend;
    request.threads = options.threads;
    request.fixedTeam = options.team == TeamMode::Fixed;
    request.device = options.device;
    request.validate = options.validate;
    // GPU stage timestamps cost a little on every timed frame: take them for --stats only,
    // every 8th frame.
    request.timestampInterval = options.statsFile.empty() ? 0 : 8;
    sim.backend = chooseBackend(request, notices);
    const bool sceneFile =
        options.scene.ends_with(".json") || options.scene.find('/') != std::string::npos;
    try {  // before building huge meshes
        checkModelSupport(sim.backend, sim.scene, notices);
        checkSceneFits(sim.backend, sim.scene, request, notices);
        checkSceneFitsMemory(sim.scene, options.memoryLimit);
    } catch (const Error& e) {
        // A scene file's refusal names the file given, then its name key.
        if (sceneFile) throw Error(options.scene + ": " + e.what());
        throw;
    }
    PrepareOptions prep;
    prep.phantoms = sim.scene.phantoms;
    if (options.phantomMethod) prep.phantomMethod = *options.phantomMethod;
    const AutoPhantomContext tuning{"clothsim", tuningPath(options.tuningFile), sim.backend.name,
                                    deviceName(sim.backend)};
    prep.resolveAuto = [&](std::uint32_t vertices) {
        return resolveAutoPhantoms(tuning, vertices, notices);
    };
    std::optional<PreparationProgress> preparing;
    if (progress) {
        preparing.emplace(progressMode(*progress, options.quiet), *progress, "clothsim",
                          estimateMemory(sim.scene).vertices);
        prep.stage = [&](const char* what) { preparing->stage(what); };
    }
    try {
        *sim.prepared = prepareScene(sim.scene, prep);
        if (preparing) preparing->stage("the solver's own data");
        sim.solver = createSolver(sim.backend, request, sim.prepared, notices);
    } catch (const Error& e) {
        // What the scene's model lacks (prep, the backends) names the scene file given too.
        if (sceneFile && std::string_view(e.what()).starts_with("model "))
            throw Error(options.scene + ": " + e.what());
        throw;
    }
    return sim;
}

void checkFinite(const std::vector<glm::vec4>& positions, std::uint32_t count, int frame) {
    for (std::uint32_t i = 0; i < count; ++i) {
        const glm::vec4& p = positions[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
            const bool nan = std::isnan(p.x) || std::isnan(p.y) || std::isnan(p.z);
            // The scene's values passed the load checks (core/limits.h: gravity, scale,
            // positions, masses, compliances), so what is left is an unstable step.
            throw Error("the simulation diverged: vertex " + std::to_string(i) + " became " +
                        (nan ? "NaN" : "infinite") + " at frame " + std::to_string(frame) +
                        "; the scene's values are within their sane ranges, so the step is "
                        "unstable for its stiffness (try more substeps or a larger compliance; with "
                        "--iteration chebyshev, a smaller --rho or a longer --warmup)");
        }
    }
}

std::uint32_t sewAfterFrame(Simulation& sim, std::ostream& notices) {
    std::optional<PreparedCloth> sewn = sewCloseSeams(*sim.prepared, *sim.solver);
    if (!sewn) return 0;
    const std::uint32_t merged = mergedSeamPairCount(*sewn) - mergedSeamPairCount(*sim.prepared);
    sim.solver.reset();  // its device memory goes before the next solver's arrives
    *sim.prepared = std::move(*sewn);
    sim.solver = createSolver(sim.backend, sim.request, sim.prepared, notices);
    return merged;
}

int runHeadless(const Options& options, std::ostream& out, std::ostream& notices) {
    std::optional<MetricsWriter> metrics;  // (a bad path is refused before the run)
    if (!options.metricsFile.empty()) metrics.emplace(options.metricsFile);
    // The start's notices (the device chosen, the phantoms' tuning) wait until the run has
    // started, so that an error before it (a mesh that cannot be read, an export folder that
    // does not exist, a scene too large) is the only line.
    std::ostringstream starting;
    Simulation sim = loadSimulation(options, starting, &notices);
    const PreparedCloth& p = *sim.prepared;  // replaced in place when seams merge
    const int frames = options.frames.value_or(kDefaultHeadlessFrames);
    Exporters exporters(options, p, frames);
    std::vector<glm::vec4> positions;
    if (exporters.wants(0)) {
        sim.solver->readPositions(positions);
        exporters.write(0, positions, sim.solver->simTime());
    }
    notices << starting.str() << std::flush;
    FrameStats stats;
    StretchCheck stretch;  // from the metrics when they are on, else every 10th frame
    Progress progress = Progress::on(notices, "clothsim", frames, options.quiet);
    int lastMergeFrame = 0;
    double sewingMs = 0.0;  // finding the pairs to merge, merging and re-creating the solver
    for (int frame = 1; frame <= frames; ++frame) {
        if (metrics) sim.solver->keepMultipliers(true);  // (sewing re-creates the solver)
        const auto t0 = std::chrono::steady_clock::now();
        sim.solver->stepFrame();
        const auto t1 = std::chrono::steady_clock::now();
        stats.add(std::chrono::duration<double, std::milli>(t1 - t0).count(),
                  sim.solver->stageTimes());
        if (metrics) {
            const FrameMetrics m = measureFrame(p, *sim.solver);
            metrics->add(frame, sim.solver->simTime(), m);
            stretch.add(frame, m.maxStretch);
        }
        if (sewAfterFrame(sim, notices) > 0) lastMergeFrame = frame;
        sewingMs += msSince(t1);
        const bool checkStretch = !metrics && StretchCheck::due(frame, frames);
        if (exporters.wants(frame) || frame == frames || checkStretch) {
            sim.solver->readPositions(positions);
            checkFinite(positions, p.vertexCount(), frame);
            if (exporters.wants(frame)) exporters.write(frame, positions, sim.solver->simTime());
            if (!metrics) stretch.add(frame, edgeStretch(p, positions).largest);
        }
        progress.update(frame);
    }
    progress.finish();
    out << "scene " << sim.scene.name << ": " << p.originalVertexCount << " vertices, "
        << p.triangles.size() << " triangles, " << modelSummary(p, *sim.solver) << "\n"
        << "backend " << sim.solver->backendName() << " (" << sim.solver->deviceName() << ", "
        << sim.solver->threadCount() << " threads"
        << (sim.solver->threadsUsed() != sim.solver->threadCount()
                ? ", " + std::to_string(sim.solver->threadsUsed()) + " used" + usedWhy(*sim.solver)
                : std::string())
        << "): " << frames << " frames, "
        << stats.meanMs() << " ms/frame mean\n";
    if (const std::string team = teamSummary(*sim.solver); !team.empty()) out << team << "\n";
    if (!p.seamPairs.empty())
        out << "sewing: " << mergedSeamPairCount(p) << " of " << p.seamPairs.size()
            << " seam pairs merged" << (lastMergeFrame > 0 ? ", the last at frame " : "")
            << (lastMergeFrame > 0 ? std::to_string(lastMergeFrame) : std::string()) << " ("
            << sewingMs << " ms in all to check and merge)\n";
    if (!options.statsFile.empty())
        writeJsonFile(options.statsFile, statsJson(sim.scene.name, p, *sim.solver, stats));
    if (metrics) metrics->write(sim.scene.name);
    exporters.finish(out);
    notices << stretchWarning(stretch, p.sim.model == ClothModel::MassSpring, !p.tethers.empty())
            << modelWarnings(*sim.solver);
    if (sim.backend.validation) {  // --validate: a validation message fails the run
        sim.solver.reset();
        const auto count = sim.backend.validation->count.load();
        if (count > 0)
            throw Error(std::to_string(count) + " Vulkan validation message(s), printed above");
    }
    return 0;
}

}  // namespace cloth
