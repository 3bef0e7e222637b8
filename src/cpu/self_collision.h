// Self-collision and cloth-cloth collision on the CPU reference (issue 13): every substep a
// linear BVH over all cloths' triangles (prep/lbvh.h), the close triangle pairs' contacts
// (src/kernels/self_contacts.h), then in every iteration the contacts solved as a Jacobi step
// averaged per vertex.
//
// Detection, per substep, from the positions at the substep's start and predicted:
//  1. each triangle's box holds its corners then and predicted, grown by its cloth's thickness
//     and half the margin (two triangles closer than their thicknesses plus the margin overlap);
//  2. Morton codes of the boxes' centres, a stable radix sort, Karras' hierarchy, bounds;
//  3. for each triangle, in sorted order, a walk for the triangles after it in that order whose
//     boxes overlap its own; each such pair (A, B), unless the rest mesh rules out all its
//     primitive pairs (found at load), tests only the primitives each owns
//     (representative triangles, Anon. 2023 §6.4): A's vertices against triangle B, B's against A, A's
//     edges against B's, so no pair of primitives is tested twice;
//  4. a primitive pair is a contact when their swept boxes come within reach and
//     self_contacts.h's gap test says so, unless the two
//     share a vertex or are within the same distance of each other in the rest mesh (one
//     cloth's neighbours, which the cloth's own constraints hold apart);
//  5. a pair that was a contact in the last substep keeps its side (self_contacts.h);
//  6. per original vertex the list of its contacts' slots, in contact order.
// The contacts come out in the order of (sorted position, walk order, primitive order): the same
// for any number of threads, as each thread takes a contiguous range of sorted positions.
//
// Solve, per iteration, after the colliders' contacts: each contact's corrections of its four
// vertices (selfContactCorrections), then each vertex moves by their mean (summed in its list's
// order), its phantom copies with it. No atomics; the same bits for any thread count.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <glm/glm.hpp>

#include "prep/lbvh.h"
#include "prep/self_collision_data.h"
#include "cpu/thread_pool.h"
#include "prep/prepared.h"
#include "cpu/contact_colors.h"
#include "kernels/self_contacts.h"

namespace cloth {

// What a detection found, for the benchmark and the tests.
struct SelfCollisionCounts {
    std::uint64_t candidatePairs = 0;  // triangle pairs whose boxes overlap
    std::uint64_t primitivePairs = 0;  // vertex-triangle and edge-edge pairs tested
    std::uint64_t contacts = 0;
    std::uint64_t candidates = 0;  // bounded detection: the primitive pairs kept
    std::uint64_t evaluated = 0;   // bounded: candidates this substep's bounds did not rule out
    std::uint64_t detections = 0;  // bounded detection: since the start
    // SelfCollisionSettings::checkCandidates: the contacts of full detections (one per substep)
    // and those of them the candidates' contacts lack or have otherwise (with other bits), plus
    // the candidates' contacts the full detection does not have.
    std::uint64_t checkedContacts = 0, missed = 0;
    std::uint64_t colorRounds = 0;  // colored order: the most rounds of any substep's colouring
};

class SelfCollision {
public:
    // p.sim.selfCollision must be set; p must outlive this.
    explicit SelfCollision(const PreparedCloth& p);

    // The phases of a detection, `stage(k)` called by every member after phase k (0: boxes and
    // codes, 1: sort, 2: hierarchy, 3: bounds, 4: walk and narrow phase, 5: vertex lists); it
    // must hold a barrier of the pool. start, pred: positions (original vertices first).
    void detect(ThreadPool& pool, int member, int size, const glm::vec4* start,
                const glm::vec4* pred, const std::function<void(int)>& stage);

