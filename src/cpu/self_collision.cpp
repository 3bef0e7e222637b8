#include "cpu/self_collision.h"

#include <algorithm>
#include <atomic>
#include <bit>

#include "core/error.h"
#include "cpu/contact_colors.h"
#include "cpu/self_collision_args.h"

namespace cloth {

namespace {

glm::vec3 xyz(const glm::vec4& v) { return glm::vec3(v); }


}  // namespace

SelfCollision::SelfCollision(const PreparedCloth& p) : SelfCollision(p, false) {}

SelfCollision::SelfCollision(const PreparedCloth& p, bool shadow)
    : p_(p), rest_(findRestNeighbours(p)) {
    CLOTH_ASSERT(p.sim.selfCollision.has_value());
    margin_ = p.sim.selfCollision->margin;
    muS_ = p.sim.selfCollision->staticFriction;
    muK_ = p.sim.selfCollision->kineticFriction;
    order_ = p.sim.selfCollision->order;
    bounded_ = !shadow &&
               p.sim.selfCollision->detection == SelfCollisionSettings::Detection::Bounded;
    minBound_ = p.sim.selfCollision->bound;
    if (bounded_) {
        detected_.assign(p.originalVertexCount, glm::vec4(0.0f));
        moves_.assign(p.originalVertexCount, glm::vec2(0.0f));
        if (p.sim.selfCollision->checkCandidates) {
            shadow_.reset(new SelfCollision(p, true));
            shadowPool_ = std::make_unique<ThreadPool>(1);
        }
    }
    const auto triCount = static_cast<std::uint32_t>(p.triangles.size());
    triThickness_ = triangleThicknesses(p);
    boxes_.resize(triCount);
    tight_.resize(2 * std::size_t(triCount));
    tree_.codes.resize(triCount);
    tree_.order.resize(triCount);
    const std::size_t nodes = triCount <= 1 ? triCount : 2 * std::size_t(triCount) - 1;
    tree_.nodes.resize(nodes);
    tree_.parent.assign(nodes, gpu::LBVH_LEAF);
    tree_.rangeEnd.assign(nodes, 0);
    fill_.assign(p.originalVertexCount, 0);
    listOffsets_.assign(std::size_t(p.originalVertexCount) + 1, 0);
    moved_.assign(p.originalVertexCount, glm::vec4(0.0f));
}

// Phases 0-3 of a detection: the triangles' boxes (their corners at `start` and `pred`, grown
// by their thickness, half the margin and `extra`), codes, sort, hierarchy and bounds.
void SelfCollision::buildTree(ThreadPool& pool, int member, int size, const glm::vec4* start,
                              const glm::vec4* pred, float extra,
                              const std::function<void(int)>& stage) {
    const auto n = static_cast<std::uint32_t>(p_.triangles.size());
    if (member == 0) {
        partialLo_.assign(size, glm::vec3(0.0f));
        partialHi_.assign(size, glm::vec3(0.0f));
        if (work_.size() < std::size_t(size)) work_.resize(size);  // never shrinks
        for (MemberWork& w : work_) w.pairs = w.tested = 0;  // members beyond size count none
    }
    pool.barrier();
    std::uint32_t b, e;
    // 0: boxes, their union, codes.
    ThreadPool::split(n, member, size, b, e);
    glm::vec3 lo(0.0f), hi(0.0f);
    for (std::uint32_t i = b; i < e; ++i) {
        const glm::uvec3 t = p_.triangles[i];
        const float by = triThickness_[i] + 0.5f * margin_ + extra;
        glm::vec3 l = xyz(start[t.x]), h = l;
        for (glm::vec3 x : {xyz(start[t.y]), xyz(start[t.z]), xyz(pred[t.x]), xyz(pred[t.y]),
                            xyz(pred[t.z])}) {
            l = glm::min(l, x);
            h = glm::max(h, x);
        }
        tight_[2 * i] = glm::vec4(l, 0.0f);
        tight_[2 * i + 1] = glm::vec4(h, 0.0f);
        boxes_[i] = {l - by, h + by};
        lo = i == b ? boxes_[i].lo : glm::min(lo, boxes_[i].lo);
        hi = i == b ? boxes_[i].hi : glm::max(hi, boxes_[i].hi);
    }
    partialLo_[member] = lo;
    partialHi_[member] = hi;
    pool.barrier();
    bool any = false;
    for (int m = 0; m < size; ++m) {
        std::uint32_t mb, me;
        ThreadPool::split(n, m, size, mb, me);
        if (mb == me) continue;
        lo = any ? glm::min(lo, partialLo_[m]) : partialLo_[m];
        hi = any ? glm::max(hi, partialHi_[m]) : partialHi_[m];
        any = true;
    }
    const glm::vec3 inv = lbvhInverseExtent(lo, hi);
    for (std::uint32_t i = b; i < e; ++i) {
        tree_.codes[i] = gpu::lbvhMortonCode(0.5f * (boxes_[i].lo + boxes_[i].hi), lo, inv);
        tree_.order[i] = i;
    }
    stage(0);
    // 1: sort.
    if (member == 0) lbvhRadixSort(tree_.codes, tree_.order, sortCodes_, sortOrder_);
    stage(1);
    // 2: hierarchy.
    if (n >= 2) {
        ThreadPool::split(n - 1, member, size, b, e);
        lbvhInternalNodes(tree_, n, b, e);
    }
    ThreadPool::split(n, member, size, b, e);
    lbvhLeaves(tree_, boxes_.data(), n, b, e);
    stage(2);
    // 3: bounds.
    if (member == 0 && n >= 2) lbvhFitBounds(tree_, n, arrived_);
    stage(3);
}

void SelfCollision::detect(ThreadPool& pool, int member, int size, const glm::vec4* start,
                           const glm::vec4* pred, const std::function<void(int)>& stage) {
    const auto n = static_cast<std::uint32_t>(p_.triangles.size());
    buildTree(pool, member, size, start, pred, 0.0f, stage);
    std::uint32_t b, e;
    // 4: the walk and the narrow phase, per sorted position.
    ThreadPool::split(n, member, size, b, e);
    MemberWork& work = work_[member];
    std::vector<gpu::SelfContact>& out = work.found;
    out.clear();
    std::uint64_t pairs = 0, tested = 0;
    const glm::vec4* predicted = pred;
    for (std::uint32_t i = b; i < e; ++i) {
        const std::uint32_t a = tree_.order[i];
        lbvhWalkAfter(tree_, i, boxes_[a].lo, boxes_[a].hi, work.stack,
                      [&](std::uint32_t j) {
                          ++pairs;
                          const std::uint32_t other = tree_.order[j];
                          if (!gpu::selfInertPair(SELF_ARGS a, other))
                              narrowPhase(a, other, start, pred, out, tested);
                      });
    }
    // The sides remembered from the last substep (selfRemember), after the walk rather than as
    // each contact is found: the table's slots are scattered, so each lookup is fetched a few
    // contacts ahead. The same result as remembering in selfPrimitivePair.
    if (memoryBits_ != 0) {
        constexpr std::size_t ahead = 8;
        const auto prefetch = [&](const gpu::SelfContact& c) {
            const std::uint32_t slot =
                gpu::selfMemorySlot(c.info.x, c.info.y, c.info.z, memoryBits_);
            __builtin_prefetch(&memoryKeys_[slot]);
            __builtin_prefetch(&memoryNormals_[slot]);
        };
        for (std::size_t i = 0; i < std::min(ahead, out.size()); ++i) prefetch(out[i]);
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (i + ahead < out.size()) prefetch(out[i + ahead]);
            gpu::selfRemember(SELF_ARGS out[i], memoryBits_);
        }
    }
    work.pairs = pairs;
    work.tested = tested;
    stage(4);
    // 5: the contacts in member order (each member copies its own), per vertex its slots in
    // contact order (counted with atomic increments, placed by atomic cursors, each list then
    // sorted: the same lists for any thread count), and the memory for the next substep.
    const std::size_t first = concatenateFound(pool, member, size);
    if (order_ != SelfCollisionSettings::Order::Jacobi) {
        // Gauss-Seidel needs no per-vertex lists: the colours instead.
        // Two serial jobs, on two members where there are two.
        pool.barrier();
        if (member == 0 && order_ == SelfCollisionSettings::Order::Colored) colorContacts();
        if (member == (size > 1 ? 1 : 0)) rememberContacts();
        stage(5);
        return;
    }
    buildLists(pool, member, size, first, out);
    if (member == 0) rememberContacts();
    stage(5);
}

