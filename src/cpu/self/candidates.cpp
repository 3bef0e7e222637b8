// The motion check and a detection's candidates on the CPU reference (sim/self_phases.h's
// Motion, Gather and Lists; the argument in kernels/self_motion.h).
#include <algorithm>
#include <atomic>
#include <bit>
#include <limits>

#include "core/error.h"
#include "cpu/self/args.h"
#include "cpu/self/self_collision.h"
#include "cpu/self/xyz.h"
#include "kernels/self_motion.h"

namespace cloth {

namespace {

using self_detail::xyz;

}  // namespace

// Per original vertex its displacements since the detection, at the start and predicted, less
// and plus its own bound: per axis, the translations that keep every vertex within its bound
// (kernels/self_motion.h's per-vertex bounds), one interval per configuration. A detection is
// needed before the first, every substep with EverySubstep, when either interval is empty, or
// where a position is not finite. A detection gives each vertex its bound from its step
// (selfFreshVertexBound). Then every vertex's moves for the candidates' test
// (selfVertexMoves), from the detection that holds in this substep. The same answer on every
// member.
void SelfCollision::motion(ThreadPool& pool, int member, int size, const glm::vec4* start,
                           const glm::vec4* pred) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    const bool detected = detections_ != 0;
    std::uint32_t b, e;
    ThreadPool::split(p_.originalVertexCount, member, size, b, e);
    MemberWork& work = work_[member];
    glm::vec3 slo(-inf), shi(inf), qlo(-inf), qhi(inf), far(0.0f);
    std::uint32_t bad = 0;
    for (std::uint32_t v = b; v < e; ++v) {
        const glm::vec3 s = xyz(start[v]), q = xyz(pred[v]);
        const glm::vec3 m = glm::max(glm::abs(s), glm::abs(q));
        bad += gpu::selfFinite(s, q) ? 0u : 1u;
        if (detected) {
            const glm::vec3 d = xyz(detected_[v]);
            const float bv = detected_[v].w;
            slo = glm::max(slo, s - d - bv);
            shi = glm::min(shi, s - d + bv);
            qlo = glm::max(qlo, q - d - bv);
            qhi = glm::min(qhi, q - d + bv);
        }
        far = glm::max(far, m);
    }
    work.range[0] = slo;
    work.range[1] = shi;
    work.range[2] = qlo;
    work.range[3] = qhi;
    work.range[4] = far;
    work.outside[0] = bad;
    pool.barrier();
    bad = 0;
    for (int m = 0; m < size; ++m) {
        const glm::vec3* r = work_[m].range;
        slo = glm::max(slo, r[0]);
        shi = glm::min(shi, r[1]);
        qlo = glm::max(qlo, r[2]);
        qhi = glm::min(qhi, r[3]);
        far = glm::max(far, r[4]);
        bad += work_[m].outside[0];
    }
    const float slack = gpu::selfSlack(far);
    const bool detect = !detected || bad > 0 || gpu::selfShiftEmpty(slo, shi) ||
                        gpu::selfShiftEmpty(qlo, qhi) ||
                        s_.detection == SelfCollisionSettings::Detection::EverySubstep;
    glm::vec3 ts, tq;
    if (detect) {
        ts = glm::vec3(0.0f);
        tq = glm::vec3(0.0f);
    } else {
        ts = gpu::selfTranslation(slo, shi);
        tq = gpu::selfTranslation(qlo, qhi);
    }
    pool.barrier();  // every member has read detected_ before any replaces it
    for (std::uint32_t v = b; v < e; ++v) {
        const glm::vec3 s = xyz(start[v]), q = xyz(pred[v]);
        if (detect)
            detected_[v] = glm::vec4(s, gpu::selfFreshVertexBound(q - s, s_.bound));
        moves_[v] = gpu::selfVertexMoves(s, q, xyz(detected_[v]), ts, tq, slack);
    }
    pool.barrier();
    if (member == 0) {
        detect_ = detect;
        shift_ = gpu::selfShift(ts, tq);
        slack_ = slack;
        if (detect) {
            ++detections_;
            detectedThisFrame_ = true;
        }
    }
}

