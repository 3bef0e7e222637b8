// The contacts' passes and the clamp into the bounds on the CPU reference (sim/self_phases.h's
// Pass and Clamp).
#include <algorithm>

#include "cpu/self/self_collision.h"
#include "cpu/self/xyz.h"
#include "kernels/feature_contacts.h"
#include "kernels/self_motion.h"
#include "kernels/self_solve.h"

namespace cloth {

namespace {

using self_detail::xyz;

}  // namespace

void SelfCollision::solve(ThreadPool& pool, int member, int size, glm::vec4* pos,
                          const glm::vec4* start) {
    if (s_.order == SelfCollisionSettings::Order::Sequential) {
        if (member == 0)
            for (int k = 0; k < s_.passes; ++k) passSequential(pos, start);
        pool.barrier();
        return;
    }
    std::uint32_t b, e;
    ThreadPool::split(p_.originalVertexCount, member, size, b, e);
    for (std::uint32_t v = b; v < e; ++v) snap_[0][v] = pos[v];
    pool.barrier();
    for (int k = 0; k < s_.passes; ++k) {
        if (s_.order == SelfCollisionSettings::Order::Vertex) {
            passVertex(pool, member, size, pos, start, k);
        } else {
            passJacobi(pool, member, size, pos, start, k);
            pool.barrier();
        }
    }
}

// Vertex v's phantom copies move by what it moved (d).
void SelfCollision::moveCopies(std::uint32_t v, glm::vec4* pos, glm::vec3 d) const {
    const std::uint32_t g = groupOf_[v];
    if (g == ~0u) return;
    const gpu::PhantomGroup group = p_.phantomGroups[g];
    for (std::uint32_t k = 1; k < group.count; ++k) {
        const std::uint32_t c = p_.phantomMembers[group.first + k];
        if (pos[c].w > 0.0f) pos[c] += glm::vec4(d, 0.0f);
    }
}

// The vertex order, colour by colour (self_contacts.h's selfVertexMove): each vertex of the
// colour takes its contacts one after another, from where it is now and its contacts' other
// vertices where the colours before it left them (`cur`) or, of its colour and after, where the
// pass found them (`from`); where it ends goes into `cur`. No vertex reads what another of its
// colour writes.
void SelfCollision::passVertex(ThreadPool& pool, int member, int size, glm::vec4* pos,
                               const glm::vec4* start, int pass) {
    const glm::vec4* from = snap_[pass % 2].data();
    glm::vec4* cur = snap_[(pass + 1) % 2].data();
    const std::vector<std::uint32_t>& colourOf = colours_.colourOf;
    for (std::uint32_t colour = 0; colour < colours_.count(); ++colour) {
        const std::uint32_t begin = colours_.offsets[colour];
        std::uint32_t b, e;
        ThreadPool::split(colours_.offsets[colour + 1] - begin, member, size, b, e);
        for (std::uint32_t i = begin + b; i < begin + e; ++i) {
            const std::uint32_t v = colours_.order[i];
            glm::vec4 x = from[v];
            const std::uint32_t first = listOffsets_[v];
            for (std::uint32_t a = first; a < first + activeCount_[v]; ++a) {
                const std::uint32_t slot = activeSlots_[a];
                const std::uint32_t c = slot >> 2, k = slot & 3u;
                const glm::uvec4 u = candidates_[c].vertices;
                glm::vec4 q[4];
                std::uint32_t later = 0;
                for (std::uint32_t j = 0; j < 4; ++j) {
                    const bool done = colourOf[u[j]] < colour;
                    q[j] = done ? cur[u[j]] : from[u[j]];
                    later |= done ? 0u : 1u << j;
                }
                q[k] = x;
                const glm::vec3 d = gpu::selfVertexMove(
                    slotWeights_[c], slotNormals_[c], q[0], q[1], q[2], q[3], xyz(start[u.x]),
                    xyz(start[u.y]), xyz(start[u.z]), xyz(start[u.w]), k, later,
                    s_.staticFriction, s_.kineticFriction);
                x += glm::vec4(d, 0.0f);
            }
            cur[v] = x;
            if (activeCount_[v] == 0) continue;
            const glm::vec3 moved = xyz(x) - xyz(pos[v]);
            pos[v] = x;
            moveCopies(v, pos, moved);
        }
        pool.barrier();
    }
}

// The Jacobi order: every contact from where the pass found its vertices (its corrections
// computed once, selfContactCorrections), each vertex moved by the |g|-weighted mean of its
// contacts' corrections, summed in slot order.
void SelfCollision::passJacobi(ThreadPool& pool, int member, int size, glm::vec4* pos,
                               const glm::vec4* start, int pass) {
    const glm::vec4* from = snap_[pass % 2].data();
    glm::vec4* to = snap_[(pass + 1) % 2].data();
    std::uint32_t b, e;
    ThreadPool::split(activeTotal_, member, size, b, e);
    for (std::uint32_t i = b; i < e; ++i) {
        const gpu::SelfContact& contact = activeContacts_[i];  // in order: no scattered reads
        const glm::uvec4 u = contact.vertices;
        glm::vec4* d = &corrections_[4 * std::size_t(i)];
        gpu::selfContactCorrections(contact, from[u.x], from[u.y], from[u.z], from[u.w],
                                    xyz(start[u.x]), xyz(start[u.y]), xyz(start[u.z]),
                                    xyz(start[u.w]), s_.staticFriction, s_.kineticFriction,
                                    d[0], d[1], d[2], d[3]);
    }
    pool.barrier();
    ThreadPool::split(p_.originalVertexCount, member, size, b, e);
    for (std::uint32_t v = b; v < e; ++v) {
        glm::vec4 sum(0.0f);
        const std::uint32_t first = listOffsets_[v];
        for (std::uint32_t a = first; a < first + activeCount_[v]; ++a)
            sum += corrections_[activeCorrections_[a]];
        glm::vec4 x = from[v];
        const glm::vec4 d = gpu::featureMean(sum);
        if (d.w > 0.0f && x.w > 0.0f) x += glm::vec4(xyz(d), 0.0f);
        to[v] = x;
        if (activeCount_[v] == 0) continue;
        const glm::vec3 moved = xyz(x) - xyz(pos[v]);
        pos[v] = x;
        moveCopies(v, pos, moved);
    }
}

// The sequential order (one thread): each contact in slot order projected from the positions
// now, every vertex of it moved by its own correction; phantom copies then move as their
// original did.
void SelfCollision::passSequential(glm::vec4* pos, const glm::vec4* start) {
    const std::uint32_t n = p_.originalVertexCount;
    for (std::uint32_t v = 0; v < n; ++v) snap_[0][v] = pos[v];
    for (std::size_t i = 0; i < candidates_.size(); ++i) {
        if (!(slotWeights_[i].x > 0.0f)) continue;
        const glm::uvec4 u = candidates_[i].vertices;
        gpu::SelfContact contact;
        contact.weights = slotWeights_[i];
        contact.normal = slotNormals_[i];
        glm::vec4 d[4];
        gpu::selfContactCorrections(contact, pos[u.x], pos[u.y], pos[u.z], pos[u.w],
                                    xyz(start[u.x]), xyz(start[u.y]), xyz(start[u.z]),
                                    xyz(start[u.w]), s_.staticFriction, s_.kineticFriction, d[0],
                                    d[1], d[2], d[3]);
        for (int k = 0; k < 4; ++k) {
            const glm::vec4 m = gpu::featureMean(d[k]);
            if (m.w > 0.0f && pos[u[k]].w > 0.0f) pos[u[k]] += glm::vec4(xyz(m), 0.0f);
        }
    }
    for (std::uint32_t v = 0; v < n; ++v)
        if (groupOf_[v] != ~0u) moveCopies(v, pos, xyz(pos[v]) - xyz(snap_[0][v]));
}

// Every vertex that can move, phantom copies with their original: its deviation from its
// reference (its prediction, or its start when some pair conflicts) cut to at most the cap
// gamma reach, and so that it turns towards no pair's other primitive by more than the pair's
// budget (kernels/self_motion.h's separating planes). Most vertices deviate by less than the
// least of their pairs' budgets and skip the planes.
void SelfCollision::clamp(ThreadPool& pool, int member, int size, glm::vec4* pos,
                          const glm::vec4* start, const glm::vec4* pred) {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(p_.positions.size()), member, size, b, e);
    std::uint64_t clamped = 0;
    const float cap = gpu::SELF_BOUND_GAMMA * (2.0f * leastThickness_ + s_.margin);
    const std::uint32_t vertices = p_.originalVertexCount;
    const int which = ownMode_ ? 0 : 1;
    for (std::uint32_t v = b; v < e; ++v) {
        const std::uint32_t o = originalOf_[v];
        if (!(pos[v].w > 0.0f) || !(p_.positions[o].w > 0.0f)) continue;
        const glm::vec3 ref = ownMode_ ? xyz(pred[v]) : xyz(start[v]);
        const glm::vec3 dev = xyz(pos[v]) - ref;
        float t = 1.0f;
        const float len2 = gpu::meshLength2(dev);
        const float least = least_[o][which];
        if (len2 <= least * least && len2 <= cap * cap) continue;  // turns by no more
        if (!(len2 <= cap * cap)) t = cap / std::sqrt(len2);
        const auto plane = [&](const glm::vec4& dir, glm::vec2 budgets, float side) {
            t = gpu::selfPlaneShare(t, xyz(dir), budgets[which], side, dev);
        };
        for (std::uint32_t k = listOffsets_[o]; k < listOffsets_[o + 1]; ++k) {
            const std::uint32_t slot = listSlots_[k];
            const std::uint32_t c = slot >> 2;
            if (!(budgets_[c].y < gpu::SELF_NO_BOUND)) continue;
            plane(dirs_[c], budgets_[c], gpu::selfCornerSide(candidates_[c].kind, slot & 3u));
        }
        for (std::uint32_t k = restPairs_.lists[o]; k < restPairs_.lists[o + 1]; ++k) {
            const std::uint32_t r = restPairs_.lists[vertices + 1 + k];
            const gpu::SelfCandidate& pair = restPairs_.pairs[r];
            std::uint32_t corner = 0;
            while (corner < 3 && pair.vertices[corner] != o) ++corner;
            plane(restDirs_[r], restBudgets_[r], gpu::selfCornerSide(pair.kind, corner));
        }
        if (t < 1.0f) {
            pos[v] = glm::vec4(ref + dev * t, pos[v].w);
            ++clamped;
        }
    }
    work_[member].clamped += clamped;
    pool.barrier();
}

}  // namespace cloth
