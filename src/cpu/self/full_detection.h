// A full self-collision detection on the CPU reference, from the positions at a substep's start
// and predicted: each triangle's swept box grown by its thickness and half the margin, the
// hierarchy over them (cpu/self/tree.h), for each triangle in sorted order a walk for the
// triangles after it whose boxes overlap its own, and each such pair's owned primitive pairs
// tested (representative triangles, Anon. 2023 §6.4; self_contacts.h). A pair that was a contact
// in the last call keeps its side. No candidates, no bound: what the bounded detection is
// checked against (SelfCollisionSettings::checkCandidates) and what the tests compare with
// brute force. The contacts come out in the order of (sorted position, walk order, primitive
// order): the same for any number of threads.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "cpu/self/memory.h"
#include "cpu/self/tree.h"
#include "cpu/thread_pool.h"
#include "kernels/self_contacts.h"
#include "prep/prepared.h"
#include "prep/solver_data.h"

namespace cloth {

class FullDetection {
public:
    // p.sim.selfCollision must be set; p must outlive this.
    explicit FullDetection(const PreparedCloth& p);

    // Every member of the pool calls it; it ends with a barrier.
    void detect(ThreadPool& pool, int member, int size, const glm::vec4* start,
                const glm::vec4* pred);

    const std::vector<gpu::SelfContact>& contacts() const { return contacts_; }
    // Of the last detection: triangle pairs whose boxes overlap, primitive pairs tested.
    std::uint64_t candidatePairs() const;
    std::uint64_t primitivePairs() const;
    const Lbvh& tree() const { return tree_.tree(); }
    const std::vector<Aabb>& boxes() const { return boxes_; }

private:
    void narrowPhase(std::uint32_t a, std::uint32_t b, const glm::vec4* start,
                     const glm::vec4* pred, std::vector<gpu::SelfContact>& out,
                     std::uint64_t& tested) const;

    const PreparedCloth& p_;
    float margin_;
    const SelfRestData& restData_;  // p_'s solver data's (prep/solver_data.h), and its parts
    const std::vector<float>& triThickness_;
    const RestNeighbours& rest_;
    std::vector<Aabb> boxes_;
    SelfTree tree_;
    struct alignas(64) MemberWork {
        std::vector<gpu::SelfContact> found;
        std::vector<std::uint32_t> stack;
        std::uint64_t pairs = 0, tested = 0;
    };
    std::vector<MemberWork> work_;
    std::vector<gpu::SelfContact> contacts_;
    SelfMemory memory_;  // the last call's contacts' sides
};

// The contacts of one full detection, computed on `threads` threads (tests).
std::vector<gpu::SelfContact> findSelfContacts(const PreparedCloth& p,
                                               const std::vector<glm::vec4>& start,
                                               const std::vector<glm::vec4>& pred,
                                               int threads = 1);

}  // namespace cloth
