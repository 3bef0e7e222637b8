// The substep schedules as data: each model's steps of a frame, in order, in one list per model
// that every backend executes through the one driver, forEachStep(). XPBD's kSchedule runs in the
// CPU reference (src/cpu/cpu_solver.cpp), the Vulkan recorder (src/vk/gpu_solver.cpp) and the
// serial test reference (tests/vk/reference.cpp); the other models' lists run in their CPU
// solvers (through cpu/model_frame.h) and their Vulkan solvers. A new step is one entry in a list
// and one case in each executor of that model; the backends cannot drift apart in order or timing.
#pragma once

#include <cstdint>
#include <iterator>
#include <span>
#include <utility>

#include "core/frame_rate.h"
#include "core/scene.h"
#include "sim/gusts.h"
#include "sim/solver.h"
#include "kernels/solver_io.h"  // gpu::SolveParams, MODE_*
#include "kernels/wind.h"       // gpu::WindParams

namespace cloth {

enum class Step : std::uint8_t {
    Wind,         // scenes with wind: v += w F dt, F the wind's drag and lift on the vertex's
                  // normal (from the current positions) and area (src/kernels/wind.h)
    Collisions,   // scenes with colliders: pre-stabilisation (each vertex moved out of the
                  // colliders at their pose at the substep's start, velocity kept) and the
                  // contact state of the substep reset (src/kernels/collider.h)
    Predict,      // v += g dt, x += v dt (vertices with mass); predicted = x
    SelfCollisions,  // scenes with self-collision: a detection when the motion needs one, then
                     // the contacts of the substep from the positions at its start and
                     // predicted (sim/self_phases.h)
    Colors,       // Gauss-Seidel: every colour in order: each constraint type's items (table
                  // order), then, with
                  // SimSettings::averagePhantomsEachColor, the phantom averaging. Jacobi and
                  // Chebyshev: every item from the same positions, then every vertex moved by
                  // its corrections (src/kernels/jacobi.h)
    Attachments,  // kinematic attachments to their moving targets
    Tethers,      // long-range attachments (unilateral)
    Contacts,     // scenes with colliders: every vertex against every collider in scene order
                  // (zero compliance, friction), at the colliders' pose at the substep's end
    SelfContacts,  // scenes with self-collision: `passes` passes, each moving every vertex by
                   // its contacts (cpu/self/self_collision.h)
    Grab,         // the mouse grab, after the other two so that it wins over both
    Phantoms,     // phantom copies moved to their mass-weighted mean
    SelfBounds,   // scenes with self-collision: every vertex clamped into the bounds of the last
                  // detection (sim/self_phases.h), so that no solve carries it through a layer
    Velocities,   // v from the solved and predicted positions, linear damping
    Restitution,  // scenes with a restitution > 0: bouncing contacts leave at -e v_n
    Damping,      // Mueller's damping of non-rigid motion
    Normals,      // vertex normals of the original vertices
    // The other models' own steps (docs/models.md).
    SpringForces,  // mass_spring: every spring's and angle's force at the step's start
    SpringMove,    // mass_spring: the integrator's move over the step (prep/springs.h's plan)
    PdLocal,       // pd: the local step (every term's projection); the direct global step (gs):
                   // the whole local/global iteration
    PdGlobal,      // pd, Jacobi and Chebyshev: one sweep of the vertices (kernels/pd_jacobi.h)
    PdResult,      // pd: the last iterate becomes the step's result
    FemForces,     // fem: the elements', seams', angles' and bends' forces, the system's blocks
    FemSolve,      // fem: backward Euler's linear system for the velocity change (CG)
    FemMove,       // fem: the velocity change applied, the step's positions predicted from it
};

// Iteration: once per iteration of the substep (XPBD and pd: the scene's iterations; mass_spring:
// each step of its plan, prep/springs.h).
enum class Loop : std::uint8_t { Substep, Iteration, Frame };

struct ScheduleEntry {
    Step step;
    Loop loop;  // runs once per substep, per iteration of a substep, or per frame (at its end)
    int stage;  // where its time goes (kStageNames); Colors splits its time by type itself
};

using Schedule = std::span<const ScheduleEntry>;

inline constexpr ScheduleEntry kSchedule[] = {
    {Step::Wind, Loop::Substep, kStageWind},
    {Step::Collisions, Loop::Substep, kStageCollisions},
    {Step::Predict, Loop::Substep, kStagePredict},
    {Step::SelfCollisions, Loop::Substep, kStageSelfMotion},
    {Step::Colors, Loop::Iteration, kStageFirstType},
    {Step::Attachments, Loop::Iteration, kStageAttachments},
    {Step::Tethers, Loop::Iteration, kStageTethers},
    {Step::Contacts, Loop::Iteration, kStageContacts},
    {Step::SelfContacts, Loop::Iteration, kStageSelfContacts},
    {Step::Grab, Loop::Iteration, kStageAttachments},
    {Step::Phantoms, Loop::Iteration, kStagePhantoms},
    {Step::SelfBounds, Loop::Iteration, kStageSelfClamp},
    {Step::Velocities, Loop::Substep, kStageVelocities},
    {Step::Restitution, Loop::Substep, kStageContacts},
    {Step::Damping, Loop::Substep, kStageDamping},
    {Step::Normals, Loop::Frame, kStageNormals},
};

// mass_spring (cpu/mass_spring.cpp, vk/mass_spring_gpu.cpp): its plan's steps as the iterations.
inline constexpr ScheduleEntry kMassSpringSchedule[] = {
    {Step::Wind, Loop::Substep, kStageWind},
    {Step::SpringForces, Loop::Iteration, kStagePredict},
    {Step::SpringMove, Loop::Iteration, kStagePredict},
    {Step::Tethers, Loop::Iteration, kStageTethers},
    {Step::Contacts, Loop::Iteration, kStageContacts},
    {Step::Damping, Loop::Substep, kStageDamping},
    {Step::Normals, Loop::Frame, kStageNormals},
};

// pd (cpu/projective.cpp, vk/pd_jacobi_gpu.cpp).
inline constexpr ScheduleEntry kProjectiveSchedule[] = {
    {Step::Wind, Loop::Substep, kStageWind},
    {Step::Predict, Loop::Substep, kStagePredict},
    {Step::PdLocal, Loop::Iteration, kStageJacobiSums},
    {Step::PdGlobal, Loop::Iteration, kStageJacobiSums},
    {Step::PdResult, Loop::Substep, kStageJacobiSums},
    {Step::Tethers, Loop::Substep, kStageTethers},
    {Step::Velocities, Loop::Substep, kStageVelocities},
    {Step::Damping, Loop::Substep, kStageDamping},
    {Step::Normals, Loop::Frame, kStageNormals},
};

// fem (cpu/fem.cpp).
inline constexpr ScheduleEntry kFemSchedule[] = {
    {Step::Wind, Loop::Substep, kStageWind},
    {Step::FemForces, Loop::Substep, kStageStvk},
    {Step::FemSolve, Loop::Substep, kStageJacobiSums},
    {Step::FemMove, Loop::Substep, kStagePredict},
    {Step::Tethers, Loop::Substep, kStageTethers},
    {Step::Velocities, Loop::Substep, kStageVelocities},
    {Step::Damping, Loop::Substep, kStageDamping},
    {Step::Normals, Loop::Frame, kStageNormals},
};

// The schedule of a model.
inline Schedule modelSchedule(ClothModel model) {
    switch (model) {
        case ClothModel::MassSpring: return kMassSpringSchedule;
        case ClothModel::Projective: return kProjectiveSchedule;
        case ClothModel::Fem: return kFemSchedule;
        default: return kSchedule;
    }
}

// Where a step runs within the frame.
struct StepContext {
    int substep = 0;
    int iteration = 0;         // Loop::Iteration only
    float dt = 0.0f;           // substep length
    float start = 0.0f;        // simulated time at the start of the substep (s)
    gpu::SolveParams solve{};  // invDt2, mode, firstIteration, time = end of the substep
    gpu::WindParams wind{};    // scenes with wind: its velocity at the start of the substep
    bool lastSubstep = false;
    // Jacobi and Chebyshev iterations (src/kernels/jacobi.h): the Chebyshev weight of this
    // iteration (1 for Jacobi, and for Chebyshev's warm-up) and the relaxation gamma.
    float omega = 1.0f;
    float gamma = 1.0f;
};

// Chebyshev's weight for iteration `it` (0-based: it computes q^(it+1) from q^it) from the
// previous one (Cheng 2023 Alg. 2.2, lines 7-15, with k = it): 1 during the warm-up it < S, then
// 2 / (2 - rho^2) at it = S, then 4 / (4 - rho^2 omega_prev). Jacobi and Gauss-Seidel: 1.
inline float iterationOmega(const IterationSettings& s, int it, float previous) {
    if (s.scheme != IterationScheme::Chebyshev || it < s.warmup) return 1.0f;
    const float r2 = s.rho * s.rho;
    if (it == s.warmup) return 2.0f / (2.0f - r2);
    return 4.0f / (4.0f - r2 * previous);
}

// Contacts slower than this (m/s) get no restitution: 2 |g| dt, what gravity adds in two
// substeps, so that resting contact does not bounce (src/kernels/collider.h).
inline float restitutionThreshold(const SimSettings& sim, const FrameTiming& t) {
    return 2.0f * glm::length(sim.gravity) * substepDt(t);
}

// The wind of the substep that starts at `time`, gusts included (sim/gusts.h).
inline gpu::WindParams windParams(const WindSettings& w, double time, float dt) {
    gpu::WindParams p;
    p.velocity = glm::vec4(windVelocityAt(w, time), 0.0f);
    p.dt = dt;
    p.airDensity = w.airDensity;
    p.drag = w.drag;
    p.lift = w.lift;
    return p;
}

// The one driver: calls run(entry, context) for every step of `schedule` in the frame of `timing`
// that starts at `time` (seconds): the substeps in order, each running the Substep and Iteration
// entries in list order (`iterations` times over each run of consecutive Iteration entries), then
// the Frame entries.
template <class F>
void forEachStep(Schedule schedule, const SimSettings& sim, const FrameTiming& timing, double time,
                 int iterations, F&& run) {
    const float dt = substepDt(timing);
    const int n = static_cast<int>(schedule.size());
    for (int s = 0; s < timing.substeps; ++s) {
        StepContext c;
        c.substep = s;
        c.dt = dt;
        c.lastSubstep = s + 1 == timing.substeps;
        c.solve.invDt2 = 1.0f / (dt * dt);
        c.solve.mode = sim.mode == SolverMode::Pbd ? gpu::MODE_PBD : gpu::MODE_XPBD;
        c.solve.time = static_cast<float>(time + static_cast<double>(dt) * (s + 1));
        c.start = static_cast<float>(time + static_cast<double>(dt) * s);
        if (sim.wind) c.wind = windParams(*sim.wind, time + static_cast<double>(dt) * s, dt);
        for (int i = 0; i < n;) {
            if (schedule[i].loop == Loop::Frame) {
                ++i;
                continue;
            }
            if (schedule[i].loop == Loop::Substep) {
                run(schedule[i++], c);
                continue;
            }
            int end = i;  // the run of Iteration entries [i, end)
            while (end < n && schedule[end].loop == Loop::Iteration) ++end;
            c.gamma = sim.iteration.relaxation;
            for (int it = 0; it < iterations; ++it) {
                c.iteration = it;
                c.omega = iterationOmega(sim.iteration, it, c.omega);
                c.solve.firstIteration = it == 0 ? 1u : 0u;
                for (int k = i; k < end; ++k) run(schedule[k], c);
            }
            c.iteration = 0;
            c.omega = 1.0f;
            c.solve.firstIteration = 0u;
            i = end;
        }
    }
    StepContext last;
    last.dt = dt;
    last.substep = timing.substeps - 1;
    last.lastSubstep = true;
    for (const ScheduleEntry& e : schedule)
        if (e.loop == Loop::Frame) run(e, last);
}

// XPBD's frame: kSchedule with the scene's iterations.
template <class F>
void forEachStep(const SimSettings& sim, const FrameTiming& timing, double time, F&& run) {
    forEachStep(kSchedule, sim, timing, time, sim.iterations, std::forward<F>(run));
}

}  // namespace cloth
