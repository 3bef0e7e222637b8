// Self-collision and cloth-cloth collision on the CPU reference (docs/collisions.md), its phases
// those of sim/self_phases.h, which the GPU (src/vk/self/) runs with the same results bit for
// bit:
//  - a detection only when the motion asks for one (kernels/self_motion.h): the tree refitted
//    to the triangles' boxes at the substep's start, each grown by its corners' motion bounds
//    (rebuilt at a frame's start when the walks found it worn), a walk keeping every owned
//    primitive pair within reach plus its corners' bounds as a candidate, and per vertex its
//    candidates' slots;
//  - every substep each candidate tested with the positions at the substep's start and
//    predicted (self_contacts.h): the substep's contacts, each in its candidate's slot, a pair
//    that stays a contact keeping its side; per vertex the slots of its contacts;
//  - in each iteration `passes` passes (SelfCollisionSettings::Order): in the vertex order each
//    vertex projects its contacts one after another from where the pass found the others,
//    moving itself alone by its share of each; then at the iteration's end every vertex is
//    clamped into its bounds, so that no solve carries it through a layer.
// No atomic operation touches a float and the sums run in fixed orders: the same bits for any
// number of threads. The candidates come out in the order of (sorted position, walk order,
// primitive order), each member taking a contiguous range of sorted positions.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <glm/glm.hpp>

#include "cpu/self/full_detection.h"
#include "cpu/self/memory.h"
#include "cpu/self/tree.h"
#include "cpu/thread_pool.h"
#include "kernels/self_contacts.h"
#include "prep/prepared.h"
#include "prep/solver_data.h"

namespace cloth {

struct SelfCollisionCounts {
    // The last detection: triangle pairs whose boxes overlap, primitive pairs that could collide
    // (tested against the candidates' reach), the nodes its walks looked at.
    std::uint64_t candidatePairs = 0, primitivePairs = 0, walkNodes = 0;
    std::uint64_t candidates = 0;  // kept by the last detection
    std::uint64_t evaluated = 0;   // candidates this substep's moves did not rule out
    std::uint64_t contacts = 0;    // this substep's
    std::uint64_t mostVertexContacts = 0;  // this substep's most at one vertex
    std::uint64_t detections = 0, rebuilds = 0;  // since the start
    std::uint64_t clamped = 0;     // vertices clamped into their bounds, since the start
    // SelfCollisionSettings::checkCandidates: the contacts of full detections (one per substep)
    // and those in which the candidates' differ from them (missing, extra, other bits).
    std::uint64_t checkedContacts = 0, missed = 0;
};

class SelfCollision {
public:
    // p.sim.selfCollision must be set; p must outlive this.
    explicit SelfCollision(const PreparedCloth& p);
    ~SelfCollision();

    // Step::SelfCollisions (after the prediction): the Substep phases, `stage(s)` called by
    // every member after each with its stage (it must hold a barrier of the pool). start: every
    // vertex at the substep's start; pred: predicted; `frameStart`: the frame's first substep.
    void collide(ThreadPool& pool, int member, int size, const glm::vec4* start,
                 const glm::vec4* pred, bool frameStart, const std::function<void(int)>& stage);
    // Step::SelfContacts: `passes` passes (ends with a barrier). pos: every vertex.
    void solve(ThreadPool& pool, int member, int size, glm::vec4* pos, const glm::vec4* start);
    // Step::SelfBounds: every vertex clamped into its bounds (ends with a barrier). start: every
    // vertex at the substep's start.
    void clamp(ThreadPool& pool, int member, int size, glm::vec4* pos, const glm::vec4* start,
               const glm::vec4* pred);
    // After a frame, on the caller's thread: whether the next frame's first substep rebuilds the
    // tree (the rule in self_collision.cpp).
    void endFrame();

    // This substep's contacts, in the candidates' order (tests, tools).
    std::vector<gpu::SelfContact> contacts() const;
    const std::vector<gpu::SelfCandidate>& candidates() const { return candidates_; }
    const SelfVertexColours& colours() const { return colours_; }
    // Per original vertex its candidates' slots (4 c + k), ascending, from offsets (+ 1).
    const std::vector<std::uint32_t>& listOffsets() const { return listOffsets_; }
    const std::vector<std::uint32_t>& listSlots() const { return listSlots_; }
    // Per original vertex where the last detection saw it (xyz) and its bound (w).
    const std::vector<glm::vec4>& detected() const { return detected_; }
    SelfCollisionCounts counts() const;
    const Lbvh& tree() const { return tree_.tree(); }
    bool rebuildDue() const { return rebuildDue_; }

private:
    void triangleBoxes(int member, int size, const glm::vec4* at, float grow);
    void rebuild(ThreadPool& pool, int member, int size, const glm::vec4* start);
    void motion(ThreadPool& pool, int member, int size, const glm::vec4* start,
                const glm::vec4* pred);
    void refit(ThreadPool& pool, int member, int size, const glm::vec4* start);
    void gather(ThreadPool& pool, int member, int size, const glm::vec4* start);
    void lists(ThreadPool& pool, int member, int size);
    void evaluate(ThreadPool& pool, int member, int size, const glm::vec4* start,
                  const glm::vec4* pred);
    void compact(int member, int size);
    void passVertex(ThreadPool& pool, int member, int size, glm::vec4* pos, const glm::vec4* start, int pass);
    void passJacobi(ThreadPool& pool, int member, int size, glm::vec4* pos, const glm::vec4* start,
                    int pass);
    void passSequential(glm::vec4* pos, const glm::vec4* start);
    void moveCopies(std::uint32_t v, glm::vec4* pos, glm::vec3 d) const;
    void checkAgainstShadow(const glm::vec4* start, const glm::vec4* pred);