// contacts_: every member's `found`, in member order (each member copies its own, after a
// barrier). Returns where this member's begin.
std::size_t SelfCollision::concatenateFound(ThreadPool& pool, int member, int size) {
    if (member == 0) {
        std::size_t total = 0;
        for (int m = 0; m < size; ++m) total += work_[m].found.size();
        contacts_.resize(total);
    }
    pool.barrier();
    std::size_t first = 0;
    for (int m = 0; m < member; ++m) first += work_[m].found.size();
    const std::vector<gpu::SelfContact>& found = work_[member].found;
    std::copy(found.begin(), found.end(), contacts_.begin() + std::ptrdiff_t(first));
    return first;
}

// Jacobi: per original vertex its contacts' slots (4 i + k) in contact order (counted with
// atomic increments, placed by atomic cursors, each list then sorted: the same lists for any
// thread count). contacts_ holds every member's `found` from `first` on.
void SelfCollision::buildLists(ThreadPool& pool, int member, int size, std::size_t first,
                               const std::vector<gpu::SelfContact>& out) {
    if (member == 0) {
        slots_.resize(4 * contacts_.size());
        corrections_.resize(4 * contacts_.size());
    }
    for (const gpu::SelfContact& c : out)
        for (int k = 0; k < 4; ++k)
            std::atomic_ref<std::uint32_t>(fill_[c.vertices[k]]).fetch_add(1, std::memory_order_relaxed);
    pool.barrier();
    std::uint32_t b, e;
    const std::uint32_t vertices = p_.originalVertexCount;
    if (member == 0) {
        listOffsets_[0] = 0;
        for (std::uint32_t v = 0; v < vertices; ++v) {
            listOffsets_[v + 1] = listOffsets_[v] + fill_[v];
            fill_[v] = listOffsets_[v];  // now the next free slot
        }
    }
    pool.barrier();
    for (std::size_t i = 0; i < out.size(); ++i)
        for (int k = 0; k < 4; ++k) {
            const std::uint32_t slot = std::atomic_ref<std::uint32_t>(fill_[out[i].vertices[k]])
                                           .fetch_add(1, std::memory_order_relaxed);
            slots_[slot] = 4 * std::uint32_t(first + i) + std::uint32_t(k);
        }
    pool.barrier();
    ThreadPool::split(vertices, member, size, b, e);
    for (std::uint32_t v = b; v < e; ++v) {
        std::sort(slots_.begin() + listOffsets_[v], slots_.begin() + listOffsets_[v + 1]);
        fill_[v] = 0;
    }
}

