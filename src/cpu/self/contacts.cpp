// Every substep on the CPU reference (sim/self_phases.h's Evaluate and Compact): each candidate
// tested for the substep, and per vertex the slots of its contacts.
#include <algorithm>

#include "cpu/self/args.h"
#include "cpu/self/self_collision.h"
#include "cpu/self/xyz.h"
#include "kernels/self_motion.h"

namespace cloth {

namespace {

using self_detail::xyz;

}  // namespace

// Each candidate that the moves do not rule out (selfCandidateSkipped) is tested as a full
// detection tests its pairs (selfCandidateEvaluate: swept boxes within reach, the gap test, one
// contact per closest point), keeping the side it had if it was a contact in the last substep;
// its slot holds the contact (weights g, normal and distance to keep), or g = 0 for none. It
// and each rest pair get their separating planes.
void SelfCollision::evaluate(ThreadPool& pool, int member, int size, const glm::vec4* start,
                             const glm::vec4* pred) {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(candidates_.size()), member, size, b, e);
    const glm::vec4* predicted = pred;
    std::uint64_t tested = 0, found = 0;
    std::uint32_t conflicts = 0;
    if (member == 0) {
        budgets_.resize(candidates_.size());
        dirs_.resize(candidates_.size());
    }
    pool.barrier();
    // The pair's budgets from its direction (kernels/self_motion.h's separating planes).
    const auto pairPlane = [&](const gpu::SelfCandidate& cand, const glm::vec4& dir) {
        const glm::uvec4 v = cand.vertices;
        const glm::vec3 n = xyz(dir);
        const float approach = gpu::selfApproach(
            cand.kind, n, xyz(pred[v.x]) - xyz(start[v.x]), xyz(pred[v.y]) - xyz(start[v.y]),
            xyz(pred[v.z]) - xyz(start[v.z]), xyz(pred[v.w]) - xyz(start[v.w]));
        conflicts += gpu::selfPairConflict(dir.w, approach, cand.keep) ? 1u : 0u;
        return gpu::selfPairBudgets(dir.w, approach, cand.keep);
    };
    for (std::uint32_t i = b; i < e; ++i) {
        const gpu::SelfCandidate& cand = candidates_[i];
        const glm::uvec4 v = cand.vertices;
        slotWeights_[i] = glm::vec4(0.0f);
        budgets_[i] = glm::vec2(gpu::SELF_NO_BOUND);
        if (gpu::selfCandidateSkipped(cand.kind, gaps_[i], moves_[v.x], moves_[v.y], moves_[v.z],
                                      moves_[v.w], cand.keep, s_.margin, shift_, slack_)) {
            sides_[i] = glm::vec4(0.0f);
            continue;
        }
        ++tested;
        gpu::SelfContact c;
        const bool contact = gpu::selfCandidateEvaluate(SELF_ARGS cand, s_.margin, dirs_[i], c);
        budgets_[i] = pairPlane(cand, dirs_[i]);
        if (!contact) {
            sides_[i] = glm::vec4(0.0f);
            continue;
        }
        // A detection's candidates are new: the side a contact had comes from the memory.
        const glm::vec4 side =
            detect_ ? gpu::selfRememberedSide(SELF_ARGS cand, memory_.bits) : sides_[i];
        sides_[i] = gpu::selfKeepSide(side, c);
        slotWeights_[i] = c.weights;
        slotNormals_[i] = c.normal;
        ++found;
    }
    {
        std::uint32_t pb, pe;
        ThreadPool::split(static_cast<std::uint32_t>(restPairs_.pairs.size()), member, size, pb,
                          pe);
        for (std::uint32_t k = pb; k < pe; ++k) {
            restDirs_[k] = gpu::selfCandidateDirection(SELF_ARGS restPairs_.pairs[k]);
            restBudgets_[k] = pairPlane(restPairs_.pairs[k], restDirs_[k]);
        }
    }
    work_[member].evaluated = tested;
    work_[member].contacts = found;
    work_[member].conflicts = conflicts;
    if (member == 0)
        for (std::size_t m = std::size_t(size); m < work_.size(); ++m)
            work_[m].evaluated = work_[m].contacts = work_[m].conflicts = 0;
    pool.barrier();
    // The contacts in candidate order, each with its index among them (the Jacobi passes
    // compute each contact's corrections once).
    std::uint32_t next = 0;
    for (int m = 0; m < member; ++m) next += static_cast<std::uint32_t>(work_[m].contacts);
    if (member == size - 1) activeTotal_ = next + static_cast<std::uint32_t>(found);
    pool.barrier();
    if (member == 0) {
        if (corrections_.size() < 4 * std::size_t(activeTotal_))
            corrections_.resize(4 * std::size_t(activeTotal_));
        if (activeContacts_.size() < activeTotal_) activeContacts_.resize(activeTotal_);
        activeIndex_.resize(candidates_.size());
    }
    pool.barrier();
    for (std::uint32_t i = b; i < e; ++i)
        if (slotWeights_[i].x > 0.0f) {
            activeIndex_[i] = next;
            gpu::SelfContact& k = activeContacts_[next];
            k.vertices = candidates_[i].vertices;
            k.weights = slotWeights_[i];
            k.normal = slotNormals_[i];
            ++next;
        }
}

// Per original vertex, the slots of its candidates that are contacts now, in slot order.
void SelfCollision::compact(int member, int size) {
    std::uint32_t b, e;
    ThreadPool::split(p_.originalVertexCount, member, size, b, e);
    std::uint32_t most = 0, conflicts = 0;
    for (const MemberWork& w : work_) conflicts += w.conflicts;
    const std::uint32_t vertices = p_.originalVertexCount;
    for (std::uint32_t v = b; v < e; ++v) {
        std::uint32_t n = 0;
        const std::uint32_t first = listOffsets_[v];
        glm::vec2 least(gpu::SELF_NO_BOUND);
        for (std::uint32_t k = first; k < listOffsets_[v + 1]; ++k) {
            const std::uint32_t slot = listSlots_[k];
            least = glm::min(least, budgets_[slot >> 2]);
            if (slotWeights_[slot >> 2].x > 0.0f) {
                activeCorrections_[first + n] = 4 * activeIndex_[slot >> 2] + (slot & 3u);
                activeSlots_[first + n++] = slot;
            }
        }
        for (std::uint32_t k = restPairs_.lists[v]; k < restPairs_.lists[v + 1]; ++k)
            least = glm::min(least, restBudgets_[restPairs_.lists[vertices + 1 + k]]);
        least_[v] = least;  // no deviation shorter than this turns towards a pair by more
        activeCount_[v] = n;
        most = std::max(most, n);
    }
    work_[member].mostContacts = most;
    if (member == 0) {
        ownMode_ = conflicts == 0;
        stillSubsteps_ += ownMode_ ? 0 : 1;
    }
    if (member == 0)
        for (std::size_t m = std::size_t(size); m < work_.size(); ++m) work_[m].mostContacts = 0;
}

}  // namespace cloth
