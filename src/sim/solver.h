// The interface both backends implement. A solver is built from a PreparedCloth and advances it
// one frame (1/fps s) at a time through the steps of the shared schedule (sim/schedule.h):
//   for each substep:  wind (scenes with wind), predict
//                      for each iteration:  for each colour: each constraint type's batch
//                                           attachments, tethers, grab, phantom averaging
//                      velocity update (+ linear damping), rigid-preserving damping
//   then vertex normals.
// A solver reads the PreparedCloth it was made from for as long as it lives, and copies only its
// state (positions, velocities, multipliers): the caller keeps that PreparedCloth alive and
// unchanged until the solver is gone (the factories refuse a temporary at compile time).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <glm/glm.hpp>
#include <iterator>

#include "kernels/constraint_types.h"
#include "core/error.h"

namespace cloth {

// Stage names, in frame order; stageTimes() reports them in this order. One stage per
// constraint type of src/kernels/constraint_types.h, named after it.
inline constexpr const char* kStageNames[] = {
    "wind", "collisions", "predict",
#define CLOTH_X(I, Name, name, Item, V, W, Lam) #name,
    CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X
    "colour_waits", "jacobi_sums", "attachments", "tethers", "contacts", "phantoms", "velocities", "damping",
    "self_rebuild", "self_motion", "self_refit", "self_gather", "self_lists", "self_evaluate",
    "self_contacts", "self_clamp", "normals"};
inline constexpr int kStageCount = static_cast<int>(std::size(kStageNames));
inline constexpr int kStageWind = 0;
inline constexpr int kStageCollisions = 1;  // pre-stabilisation and contact reset
inline constexpr int kStagePredict = 2;
inline constexpr int kStageFirstType = 3;  // + the type's index
// The StVK triangles' stage (the fem model bills its elements' forces there).
inline constexpr int kStageStvk =
    kStageFirstType + int(gpu::constraintTypeIndex<gpu::StvkConstraint>);
// The CPU reference's waits at the barrier that closes each colour (threads done with their share
// wait for the others); kept apart so that they are not billed to the colour's last type. 0 on
// the GPU, whose colour passes are timed from the first dispatch to the last.
inline constexpr int kStageColourWaits = kStageFirstType + CLOTH_CONSTRAINT_TYPE_COUNT;
// Jacobi and Chebyshev iterations: the per-vertex pass that adds each vertex's moves (the items'
// own pass is billed to their types).
inline constexpr int kStageJacobiSums = kStageColourWaits + 1;
inline constexpr int kStageAttachments = kStageJacobiSums + 1;
inline constexpr int kStageTethers = kStageAttachments + 1;
inline constexpr int kStageContacts = kStageAttachments + 2;  // projection and restitution
inline constexpr int kStagePhantoms = kStageAttachments + 3;
inline constexpr int kStageVelocities = kStageAttachments + 4;
inline constexpr int kStageDamping = kStageAttachments + 5;
// Self-collision's phases (sim/self_phases.h): the tree's rebuild, the motion check, a
// detection's refit, walk and lists, the candidates' test and the contacts' lists every substep,
// the passes over the contacts, the clamp into the bounds.
inline constexpr int kStageSelfRebuild = kStageAttachments + 6;
inline constexpr int kStageSelfMotion = kStageSelfRebuild + 1;
inline constexpr int kStageSelfRefit = kStageSelfRebuild + 2;
inline constexpr int kStageSelfGather = kStageSelfRebuild + 3;
inline constexpr int kStageSelfLists = kStageSelfRebuild + 4;
inline constexpr int kStageSelfEvaluate = kStageSelfRebuild + 5;
inline constexpr int kStageSelfContacts = kStageSelfRebuild + 6;
inline constexpr int kStageSelfClamp = kStageSelfRebuild + 7;
inline constexpr int kStageNormals = kStageSelfClamp + 1;
static_assert(kStageNormals + 1 == kStageCount);

struct StageTime {
    std::string name;
    double ms = 0.0;
};

// Mouse grab: a hard attachment pulling `vertex` (and its phantom copies) to `target` in every
// iteration, after the attachments and tethers (so it wins over both), until cleared.
struct Grab {
    std::uint32_t vertex = 0;
    glm::vec3 target{0.0f};
};

// Every backend's setGrab() refuses a vertex that is not an original one.
inline void checkGrabVertex(const std::optional<Grab>& grab, std::uint32_t originalVertexCount) {
    if (grab && grab->vertex >= originalVertexCount)
        throw Error("grab: vertex " + std::to_string(grab->vertex) + " is out of range (" +
                    std::to_string(originalVertexCount) + " vertices)");
}

class Solver {
public:
    virtual ~Solver() = default;

