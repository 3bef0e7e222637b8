// clothbench --stable-step: the mass-spring model's largest stable step, found by bisection on
// the solver's own step (cpu/mass_spring.h SpringStepper: springs, gravity, pins, damping; no
// tethers), next to the theory's limit from the highest natural frequency at rest
// (prep/springs.h: symplectic Euler and Verlet (sqrt(c^2 + 4 w^2) - c) / w^2, forward Euler
// c / w^2). A step is stable when a small perturbation of the rest state does not blow up over
// --stable-seconds of simulated time (stableAt). The implicit models (pd, fem) are tried from a
// cap of 0.1 s down (measureImplicit). adaptive_verlet's stability depends on its pattern of
// steps, not on one step: it is tried at Trendafilov 2021's longest steps (measureAdaptive).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/frame_stats.h"
#include "bench.h"
#include "core/error.h"
#include "cpu/backend.h"
#include "cpu/mass_spring.h"
#include "prep/prepare.h"
#include "prep/springs.h"
#include "prep/solver_data.h"
#include "prep/model_checks.h"

namespace cloth::bench {

namespace {

double diagonalOf(const std::vector<glm::vec4>& x) {
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::vec4& p : x) {
        lo = glm::min(lo, glm::vec3(p));
        hi = glm::max(hi, glm::vec3(p));
    }
    return glm::length(glm::dvec3(hi - lo));
}

// Stable at h: started 1e-6 of its diagonal D away from rest (a fixed pseudo-random offset per
// coordinate, which excites every mode, the highest included), no vertex goes farther than 10 D
// from its start, nor to a non-finite place, in `seconds`. A numerical instability grows its
// mode exponentially to any size; the cloth's own motion (a fall, wrinkles) stays within D.
// Near forward Euler's limit the growth is slow ((w^2 h - c) / 2 per second), so the step found
// in a finite time lies above c / w^2: where growth by the factor 1e7 takes `seconds`,
// h = (c + 2 ln(1e7) / seconds) / w^2 (reported as the finite-time theory).
constexpr double kGrowth = 1e7;

// The free vertices moved off x by 1e-6 of the diagonal, a fixed pseudo-random offset each.
void perturb(std::vector<glm::vec4>& x, double diagonal) {
    std::uint32_t seed = 12345u;
    auto next = [&] {
        seed = seed * 1664525u + 1013904223u;
        return float(double(seed >> 8) / double(1u << 24) - 0.5);
    };
    for (glm::vec4& p : x)
        if (p.w > 0.0f) p += glm::vec4(float(2e-6 * diagonal) * glm::vec3(next(), next(), next()), 0.0f);
}

// Some vertex farther than 10 diagonals from its rest place, or not finite.
bool ranOff(const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& rest, std::uint32_t n,
            double diagonal) {
    for (std::uint32_t v = 0; v < n; ++v) {
        const glm::dvec3 d = glm::dvec3(glm::vec3(x[v])) - glm::dvec3(glm::vec3(rest[v]));
        if (!(glm::length(d) < 10.0 * diagonal)) return true;  // NaN too
    }
    return false;
}

bool stableAt(const PreparedCloth& p, Integrator integrator, const std::vector<float>& damping,
              double h, double seconds) {
    const std::uint32_t n = p.originalVertexCount;
    SpringStepper stepper(p.springTerms.springs, springIncidence(p.springTerms.springs, n));
    SpringState s{p.positions, p.velocities, {}};
    const double diagonal = std::max(diagonalOf(p.positions), 1e-3);
    perturb(s.x, diagonal);
    const auto steps = static_cast<std::uint64_t>(std::ceil(seconds / h));
    for (std::uint64_t k = 1; k <= steps; ++k) {
        stepper.step(integrator, s, float(h), p.sim.gravity, damping);
        if ((k % 64 == 0 || k == steps) && ranOff(s.x, p.positions, n, diagonal)) return false;
    }
    return true;
}

// Stable under time-corrected Verlet with the step pattern `lengths` repeated (the substep's),
// as stableAt for one step.
bool patternStableAt(const PreparedCloth& p, const std::vector<float>& damping,
                     const std::vector<double>& lengths, double seconds) {
    const std::uint32_t n = p.originalVertexCount;
    SpringStepper stepper(p.springTerms.springs, springIncidence(p.springTerms.springs, n));
    SpringState s{p.positions, p.velocities, {}};
    const double diagonal = std::max(diagonalOf(p.positions), 1e-3);
    perturb(s.x, diagonal);
    s.previous = springPrevious(s.x, s.v, float(lengths.back()));
    double period = 0.0;
    for (double h : lengths) period += h;
    const auto periods = static_cast<std::uint64_t>(std::ceil(seconds / period));
    for (std::uint64_t k = 1; k <= periods; ++k) {
        for (std::size_t i = 0; i < lengths.size(); ++i) {
            const float h = float(lengths[i]);
            const float before = float(lengths[i == 0 ? lengths.size() - 1 : i - 1]);
            stepper.forces(s.x, 0, n);
            stepper.integrate(Integrator::AdaptiveVerlet, s, {h, 0.5f * (h + before), h / before},
                              p.sim.gravity, damping, 0, n);
        }
        if ((k % 16 == 0 || k == periods) && ranOff(s.x, p.positions, n, diagonal)) return false;
    }
    return true;
}

// Trendafilov 2021's variable-step Verlet experiment: the longest steps 0.0053, 0.0113 and
// 0.0165 s in a frame (the source's real-time loop steps a frame at a time; one substep here). For each, two patterns: this project's
// (the remainder last, or shared by the last two steps when under half a step: the plan's) and a
// naive one (the remainder as it is), each with the period map's growth rate (the least damping)
// and whether the perturbed rest state runs off in --stable-seconds (it should where growth by
// 1e7 takes less than that).
nlohmann::json measureAdaptive(const std::string& name, const PreparedCloth& prepared,
                               const BenchOptions& o) {
    const std::vector<float> damping = springDamping(prepared);
    const double least = *std::min_element(damping.begin(), damping.end());
    const double omega = springOmegaMax(prepared, 2000);
    const double substep = double(prepared.timing.frameDt);  // one a frame, as the source's loop
    nlohmann::json rows = nlohmann::json::array();
    std::printf("%-28s adaptive_verlet (substep %.5g s, omega_max %.5g rad/s, equal steps' limit "
                "%.5g s):\n", name.c_str(), substep, omega, stableStep(Integrator::Verlet, omega,
                *std::max_element(damping.begin(), damping.end())));
    std::printf("  %-9s %-7s %-34s %14s %16s %8s\n", "longest_s", "pattern", "steps (s)",
                "growth_per_s", "run_off_within_s", "ran_off");
    for (double longest : {0.0053, 0.0113, 0.0165}) {
        for (const bool naive : {false, true}) {
            std::vector<double> lengths;
            if (naive) {
                const double full = std::floor(substep / longest);
                lengths.assign(std::size_t(std::max(full, 0.0)), longest);
                const double rem = substep - full * longest;
                if (rem > 1e-9 * substep) lengths.push_back(rem);
            } else {
                lengths = springSplitWithRemainder(substep, longest);  // the plan's rule
            }
            const double growth = springPatternGrowth(lengths, omega, least, 4000);
            const double within = growth > 0.0 ? std::log(kGrowth) / growth : 1e30;
            const bool ranOffRun = !patternStableAt(prepared, damping, lengths, o.stableSeconds);
            std::string steps;
            for (double h : lengths) steps += (steps.empty() ? "" : ", ") + std::to_string(h).substr(0, 7);
            std::printf("  %-9.4f %-7s %-34s %14.3f %16.3g %8s\n", longest,
                        naive ? "naive" : "plan", steps.c_str(), growth, within,
                        ranOffRun ? "yes" : "no");
            rows.push_back({{"scene", name},
                            {"integrator", "adaptive_verlet"},
                            {"longest_step_s", longest},
                            {"pattern", naive ? "naive remainder" : "plan"},
                            {"steps_s", lengths},
                            {"omega_max_rad_s", omega},
                            {"growth_per_s", growth},
                            {"stable_seconds", o.stableSeconds},
                            {"ran_off", ranOffRun}});
        }
    }
    return rows;
}

nlohmann::json measure(const std::string& name, const PreparedCloth& p, Integrator integrator,
                       const BenchOptions& o) {
    const std::vector<float> damping = springDamping(p);
    const double least = *std::min_element(damping.begin(), damping.end());
    const double most = *std::max_element(damping.begin(), damping.end());
    const double omega = springOmegaMax(p, 2000);
    const double theory =
        stableStep(integrator, omega, integrator == Integrator::Explicit ? least : most);
    if (!(o.stableSeconds / theory <= 2e6))
        throw Error("--stable-step: the " + std::string(integratorName(integrator)) +
                    " limit (" + std::to_string(theory) + " s) needs more than 2e6 steps in " +
                    "--stable-seconds; lower the stiffness or the seconds");
    double lo = 0.25 * theory, hi = 4.0 * theory;
    while (!stableAt(p, integrator, damping, lo, o.stableSeconds) && lo > 1e-3 * theory) lo *= 0.5;
    while (stableAt(p, integrator, damping, hi, o.stableSeconds) && hi < 1e3 * theory) hi *= 2.0;
    while (hi - lo > 5e-3 * lo) {
        const double mid = 0.5 * (lo + hi);
        (stableAt(p, integrator, damping, mid, o.stableSeconds) ? lo : hi) = mid;
    }
    // Forward Euler over a finite time: where 100-fold growth takes --stable-seconds.
    const double finite = integrator == Integrator::Explicit
                              ? (least + 2.0 * std::log(kGrowth) / o.stableSeconds) / (omega * omega)
                              : theory;
    std::printf("%-28s %-11s %12.5g %12.5g %12.5g %12.5g %8.3f\n", name.c_str(),
                integratorName(integrator), omega, theory, finite, lo, lo / finite);
    return {{"scene", name},
            {"integrator", integratorName(integrator)},
            {"vertices", p.originalVertexCount},
            {"springs", p.springTerms.springs.size()},
            {"damping_per_s", {{"least", least}, {"most", most}}},
            {"omega_max_rad_s", omega},
            {"theory_step_s", theory},
            {"theory_step_for_the_time_s", finite},
            {"bisected_step_s", lo},
            {"unstable_step_s", hi},
            {"bisected_over_theory_for_the_time", lo / finite}};
}

// The implicit models (pd, fem) have no step limit in theory: the bench tries their steps from
// a cap (kImplicitCap, six frames at 60 fps) down, as the solver runs them (one substep a
// frame of h), with the same perturbation and test as stableAt, and bisects only below a step
// that failed.
constexpr double kImplicitCap = 0.1, kImplicitLeast = 1e-4;

bool implicitStableAt(const PreparedCloth& prepared, double h, double seconds, int threads) {
    PreparedCloth p = prepared;
    p.timing.frameDt = float(h);
    p.timing.substeps = 1;
    prepareSolverData(p);  // for the step tried
    const std::uint32_t n = p.originalVertexCount;
    const double diagonal = std::max(diagonalOf(prepared.positions), 1e-3);
    perturb(p.positions, diagonal);
    auto solver = makeCpuSolver(p, threads);
    std::vector<glm::vec4> x;
    const auto steps = static_cast<std::uint64_t>(std::ceil(seconds / h));
    for (std::uint64_t k = 1; k <= steps; ++k) {
        solver->stepFrame();
        if (k % 16 != 0 && k != steps) continue;
        solver->readPositions(x);
        if (ranOff(x, prepared.positions, n, diagonal)) return false;
    }
    return true;
}

nlohmann::json measureImplicit(const std::string& name, const PreparedCloth& p,
                               const BenchOptions& o) {
    const int threads = o.threads.empty() ? 1 : o.threads.back();
    const char* model = clothModelName(p.sim.model);
    double lo = kImplicitCap, hi = 0.0;  // hi 0: no unstable step found
    if (!implicitStableAt(p, kImplicitCap, o.stableSeconds, threads)) {
        hi = kImplicitCap;
        lo = kImplicitLeast;
        if (!implicitStableAt(p, lo, o.stableSeconds, threads))
            throw Error("--stable-step: model " + std::string(model) + " on '" + name +
                        "' is unstable even at " + std::to_string(kImplicitLeast) + " s");
        while (hi - lo > 5e-3 * lo) {
            const double mid = 0.5 * (lo + hi);
            (implicitStableAt(p, mid, o.stableSeconds, threads) ? lo : hi) = mid;
        }
    }
    std::printf("%-28s %-11s %12s %12s %12s %12.5g %8s%s\n", name.c_str(), model, "-", "-", "-",
                lo, "-", hi == 0.0 ? "  (stable at the cap: no limit found)" : "");
    nlohmann::json row = {{"scene", name},
                          {"model", model},
                          {"vertices", p.originalVertexCount},
                          {"bisected_step_s", lo},
                          {"cap_s", kImplicitCap},
                          {"stable_at_cap", hi == 0.0}};
    if (hi > 0.0) row["unstable_step_s"] = hi;
    return row;
}

}  // namespace

