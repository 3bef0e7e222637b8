// The motion check and a detection's candidates on the CPU reference (sim/self_phases.h's
// Motion, Gather and Lists; the argument in kernels/self_motion.h).
#include <algorithm>
#include <atomic>
#include <bit>
#include <limits>

#include "core/error.h"
#include "cpu/self/args.h"
#include "cpu/self/self_collision.h"
#include "kernels/self_motion.h"

namespace cloth {

namespace {

glm::vec3 xyz(const glm::vec4& v) { return glm::vec3(v); }

}  // namespace

// Per original vertex its displacements since the detection, at the start and predicted, and
// its step (predicted less start); their ranges over all vertices give each configuration's
// translation (Ts, Tq), the substep's common step D, the slack, and a fresh detection's
// translations and B. A detection is needed before the first, every substep with
// EverySubstep, after a substep that clamped a vertex, or when some vertex (or a position that
// is not finite) left its cube (selfOutsideCube) or its ball (selfOutsideBalls, moving on by 0
// or D: selfBallStep). Then every vertex's moves for the candidates' test
// (selfVertexMoves), from the detection that holds in this substep. The same answer on every
// member.
void SelfCollision::motion(ThreadPool& pool, int member, int size, const glm::vec4* start,
                           const glm::vec4* pred) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    const bool detected = detections_ != 0;
    std::uint32_t b, e;
    ThreadPool::split(p_.originalVertexCount, member, size, b, e);
    MemberWork& work = work_[member];
    glm::vec3 slo(inf), shi(-inf), qlo(inf), qhi(-inf), stlo(inf), sthi(-inf), far(0.0f);
    for (std::uint32_t v = b; v < e; ++v) {
        const glm::vec3 s = xyz(start[v]), q = xyz(pred[v]);
        if (detected) {
            const glm::vec3 d = xyz(detected_[v]);
            slo = glm::min(slo, s - d);
            shi = glm::max(shi, s - d);
            qlo = glm::min(qlo, q - d);
            qhi = glm::max(qhi, q - d);
        }
        stlo = glm::min(stlo, q - s);
        sthi = glm::max(sthi, q - s);
        far = glm::max(far, glm::max(glm::abs(s), glm::abs(q)));
    }
    work.range[0] = slo;
    work.range[1] = shi;
    work.range[2] = qlo;
    work.range[3] = qhi;
    work.range[4] = stlo;
    work.range[5] = sthi;
    work.range[6] = far;
    pool.barrier();
    for (int m = 0; m < size; ++m) {
        const glm::vec3* r = work_[m].range;
        slo = glm::min(slo, r[0]);
        shi = glm::max(shi, r[1]);
        qlo = glm::min(qlo, r[2]);
        qhi = glm::max(qhi, r[3]);
        stlo = glm::min(stlo, r[4]);
        sthi = glm::max(sthi, r[5]);
        far = glm::max(far, r[6]);
    }
    const float slack = gpu::selfSlack(far);
    glm::vec3 ts = gpu::selfTranslation(slo, shi), tq = gpu::selfTranslation(qlo, qhi);
    const glm::vec3 step = gpu::selfTranslation(stlo, sthi);  // D
    const glm::vec3 centre = ballCentre_ + ballStep_;          // where the last substep left C
    std::uint32_t counts[4] = {0, 0, 0, 0};  // cube, then selfOutsideBalls' bits
    if (detected)
        for (std::uint32_t v = b; v < e; ++v) {
            const glm::vec3 s = xyz(start[v]), q = xyz(pred[v]), x = xyz(detected_[v]);
            counts[0] += gpu::selfOutsideCube(s, q, x, ts, tq, bound_) ? 1u : 0u;
            const std::uint32_t bits =
                gpu::selfOutsideBalls(s, q, x, detected_[v].w, centre, step);
            for (int k = 0; k < 3; ++k) counts[k + 1] += (bits >> k) & 1u;
        }
    std::copy(counts, counts + 4, work.outside);
    pool.barrier();
    std::uint32_t total[4] = {0, 0, 0, 0};
    for (int m = 0; m < size; ++m)
        for (int k = 0; k < 4; ++k) total[k] += work_[m].outside[k];
    const bool detect = !detected || total[0] > 0 ||
                        s_.detection == SelfCollisionSettings::Detection::EverySubstep;
    float bound = bound_;
    if (detect) {
        // A fresh detection at the start: the starts' displacements 0, the predictions' the steps.
        ts = glm::vec3(0.0f);
        tq = step;
        bound = gpu::selfFreshBound(stlo, sthi, s_.bound);
    }
    for (std::uint32_t v = b; v < e; ++v) {
        const glm::vec3 s = xyz(start[v]);
        moves_[v] = gpu::selfVertexMoves(s, xyz(pred[v]), detect ? s : xyz(detected_[v]), ts, tq,
                                         slack);
    }
    pool.barrier();
    if (member == 0) {
        detect_ = detect;
        commonStep_ = step;
        shift_ = gpu::selfShift(ts, tq);
        bound_ = bound;
        slack_ = slack;
        if (detect) {
            ++detections_;
            detectedThisFrame_ = true;
            ballCentre_ = glm::vec3(0.0f);  // the step: lists()
        } else {
            ballCentre_ = centre;
            ballStep_ = gpu::selfBallStep(total[2], total[3], step);
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
                if (gap <= c.keep + s_.margin + 2.0f * bound_) {
                    work.gathered.push_back(c);
                    work.gatheredGap.push_back(
                        glm::vec2(gap, gpu::selfCandidateDistance(SELF_ARGS c)));
                }
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
        bounds_.resize(total);
        sides_.resize(total);
        slotWeights_.resize(total);
        slotNormals_.resize(total);
        listSlots_.resize(4 * total);
        activeSlots_.resize(4 * total);
    }
    pool.barrier();
    std::size_t first = 0;
    for (int m = 0; m < member; ++m) first += work_[m].gathered.size();
    std::copy(work.gathered.begin(), work.gathered.end(),
              candidates_.begin() + std::ptrdiff_t(first));
    std::copy(work.gatheredGap.begin(), work.gatheredGap.end(),
              gaps_.begin() + std::ptrdiff_t(first));
    for (std::size_t i = first; i < first + work.gathered.size(); ++i) {
        const gpu::SelfCandidate& c = candidates_[i];
        sides_[i] = gpu::selfRememberedSide(SELF_ARGS c, memory_.bits);
        bounds_[i] = gpu::selfCandidateBound(gaps_[i].y, c.keep);
    }
}

// Per original vertex its candidates' slots (4 c + k), ascending; its bound beta, the least of
// its candidates' and its rest neighbours' pairs' (selfCandidateBound), and where the detection
// saw it. Each member owns a range of vertices and reads every candidate's vertices for its own
// (counts, then places them in candidate order): no atomics, no sorting, the same lists for any
// thread count.
void SelfCollision::lists(ThreadPool& pool, int member, int size, const glm::vec4* start,
                          const glm::vec4* pred) {
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
    const float reach = 2.0f * leastThickness_ + s_.margin;
    const glm::vec4* predicted = start;
    {
        // Each rest pair's bound once (a pair has four vertices).
        std::uint32_t pb, pe;
        ThreadPool::split(static_cast<std::uint32_t>(restPairs_.pairs.size()), member, size, pb, pe);
        for (std::uint32_t k = pb; k < pe; ++k) {
            const gpu::SelfCandidate& pair = restPairs_.pairs[k];
            restBounds_[k] =
                gpu::selfCandidateBound(gpu::selfCandidateDistance(SELF_ARGS pair), pair.keep);
        }
    }
    pool.barrier();
    std::uint32_t counts[4] = {0, 0, 0, 0};
    for (std::uint32_t v = b; v < e; ++v) {
        const auto first = listSlots_.begin() + listOffsets_[v];
        const auto last = listSlots_.begin() + listOffsets_[v + 1];
        float least = gpu::SELF_NO_BOUND;
        for (auto it = first; it != last; ++it) least = std::min(least, bounds_[*it >> 2]);
        for (std::uint32_t k = restPairs_.lists[v]; k < restPairs_.lists[v + 1]; ++k)
            least = std::min(least, restBounds_[restPairs_.lists[vertices + 1 + k]]);
        const float beta = gpu::selfVertexBound(least, reach, bound_);
        detected_[v] = glm::vec4(xyz(start[v]), beta);
        const std::uint32_t bits = gpu::selfOutsideBalls(xyz(start[v]), xyz(pred[v]),
                                                         xyz(start[v]), beta, glm::vec3(0.0f),
                                                         commonStep_);
        for (int k = 0; k < 3; ++k) counts[k + 1] += (bits >> k) & 1u;
    }
    std::copy(counts, counts + 4, work_[member].outside);
    pool.barrier();
    if (member == 0) {
        std::uint32_t total[4] = {0, 0, 0, 0};
        for (int m = 0; m < size; ++m)
            for (int k = 0; k < 4; ++k) total[k] += work_[m].outside[k];
        ballStep_ = gpu::selfBallStep(total[2], total[3], commonStep_);
    }
}

}  // namespace cloth