    virtual const char* backendName() const = 0;  // "cpu" | "gpu"
    virtual std::string deviceName() const = 0;   // CPU model or GPU name
    virtual int threadCount() const = 0;          // CPU worker threads (1 for the GPU)
    // The threads a frame actually runs on: the CPU reference uses fewer than threadCount() when
    // the cloth is too small for them to pay for their synchronisation (cpu/cpu_solver.h).
    virtual int threadsUsed() const { return threadCount(); }
    // Why frames ran on the threads they did (the CPU reference's team, cpu/team.h); none for a
    // backend without one.
    struct TeamReport {
        std::string mode;    // "adaptive" | "fixed"
        int threadsUsed = 1;  // the last frame's
        std::string reason;  // the last frame's (cpu/team_load.h's names)
        // Frames so far per reason, in a fixed order, only reasons seen.
        std::vector<std::pair<std::string, std::uint64_t>> frames;
        // The last decision's evidence over its window, in cores (-1: none yet): the machine's
        // busy time less this process's, and steal time.
        double otherCores = -1.0, stealCores = -1.0;
    };
    virtual std::optional<TeamReport> teamReport() const { return std::nullopt; }

    virtual void stepFrame() = 0;
    virtual double simTime() const = 0;  // seconds simulated so far

    // All vertices, phantoms included, in PreparedCloth order.
    virtual void readPositions(std::vector<glm::vec4>& out) = 0;
    virtual void readVelocities(std::vector<glm::vec4>& out) = 0;
    // Unit normals of the original vertices, as of the last stepFrame().
    virtual void readNormals(std::vector<glm::vec4>& out) = 0;

    // XPBD multipliers of constraint type `type` (constraint_types.h's index), per item in
    // PreparedCloth's table order, after the last iteration of the last substep of the most
    // recent frame: x for a float multiplier, xyzw for a vec4 one. A backend that keeps them only
    // between iterations (the GPU) keeps the last ones too while keepMultipliers(true) is set, from
    // the next frame on (for the convergence metrics).
    virtual void keepMultipliers(bool keep) = 0;
    virtual void readMultipliers(std::size_t type, std::vector<glm::vec4>& out) = 0;

    // Positions, velocities and, when `multipliers` is given (an array of
    // gpu::kConstraintTypeCount), every type's multipliers: what the reads above give, read
    // together (the GPU: one transfer and one wait instead of one per buffer).
    virtual void readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities,
                           std::vector<glm::vec4>* multipliers) {
        readPositions(positions);
        readVelocities(velocities);
        if (multipliers)
            for (std::size_t t = 0; t < gpu::kConstraintTypeCount; ++t)
                readMultipliers(t, multipliers[t]);
    }

    // Starts over from `positions` and `velocities` (every vertex, phantoms included, in
    // PreparedCloth order) at `time`, as a solver made from a PreparedCloth holding them would:
    // multipliers, contact states and self-collision's candidates, memory and tree begin anew,
    // and so do self-collision's counters. clothcheck's resync mode. False where the backend
    // cannot (the caller makes a new solver from the state instead); cloth::Error for arrays of
    // the wrong size.
    virtual bool restart(const std::vector<glm::vec4>& /*positions*/,
                         const std::vector<glm::vec4>& /*velocities*/, double /*time*/) {
        return false;
    }

    // Milliseconds per stage of the most recent frame, in kStageNames order.
    virtual std::vector<StageTime> stageTimes() const = 0;

    virtual void setGrab(std::optional<Grab> grab) = 0;

    // Vertices (phantom copies included) in contact with a collider in the last substep of the
    // most recent frame.
    virtual std::uint32_t contactCount() const = 0;

    // Self-collision (scenes with sim.selfCollision): of the last detection, triangle pairs
    // whose boxes overlapped, primitive pairs that could collide and the nodes its walks looked
    // at; contacts made in the last substep of the most recent frame.
    struct SelfCounts {
        std::uint64_t candidatePairs = 0, primitivePairs = 0, contacts = 0, walkNodes = 0;
        // The primitive pairs the last detection kept; since the solver began, the detections,
        // the tree's rebuilds and the vertices clamped into their bounds.
        std::uint64_t candidates = 0, detections = 0, rebuilds = 0, clamped = 0;
        std::uint64_t evaluated = 0;  // candidates the substep's moves did not rule out
        std::uint64_t mostVertexContacts = 0;  // the most contacts of one vertex (last substep)
        // SelfCollisionSettings::checkCandidates (CPU): the full detections' contacts, and the
        // contacts in which the candidates' differ from them.
        std::uint64_t checkedContacts = 0, missed = 0;
    };
    virtual SelfCounts selfCounts() const { return {}; }

    // The model's own figures, by name (model mass_spring: omega_max_rad_s, step_limit_s, step_s,
    // steps_per_substep); none for XPBD.
    struct ModelFigure {
        std::string name;
        double value = 0.0;
    };
    virtual std::vector<ModelFigure> modelFigures() const { return {}; }
    // The backend's own figures since the run began, by name (the XPBD GPU solver:
    // frames_recorded, frames_redone); none for the CPU.
    virtual std::vector<ModelFigure> backendFigures() const { return {}; }
};

}  // namespace cloth