int stableStepBench(const BenchOptions& o) {
    std::vector<std::pair<std::string, Scene>> scenes;
    if (!o.scene.empty()) {
        Scene s = resolveScene(o.scene);
        if (o.fps) s.sim.fps = *o.fps;
        cli::applyModelFlags(o.model, o.integrator, o.springStiffness, s.sim);
        scenes.emplace_back(s.name, s);
    } else {
        for (int n : o.grids) {
            Scene s = gridScene(n, o);
            for (ClothDesc& c : s.cloths) c.tethers = false;
            scenes.emplace_back(s.name, s);
        }
    }
    std::printf("device: %s; stable for %g s\n", cpuModelName().c_str(), o.stableSeconds);
    std::printf("%-28s %-11s %12s %12s %12s %12s %8s\n", "scene", "integrator", "omega_max",
                "theory_s", "theory_T_s", "bisected_s", "ratio");
    nlohmann::json rows = nlohmann::json::array();
    for (auto& [name, scene] : scenes) {
        if (scene.sim.model == ClothModel::Projective || scene.sim.model == ClothModel::Fem) {
            rows.push_back(measureImplicit(name, prepareScene(scene), o));
            continue;
        }
        if (scene.sim.model != ClothModel::MassSpring)
            throw Error("--stable-step: the scene '" + name + "' is of model xpbd, which has no "
                        "step limit; give --model mass_spring, pd or fem");
        const PreparedCloth p = prepareScene(scene);
        refuseWhatTheModelLacks(p, SolverBackend::Cpu);
        if (!p.attachments.empty())
            throw Error("--stable-step: the scene '" + name + "' has attachments, which the "
                        "bisected step leaves out; remove them to bisect the springs' step");
        std::vector<Integrator> integrators = {Integrator::Symplectic, Integrator::Verlet};
        bool damped = scene.sim.massSpring.airDamping > 0.0f;
        for (const ClothDesc& c : scene.cloths) damped = damped || c.material.linearDamping > 0.0f;
        if (damped) integrators.insert(integrators.begin(), Integrator::Explicit);
        if (o.integrator) integrators = {*o.integrator};
        if (!o.integrator || *o.integrator == Integrator::AdaptiveVerlet) {
            for (const nlohmann::json& row : measureAdaptive(name, p, o)) rows.push_back(row);
            integrators.erase(std::remove(integrators.begin(), integrators.end(),
                                          Integrator::AdaptiveVerlet),
                              integrators.end());
        }
        for (Integrator i : integrators) rows.push_back(measure(name, p, i, o));
    }
    if (!o.json.empty())
        writeJsonFile(o.json, {{"device", cpuModelName()},
                               {"stable_seconds", o.stableSeconds},
                               {"rows", rows}});
    return 0;
}

}  // namespace cloth::bench