    const PreparedCloth& p_;
    const SelfCollisionSettings s_;
    // The rest data (p_'s solver data, prep/solver_data.h) and its parts.
    const SelfRestData& restData_;
    const std::vector<float>& triThickness_;
    const float leastThickness_;
    const RestNeighbours& rest_;
    const RestPairs& restPairs_;  // the rest neighbours as pairs, for the bounds
    const SelfVertexColours& colours_;  // the vertex order's
    std::vector<std::uint32_t> originalOf_;  // per vertex: its original (itself for originals)
    std::vector<std::uint32_t> groupOf_;     // per original vertex: its phantom group, or ~0u

    // The tree and its rebuild rule.
    SelfTree tree_;
    std::vector<Aabb> boxes_;
    bool rebuildDue_ = true;
    std::uint64_t rebuilds_ = 0;
    // The last detection's walk: nodes looked at and pairs found; and the same at the end of
    // the first frame with a detection after the last rebuild (0: not yet).
    std::uint64_t lastNodes_ = 0, lastPairs_ = 0, refNodes_ = 0, refPairs_ = 0;
    bool detectedThisFrame_ = false;

    // Motion (kernels/self_motion.h).
    std::vector<glm::vec4> detected_;  // per original vertex: x^ and its bound b_v
    std::vector<glm::vec2> moves_;     // per original vertex: selfVertexMoves
    float shift_ = 0.0f;               // selfShift of the substep
    float slack_ = 0.0f;
    bool detect_ = false;
    std::uint64_t detections_ = 0;

    // Candidates (in gathering order) and their slots.
    std::vector<gpu::SelfCandidate> candidates_;
    std::vector<glm::vec2> gaps_;          // at the detection: boxes' gap, primitives' distance
    std::vector<glm::vec4> sides_;         // the last substep's direction (as the key reads
                                           // it); w: 1 when it was a contact
    std::vector<glm::vec4> slotWeights_;   // this substep: g (0 when no contact)
    std::vector<glm::vec4> slotNormals_;   // and n, the distance to keep
    SelfMemory memory_;                    // sides carried to a new detection's candidates
    // Per original vertex: its candidates' slots (4 c + k), ascending, from listOffsets_; and
    // its contacts' slots this substep (activeCount_ of them from the same offsets).
    std::vector<std::uint32_t> listOffsets_, listSlots_, activeCount_, activeSlots_, fill_;
    std::vector<std::uint32_t> activeCorrections_;  // per contact slot: its correction's index
    // Passes: where the pass found the original vertices (two in turn).
    std::vector<glm::vec4> snap_[2];

    // Per member (each on its own cache lines).
    struct alignas(64) MemberWork {
        std::vector<gpu::SelfCandidate> gathered;
        std::vector<glm::vec2> gatheredGap;
        std::vector<std::uint32_t> stack;
        std::uint64_t pairs = 0, tested = 0, nodes = 0, evaluated = 0, contacts = 0, clamped = 0;
        std::uint32_t mostContacts = 0;  // of one vertex (compact)
        std::uint32_t conflicts = 0;     // evaluate: pairs that leave the own mode no room
        std::uint32_t listTotal = 0;     // lists: the slots of the member's vertices
        // motion: the starts' and the predictions' intervals of translations, the largest
        // coordinate; the positions that are not finite.
        glm::vec3 range[5];
        std::uint32_t outside[1] = {0};
    };
    std::vector<MemberWork> work_;
    std::uint64_t clampedTotal_ = 0, clampedLast_ = 0;
    // The substep's separating planes: per candidate and per rest pair its budgets
    // (selfPairBudgets: own references, still references) and direction, per original vertex
    // the least of its pairs' budgets, and the mode.
    std::vector<glm::vec2> budgets_, restBudgets_;
    std::vector<glm::vec4> dirs_, restDirs_;
    std::vector<glm::vec2> least_;  // per original vertex: the least of its pairs' budgets
    // Each candidate's index among the substep's contacts (in candidate order), and per
    // contact its four corrections in a Jacobi pass.
    std::vector<std::uint32_t> activeIndex_;
    std::vector<gpu::SelfContact> activeContacts_;  // their vertices, g and normal, in order
    std::vector<glm::vec4> corrections_;
    std::uint32_t activeTotal_ = 0;
    bool ownMode_ = true;
    std::uint64_t stillSubsteps_ = 0;

    // checkCandidates: a full detection every substep beside, on one thread.
    std::unique_ptr<FullDetection> shadow_;
    std::unique_ptr<ThreadPool> shadowPool_;
    std::uint64_t checkedContacts_ = 0, missed_ = 0;
};

}  // namespace cloth
