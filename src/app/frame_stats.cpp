#include "app/frame_stats.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/output_file.h"
#include "prep/projective.h"
#include "prep/sewing.h"

namespace cloth {

void FrameStats::add(double frameMs, const std::vector<StageTime>& stages) {
    ++frames_;
    totalMs_ += frameMs;
    minMs_ = std::min(minMs_, frameMs);
    maxMs_ = std::max(maxMs_, frameMs);
    for (size_t i = 0; i < stages.size() && i < stageMs_.size(); ++i) stageMs_[i] += stages[i].ms;
}

nlohmann::json iterationJson(const IterationSettings& it) {
    return {{"scheme", iterationSchemeName(it.scheme)},
            {"relaxation", it.relaxation},
            {"rho", it.rho},
            {"warmup", it.warmup}};
}

nlohmann::json constraintCounts(const PreparedCloth& p) {
    nlohmann::json counts = nlohmann::json::object();
    gpu::forEachConstraintType(
        [&](auto t) { counts[t.kName] = p.items<typename decltype(t)::Item>().size(); });
    counts["attachments"] = p.attachments.size();
    counts["tethers"] = p.tethers.size();
    counts["phantom_groups"] = p.phantomGroups.size();
    // Seams' zero-length items, part of "distance" (scenes with seams only).
    if (!p.seamPairs.empty()) counts["seams"] = p.seamPairs.size() - mergedSeamPairCount(p);
    counts["total"] = p.constraintCount();
    return counts;
}

// The scene's wind, or null when it has none.
nlohmann::json windJson(const PreparedCloth& p) {
    if (!p.sim.wind) return nullptr;
    const WindSettings& w = *p.sim.wind;
    return {{"velocity", {w.velocity.x, w.velocity.y, w.velocity.z}},
            {"drag", w.drag},
            {"lift", w.lift},
            {"air_density", w.airDensity},
            {"gust_amplitude", w.gusts.amplitude}};
}

nlohmann::json sewingJson(const PreparedCloth& p) {
    double first = -1.0, last = -1.0;
    for (const SeamMerge& m : p.run.seamMerges) {
        first = first < 0.0 ? m.time : std::min(first, m.time);
        last = std::max(last, m.time);
    }
    nlohmann::json j = {{"seam_pairs", p.seamPairs.size()}, {"merged", mergedSeamPairCount(p)}};
    // Frames end at multiples of 1/fps s; the clock is a double sum of substeps.
    auto frame = [&](double t) {
        return t < 0.0 ? nlohmann::json(nullptr)
                       : nlohmann::json(std::lround(t / p.timing.frameDt));
    };
    j["first_merge_frame"] = frame(first);
    j["last_merge_frame"] = frame(last);
    return j;
}

nlohmann::json teamJson(const Solver& solver) {
    const auto r = solver.teamReport();
    if (!r) return nullptr;
    nlohmann::json frames = nlohmann::json::object();
    for (const auto& [reason, count] : r->frames) frames[reason] = count;
    const auto cores = [](double c) { return c < 0.0 ? nlohmann::json(nullptr) : nlohmann::json(c); };
    return {{"mode", r->mode},
            {"threads_used", r->threadsUsed},
            {"reason", r->reason},
            {"frames", frames},
            {"other_cores", cores(r->otherCores)},
            {"steal_cores", cores(r->stealCores)}};
}

std::string teamSummary(const Solver& solver) {
    const auto r = solver.teamReport();
    if (!r) return "";
    std::string s = "team " + r->mode + ", " + std::to_string(r->threadsUsed) + " of " +
                    std::to_string(solver.threadCount()) + " threads (";
    for (std::size_t i = 0; i < r->frames.size(); ++i)
        s += (i ? ", " : "") + r->frames[i].first + ": " + std::to_string(r->frames[i].second) +
             " frames";
    return s + ")";
}

nlohmann::json statsJson(const std::string& sceneName, const PreparedCloth& p,
                         const Solver& solver, const FrameStats& stats) {
    nlohmann::json stages = nlohmann::json::object();
    for (int i = 0; i < kStageCount; ++i) stages[kStageNames[i]] = stats.stageMeanMs(i);
    nlohmann::json j = {
        {"scene", sceneName},
        {"backend", solver.backendName()},
        {"device", solver.deviceName()},
        {"threads", solver.threadCount()},
        {"threads_used", solver.threadsUsed()},
        {"team", teamJson(solver)},
        {"solver", solverModeName(p.sim.mode)},
        {"substeps", p.timing.substeps},  // per frame: ceil(the scene's per 1/60 s x 60 / fps)
        {"fps", p.sim.fps},
        {"start_frame", p.sim.startFrame},
        {"iterations", p.sim.iterations},
        {"iteration", iterationJson(p.sim.iteration)},
        {"vertices", p.originalVertexCount},
        {"phantom_vertices", p.stats.phantomVertices},
        {"triangles", p.triangles.size()},
        {"constraints", constraintCounts(p)},
        {"colors", p.colorCount},
        {"colors_before_phantoms", p.stats.colorsBeforePhantoms},
        {"cliques_found", p.stats.cliquesFound},
        {"phantom_averaging", p.sim.averagePhantomsEachColor ? "color" : "iteration"},
        {"wind", windJson(p)},
        {"prepare_ms", p.stats.prepareMs},
        {"frames", stats.frames()},
        {"sim_time_s", solver.simTime()},
        {"ms_per_frame", {{"mean", stats.meanMs()}, {"min", stats.minMs()}, {"max", stats.maxMs()}}},
        {"stages_ms", stages},
    };
    j["model"] = clothModelName(p.sim.model);
    if (p.sim.model == ClothModel::MassSpring) {
        nlohmann::json ms = {{"integrator", integratorName(p.sim.massSpring.integrator)},
                             {"air_damping", p.sim.massSpring.airDamping},
                             {"springs",
                              {{"structural", p.springTerms.families[0]},
                               {"shear", p.springTerms.families[1]},
                               {"flexion", p.springTerms.families[2]}}}};
        for (const Solver::ModelFigure& f : solver.modelFigures()) ms[f.name] = f.value;
        j["mass_spring"] = ms;
    }
    if (p.sim.model == ClothModel::Fem) {
        nlohmann::json fem = {{"elements", p.femTerms.triangles.size()},
                              {"bending_terms", p.femTerms.bends.size()},
                              {"rayleigh_alpha", p.sim.fem.rayleighAlpha},
                              {"rayleigh_beta", p.sim.fem.rayleighBeta},
                              {"tolerance", p.sim.fem.tolerance},
                              {"max_iterations", p.sim.fem.maxIterations}};
        for (const Solver::ModelFigure& f : solver.modelFigures()) fem[f.name] = f.value;
        j["fem"] = fem;
    }
    if (p.sim.model == ClothModel::Projective) {
        const std::size_t seams = pdSeamTermCount(p);
        const std::size_t angles = pdTermCount(p, gpu::PD_TERM_FIXED_ANGLE);
        nlohmann::json pd = {{"strain_terms", p.pdTerms.triangles.size()},
                             {"bending_terms", p.pdTerms.bends.size() - seams - angles},
                             {"fixed_angle_terms", angles},
                             {"seam_terms", seams}};
        for (const Solver::ModelFigure& f : solver.modelFigures()) pd[f.name] = f.value;
        j["pd"] = pd;
    }
    if (const auto figures = solver.backendFigures(); !figures.empty()) {
        nlohmann::json b = nlohmann::json::object();
        for (const Solver::ModelFigure& f : figures) b[f.name] = f.value;
        j["gpu"] = b;  // the GPU solver's command buffers: recorded and redone frames
    }
    if (!p.seamPairs.empty()) j["sewing"] = sewingJson(p);
    if (!p.colliders.empty())
        j["collisions"] = {{"colliders", p.colliders.size()},
                           {"mesh_triangles", p.meshTriangles.size()},
                           {"vertices_in_contact", solver.contactCount()}};
    if (const auto& sc = p.sim.selfCollision) {
        const Solver::SelfCounts c = solver.selfCounts();
        j["self_collision"] = {{"static_friction", sc->staticFriction},
                               {"kinetic_friction", sc->kineticFriction},
                               {"margin", sc->margin},
                               {"passes", sc->passes},
                               {"order", selfContactOrderName(sc->order)},
                               {"detection", selfDetectionName(sc->detection)},
                               // The last detection's close triangle pairs and candidates, the
                               // last substep's contacts; since the run began, the detections,
                               // the tree's rebuilds and the vertices clamped into their bounds.
                               {"candidate_pairs", c.candidatePairs},
                               {"primitive_pairs", c.primitivePairs},
                               {"candidates", c.candidates},
                               {"contacts", c.contacts},
                               {"most_contacts_at_a_vertex", c.mostVertexContacts},
                               {"detections", c.detections},
                               {"rebuilds", c.rebuilds},
                               {"clamped_vertices", c.clamped}};
    }
    return j;
}

void writeJsonFile(const std::string& path, const nlohmann::json& json) {
    writeOutputFile(path, json.dump(2) + "\n");
}

}  // namespace cloth
