#include "cpu/self_collision.h"

#include <algorithm>
#include <atomic>

#include "core/error.h"

namespace cloth {

namespace {

constexpr std::uint32_t kNone = 0xFFFFFFFFu;

glm::vec3 xyz(const glm::vec4& v) { return glm::vec3(v); }

std::uint64_t contactKey(const gpu::SelfContact& c) {
    return (std::uint64_t(c.info.x) << 63) | (std::uint64_t(c.info.y) << 32) | c.info.z;
}

constexpr std::uint64_t kNoKey = ~std::uint64_t(0);  // no contact has it: info.x <= 1, y < 2^31

// The memory table's home slot of a key (Fibonacci hashing into 2^bits slots).
std::size_t memorySlot(std::uint64_t key, std::uint32_t bits) {
    return std::size_t((key * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

// n as the key reads it (the lower edge first).
glm::vec3 keyNormal(const gpu::SelfContact& c) {
    return c.info.w != 0u ? glm::vec3(c.normal) : -glm::vec3(c.normal);
}


}  // namespace

SelfCollision::SelfCollision(const PreparedCloth& p) : p_(p) {
    CLOTH_ASSERT(p.sim.selfCollision.has_value());
    CLOTH_ASSERT(p.triangleFeatureInfo.size() == p.triangles.size());
    CLOTH_ASSERT(p.restPositions.size() >= p.originalVertexCount);
    margin_ = p.sim.selfCollision->margin;
    muS_ = p.sim.selfCollision->staticFriction;
    muK_ = p.sim.selfCollision->kineticFriction;
    const auto triCount = static_cast<std::uint32_t>(p.triangles.size());
    triThickness_.resize(triCount);
    owned_.resize(triCount);
    segment_.resize(triCount);
    for (std::uint32_t i = 0; i < triCount; ++i) {
        const std::uint32_t info = p.triangleFeatureInfo[i];
        segment_[i] = info >> gpu::TRIANGLE_SEGMENT_SHIFT;
        owned_[i] = info & 0x3Fu;
        triThickness_[i] = p.segments[segment_[i]].thickness;
    }
    rest_.resize(p.originalVertexCount);
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v) rest_[v] = xyz(p.restPositions[v]);
    boxes_.resize(triCount);
    tight_.resize(triCount);
    tree_.codes.resize(triCount);
    tree_.order.resize(triCount);
    const std::size_t nodes = triCount <= 1 ? triCount : 2 * std::size_t(triCount) - 1;
    tree_.nodes.resize(nodes);
    tree_.parent.assign(nodes, gpu::LBVH_LEAF);
    tree_.rangeEnd.assign(nodes, 0);
    fill_.assign(p.originalVertexCount, 0);
    listOffsets_.assign(std::size_t(p.originalVertexCount) + 1, 0);
    moved_.assign(p.originalVertexCount, glm::vec4(0.0f));
    groupOf_.assign(p.originalVertexCount, kNone);
    for (std::uint32_t g = 0; g < p.phantomGroups.size(); ++g)
        groupOf_[p.phantomMembers[p.phantomGroups[g].first]] = g;
    findRestNeighbours();
}

// Per owned vertex the triangles, per owned edge the edges, of its own cloth that the rest mesh
// has within reach (sharing no vertex): found through a hierarchy over the rest triangles'
// boxes grown by half the reach, each pair (A, B) of overlapping triangles tested both ways.
void SelfCollision::findRestNeighbours() {
    const auto triCount = static_cast<std::uint32_t>(p_.triangles.size());
    std::vector<Aabb> rest(triCount);
    for (std::uint32_t i = 0; i < triCount; ++i) {
        const glm::uvec3 t = p_.triangles[i];
        const float grow = triThickness_[i] + 0.5f * margin_;
        rest[i] = {glm::min(rest_[t.x], glm::min(rest_[t.y], rest_[t.z])) - grow,
                   glm::max(rest_[t.x], glm::max(rest_[t.y], rest_[t.z])) + grow};
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> vt, ee;  // (vertex, triangle), edges
    std::vector<std::pair<std::uint32_t, std::uint32_t>> inert;   // triangle pairs, both ways
    std::uint32_t live = 0;  // primitive pairs of the current triangle pair that may collide
    auto test = [&](std::uint32_t a, std::uint32_t b) {
        const glm::uvec3 ta = p_.triangles[a], tb = p_.triangles[b];
        gpu::SelfContact c;
        c.normal = glm::vec4(0.0f, 0.0f, 0.0f, triThickness_[a] + triThickness_[b]);
        for (int k = 0; k < 3; ++k) {
            if ((owned_[a] & (1u << (gpu::TRIANGLE_OWNS_VERTEX_SHIFT + k))) == 0) continue;
            const std::uint32_t v = ta[k];
            if (v == tb.x || v == tb.y || v == tb.z) continue;
            c.vertices = glm::uvec4(v, tb.x, tb.y, tb.z);
            c.info.x = gpu::SELF_VERTEX_TRIANGLE;
            if (restNeighbours(c))
                vt.push_back({v, b});
            else
                ++live;
        }
        for (int ea = 0; ea < 3; ++ea) {
            if ((owned_[a] & (1u << ea)) == 0) continue;
            for (int eb = 0; eb < 3; ++eb) {
                if ((owned_[b] & (1u << eb)) == 0) continue;
                const std::uint32_t p0 = ta[ea], p1 = ta[(ea + 1) % 3];
                const std::uint32_t q0 = tb[eb], q1 = tb[(eb + 1) % 3];
                if (p0 == q0 || p0 == q1 || p1 == q0 || p1 == q1) continue;
                c.vertices = glm::uvec4(p0, p1, q0, q1);
                c.info.x = gpu::SELF_EDGE_EDGE;
                if (restNeighbours(c))
                    ee.push_back({3 * a + ea, 3 * b + eb});
                else
                    ++live;
            }
        }
    };
    const Lbvh tree = buildLbvh(rest);
    for (glm::uvec2 pair : lbvhOverlapPairs(tree, rest)) {
        if (segment_[pair.x] != segment_[pair.y]) continue;
        live = 0;
        test(pair.x, pair.y);
        test(pair.y, pair.x);
        if (live == 0) {  // every owned pair shares a vertex or is a neighbour
            inert.push_back({pair.x, pair.y});
            inert.push_back({pair.y, pair.x});
        }
    }
    auto csr = [](std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs, std::size_t n,
                  std::vector<std::uint32_t>& offsets, std::vector<std::uint32_t>& items) {
        std::sort(pairs.begin(), pairs.end());
        offsets.assign(n + 1, 0);
        for (const auto& [k, v] : pairs) ++offsets[k + 1];
        for (std::size_t k = 0; k < n; ++k) offsets[k + 1] += offsets[k];
        items.resize(pairs.size());
        for (std::size_t i = 0; i < pairs.size(); ++i) items[i] = pairs[i].second;
    };
    csr(vt, p_.originalVertexCount, restVtOffsets_, restVt_);
    csr(ee, 3 * std::size_t(triCount), restEeOffsets_, restEe_);
    csr(inert, triCount, inertOffsets_, inert_);
}

bool SelfCollision::inertPair(std::uint32_t a, std::uint32_t b) const {
    return std::binary_search(inert_.begin() + inertOffsets_[a],
                              inert_.begin() + inertOffsets_[a + 1], b);
}

bool SelfCollision::restVertexTriangle(std::uint32_t v, std::uint32_t t) const {
    return std::binary_search(restVt_.begin() + restVtOffsets_[v],
                              restVt_.begin() + restVtOffsets_[v + 1], t);
}

bool SelfCollision::restEdgeEdge(std::uint32_t e, std::uint32_t f) const {
    return std::binary_search(restEe_.begin() + restEeOffsets_[e],
                              restEe_.begin() + restEeOffsets_[e + 1], f);
}

void SelfCollision::detect(ThreadPool& pool, int member, int size, const glm::vec4* start,
                           const glm::vec4* pred, const std::function<void(int)>& stage) {
    const auto n = static_cast<std::uint32_t>(p_.triangles.size());
    if (member == 0) {
        partialLo_.assign(size, glm::vec3(0.0f));
        partialHi_.assign(size, glm::vec3(0.0f));
        work_.resize(size);
    }
    pool.barrier();
    std::uint32_t b, e;
    // 0: boxes, their union, codes.
    ThreadPool::split(n, member, size, b, e);
    glm::vec3 lo(0.0f), hi(0.0f);
    for (std::uint32_t i = b; i < e; ++i) {
        const glm::uvec3 t = p_.triangles[i];
        const float grow = triThickness_[i] + 0.5f * margin_;
        glm::vec3 l = xyz(start[t.x]), h = l;
        for (glm::vec3 x : {xyz(start[t.y]), xyz(start[t.z]), xyz(pred[t.x]), xyz(pred[t.y]),
                            xyz(pred[t.z])}) {
            l = glm::min(l, x);
            h = glm::max(h, x);
        }
        tight_[i] = {l, h};
        boxes_[i] = {l - grow, h + grow};
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
    // 4: the walk and the narrow phase, per sorted position.
    ThreadPool::split(n, member, size, b, e);
    MemberWork& work = work_[member];
    std::vector<gpu::SelfContact>& out = work.found;
    out.clear();
    std::uint64_t pairs = 0, tested = 0;
    for (std::uint32_t i = b; i < e; ++i) {
        const std::uint32_t a = tree_.order[i];
        lbvhWalkAfter(tree_, i, boxes_[a].lo, boxes_[a].hi, work.stack,
                      [&](std::uint32_t j) {
                          ++pairs;
                          const std::uint32_t other = tree_.order[j];
                          if (!inertPair(a, other))
                              narrowPhase(a, other, start, pred, out, tested);
                      });
    }
    work.pairs = pairs;
    work.tested = tested;
    stage(4);
    // 5: the contacts in member order (each member copies its own), per vertex its slots in
    // contact order (counted with atomic increments, placed by atomic cursors, each list then
    // sorted: the same lists for any thread count), and the memory for the next substep.
    if (member == 0) {
        std::size_t total = 0;
        for (int m = 0; m < size; ++m) total += work_[m].found.size();
        contacts_.resize(total);
        slots_.resize(4 * total);
        corrections_.resize(4 * total);
    }
    pool.barrier();
    std::size_t first = 0;
    for (int m = 0; m < member; ++m) first += work_[m].found.size();
    std::copy(out.begin(), out.end(), contacts_.begin() + std::ptrdiff_t(first));
    for (const gpu::SelfContact& c : out)
        for (int k = 0; k < 4; ++k)
            std::atomic_ref<std::uint32_t>(fill_[c.vertices[k]]).fetch_add(1, std::memory_order_relaxed);
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
    if (member == 0) {
        // The memory: an open-addressing table of the contacts' keys (linear probing), at most
        // half full; a key's entry holds its direction as the key reads it.
        std::uint32_t bits = 6;
        while ((std::size_t(1) << bits) < 2 * contacts_.size()) ++bits;
        memoryBits_ = bits;
        memoryKeys_.assign(std::size_t(1) << bits, kNoKey);
        memoryNormals_.resize(std::size_t(1) << bits);
        const std::size_t mask = (std::size_t(1) << bits) - 1;
        for (const gpu::SelfContact& c : contacts_) {
            const std::uint64_t key = contactKey(c);
            std::size_t slot = memorySlot(key, bits);
            while (memoryKeys_[slot] != kNoKey) slot = (slot + 1) & mask;
            memoryKeys_[slot] = key;
            memoryNormals_[slot] = keyNormal(c);
        }
    }
    stage(5);
}

// Does the contact join primitives that the rest mesh has within its distance (neighbours)?
bool SelfCollision::restNeighbours(const gpu::SelfContact& c) const {
    const bool edges = c.info.x == gpu::SELF_EDGE_EDGE;
    const glm::vec3 x0 = rest_[c.vertices.x], x1 = rest_[c.vertices.y];
    const glm::vec3 x2 = rest_[c.vertices.z], x3 = rest_[c.vertices.w];
    glm::vec3 r;
    if (edges) {
        float s, t;
        gpu::segmentClosest(x0, x1, x2, x3, s, t);
        r = (x0 * (1.0f - s) + x1 * s) - (x2 * (1.0f - t) + x3 * t);
    } else {
        const glm::vec3 b = gpu::selfClosestBarycentric(x0, x1, x2, x3);
        r = x0 - (x1 * b.x + x2 * b.y + x3 * b.z);
    }
    const float reach = c.normal.w + margin_;
    return gpu::meshDot(r, r) < reach * reach;
}

// The owned primitives of triangles a and b against each other (000 §6.4): a's corners against
// b, b's corners against a, a's edges against b's.
void SelfCollision::narrowPhase(std::uint32_t a, std::uint32_t b, const glm::vec4* start,
                                const glm::vec4* pred, std::vector<gpu::SelfContact>& out,
                                std::uint64_t& tested) const {
    const float keep = triThickness_[a] + triThickness_[b];
    const float reach = keep + margin_;
    const bool sameCloth = segment_[a] == segment_[b];
    auto vertexTriangle = [&](std::uint32_t owner, std::uint32_t other) {
        const glm::uvec3 t = p_.triangles[other];
        const Aabb& box = tight_[other];
        for (int k = 0; k < 3; ++k) {
            if ((owned_[owner] & (1u << (gpu::TRIANGLE_OWNS_VERTEX_SHIFT + k))) == 0) continue;
            const std::uint32_t v = p_.triangles[owner][k];
            if (v == t.x || v == t.y || v == t.z) continue;
            if (sameCloth && restVertexTriangle(v, other)) continue;
            ++tested;
            const glm::vec3 xs = xyz(start[v]), xp = xyz(pred[v]);
            if (gpu::selfBoxesApart(glm::min(xs, xp), glm::max(xs, xp), box.lo, box.hi, reach))
                continue;
            gpu::SelfContact c;
            c.vertices = glm::uvec4(v, t.x, t.y, t.z);
            c.info = glm::uvec4(gpu::SELF_VERTEX_TRIANGLE, v, other, 1u);
            if (!gpu::selfVertexTriangle(xyz(start[v]), xyz(start[t.x]), xyz(start[t.y]),
                                         xyz(start[t.z]), xyz(pred[v]), xyz(pred[t.x]),
                                         xyz(pred[t.y]), xyz(pred[t.z]), keep, margin_,
                                         c.weights, c.normal))
                continue;
            remember(c);
            out.push_back(c);
        }
    };
    vertexTriangle(a, b);
    vertexTriangle(b, a);
    const glm::uvec3 ta = p_.triangles[a], tb = p_.triangles[b];
    // The swept boxes of the owned edges: a's in 0-2, b's in 3-5.
    glm::vec3 edgeLo[6], edgeHi[6];
    for (int k = 0; k < 6; ++k) {
        const glm::uvec3 t = k < 3 ? ta : tb;
        const std::uint32_t owner = k < 3 ? a : b;
        const int e = k % 3;
        if ((owned_[owner] & (1u << e)) == 0) continue;
        const std::uint32_t u = t[e], w = t[(e + 1) % 3];
        edgeLo[k] = glm::min(glm::min(xyz(start[u]), xyz(start[w])),
                             glm::min(xyz(pred[u]), xyz(pred[w])));
        edgeHi[k] = glm::max(glm::max(xyz(start[u]), xyz(start[w])),
                             glm::max(xyz(pred[u]), xyz(pred[w])));
    }
    for (int ea = 0; ea < 3; ++ea) {
        if ((owned_[a] & (1u << ea)) == 0) continue;
        const std::uint32_t p0 = ta[ea], p1 = ta[(ea + 1) % 3];
        for (int eb = 0; eb < 3; ++eb) {
            if ((owned_[b] & (1u << eb)) == 0) continue;
            const std::uint32_t q0 = tb[eb], q1 = tb[(eb + 1) % 3];
            if (p0 == q0 || p0 == q1 || p1 == q0 || p1 == q1) continue;
            const std::uint32_t ia = 3 * a + std::uint32_t(ea), ib = 3 * b + std::uint32_t(eb);
            if (sameCloth && restEdgeEdge(ia, ib)) continue;
            ++tested;
            if (gpu::selfBoxesApart(edgeLo[ea], edgeHi[ea], edgeLo[3 + eb], edgeHi[3 + eb], reach))
                continue;
            gpu::SelfContact c;
            c.vertices = glm::uvec4(p0, p1, q0, q1);
            c.info = glm::uvec4(gpu::SELF_EDGE_EDGE, std::min(ia, ib), std::max(ia, ib),
                                ia < ib ? 1u : 0u);
            if (!gpu::selfEdgeEdge(xyz(start[p0]), xyz(start[p1]), xyz(start[q0]),
                                   xyz(start[q1]), xyz(pred[p0]), xyz(pred[p1]), xyz(pred[q0]),
                                   xyz(pred[q1]), keep, margin_, c.weights, c.normal))
                continue;
            remember(c);
            out.push_back(c);
        }
    }
}


// A pair that was a contact in the last substep keeps the side it had then.
void SelfCollision::remember(gpu::SelfContact& c) const {
    if (memoryKeys_.empty()) return;
    const std::uint64_t key = contactKey(c);
    const std::size_t mask = memoryKeys_.size() - 1;
    for (std::size_t slot = memorySlot(key, memoryBits_); memoryKeys_[slot] != kNoKey;
         slot = (slot + 1) & mask) {
        if (memoryKeys_[slot] != key) continue;
        if (gpu::meshDot(memoryNormals_[slot], keyNormal(c)) < 0.0f)
            c.normal = glm::vec4(-glm::vec3(c.normal), c.normal.w);
        return;
    }
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

SelfCollisionCounts SelfCollision::counts() const {
    SelfCollisionCounts c;
    for (const MemberWork& w : work_) {
        c.candidatePairs += w.pairs;
        c.primitivePairs += w.tested;
    }
    c.contacts = contacts_.size();
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