    // Bounded detection (SelfCollisionSettings::Detection::Bounded; self_candidates.cpp): a
    // new detection when some vertex has moved past the bound since the last (stages 0-5 as
    // detect's, the walk gathering candidates and phase 5 colouring them), then every
    // candidate tested for this substep (stage 6): contacts() are the candidates that are
    // contacts this substep, in the candidates' order, coloured or listed as detect()'s.
    void detectBounded(ThreadPool& pool, int member, int size, const glm::vec4* start,
                       const glm::vec4* pred, const std::function<void(int)>& stage);
    // Bounded detection: the candidates (in the contacts' order) and the bound of the last
    // detection (m; the largest move of a vertex, relative to the others, that it allows).
    const std::vector<gpu::SelfCandidate>& candidates() const { return candidates_; }
    // How far a vertex may move, relative to the others, before a new detection (m).
    float detectionBound() const { return bound_; }

    // One iteration's projection of the contacts (ends with a barrier). pos: every vertex;
    // start: the positions at the substep's start.
    void solve(ThreadPool& pool, int member, int size, glm::vec4* pos, const glm::vec4* start);

    // One Gauss-Seidel pass by colours instead (SelfCollisionSettings::Order::Colored; ends
    // with a barrier): colour by colour, each colour's contacts in parallel, each moving its
    // vertices by its own corrections; phantom copies then move as their original did.
    void solveColored(ThreadPool& pool, int member, int size, glm::vec4* pos,
                      const glm::vec4* start);

    // One sequential Gauss-Seidel pass (SelfCollisionSettings::Order::Sequential): the contacts
    // one after another in their order, on one thread; phantom copies then move as above.
    void solveSequential(glm::vec4* pos, const glm::vec4* start);

    // Colored order: per contact its colour, and the contacts by colour (in contact order within
    // one) with each colour's offset (contact_colors.h).
    const std::vector<std::uint32_t>& colors() const { return coloring_.colorOf; }
    // After a frame, on the caller's thread: a colouring that needed more than SELF_COLOR_ROUNDS
    // rounds (self_contacts.h) throws Error.
    void throwIfColorsFailed() const;
    const std::vector<std::uint32_t>& colorOrder() const { return coloring_.order; }
    const std::vector<std::uint32_t>& colorOffsets() const { return coloring_.offsets; }

    const std::vector<gpu::SelfContact>& contacts() const { return contacts_; }
    SelfCollisionCounts counts() const;
    const Lbvh& tree() const { return tree_; }
    const std::vector<Aabb>& boxes() const { return boxes_; }

private:
    // A full detection every substep, whatever the settings say (checkCandidates' shadow).
    SelfCollision(const PreparedCloth& p, bool shadow);
    void buildTree(ThreadPool& pool, int member, int size, const glm::vec4* start,
                   const glm::vec4* pred, float extra, const std::function<void(int)>& stage);
    bool boundExceeded(ThreadPool& pool, int member, int size, const glm::vec4* start,
                       const glm::vec4* pred, float& next, float& slack);
    void gatherCandidates(int member, int size, const glm::vec4* start, float bound);
    void arrangeCandidates(ThreadPool& pool, int member, int size, const glm::vec4* start,
                           float bound);
    std::uint32_t ownedPairs(std::uint32_t a, std::uint32_t b) const;
    std::size_t concatenateFound(ThreadPool& pool, int member, int size);
    void buildLists(ThreadPool& pool, int member, int size, std::size_t first,
                    const std::vector<gpu::SelfContact>& out);
    void evaluateCandidates(ThreadPool& pool, int member, int size, const glm::vec4* start,
                            const glm::vec4* pred, float slack);
    void rememberTable(std::size_t count, const std::function<glm::uvec4(std::size_t)>& key,
                       const std::function<glm::vec3(std::size_t)>& normal);
    void checkAgainstShadow(const glm::vec4* start, const glm::vec4* pred);
    void colorContacts();
    void rememberContacts();
    void projectContact(const gpu::SelfContact& c, glm::vec4* pos, const glm::vec4* start) const;
    void keepBefore(int member, int size, const glm::vec4* pos);
    void moveCopies(int member, int size, glm::vec4* pos);
    void narrowPhase(std::uint32_t a, std::uint32_t b, const glm::vec4* start,
                     const glm::vec4* pred, std::vector<gpu::SelfContact>& out,
                     std::uint64_t& tested) const;

