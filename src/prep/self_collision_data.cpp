#include "prep/self_collision_data.h"

#include <algorithm>
#include <utility>

#include <glm/glm.hpp>

#include "core/error.h"
#include "kernels/self_contacts.h"
#include "prep/lbvh.h"

namespace cloth {

std::vector<float> triangleThicknesses(const PreparedCloth& p) {
    CLOTH_ASSERT(p.triangleFeatureInfo.size() == p.triangles.size());
    std::vector<float> h(p.triangles.size());
    for (std::size_t i = 0; i < h.size(); ++i)
        h[i] = p.segments[p.triangleFeatureInfo[i] >> gpu::TRIANGLE_SEGMENT_SHIFT].thickness;
    return h;
}

RestPairs restPairs(const PreparedCloth& p, const RestNeighbours& rest) {
    const std::vector<float> h = triangleThicknesses(p);
    const std::uint32_t n = p.originalVertexCount;
    RestPairs r;
    for (std::uint32_t v = 0; v < n; ++v)
        for (std::uint32_t k = rest.vtOffsets[v]; k < rest.vtOffsets[v + 1]; ++k) {
            const std::uint32_t t = rest.vt[k];
            const glm::uvec3 c = p.triangles[t];
            gpu::SelfCandidate pair{};
            pair.vertices = glm::uvec4(v, c.x, c.y, c.z);
            pair.kind = gpu::SELF_VERTEX_TRIANGLE;
            pair.keyY = v;
            pair.keyZ = t;
            pair.keep = 2.0f * h[t];
            r.pairs.push_back(pair);
        }
    for (std::uint32_t e = 0; e + 1 < rest.eeOffsets.size(); ++e)
        for (std::uint32_t k = rest.eeOffsets[e]; k < rest.eeOffsets[e + 1]; ++k) {
            const std::uint32_t f = rest.ee[k];
            if (f < e) continue;  // (each pair once)
            const glm::uvec3 a = p.triangles[e / 3], b = p.triangles[f / 3];
            gpu::SelfCandidate pair{};
            pair.vertices = glm::uvec4(a[e % 3], a[(e % 3 + 1) % 3], b[f % 3], b[(f % 3 + 1) % 3]);
            pair.kind = gpu::SELF_EDGE_EDGE;
            pair.keyY = e;
            pair.keyZ = f;
            pair.keep = 2.0f * h[e / 3];
            r.pairs.push_back(pair);
        }
    std::vector<std::uint32_t> counts(n + 1, 0);
    for (const gpu::SelfCandidate& c : r.pairs)
        for (int k = 0; k < 4; ++k) ++counts[c.vertices[k] + 1];
    for (std::uint32_t v = 0; v < n; ++v) counts[v + 1] += counts[v];
    r.lists = counts;
    r.lists.resize(n + 1 + counts[n]);
    std::vector<std::uint32_t> next(counts.begin(), counts.end() - 1);
    for (std::uint32_t i = 0; i < r.pairs.size(); ++i)
        for (int k = 0; k < 4; ++k) r.lists[n + 1 + next[r.pairs[i].vertices[k]]++] = i;
    if (r.pairs.empty()) r.pairs.push_back(gpu::SelfCandidate{});  // a buffer needs a byte
    return r;
}

SelfVertexColours selfVertexColours(const PreparedCloth& p) {
    const std::uint32_t n = p.originalVertexCount;
    std::vector<std::vector<std::uint32_t>> neighbours(n);
    for (const glm::uvec3& t : p.triangles)
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                if (i != j) neighbours[t[i]].push_back(t[j]);
    SelfVertexColours c;
    c.colourOf.assign(n, 0);
    std::uint32_t colours = n > 0 ? 1 : 0;
    std::vector<char> taken;
    for (std::uint32_t v = 0; v < n; ++v) {
        taken.assign(neighbours[v].size() + 1, 0);
        for (std::uint32_t u : neighbours[v])
            if (u < v && c.colourOf[u] < taken.size()) taken[c.colourOf[u]] = 1;
        std::uint32_t k = 0;
        while (taken[k]) ++k;
        c.colourOf[v] = k;
        colours = std::max(colours, k + 1);
    }
    c.offsets.assign(std::size_t(colours) + 1, 0);
    for (std::uint32_t v = 0; v < n; ++v) ++c.offsets[c.colourOf[v] + 1];
    for (std::uint32_t k = 0; k < colours; ++k) c.offsets[k + 1] += c.offsets[k];
    c.order.resize(n);
    std::vector<std::uint32_t> next(c.offsets.begin(), c.offsets.end() - 1);
    for (std::uint32_t v = 0; v < n; ++v) c.order[next[c.colourOf[v]]++] = v;
    return c;
}

namespace {

// Does the contact join primitives that the rest mesh has within its reach (neighbours)?
bool restClose(const std::vector<glm::vec3>& rest, const gpu::SelfContact& c, float reach) {
    const glm::vec3 x0 = rest[c.vertices.x], x1 = rest[c.vertices.y];
    const glm::vec3 x2 = rest[c.vertices.z], x3 = rest[c.vertices.w];
    glm::vec3 r;
    if (c.info.x == gpu::SELF_EDGE_EDGE) {
        float s, t;
        gpu::segmentClosest(x0, x1, x2, x3, s, t);
        r = (x0 * (1.0f - s) + x1 * s) - (x2 * (1.0f - t) + x3 * t);
    } else {
        const glm::vec3 b = gpu::selfClosestBarycentric(x0, x1, x2, x3);
        r = x0 - (x1 * b.x + x2 * b.y + x3 * b.z);
    }
    return gpu::meshDot(r, r) < reach * reach;
}

}  // namespace

// Per owned vertex the triangles, per owned edge the edges, of its own cloth that the rest mesh
// has within reach (sharing no vertex): found through a hierarchy over the rest triangles'
// boxes grown by half the reach, each pair (A, B) of overlapping triangles tested both ways.
RestNeighbours findRestNeighbours(const PreparedCloth& p) {
    CLOTH_ASSERT(p.sim.selfCollision.has_value());
    CLOTH_ASSERT(p.restPositions.size() >= p.originalVertexCount);
    const float margin = p.sim.selfCollision->margin;
    const auto triCount = static_cast<std::uint32_t>(p.triangles.size());
    const std::vector<float> h = triangleThicknesses(p);
    std::vector<glm::vec3> restX(p.originalVertexCount);
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v)
        restX[v] = glm::vec3(p.restPositions[v]);
    std::vector<Aabb> rest(triCount);
    for (std::uint32_t i = 0; i < triCount; ++i) {
        const glm::uvec3 t = p.triangles[i];
        const float grow = h[i] + 0.5f * margin;
        rest[i] = {glm::min(restX[t.x], glm::min(restX[t.y], restX[t.z])) - grow,
                   glm::max(restX[t.x], glm::max(restX[t.y], restX[t.z])) + grow};
    }
    auto owned = [&](std::uint32_t t) { return p.triangleFeatureInfo[t] & 0x3Fu; };
    auto segment = [&](std::uint32_t t) {
        return p.triangleFeatureInfo[t] >> gpu::TRIANGLE_SEGMENT_SHIFT;
    };
    std::vector<std::pair<std::uint32_t, std::uint32_t>> vt, ee;  // (vertex, triangle), edges
    std::vector<std::pair<std::uint32_t, std::uint32_t>> inert;   // triangle pairs, both ways
    std::uint32_t live = 0;  // primitive pairs of the current triangle pair that may collide
    auto test = [&](std::uint32_t a, std::uint32_t b) {
        const glm::uvec3 ta = p.triangles[a], tb = p.triangles[b];
        const float reach = h[a] + h[b] + margin;
        gpu::SelfContact c{};
        for (std::uint32_t k = 0; k < 3; ++k) {
            if ((owned(a) & (1u << (gpu::TRIANGLE_OWNS_VERTEX_SHIFT + k))) == 0) continue;
            const std::uint32_t v = ta[k];
            if (v == tb.x || v == tb.y || v == tb.z) continue;
            c.vertices = glm::uvec4(v, tb.x, tb.y, tb.z);
            c.info.x = gpu::SELF_VERTEX_TRIANGLE;
            if (restClose(restX, c, reach))
                vt.push_back({v, b});
            else
                ++live;
        }
        for (std::uint32_t ea = 0; ea < 3; ++ea) {
            if ((owned(a) & (1u << ea)) == 0) continue;
            for (std::uint32_t eb = 0; eb < 3; ++eb) {
                if ((owned(b) & (1u << eb)) == 0) continue;
                const std::uint32_t p0 = ta[ea], p1 = ta[(ea + 1) % 3];
                const std::uint32_t q0 = tb[eb], q1 = tb[(eb + 1) % 3];
                if (p0 == q0 || p0 == q1 || p1 == q0 || p1 == q1) continue;
                c.vertices = glm::uvec4(p0, p1, q0, q1);
                c.info.x = gpu::SELF_EDGE_EDGE;
                if (restClose(restX, c, reach))
                    ee.push_back({3 * a + ea, 3 * b + eb});
                else
                    ++live;
            }
        }
    };
    const Lbvh tree = buildLbvh(rest);
    for (glm::uvec2 pair : lbvhOverlapPairs(tree, rest)) {
        if (segment(pair.x) != segment(pair.y)) continue;
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
        if (items.empty()) items.push_back(0);  // never read: a buffer needs a byte
    };
    RestNeighbours r;
    csr(vt, p.originalVertexCount, r.vtOffsets, r.vt);
    csr(ee, 3 * std::size_t(triCount), r.eeOffsets, r.ee);
    csr(inert, triCount, r.inertOffsets, r.inert);
    return r;
}

}  // namespace cloth
