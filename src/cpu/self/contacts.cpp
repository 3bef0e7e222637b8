// Every substep on the CPU reference (sim/self_phases.h's Evaluate and Compact): each candidate
// tested for the substep, and per vertex the slots of its contacts.
#include <algorithm>

#include "cpu/self/args.h"
#include "cpu/self/self_collision.h"
#include "kernels/self_motion.h"

namespace cloth {

// Each candidate that the moves do not rule out (selfCandidateSkipped) is tested as a full
// detection tests its pairs (selfCandidateContact: swept boxes within reach, the gap test, one
// contact per closest point), keeping the side it had if it was a contact in the last substep;
// its slot holds the contact (weights g, normal and distance to keep), or g = 0 for none.
void SelfCollision::evaluate(ThreadPool& pool, int member, int size, const glm::vec4* start,
                             const glm::vec4* pred) {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(candidates_.size()), member, size, b, e);
    const glm::vec4* predicted = pred;
    std::uint64_t tested = 0, found = 0;
    for (std::uint32_t i = b; i < e; ++i) {
        const gpu::SelfCandidate& cand = candidates_[i];
        const glm::uvec4 v = cand.vertices;
        slotWeights_[i] = glm::vec4(0.0f);
        if (gpu::selfCandidateSkipped(cand.kind, gaps_[i], moves_[v.x], moves_[v.y], moves_[v.z],
                                      moves_[v.w], cand.keep, s_.margin, shift_, slack_)) {
            sides_[i] = glm::vec4(0.0f);
            continue;
        }
        ++tested;
        gpu::SelfContact c;
        if (!gpu::selfCandidateContact(SELF_ARGS cand, s_.margin, c)) {
            sides_[i] = glm::vec4(0.0f);
            continue;
        }
        sides_[i] = gpu::selfKeepSide(sides_[i], c);
        slotWeights_[i] = c.weights;
        slotNormals_[i] = c.normal;
        ++found;
    }
    work_[member].evaluated = tested;
    work_[member].contacts = found;
    if (member == 0)
        for (std::size_t m = std::size_t(size); m < work_.size(); ++m)
            work_[m].evaluated = work_[m].contacts = 0;
    pool.barrier();
}

// Per original vertex, the slots of its candidates that are contacts now, in slot order.
void SelfCollision::compact(int member, int size) {
    std::uint32_t b, e;
    ThreadPool::split(p_.originalVertexCount, member, size, b, e);
    std::uint32_t most = 0;
    for (std::uint32_t v = b; v < e; ++v) {
        std::uint32_t n = 0;
        const std::uint32_t first = listOffsets_[v];
        for (std::uint32_t k = first; k < listOffsets_[v + 1]; ++k) {
            const std::uint32_t slot = listSlots_[k];
            if (slotWeights_[slot >> 2].x > 0.0f) activeSlots_[first + n++] = slot;
        }
        activeCount_[v] = n;
        most = std::max(most, n);
    }
    work_[member].mostContacts = most;
    if (member == 0)
        for (std::size_t m = std::size_t(size); m < work_.size(); ++m) work_[m].mostContacts = 0;
}

}  // namespace cloth