    const PreparedCloth& p_;
    float margin_, muS_, muK_;
    std::vector<float> triThickness_;  // per triangle: its cloth segment's thickness
    RestNeighbours rest_;
    // Detection.
    std::vector<Aabb> boxes_;  // grown: the hierarchy's
    std::vector<glm::vec4> tight_;  // the corners' swept boxes: lo, hi per triangle
    std::vector<glm::vec3> partialLo_, partialHi_;  // per member
    Lbvh tree_;
    std::vector<std::uint32_t> sortCodes_, sortOrder_;
    std::vector<std::uint8_t> arrived_;
    // Per member (each on its own cache lines: the walk's stack and the list grow in the loop).
    struct alignas(64) MemberWork {
        std::vector<gpu::SelfContact> found;
        std::vector<gpu::SelfCandidate> gathered;  // bounded detection: its candidates
        std::vector<glm::vec2> gatheredGap;        // and their gaps and distances
        std::vector<std::uint32_t> stack;
        std::uint64_t pairs = 0, tested = 0;
        std::uint64_t evaluated = 0;  // bounded detection: candidates tested this substep
    };
    std::vector<MemberWork> work_;
    std::vector<gpu::SelfContact> contacts_;
    // The last substep's contacts' directions by their keys (as the key reads them): an
    // open-addressing table of 2^memoryBits_ slots.
    std::vector<glm::uvec4> memoryKeys_;
    std::vector<glm::vec4> memoryNormals_;
    std::uint32_t memoryBits_ = 0;
    // Per original vertex its contacts' slots (4 per contact: 4 i + k), ascending.
    std::vector<std::uint32_t> listOffsets_;  // per original vertex, + 1
    std::vector<std::uint32_t> slots_;
    std::vector<std::uint32_t> fill_;  // scratch, per original vertex (0 between detections)
    // Solve.
    std::vector<glm::vec4> corrections_;  // per slot
    std::vector<glm::vec4> moved_;        // per original vertex: what it moved by (phantoms);
                                          // Gauss-Seidel: where it was before the pass
    SelfCollisionSettings::Order order_;
    // Colored order (colorContacts).
    ContactColoring coloring_;
    std::uint32_t colorRounds_ = 0;  // the most rounds of any colouring
    bool colorsFailed_ = false;      // a colouring needed more than SELF_COLOR_ROUNDS
    std::vector<gpu::SelfContact> byColor_;  // contacts_ in coloring_.order
    // Bounded detection.
    bool bounded_ = false;
    float minBound_ = 0.0f, bound_ = 0.0f;
    std::vector<std::uint8_t> exceeded_;  // per member
    std::vector<glm::vec4> detected_;  // per original vertex: where the last detection saw it
    // Per member: the displacement ranges since the detection (lo, hi) and of this substep's
    // prediction (lo, hi).
    std::vector<std::array<glm::vec3, 5>> ranges_;  // and the largest coordinates
    std::vector<gpu::SelfCandidate> candidates_;  // in gathering order
    // Per candidate at the detection: its boxes' gap and its primitives' distance.
    std::vector<glm::vec2> gaps_;
    // Per original vertex (phase 6): its move since the detection (less the common
    // translation, plus the rounding's slack) and its move in this substep, along the axis
    // where each is largest.
    std::vector<glm::vec2> moves_;
    std::vector<std::uint8_t> wasContact_;  // per candidate: a contact in the last substep
    std::vector<glm::vec4> lastNormal_;     // and its direction then (as its key reads it)
    std::uint64_t detections_ = 0;
    // checkCandidates: a detection every substep beside, on one thread.
    std::unique_ptr<SelfCollision> shadow_;
    std::unique_ptr<ThreadPool> shadowPool_;
    std::uint64_t checkedContacts_ = 0, missed_ = 0;
};

// The contacts of one detection, computed on `threads` threads (tests).
std::vector<gpu::SelfContact> findSelfContacts(const PreparedCloth& p,
                                               const std::vector<glm::vec4>& start,
                                               const std::vector<glm::vec4>& pred,
                                               int threads = 1);

}  // namespace cloth