// The memory: the contacts' keys in a table at most half full (self_contacts.h).
void SelfCollision::rememberContacts() {
    rememberTable(
        contacts_.size(),
        [&](std::size_t i) {
            const gpu::SelfContact& c = contacts_[i];
            return glm::uvec4(c.info.x + 1u, c.info.y, c.info.z, 0u);
        },
        [&](std::size_t i) { return gpu::selfKeyNormal(contacts_[i]); });
}

// Colours the contacts (contact_colors.h), then lays them out in colour order.
void SelfCollision::colorContacts() {
    cloth::colorContacts(contacts_, p_.originalVertexCount, coloring_);
    colorRounds_ = std::max(colorRounds_, coloring_.rounds);
    colorsFailed_ = colorsFailed_ || coloring_.failed;
    const auto n = static_cast<std::uint32_t>(contacts_.size());
    // The contacts themselves in that order, so each colour's pass streams through memory.
    byColor_.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) byColor_[i] = contacts_[coloring_.order[i]];
}

// The k whose primitives a and b own (selfPairCandidate is false at once for the others), as
// bits: 0-2 a's corners, 3-5 b's, 6-14 edge pairs.
std::uint32_t SelfCollision::ownedPairs(std::uint32_t a, std::uint32_t b) const {
    const std::uint32_t ia = p_.triangleFeatureInfo[a], ib = p_.triangleFeatureInfo[b];
    std::uint32_t live = ((ia >> gpu::TRIANGLE_OWNS_VERTEX_SHIFT) & 7u) |
                         (((ib >> gpu::TRIANGLE_OWNS_VERTEX_SHIFT) & 7u) << 3);
    for (std::uint32_t ea = 0; ea < 3; ++ea)
        if ((ia >> ea) & 1u) live |= (ib & 7u) << (6 + 3 * ea);
    return live;
}

