#include "prep/pd_jacobi.h"

#include <algorithm>

namespace cloth {

std::vector<float> implicitDamping(const PreparedCloth& p) {
    const std::uint32_t n = p.originalVertexCount;
    std::vector<float> damping(n, 0.0f);
    for (const gpu::ClothSegment& s : p.segments)
        for (std::uint32_t i = s.vertexBegin; i < std::min(s.vertexEnd, n); ++i)
            damping[i] = s.linearDamping;
    return damping;
}

namespace {

// Per vertex, the corners of `terms` terms of `corners` vertices each (CSR in term order):
// corner c of term t as corners t + c; vertexOf(t, c) is its vertex.
template <class VertexOf>
void incidence(std::uint32_t n, std::uint32_t terms, std::uint32_t corners, VertexOf vertexOf,
               std::vector<std::uint32_t>& offsets, std::vector<std::uint32_t>& out) {
    offsets.assign(n + 1, 0);
    for (std::uint32_t t = 0; t < terms; ++t)
        for (std::uint32_t c = 0; c < corners; ++c) ++offsets[vertexOf(t, c) + 1];
    for (std::uint32_t v = 0; v < n; ++v) offsets[v + 1] += offsets[v];
    out.assign(offsets[n], 0);
    std::vector<std::uint32_t> next(offsets.begin(), offsets.end() - 1);
    for (std::uint32_t t = 0; t < terms; ++t)
        for (std::uint32_t c = 0; c < corners; ++c) out[next[vertexOf(t, c)]++] = corners * t + c;
}

}  // namespace

PdJacobiLayout buildPdJacobiLayout(const PreparedCloth& p, float h) {
    const std::uint32_t n = p.originalVertexCount;
    PdJacobiLayout l;
    const auto& tris = p.pdTerms.triangles;
    const auto& bends = p.pdTerms.bends;
    incidence(
        n, std::uint32_t(tris.size()), 3,
        [&](std::uint32_t t, std::uint32_t c) {
            return c == 0 ? tris[t].v0 : c == 1 ? tris[t].v1 : tris[t].v2;
        },
        l.triOffsets, l.triCorners);
    incidence(
        n, std::uint32_t(bends.size()), 4,
        [&](std::uint32_t b, std::uint32_t c) {
            return c == 0 ? bends[b].v0 : c == 1 ? bends[b].v1 : c == 2 ? bends[b].v2 : bends[b].v3;
        },
        l.bendOffsets, l.bendCorners);
    const double invH2 = 1.0 / (double(h) * double(h));
    l.vertices.assign(n, gpu::PdJacobiVertex{0.0f, 1.0f, 0u, 0.0f});
    std::vector<double> attachment(n, 0.0);  // per vertex: -1 carried, else 1 / compliance or 0
    for (const gpu::Attachment& a : p.attachments)
        if (a.vertex < n) attachment[a.vertex] = a.param > 0.0f ? 1.0 / double(a.param) : -1.0;
    for (std::uint32_t v = 0; v < n; ++v) {
        if (!(p.positions[v].w > 0.0f)) continue;
        if (attachment[v] < 0.0) {
            l.vertices[v].carried = 1u;
            continue;
        }
        const double inertia = invH2 / double(p.positions[v].w);
        double diagonal = inertia;
        for (std::uint32_t k = l.triOffsets[v]; k < l.triOffsets[v + 1]; ++k) {
            const gpu::PdTriangle& t = p.pdTerms.triangles[l.triCorners[k] / 3];
            const std::uint32_t c = l.triCorners[k] % 3;
            const double bu = gpu::pdWeightsU(t.invRest)[c], bv = gpu::pdWeightsV(t.invRest)[c];
            diagonal += double(t.area) *
                        (double(t.stiffness.x) * bu * bu + double(t.stiffness.y) * bv * bv);
        }
        for (std::uint32_t k = l.bendOffsets[v]; k < l.bendOffsets[v + 1]; ++k) {
            const gpu::PdBend& b = p.pdTerms.bends[l.bendCorners[k] / 4];
            const double a = b.k[l.bendCorners[k] % 4];
            diagonal += double(b.weight) * a * a;
        }
        diagonal += attachment[v];
        l.vertices[v] = {float(inertia), float(diagonal), 0u, float(attachment[v])};
    }
    return l;
}

}  // namespace cloth