// A detection's walk: for each triangle in sorted order the triangles after it whose boxes
// (grown by B) overlap its own; of each pair, the owned primitive pairs that can collide and
// whose boxes at the start are within reach + 2B. Then the candidates in member order (each
// member copies its own), each with the side it had if the last substep made it a contact.
void SelfCollision::gather(ThreadPool& pool, int member, int size, const glm::vec4* start) {
    if (member == 0) {
        // The last substep's contacts' sides (from the old candidates, before they go).
        std::size_t count = 0;
        for (const glm::vec4& s : sides_) count += s.w != 0.0f ? 1 : 0;
        memory_.reset(count);
        for (std::size_t i = 0; i < candidates_.size(); ++i)
            if (sides_[i].w != 0.0f) {
                const gpu::SelfCandidate& c = candidates_[i];
                memory_.insert(glm::uvec4((c.kind & 1u) + 1u, c.keyY, c.keyZ, 0u),
                               xyz(sides_[i]));
            }
    }
    const Lbvh& tree = tree_.tree();
    const auto n = static_cast<std::uint32_t>(p_.triangles.size());
    std::uint32_t b, e;
    ThreadPool::split(n, member, size, b, e);
    MemberWork& work = work_[member];
    work.gathered.clear();
    work.gatheredGap.clear();
    std::uint64_t pairs = 0, tested = 0, nodes = 0;
    const glm::vec4* predicted = start;
    for (std::uint32_t i = b; i < e; ++i) {
        const std::uint32_t a = tree.order[i];
        nodes += lbvhWalkAfter(tree, i, boxes_[a].lo, boxes_[a].hi, work.stack,
                               [&](std::uint32_t j) {
            ++pairs;
            const std::uint32_t other = tree.order[j];
            if (gpu::selfInertPair(SELF_ARGS a, other)) return;
            std::uint32_t live = gpu::selfOwnedPairs(SELF_ARGS a, other);
            while (live != 0) {
                const auto k = static_cast<std::uint32_t>(std::countr_zero(live));
                live &= live - 1;
                gpu::SelfCandidate c;
                if (!gpu::selfPairCandidate(SELF_ARGS a, other, k, c)) continue;
                ++tested;
                const float gap = gpu::selfCandidateGapAt(SELF_ARGS c);
                const glm::uvec4 u = c.vertices;
                const float b0 = detected_[u.x].w, b1 = detected_[u.y].w,
                            b2 = detected_[u.z].w, b3 = detected_[u.w].w;
                const float sides = (c.kind & 1u) == 0u
                                        ? b0 + std::max(b1, std::max(b2, b3))
                                        : std::max(b0, b1) + std::max(b2, b3);
                const float reach = c.keep + s_.margin;
                if (gap > reach + sides) continue;
                const float distance = gpu::selfCandidateDistance(SELF_ARGS c);
                if (distance > reach + gpu::SELF_SQRT3 * sides + slack_) continue;
                work.gathered.push_back(c);
                work.gatheredGap.push_back(glm::vec2(gap, distance));
            }
        });
    }
    work.pairs = pairs;
    work.tested = tested;
    work.nodes = nodes;
    pool.barrier();
    if (member == 0) {
        std::size_t total = 0;
        lastNodes_ = lastPairs_ = 0;
        for (int m = 0; m < size; ++m) {
            total += work_[m].gathered.size();
            lastNodes_ += work_[m].nodes;
            lastPairs_ += work_[m].pairs;
        }
        for (std::size_t m = std::size_t(size); m < work_.size(); ++m)
            work_[m].pairs = work_[m].tested = work_[m].nodes = 0;
        candidates_.resize(total);
        gaps_.resize(total);
        sides_.resize(total);
        slotWeights_.resize(total);
        slotNormals_.resize(total);
        listSlots_.resize(4 * total);
        activeSlots_.resize(4 * total);
        activeCorrections_.resize(4 * total);
    }
    pool.barrier();
    std::size_t first = 0;
    for (int m = 0; m < member; ++m) first += work_[m].gathered.size();
    std::copy(work.gathered.begin(), work.gathered.end(),
              candidates_.begin() + std::ptrdiff_t(first));
    std::copy(work.gatheredGap.begin(), work.gatheredGap.end(),
              gaps_.begin() + std::ptrdiff_t(first));
    // No side yet: the detection's evaluate looks up the memory for the contacts alone.
    std::fill(sides_.begin() + std::ptrdiff_t(first),
              sides_.begin() + std::ptrdiff_t(first + work.gathered.size()), glm::vec4(0.0f));
}

// Per original vertex its candidates' slots (4 c + k), ascending. Each member owns a range of
// vertices and reads every candidate's vertices for its own (counts, then places them in
// candidate order): no atomics, no sorting, the same lists for any thread count.
void SelfCollision::lists(ThreadPool& pool, int member, int size) {
    const auto count = static_cast<std::uint32_t>(candidates_.size());
    const std::uint32_t vertices = p_.originalVertexCount;
    std::uint32_t b, e;
    ThreadPool::split(vertices, member, size, b, e);
    const std::uint32_t owned = e - b;
    for (std::uint32_t v = b; v < e; ++v) fill_[v] = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        const glm::uvec4 u = candidates_[i].vertices;
        for (int k = 0; k < 4; ++k)
            if (u[k] - b < owned) ++fill_[u[k]];
    }
    std::uint32_t total = 0;
    for (std::uint32_t v = b; v < e; ++v) {
        const std::uint32_t n = fill_[v];
        fill_[v] = total;  // this member's offset, then the next free slot
        total += n;
    }
    work_[member].listTotal = total;
    pool.barrier();
    std::uint32_t base = 0;
    for (int m = 0; m < member; ++m) base += work_[m].listTotal;
    for (std::uint32_t v = b; v < e; ++v) listOffsets_[v] = fill_[v] += base;
    if (member == size - 1) listOffsets_[vertices] = base + total;
    for (std::uint32_t i = 0; i < count; ++i) {
        const glm::uvec4 u = candidates_[i].vertices;
        for (std::uint32_t k = 0; k < 4; ++k)
            if (u[k] - b < owned) listSlots_[fill_[u[k]]++] = 4 * i + k;
    }
    pool.barrier();
}

}  // namespace cloth