// The owned primitive pairs of close triangles a and b (self_contacts.h), in their order.
void SelfCollision::narrowPhase(std::uint32_t a, std::uint32_t b, const glm::vec4* start,
                                const glm::vec4* pred, std::vector<gpu::SelfContact>& out,
                                std::uint64_t& tested) const {
    const glm::vec4* predicted = pred;
    std::uint32_t live = ownedPairs(a, b);
    std::uint32_t count = 0;
    while (live != 0) {
        const auto k = static_cast<std::uint32_t>(std::countr_zero(live));
        live &= live - 1;
        gpu::SelfContact c;
        // Memory bits 0: detect remembers the sides after the walk.
        if (gpu::selfPrimitivePair(SELF_ARGS a, b, k, margin_, 0u, c, count))
            out.push_back(c);
    }
    tested += count;
}

void SelfCollision::solve(ThreadPool& pool, int member, int size, glm::vec4* pos,
                          const glm::vec4* start) {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(contacts_.size()), member, size, b, e);
    for (std::uint32_t i = b; i < e; ++i) {
        const gpu::SelfContact& c = contacts_[i];
        const glm::uvec4 v = c.vertices;
        gpu::selfContactCorrections(c, pos[v.x], pos[v.y], pos[v.z], pos[v.w], xyz(start[v.x]),
                                    xyz(start[v.y]), xyz(start[v.z]), xyz(start[v.w]), muS_, muK_,
                                    corrections_[4 * i], corrections_[4 * i + 1],
                                    corrections_[4 * i + 2], corrections_[4 * i + 3]);
    }
    pool.barrier();
    ThreadPool::split(p_.originalVertexCount, member, size, b, e);
    for (std::uint32_t v = b; v < e; ++v) {
        glm::vec4 sum(0.0f);
        for (std::uint32_t k = listOffsets_[v]; k < listOffsets_[v + 1]; ++k)
            sum += corrections_[slots_[k]];
        const glm::vec4 d = gpu::featureMean(sum);
        moved_[v] = d;
        if (d.w > 0.0f && pos[v].w > 0.0f) pos[v] += glm::vec4(glm::vec3(d), 0.0f);
    }
    if (p_.phantomGroups.empty()) {
        pool.barrier();
        return;
    }
    pool.barrier();
    // Phantom copies move with their original.
    ThreadPool::split(static_cast<std::uint32_t>(p_.phantomGroups.size()), member, size, b, e);
    for (std::uint32_t g = b; g < e; ++g) {
        const gpu::PhantomGroup group = p_.phantomGroups[g];
        const glm::vec4 d = moved_[p_.phantomMembers[group.first]];
        if (d.w <= 0.0f) continue;
        for (std::uint32_t k = 1; k < group.count; ++k) {
            const std::uint32_t v = p_.phantomMembers[group.first + k];
            if (pos[v].w > 0.0f) pos[v] += glm::vec4(glm::vec3(d), 0.0f);
        }
    }
    pool.barrier();
}

// A contact's projection from the positions now, each vertex moved by its own correction.
void SelfCollision::projectContact(const gpu::SelfContact& c, glm::vec4* pos,
                                   const glm::vec4* start) const {
    const glm::uvec4 v = c.vertices;
    glm::vec4 d[4];
    gpu::selfContactCorrections(c, pos[v.x], pos[v.y], pos[v.z], pos[v.w], xyz(start[v.x]),
                                xyz(start[v.y]), xyz(start[v.z]), xyz(start[v.w]), muS_, muK_,
                                d[0], d[1], d[2], d[3]);
    for (int k = 0; k < 4; ++k) {
        const glm::vec4 m = gpu::featureMean(d[k]);
        if (m.w > 0.0f && pos[v[k]].w > 0.0f) pos[v[k]] += glm::vec4(glm::vec3(m), 0.0f);
    }
}

