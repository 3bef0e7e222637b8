#include "cpu/self/full_detection.h"

#include <algorithm>
#include <bit>

#include "core/error.h"
#include "cpu/self/args.h"

namespace cloth {

FullDetection::FullDetection(const PreparedCloth& p)
    : p_(p),
      margin_(p.sim.selfCollision->margin),
      restData_(selfRestData(p, "self-collision's full detection")),
      triThickness_(restData_.triangleThickness),
      rest_(restData_.neighbours),
      boxes_(p.triangles.size()),
      tree_(static_cast<std::uint32_t>(p.triangles.size())) {}

void FullDetection::detect(ThreadPool& pool, int member, int size, const glm::vec4* start,
                           const glm::vec4* pred) {
    const auto n = static_cast<std::uint32_t>(p_.triangles.size());
    if (member == 0) {
        if (work_.size() < std::size_t(size)) work_.resize(size);
        for (MemberWork& w : work_) {
            w.found.clear();
            w.pairs = w.tested = 0;
        }
    }
    pool.barrier();
    std::uint32_t b, e;
    ThreadPool::split(n, member, size, b, e);
    for (std::uint32_t i = b; i < e; ++i) {
        const glm::uvec3 t = p_.triangles[i];
        glm::vec3 lo(start[t.x]), hi = lo;
        for (glm::vec3 x : {glm::vec3(start[t.y]), glm::vec3(start[t.z]), glm::vec3(pred[t.x]),
                            glm::vec3(pred[t.y]), glm::vec3(pred[t.z])}) {
            lo = glm::min(lo, x);
            hi = glm::max(hi, x);
        }
        const float grow = triThickness_[i] + 0.5f * margin_;
        boxes_[i] = {lo - glm::vec3(grow), hi + glm::vec3(grow)};
    }
    pool.barrier();
    tree_.rebuild(pool, member, size, boxes_);
    const Lbvh& tree = tree_.tree();
    MemberWork& work = work_[member];
    work.found.clear();
    std::uint64_t pairs = 0, tested = 0;
    for (std::uint32_t i = b; i < e; ++i) {
        const std::uint32_t a = tree.order[i];
        const glm::vec4* predicted = pred;
        lbvhWalkAfter(tree, i, boxes_[a].lo, boxes_[a].hi, work.stack, [&](std::uint32_t j) {
            ++pairs;
            const std::uint32_t other = tree.order[j];
            if (!gpu::selfInertPair(SELF_ARGS a, other))
                narrowPhase(a, other, start, pred, work.found, tested);
        });
    }
    // The sides remembered from the last call (selfRemember).
    {
        const glm::vec4* predicted = pred;
        for (gpu::SelfContact& c : work.found) gpu::selfRemember(SELF_ARGS c, memory_.bits);
    }
    work.pairs = pairs;
    work.tested = tested;
    pool.barrier();
    if (member == 0) {
        contacts_.clear();
        for (int m = 0; m < size; ++m)
            contacts_.insert(contacts_.end(), work_[m].found.begin(), work_[m].found.end());
        memory_.reset(contacts_.size());
        for (const gpu::SelfContact& c : contacts_)
            memory_.insert(glm::uvec4(c.info.x + 1u, c.info.y, c.info.z, 0u),
                           gpu::selfKeyNormal(c));
    }
    pool.barrier();
}

void FullDetection::narrowPhase(std::uint32_t a, std::uint32_t b, const glm::vec4* start,
                                const glm::vec4* pred, std::vector<gpu::SelfContact>& out,
                                std::uint64_t& tested) const {
    const glm::vec4* predicted = pred;
    std::uint32_t live = gpu::selfOwnedPairs(SELF_ARGS a, b);
    std::uint32_t count = 0;
    while (live != 0) {
        const auto k = static_cast<std::uint32_t>(std::countr_zero(live));
        live &= live - 1;
        gpu::SelfContact c;
        // Memory bits 0: the sides are remembered after the walk.
        if (gpu::selfPrimitivePair(SELF_ARGS a, b, k, margin_, 0u, c, count)) out.push_back(c);
    }
    tested += count;
}

std::uint64_t FullDetection::candidatePairs() const {
    std::uint64_t n = 0;
    for (const MemberWork& w : work_) n += w.pairs;
    return n;
}

std::uint64_t FullDetection::primitivePairs() const {
    std::uint64_t n = 0;
    for (const MemberWork& w : work_) n += w.tested;
    return n;
}

std::vector<gpu::SelfContact> findSelfContacts(const PreparedCloth& p,
                                               const std::vector<glm::vec4>& start,
                                               const std::vector<glm::vec4>& pred, int threads) {
    FullDetection d(p);
    ThreadPool pool(threads);
    pool.run([&](int member, int size) { d.detect(pool, member, size, start.data(), pred.data()); });
    return d.contacts();
}

}  // namespace cloth
