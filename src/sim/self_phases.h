// Self-collision's phases as data: one list that the CPU reference (src/cpu/self/) and the Vulkan
// recorder (src/vk/self/) both walk through forEachSelfPhase(), as the solver's substeps walk
// kSchedule (sim/schedule.h). The schedule's steps call into self-collision at four points
// (SelfWhen); each runs the phases listed for it, in list order. docs/collisions.md explains
// each phase and the argument that lets detection run only on demand.
#pragma once

#include <cstdint>
#include <iterator>

#include "sim/solver.h"

namespace cloth {

enum class SelfPhase : std::uint8_t {
    Rebuild,   // the tree's order anew (boxes' Morton codes, a radix sort, Karras' hierarchy),
               // at the first substep of a frame when the last frame's walks found it worn
    Motion,    // each vertex's displacement since the detection: the common translation T, a
               // fresh bound, and whether some vertex left its bounds (then a detection)
    Refit,     // detection: the triangles' boxes at the start grown by the bound, the tree's
               // bounds bottom-up (its order kept)
    Gather,    // detection: the walk: owned primitive pairs within reach plus twice the bound
               // become the candidates, each with the side it had if it was a contact
    Lists,     // detection: per vertex its candidates' slots, its bound beta and where it is
    Evaluate,  // every substep: each candidate tested for this substep (the contacts)
    Compact,   // every substep: per vertex the slots of its contacts
    Pass,      // each iteration, `passes` times: every vertex moved by its contacts
    Clamp,     // each iteration's end: every vertex clamped into its bounds
};

// Where in the schedule a phase runs.
enum class SelfWhen : std::uint8_t {
    Substep,    // Step::SelfCollisions: after the prediction
    Detection,  // within Substep, when Motion asks for a detection
    Iteration,  // Step::SelfContacts
    Bounds,     // Step::SelfBounds: the iteration's last step
};

struct SelfPhaseEntry {
    SelfPhase phase;
    SelfWhen when;
    int stage;  // where its time goes (kStageNames)
};

inline constexpr SelfPhaseEntry kSelfPhases[] = {
    {SelfPhase::Rebuild, SelfWhen::Substep, kStageSelfRebuild},
    {SelfPhase::Motion, SelfWhen::Substep, kStageSelfMotion},
    {SelfPhase::Refit, SelfWhen::Detection, kStageSelfRefit},
    {SelfPhase::Gather, SelfWhen::Detection, kStageSelfGather},
    {SelfPhase::Lists, SelfWhen::Detection, kStageSelfLists},
    {SelfPhase::Evaluate, SelfWhen::Substep, kStageSelfEvaluate},
    {SelfPhase::Compact, SelfWhen::Substep, kStageSelfEvaluate},
    {SelfPhase::Pass, SelfWhen::Iteration, kStageSelfContacts},
    {SelfPhase::Clamp, SelfWhen::Bounds, kStageSelfClamp},
};

// Calls run(entry) for the phases of `when`, in list order. SelfWhen::Substep's list holds the
// detection's phases where they run: between Motion and Evaluate, when `detect` says so
// (evaluated after Motion has run).
template <class F, class Detect>
void forEachSelfPhase(SelfWhen when, F&& run, Detect&& detect) {
    bool detecting = false, asked = false;
    for (const SelfPhaseEntry& e : kSelfPhases) {
        if (e.when == SelfWhen::Detection && when == SelfWhen::Substep) {
            if (!asked) {
                detecting = detect();
                asked = true;
            }
            if (detecting) run(e);
            continue;
        }
        if (e.when == when) run(e);
    }
}

}  // namespace cloth
