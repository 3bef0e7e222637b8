// The motion check and a detection's candidates on the CPU reference (sim/self_phases.h's
// Motion, Gather and Lists; the argument in kernels/self_motion.h).
#include <algorithm>
#include <atomic>
#include <bit>
#include <limits>
#include <cstdio>
#include <cstdlib>

#include "core/error.h"
#include "cpu/self/args.h"
#include "cpu/self/self_collision.h"
#include "kernels/self_motion.h"

namespace cloth {

namespace {

glm::vec3 xyz(const glm::vec4& v) { return glm::vec3(v); }

}  // namespace

// Per original vertex its displacement since the detection (at the start and predicted) and its
// step (predicted less start); their ranges over all vertices give the common translation T,
// the slack, and a fresh detection's T and B. A detection is needed before the first, every
// substep with EverySubstep, after a substep that clamped a vertex, or when some vertex (or a
// position that is not finite) left the cube of its bounds, or the balls of their translation
// (selfBallTranslation). Then every vertex's moves for the candidates' test
// (selfVertexMoves), from the detection that holds in this substep. The same answer on every
// member.
void SelfCollision::motion(ThreadPool& pool, int member, int size, const glm::vec4* start,
                           const glm::vec4* pred) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    const bool detected = detections_ != 0;
    std::uint32_t b, e;
    ThreadPool::split(p_.originalVertexCount, member, size, b, e);
    MemberWork& work = work_[member];
    glm::vec3 lo(inf), hi(-inf), slo(inf), shi(-inf), far(0.0f);
    for (std::uint32_t v = b; v < e; ++v) {
        const glm::vec3 s = xyz(start[v]), q = xyz(pred[v]);
        if (detected) {
            const glm::vec3 d = xyz(detected_[v]);
            lo = glm::min(lo, glm::min(s - d, q - d));
            hi = glm::max(hi, glm::max(s - d, q - d));
        }
        slo = glm::min(slo, q - s);
        shi = glm::max(shi, q - s);
        far = glm::max(far, glm::max(glm::abs(s), glm::abs(q)));
    }
    work.lo = lo;
    work.hi = hi;
    work.stepLo = slo;
    work.stepHi = shi;
    work.far = far;
    pool.barrier();
    slo = shi = glm::vec3(0.0f);  // a fresh detection's start: displacement 0
    for (int m = 0; m < size; ++m) {
        const MemberWork& w = work_[m];
        lo = glm::min(lo, w.lo);
        hi = glm::max(hi, w.hi);
        slo = glm::min(slo, w.stepLo);
        shi = glm::max(shi, w.stepHi);
        far = glm::max(far, w.far);
    }
    const float slack = gpu::selfSlack(far);
    glm::vec3 t = gpu::selfTranslation(lo, hi);
    std::uint32_t counts[4] = {0, 0, 0, 0};  // cube, ball, ball T, start T
    if (detected)
        for (std::uint32_t v = b; v < e; ++v) {
            const std::uint32_t bits = gpu::selfOutsideBits(
                xyz(start[v]), xyz(pred[v]), xyz(detected_[v]), detected_[v].w, t, bound_);
            for (int k = 0; k < 4; ++k) counts[k] += (bits >> k) & 1u;
        }
    std::copy(counts, counts + 4, work.outside);
    pool.barrier();
    std::uint32_t total[4] = {0, 0, 0, 0};
    for (int m = 0; m < size; ++m)
        for (int k = 0; k < 4; ++k) total[k] += work_[m].outside[k];
    const bool detect = !detected || clampedLast_ > 0 || total[0] > 0 ||
                        gpu::selfBallOutside(total[1], total[2], total[3]) > 0 ||
                        s_.detection == SelfCollisionSettings::Detection::EverySubstep;
    if (member == 0 && std::getenv("SELFDBG"))
        std::fprintf(stderr, "motion: detected %d clampedLast %llu cube %u ball %u ballT %u startT %u -> detect %d; B %g fresh %g T %g %g %g\n",
                     int(detected), (unsigned long long)clampedLast_, total[0], total[1], total[2], total[3], int(detect), bound_,
                     gpu::selfFreshBound(slo, shi, s_.bound), t.x, t.y, t.z);
    float bound = bound_;
    if (detect) {
        t = gpu::selfTranslation(slo, shi);
        bound = gpu::selfFreshBound(slo, shi, s_.bound);
    }
    for (std::uint32_t v = b; v < e; ++v) {
        const glm::vec3 s = xyz(start[v]);
        moves_[v] = gpu::selfVertexMoves(s, xyz(pred[v]), detect ? s : xyz(detected_[v]), t, slack);
    }
    pool.barrier();
    if (member == 0) {
        detect_ = detect;
        translation_ = t;
        bound_ = bound;
        slack_ = slack;
        if (detect) {
            ++detections_;
            detectedThisFrame_ = true;
        } else {
            ballTranslation_ = gpu::selfBallTranslation(total[1], total[2], total[3], t);
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
    }
}

// Per original vertex its candidates' slots (4 c + k, counted with atomic increments, placed by
// atomic cursors, each list then sorted: the same lists for any thread count); its bound beta,
// the least of its candidates' and its rest neighbours' pairs' (selfCandidateBound), and where
// the detection saw it.
void SelfCollision::lists(ThreadPool& pool, int member, int size, const glm::vec4* start,
                          const glm::vec4* pred) {
    const auto count = static_cast<std::uint32_t>(candidates_.size());
    std::uint32_t b, e;
    ThreadPool::split(count, member, size, b, e);
    for (std::uint32_t i = b; i < e; ++i)
        for (int k = 0; k < 4; ++k)
            std::atomic_ref<std::uint32_t>(fill_[candidates_[i].vertices[k]])
                .fetch_add(1, std::memory_order_relaxed);
    pool.barrier();
    const std::uint32_t vertices = p_.originalVertexCount;
    if (member == 0) {
        listOffsets_[0] = 0;
        for (std::uint32_t v = 0; v < vertices; ++v) {
            listOffsets_[v + 1] = listOffsets_[v] + fill_[v];
            fill_[v] = listOffsets_[v];  // now the next free slot
        }
    }
    pool.barrier();
    for (std::uint32_t i = b; i < e; ++i)
        for (std::uint32_t k = 0; k < 4; ++k) {
            const std::uint32_t slot =
                std::atomic_ref<std::uint32_t>(fill_[candidates_[i].vertices[k]])
                    .fetch_add(1, std::memory_order_relaxed);
            listSlots_[slot] = 4 * i + k;
        }
    pool.barrier();
    ThreadPool::split(vertices, member, size, b, e);
    const float reach = 2.0f * leastThickness_ + s_.margin;
    const glm::vec4* predicted = start;
    std::uint32_t counts[4] = {0, 0, 0, 0};
    for (std::uint32_t v = b; v < e; ++v) {
        const auto first = listSlots_.begin() + listOffsets_[v];
        const auto last = listSlots_.begin() + listOffsets_[v + 1];
        std::sort(first, last);
        float least = gpu::SELF_NO_BOUND;
        for (auto it = first; it != last; ++it) {
            const std::uint32_t c = *it >> 2;
            least = std::min(least, gpu::selfCandidateBound(gaps_[c].y, candidates_[c].keep));
        }
        for (std::uint32_t k = restPairs_.lists[v]; k < restPairs_.lists[v + 1]; ++k) {
            const gpu::SelfCandidate& pair = restPairs_.pairs[restPairs_.lists[vertices + 1 + k]];
            least = std::min(least, gpu::selfCandidateBound(
                                        gpu::selfCandidateDistance(SELF_ARGS pair), pair.keep));
        }
        const float beta = gpu::selfVertexBound(least, reach, bound_);
        detected_[v] = glm::vec4(xyz(start[v]), beta);
        fill_[v] = 0;
        const std::uint32_t bits = gpu::selfOutsideBits(xyz(start[v]), xyz(pred[v]),
                                                        xyz(start[v]), beta, translation_, bound_);
        for (int k = 0; k < 4; ++k) counts[k] += (bits >> k) & 1u;
    }
    std::copy(counts, counts + 4, work_[member].outside);
    pool.barrier();
    if (member == 0) {
        std::uint32_t total[4] = {0, 0, 0, 0};
        for (int m = 0; m < size; ++m)
            for (int k = 0; k < 4; ++k) total[k] += work_[m].outside[k];
        ballTranslation_ = gpu::selfBallTranslation(total[1], total[2], total[3], translation_);
    }
}

}  // namespace cloth
