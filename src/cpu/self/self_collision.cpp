#include "cpu/self/self_collision.h"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "core/error.h"
#include "kernels/self_motion.h"
#include "sim/self_phases.h"

namespace cloth {

namespace {

// The tree is rebuilt at the next frame's start when the last detection's walk looked at more
// than this many times as many nodes per pair found (plus one per triangle) as the first walk
// after the last rebuild did: refitting keeps the order of the rebuild's positions, and as the
// cloth moves its boxes overlap more of their neighbours' (docs/collisions.md measures it).
constexpr std::uint64_t kWornNumerator = 3, kWornDenominator = 2;

}  // namespace

SelfCollision::SelfCollision(const PreparedCloth& p)
    : p_(p),
      s_(*p.sim.selfCollision),
      restData_(selfRestData(p, "self-collision")),
      triThickness_(restData_.triangleThickness),
      leastThickness_(restData_.leastThickness),
      rest_(restData_.neighbours),
      restPairs_(restData_.pairs),
      colours_(restData_.vertexColours),
      tree_(static_cast<std::uint32_t>(p.triangles.size())),
      boxes_(p.triangles.size()) {
    const std::uint32_t n = p.originalVertexCount;
    originalOf_.resize(p.positions.size());
    for (std::uint32_t v = 0; v < originalOf_.size(); ++v) originalOf_[v] = v;
    groupOf_.assign(n, ~0u);
    for (std::uint32_t g = 0; g < p.phantomGroups.size(); ++g) {
        const gpu::PhantomGroup group = p.phantomGroups[g];
        const std::uint32_t o = p.phantomMembers[group.first];
        groupOf_[o] = g;
        for (std::uint32_t k = 1; k < group.count; ++k)
            originalOf_[p.phantomMembers[group.first + k]] = o;
    }
    detected_.assign(n, glm::vec4(0.0f, 0.0f, 0.0f, gpu::SELF_NO_BOUND));
    moves_.assign(n, glm::vec2(0.0f));
    restBudgets_.assign(restPairs_.pairs.size(), glm::vec2(0.0f));
    restDirs_.assign(restPairs_.pairs.size(), glm::vec4(0.0f));
    least_.assign(n, glm::vec2(0.0f));
    listOffsets_.assign(std::size_t(n) + 1, 0);
    activeCount_.assign(n, 0);
    fill_.assign(n, 0);
    snap_[0].assign(n, glm::vec4(0.0f));
    snap_[1].assign(n, glm::vec4(0.0f));
    if (s_.checkCandidates) {
        shadow_ = std::make_unique<FullDetection>(p);
        shadowPool_ = std::make_unique<ThreadPool>(1);
    }
}

SelfCollision::~SelfCollision() = default;

void SelfCollision::collide(ThreadPool& pool, int member, int size, const glm::vec4* start,
                            const glm::vec4* pred, bool frameStart,
                            const std::function<void(int)>& stage) {
    if (member == 0) {
        // The team may be larger than before (CpuTeam runs frames on fewer members while other
        // processes use the cores): every member needs its work, now, before any touches it.
        if (work_.size() < std::size_t(size)) work_.resize(size);
        clampedLast_ = 0;
        for (MemberWork& w : work_) {
            clampedLast_ += w.clamped;
            w.clamped = 0;
        }
        clampedTotal_ += clampedLast_;
    }
    pool.barrier();
    forEachSelfPhase(
        SelfWhen::Substep,
        [&](const SelfPhaseEntry& e) {
            switch (e.phase) {
                case SelfPhase::Rebuild:
                    if (frameStart && rebuildDue_) rebuild(pool, member, size, start);
                    break;
                case SelfPhase::Motion:
                    motion(pool, member, size, start, pred);
                    break;
                case SelfPhase::Refit:
                    refit(pool, member, size, start);
                    break;
                case SelfPhase::Gather:
                    gather(pool, member, size, start);
                    break;
                case SelfPhase::Lists:
                    lists(pool, member, size);
                    break;
                case SelfPhase::Evaluate:
                    evaluate(pool, member, size, start, pred);
                    break;
                case SelfPhase::Compact:
                    compact(member, size);
                    break;
                default:
                    CLOTH_ASSERT(false);
            }
            stage(e.stage);
        },
        [&] { return detect_; });
    if (shadow_ && member == 0) checkAgainstShadow(start, pred);
}

// The triangles' boxes at positions `at`, grown by their thickness, half the margin and `grow`.
void SelfCollision::triangleBoxes(int member, int size, const glm::vec4* at, float grow) {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(p_.triangles.size()), member, size, b, e);
    for (std::uint32_t i = b; i < e; ++i) {
        const glm::uvec3 t = p_.triangles[i];
        const glm::vec3 x0(at[t.x]), x1(at[t.y]), x2(at[t.z]);
        float g = triThickness_[i] + 0.5f * s_.margin;
        if (grow > 0.0f)  // each triangle by its corners' largest bound
            g += std::max(detected_[originalOf_[t.x]].w,
                          std::max(detected_[originalOf_[t.y]].w, detected_[originalOf_[t.z]].w));
        boxes_[i] = {glm::min(glm::min(x0, x1), x2) - glm::vec3(g),
                     glm::max(glm::max(x0, x1), x2) + glm::vec3(g)};
    }
}