// Gauss-Seidel passes: the originals' positions before the pass (with phantoms; then a
// barrier), and after it their copies moved by what the original moved.
void SelfCollision::keepBefore(int member, int size, const glm::vec4* pos) {
    if (p_.phantomGroups.empty()) return;
    std::uint32_t b, e;
    ThreadPool::split(p_.originalVertexCount, member, size, b, e);
    for (std::uint32_t v = b; v < e; ++v) moved_[v] = pos[v];
}

void SelfCollision::moveCopies(int member, int size, glm::vec4* pos) {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(p_.phantomGroups.size()), member, size, b, e);
    for (std::uint32_t g = b; g < e; ++g) {
        const gpu::PhantomGroup group = p_.phantomGroups[g];
        const std::uint32_t o = p_.phantomMembers[group.first];
        const glm::vec4 d(xyz(pos[o]) - xyz(moved_[o]), 0.0f);
        for (std::uint32_t k = 1; k < group.count; ++k) {
            const std::uint32_t v = p_.phantomMembers[group.first + k];
            if (pos[v].w > 0.0f) pos[v] += d;
        }
    }
}

void SelfCollision::solveColored(ThreadPool& pool, int member, int size, glm::vec4* pos,
                                 const glm::vec4* start) {
    const bool phantoms = !p_.phantomGroups.empty();
    if (phantoms) {
        keepBefore(member, size, pos);
        pool.barrier();
    }
    // Every colour (overflow ones too) shares no vertex: each in parallel.
    for (std::uint32_t k = 0; k < gpu::SELF_COLOR_SLOTS; ++k) {
        const std::uint32_t first = coloring_.offsets[k], end = coloring_.offsets[k + 1];
        if (first == end) continue;  // the same for every member
        std::uint32_t b, e;
        ThreadPool::split(end - first, member, size, b, e);
        for (std::uint32_t i = first + b; i < first + e; ++i)
            projectContact(byColor_[i], pos, start);
        pool.barrier();
    }
    if (phantoms) {
        moveCopies(member, size, pos);
        pool.barrier();
    }
}

void SelfCollision::solveSequential(glm::vec4* pos, const glm::vec4* start) {
    keepBefore(0, 1, pos);
    for (const gpu::SelfContact& c : contacts_) projectContact(c, pos, start);
    if (!p_.phantomGroups.empty()) moveCopies(0, 1, pos);
}

void SelfCollision::throwIfColorsFailed() const {
    if (colorsFailed_)
        throw Error("self-collision: the contacts' colouring needs more than " +
                    std::to_string(gpu::SELF_COLOR_ROUNDS) +
                    " rounds (a chain of that many contacts, each sharing a vertex with the next, "
                    "each of lower priority); fewer contacts per vertex (a smaller margin or "
                    "thickness) would do");
}

SelfCollisionCounts SelfCollision::counts() const {
    SelfCollisionCounts c;
    for (const MemberWork& w : work_) {
        c.candidatePairs += w.pairs;
        c.primitivePairs += w.tested;
    }
    c.contacts = contacts_.size();
    c.colorRounds = colorRounds_;
    if (bounded_) {
        c.candidates = candidates_.size();
        for (const MemberWork& w : work_) c.evaluated += w.evaluated;
        c.detections = detections_;
        c.checkedContacts = checkedContacts_;
        c.missed = missed_;
    }
    return c;
}

std::vector<gpu::SelfContact> findSelfContacts(const PreparedCloth& p,
                                               const std::vector<glm::vec4>& start,
                                               const std::vector<glm::vec4>& pred, int threads) {
    SelfCollision sc(p);
    ThreadPool pool(threads);
    pool.run([&](int member, int size) {
        sc.detect(pool, member, size, start.data(), pred.data(), [&](int) { pool.barrier(); });
    });
    return sc.contacts();
}

}  // namespace cloth
