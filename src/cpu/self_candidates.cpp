// Bounded detection on the CPU reference (SelfCollisionSettings::Detection::Bounded; the
// argument in docs/collisions.md): a detection gathers the primitive pairs whose boxes, at the
// detection's positions, are within reach plus twice the bound B; until some vertex's
// displacement since then, less a translation common to all, leaves a cube of half-side B, each
// primitive's swept box of a substep lies within its detection box grown by B, so a pair outside
// the candidates stays farther than reach along some axis and cannot become a contact.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <tuple>

#include "core/error.h"
#include "cpu/self_collision.h"
#include "cpu/self_collision_args.h"

namespace cloth {

namespace {

glm::vec3 xyz(const glm::vec4& v) {
    return glm::vec3(v);
}

float largest(glm::vec3 v) {
    return std::max(v.x, std::max(v.y, v.z));
}

// A detection's bound covers twice the largest move of a vertex in the substep (relative to
// the common translation), so that vertices that keep their speed stay within it for the next
// substep too. (A bound per vertex, from its own move, detected more often: on the twisted
// scene at 4 times its rate 898 times in 900 substeps against 583, and 194 times against 126
// for the thrown cloth, as slow vertices got the least bound; so did room beyond the bound
// for vertices whose nearest primitives are farther, which never came to more than the least
// bound where the contact distance is most of an edge: docs/collisions.md.)
constexpr float kMotionCover = 2.0f;

// A move of at most m along every axis is at most sqrt(3) m long (rounded up).
constexpr float kSqrt3 = 1.7320510f;

}  // namespace

// Has some original vertex, at the substep's start or predicted, left the cube of half-side
// bound_ round where the last detection saw it, once the displacements' common translation
// (the middle of their range, per axis) is taken away? Also true before the first detection,
// and where a position is not finite. Then the bound of the new detection (the least bound, or
// twice the substep's largest move relative to the others where that is more). The same
// answer on every member. `slack`: what rounding can take from a box's gap.
bool SelfCollision::boundExceeded(ThreadPool& pool, int member, int size, const glm::vec4* start,
                                  const glm::vec4* pred, float& next, float& slack) {
    const std::uint32_t n = p_.originalVertexCount;
    if (member == 0) {
        ranges_.resize(size);
        exceeded_.assign(size, 0);
        // The team may be larger than at the last detection (CpuTeam runs frames on fewer
        // members while other processes use the cores): every member needs its work, now,
        // before any touches it.
        if (work_.size() < std::size_t(size)) work_.resize(size);
        for (MemberWork& w : work_) w.evaluated = 0;
    }
    pool.barrier();
    constexpr float inf = std::numeric_limits<float>::infinity();
    glm::vec3 lo(inf), hi(-inf), mlo(inf), mhi(-inf), far(0.0f);
    const bool detected = detections_ != 0;
    std::uint32_t b, e;
    ThreadPool::split(n, member, size, b, e);
    for (std::uint32_t v = b; v < e; ++v) {
        const glm::vec3 s = xyz(start[v]), q = xyz(pred[v]);
        if (detected) {
            const glm::vec3 d = xyz(detected_[v]);
            lo = glm::min(lo, glm::min(s - d, q - d));
            hi = glm::max(hi, glm::max(s - d, q - d));
        }
        mlo = glm::min(mlo, q - s);
        mhi = glm::max(mhi, q - s);
        far = glm::max(far, glm::max(glm::abs(s), glm::abs(q)));
    }
    ranges_[member] = {lo, hi, mlo, mhi, far};
    pool.barrier();
    for (int m = 0; m < size; ++m) {
        lo = glm::min(lo, ranges_[m][0]);
        hi = glm::max(hi, ranges_[m][1]);
        mlo = glm::min(mlo, ranges_[m][2]);
        mhi = glm::max(mhi, ranges_[m][3]);
        far = glm::max(far, ranges_[m][4]);
    }
    // Rounding: a few units in the last place of the largest coordinate, for each of the
    // differences a box gap is made of.
    slack = 16.0f * std::numeric_limits<float>::epsilon() * largest(far);
    bool again = !detected;
    if (detected) {
        const glm::vec3 t = 0.5f * (lo + hi);
        std::uint8_t out = 0;
        for (std::uint32_t v = b; v < e && !out; ++v) {
            const glm::vec3 d = xyz(detected_[v]) + t;
            const float m =
                largest(glm::max(glm::abs(xyz(start[v]) - d), glm::abs(xyz(pred[v]) - d)));
            if (!(m <= bound_)) out = 1;  // not <=: a NaN detects again
        }
        exceeded_[member] = out;
        pool.barrier();
        for (int m = 0; m < size; ++m) again = again || exceeded_[m] != 0;
    }
    if (!again) return false;
    next = std::max(minBound_, kMotionCover * 0.5f * largest(mhi - mlo));
    return true;
}

void SelfCollision::detectBounded(ThreadPool& pool, int member, int size, const glm::vec4* start,
                                  const glm::vec4* pred, const std::function<void(int)>& stage) {
    float next = 0.0f, slack = 0.0f;
    if (boundExceeded(pool, member, size, start, pred, next, slack)) {
        // The last substep's contacts' sides, for the new candidates (its arrays are replaced
        // only after phase 4's barrier).
        if (member == 0) {
            std::vector<std::size_t> last;
            for (std::size_t i = 0; i < candidates_.size(); ++i)
                if (wasContact_[i]) last.push_back(i);
            rememberTable(
                last.size(),
                [&](std::size_t k) {
                    const gpu::SelfCandidate& c = candidates_[last[k]];
                    return glm::uvec4((c.kind & 1u) + 1u, c.keyY, c.keyZ, 0u);
                },
                [&](std::size_t k) { return xyz(lastNormal_[last[k]]); });
        }
        // The boxes at the detection's positions (start as the prediction too), grown by B.
        buildTree(pool, member, size, start, start, next, stage);
        gatherCandidates(member, size, start, next);
        stage(4);
        arrangeCandidates(pool, member, size, start, next);
        stage(5);
    }
    evaluateCandidates(pool, member, size, start, pred, slack);
    stage(6);
    if (shadow_ && member == 0) checkAgainstShadow(start, pred);
}

// Phase 4: for each triangle in sorted order, the triangles after it whose boxes (grown by the
// bound) overlap its own; of each pair, the owned primitive pairs that can collide and whose
// boxes at the detection's positions are within reach plus twice the bound.
void SelfCollision::gatherCandidates(int member, int size, const glm::vec4* start, float bound) {
    const auto n = static_cast<std::uint32_t>(p_.triangles.size());
    std::uint32_t b, e;
    ThreadPool::split(n, member, size, b, e);
    MemberWork& work = work_[member];
    std::vector<gpu::SelfCandidate>& out = work.gathered;
    out.clear();
    work.gatheredGap.clear();
    std::uint64_t pairs = 0, tested = 0;
    const glm::vec4* predicted = start;
    for (std::uint32_t i = b; i < e; ++i) {
        const std::uint32_t a = tree_.order[i];
        lbvhWalkAfter(tree_, i, boxes_[a].lo, boxes_[a].hi, work.stack, [&](std::uint32_t j) {
            ++pairs;
            const std::uint32_t other = tree_.order[j];
            if (gpu::selfInertPair(SELF_ARGS a, other)) return;
            std::uint32_t live = ownedPairs(a, other);
            while (live != 0) {
                const auto k = static_cast<std::uint32_t>(std::countr_zero(live));
                live &= live - 1;
                gpu::SelfCandidate c;
                if (!gpu::selfPairCandidate(SELF_ARGS a, other, k, c)) continue;
                ++tested;
                const float gap = gpu::selfCandidateGap(SELF_ARGS c);
                if (gap <= c.keep + margin_ + 2.0f * bound) {
                    out.push_back(c);
                    work.gatheredGap.push_back(
                        glm::vec2(gap, gpu::selfCandidateDistance(SELF_ARGS c)));
                }
            }
        });
    }
    work.pairs = pairs;
    work.tested = tested;
}

// Phase 5: the candidates in gathering order (each member copies its own), every candidate's
// side from the last substep, and the positions the bound is measured from.
void SelfCollision::arrangeCandidates(ThreadPool& pool, int member, int size,
                                      const glm::vec4* start, float bound) {
    if (member == 0) {
        std::size_t n = 0;
        for (int m = 0; m < size; ++m) n += work_[m].gathered.size();
        candidates_.resize(n);
        gaps_.resize(n);
        wasContact_.assign(n, 0);
        lastNormal_.resize(n);
        bound_ = bound;
        ++detections_;
    }
    pool.barrier();
    std::size_t first = 0;
    for (int m = 0; m < member; ++m) first += work_[m].gathered.size();
    const MemberWork& work = work_[member];
    std::copy(work.gathered.begin(), work.gathered.end(),
              candidates_.begin() + std::ptrdiff_t(first));
    std::copy(work.gatheredGap.begin(), work.gatheredGap.end(),
              gaps_.begin() + std::ptrdiff_t(first));
    if (memoryBits_ != 0) {
        const std::uint32_t mask = (1u << memoryBits_) - 1u;
        for (std::size_t i = first; i < first + work.gathered.size(); ++i) {
            const gpu::SelfCandidate& c = candidates_[i];
            const std::uint32_t kind = (c.kind & 1u) + 1u;
            std::uint32_t slot = gpu::selfMemorySlot(c.kind & 1u, c.keyY, c.keyZ, memoryBits_);
            for (std::uint32_t probe = 0; probe <= mask; ++probe) {
                const glm::uvec4 key = memoryKeys_[slot];
                if (key.x == 0u) break;
                if (key.x == kind && key.y == c.keyY && key.z == c.keyZ) {
                    wasContact_[i] = 1;
                    lastNormal_[i] = memoryNormals_[slot];
                    break;
                }
                slot = (slot + 1u) & mask;
            }
        }
    }
    std::uint32_t b, e;
    ThreadPool::split(p_.originalVertexCount, member, size, b, e);
    for (std::uint32_t v = b; v < e; ++v) detected_[v] = start[v];
}

// Phase 6, every substep: the triangles' swept boxes, then each candidate's test
// (selfCandidateContact) with the side it had if it was a contact in the last substep, and the
// contacts gathered in the candidates' order (then coloured, or listed per vertex, as a full
// detection's are). A
// candidate whose boxes at the detection were farther apart than reach plus its two
// primitives' moves is no contact without a look: each primitive's swept box lies within its
// detection box grown by the largest move of its vertices (the bound's argument, with the
// common translation taken away from both), so the swept boxes are still more than reach
// apart; `slack` covers the rounding.
void SelfCollision::evaluateCandidates(ThreadPool& pool, int member, int size,
                                       const glm::vec4* start, const glm::vec4* pred, float slack) {
    std::uint32_t b, e;
    const auto triangles = static_cast<std::uint32_t>(p_.triangles.size());
    ThreadPool::split(triangles, member, size, b, e);
    for (std::uint32_t i = b; i < e; ++i) {
        const glm::uvec3 t = p_.triangles[i];
        glm::vec3 l = xyz(start[t.x]), h = l;
        for (glm::vec3 x :
             {xyz(start[t.y]), xyz(start[t.z]), xyz(pred[t.x]), xyz(pred[t.y]), xyz(pred[t.z])}) {
            l = glm::min(l, x);
            h = glm::max(h, x);
        }
        tight_[2 * i] = glm::vec4(l, 0.0f);
        tight_[2 * i + 1] = glm::vec4(h, 0.0f);
    }
    // Each vertex's move since the detection, less the common translation T (the middle of
    // the moves' range per axis), at the start or predicted: the largest component.
    constexpr float inf = std::numeric_limits<float>::infinity();
    const std::uint32_t vertices = p_.originalVertexCount;
    glm::vec3 lo(inf), hi(-inf);
    ThreadPool::split(vertices, member, size, b, e);
    for (std::uint32_t v = b; v < e; ++v) {
        const glm::vec3 d = xyz(detected_[v]);
        lo = glm::min(lo, glm::min(xyz(start[v]) - d, xyz(pred[v]) - d));
        hi = glm::max(hi, glm::max(xyz(start[v]) - d, xyz(pred[v]) - d));
    }
    ranges_[member][0] = lo;
    ranges_[member][1] = hi;
    pool.barrier();
    for (int m = 0; m < size; ++m) {
        lo = glm::min(lo, ranges_[m][0]);
        hi = glm::max(hi, ranges_[m][1]);
    }
    const glm::vec3 t = 0.5f * (lo + hi);
    for (std::uint32_t v = b; v < e; ++v) {
        const glm::vec3 d = xyz(detected_[v]) + t;
        const glm::vec3 m = glm::max(glm::abs(xyz(start[v]) - d), glm::abs(xyz(pred[v]) - d));
        moves_[v] = glm::vec2(largest(m) + slack, largest(glm::abs(xyz(pred[v]) - xyz(start[v]))));
    }
    pool.barrier();
    const glm::vec4* predicted = pred;
    MemberWork& work = work_[member];
    work.found.clear();
    std::uint64_t tested = 0;
    ThreadPool::split(static_cast<std::uint32_t>(candidates_.size()), member, size, b, e);
    for (std::uint32_t i = b; i < e; ++i) {
        const gpu::SelfCandidate& cand = candidates_[i];
        gpu::SelfContact c;
        const glm::uvec4 v = cand.vertices;
        const glm::vec2 sides =
            (cand.kind & 1u) == gpu::SELF_VERTEX_TRIANGLE
                ? moves_[v.x] + glm::max(moves_[v.y], glm::max(moves_[v.z], moves_[v.w]))
                : glm::max(moves_[v.x], moves_[v.y]) + glm::max(moves_[v.z], moves_[v.w]);
        const float reach = cand.keep + margin_;
        if (gaps_[i].x - sides.x > reach ||
            gaps_[i].y - kSqrt3 * (sides.x + sides.y) > reach + slack) {
            wasContact_[i] = 0;
            continue;
        }
        ++tested;
        if (!gpu::selfCandidateContact(SELF_ARGS cand, margin_, c)) {
            wasContact_[i] = 0;
            continue;
        }
        if (wasContact_[i] && glm::dot(xyz(lastNormal_[i]), gpu::selfKeyNormal(c)) < 0.0f)
            c.normal = glm::vec4(-xyz(c.normal), c.normal.w);
        lastNormal_[i] = glm::vec4(gpu::selfKeyNormal(c), 0.0f);
        wasContact_[i] = 1;
        work.found.push_back(c);
    }
    work.evaluated = tested;
    pool.barrier();
    const std::size_t first = concatenateFound(pool, member, size);
    if (order_ == SelfCollisionSettings::Order::Jacobi) {
        buildLists(pool, member, size, first, work.found);
    } else if (order_ == SelfCollisionSettings::Order::Colored) {
        pool.barrier();
        if (member == 0) colorContacts();
    }
}

// The memory table (self_contacts.h's selfRemember) of `count` keys and their directions.
void SelfCollision::rememberTable(std::size_t count,
                                  const std::function<glm::uvec4(std::size_t)>& key,
                                  const std::function<glm::vec3(std::size_t)>& normal) {
    std::uint32_t bits = 6;
    while ((std::size_t(1) << bits) < 2 * count) ++bits;
    memoryBits_ = bits;
    memoryKeys_.assign(std::size_t(1) << bits, glm::uvec4(0u));
    memoryNormals_.assign(std::size_t(1) << bits, glm::vec4(0.0f));
    const std::uint32_t mask = (1u << bits) - 1;
    for (std::size_t i = 0; i < count; ++i) {
        const glm::uvec4 k = key(i);
        std::uint32_t slot = gpu::selfMemorySlot(k.x - 1u, k.y, k.z, bits);
        while (memoryKeys_[slot].x != 0u) slot = (slot + 1) & mask;
        memoryKeys_[slot] = k;
        memoryNormals_[slot] = glm::vec4(normal(i), 0.0f);
    }
}

// SelfCollisionSettings::checkCandidates: the same start and prediction through a full
// detection every substep (with its own memory of sides), its contacts against this substep's,
// pair by pair and bit for bit.
void SelfCollision::checkAgainstShadow(const glm::vec4* start, const glm::vec4* pred) {
    shadowPool_->run([&](int member, int size) {
        shadow_->detect(*shadowPool_, member, size, start, pred,
                        [&](int) { shadowPool_->barrier(); });
    });
    // Both lists by key, then side by side.
    using Key = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>;
    const auto sorted = [](const std::vector<gpu::SelfContact>& contacts) {
        std::vector<Key> keys(contacts.size());
        for (std::uint32_t i = 0; i < contacts.size(); ++i) {
            const glm::uvec4 k = contacts[i].info;
            keys[i] = Key{k.x, k.y, k.z, i};
        }
        std::sort(keys.begin(), keys.end());
        return keys;
    };
    const std::vector<gpu::SelfContact>& full = shadow_->contacts();
    const std::vector<Key> a = sorted(contacts_), b = sorted(full);
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        const auto pair = [](const Key& k) {
            return std::make_tuple(std::get<0>(k), std::get<1>(k), std::get<2>(k));
        };
        if (j == b.size() || (i < a.size() && pair(a[i]) < pair(b[j]))) {
            ++missed_;  // a contact the full detection does not have
            ++i;
        } else if (i == a.size() || pair(b[j]) < pair(a[i])) {
            ++missed_;  // one the candidates lack
            ++j;
        } else {
            if (std::memcmp(&contacts_[std::get<3>(a[i])], &full[std::get<3>(b[j])],
                            sizeof(gpu::SelfContact)) != 0)
                ++missed_;
            ++i;
            ++j;
        }
    }
    checkedContacts_ += full.size();
}

}  // namespace cloth