void SelfCollision::rebuild(ThreadPool& pool, int member, int size, const glm::vec4* start) {
    triangleBoxes(member, size, start, 0.0f);
    pool.barrier();
    tree_.rebuild(pool, member, size, boxes_);
    if (member == 0) {
        rebuildDue_ = false;
        ++rebuilds_;
        refNodes_ = refPairs_ = 0;
    }
}

void SelfCollision::refit(ThreadPool& pool, int member, int size, const glm::vec4* start) {
    triangleBoxes(member, size, start, 1.0f);
    pool.barrier();
    tree_.refit(pool, member, size, boxes_);
}

// The rebuild rule, in integers (the GPU's counters give the same): worn when
// nodes / (pairs + triangles) grew past 3/2 of the reference's.
void SelfCollision::endFrame() {
    if (!detectedThisFrame_) return;
    detectedThisFrame_ = false;
    const std::uint64_t t = p_.triangles.size();
    if (refNodes_ == 0) {
        refNodes_ = lastNodes_;
        refPairs_ = lastPairs_;
        return;
    }
    if (kWornDenominator * lastNodes_ * (refPairs_ + t) >
        kWornNumerator * refNodes_ * (lastPairs_ + t))
        rebuildDue_ = true;
}

std::vector<gpu::SelfContact> SelfCollision::contacts() const {
    std::vector<gpu::SelfContact> out;
    for (std::size_t i = 0; i < candidates_.size(); ++i) {
        if (!(slotWeights_[i].x > 0.0f)) continue;
        const gpu::SelfCandidate& c = candidates_[i];
        gpu::SelfContact k;
        k.vertices = c.vertices;
        k.weights = slotWeights_[i];
        k.normal = slotNormals_[i];
        k.info = glm::uvec4(c.kind & 1u, c.keyY, c.keyZ, (c.kind >> 1) & 1u);
        out.push_back(k);
    }
    return out;
}

SelfCollisionCounts SelfCollision::counts() const {
    SelfCollisionCounts c;
    for (const MemberWork& w : work_) {
        c.candidatePairs += w.pairs;
        c.primitivePairs += w.tested;
        c.walkNodes += w.nodes;
        c.evaluated += w.evaluated;
        c.contacts += w.contacts;
        c.mostVertexContacts = std::max<std::uint64_t>(c.mostVertexContacts, w.mostContacts);
    }
    c.candidates = candidates_.size();
    c.detections = detections_;
    c.rebuilds = rebuilds_;
    c.clamped = clampedTotal_;
    for (const MemberWork& w : work_) c.clamped += w.clamped;
    c.checkedContacts = checkedContacts_;
    c.missed = missed_;
    return c;
}

// SelfCollisionSettings::checkCandidates: the same start and prediction through a full
// detection (with its own memory of sides), its contacts against this substep's, pair by pair
// and bit for bit.
void SelfCollision::checkAgainstShadow(const glm::vec4* start, const glm::vec4* pred) {
    shadowPool_->run([&](int member, int size) {
        shadow_->detect(*shadowPool_, member, size, start, pred);
    });
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
    const std::vector<gpu::SelfContact> mine = contacts();
    const std::vector<gpu::SelfContact>& full = shadow_->contacts();
    const std::vector<Key> a = sorted(mine), b = sorted(full);
    const auto pair = [](const Key& k) {
        return std::make_tuple(std::get<0>(k), std::get<1>(k), std::get<2>(k));
    };
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        if (j == b.size() || (i < a.size() && pair(a[i]) < pair(b[j]))) {
            ++missed_;  // a contact the full detection does not have
            ++i;
        } else if (i == a.size() || pair(b[j]) < pair(a[i])) {
            ++missed_;  // one the candidates lack
            ++j;
        } else {
            if (std::memcmp(&mine[std::get<3>(a[i])], &full[std::get<3>(b[j])],
                            sizeof(gpu::SelfContact)) != 0)
                ++missed_;
            ++i;
            ++j;
        }
    }
    checkedContacts_ += full.size();
}

}  // namespace cloth
