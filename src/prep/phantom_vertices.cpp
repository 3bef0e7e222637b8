#include "prep/phantom_vertices.h"

#include <algorithm>

#include "core/error.h"

namespace cloth {

namespace {

// Final ids: originals keep theirs; copies follow, ordered by (cloth, original, creation).
std::vector<std::uint32_t> renumberCopies(const PreparedCloth& p, const PhantomSplit& split,
                                          std::vector<std::uint32_t>& copiesInOrder) {
    const std::uint32_t n = p.originalVertexCount;
    const auto total = static_cast<std::uint32_t>(split.original.size());
    copiesInOrder.resize(total - n);
    for (std::uint32_t x = n; x < total; ++x) copiesInOrder[x - n] = x;
    // Segments hold consecutive originals, so ordering by original orders by cloth too.
    std::stable_sort(
        copiesInOrder.begin(), copiesInOrder.end(),
        [&](std::uint32_t a, std::uint32_t b) { return split.original[a] < split.original[b]; });
    std::vector<std::uint32_t> newId(total);
    for (std::uint32_t v = 0; v < n; ++v) newId[v] = v;
    for (std::uint32_t i = 0; i < copiesInOrder.size(); ++i) newId[copiesInOrder[i]] = n + i;
    return newId;
}

void setSegmentRanges(PreparedCloth& p, const PhantomSplit& split,
                      const std::vector<std::uint32_t>& copiesInOrder) {
    std::size_t i = 0;
    const std::uint32_t n = p.originalVertexCount;
    for (gpu::ClothSegment& seg : p.segments) {
        seg.phantomBegin = n + static_cast<std::uint32_t>(i);
        while (i < copiesInOrder.size() && split.original[copiesInOrder[i]] < seg.vertexEnd) ++i;
        seg.phantomEnd = n + static_cast<std::uint32_t>(i);
    }
    CLOTH_ASSERT(i == copiesInOrder.size());
}

// Adds the copies' positions and velocities, shares masses, and builds the averaging groups.
void addVerticesAndGroups(PreparedCloth& p, const PhantomSplit& split,
                          const std::vector<std::uint32_t>& copiesInOrder) {
    const std::uint32_t n = p.originalVertexCount;
    for (std::uint32_t i = 0; i < copiesInOrder.size();) {
        const std::uint32_t o = split.original[copiesInOrder[i]];
        std::uint32_t j = i;
        while (j < copiesInOrder.size() && split.original[copiesInOrder[j]] == o) ++j;
        const std::uint32_t copies = 1 + (j - i);
        // Each of the `copies` members gets mass m / copies: inverse mass w * copies.
        const float w = p.positions[o].w * float(copies);
        p.positions[o].w = w;
        p.phantomGroups.push_back({static_cast<std::uint32_t>(p.phantomMembers.size()), copies});
        p.phantomMembers.push_back(o);
        for (std::uint32_t k = i; k < j; ++k) {
            p.positions.emplace_back(glm::vec3(p.positions[o]), w);
            p.velocities.push_back(p.velocities[o]);
            p.phantomMembers.push_back(n + k);
        }
        i = j;
    }
}

// Repeats each attachment and tether of an original on each of its copies.
void repeatPerVertexConstraints(PreparedCloth& p) {
    std::vector<std::uint32_t> groupOf(p.originalVertexCount, UINT32_MAX);
    for (std::uint32_t g = 0; g < p.phantomGroups.size(); ++g)
        groupOf[p.phantomMembers[p.phantomGroups[g].first]] = g;
    auto copiesOf = [&](std::uint32_t v) {
        std::vector<std::uint32_t> out;
        if (groupOf[v] == UINT32_MAX) return out;
        const gpu::PhantomGroup g = p.phantomGroups[groupOf[v]];
        out.assign(p.phantomMembers.begin() + g.first + 1,
                   p.phantomMembers.begin() + g.first + g.count);
        return out;
    };
    const std::size_t attachments = p.attachments.size(), tethers = p.tethers.size();
    for (std::size_t i = 0; i < attachments; ++i)
        for (std::uint32_t c : copiesOf(p.attachments[i].vertex)) {
            gpu::Attachment a = p.attachments[i];
            a.vertex = c;
            p.attachments.push_back(a);
        }
    for (std::size_t i = 0; i < tethers; ++i)
        for (std::uint32_t c : copiesOf(p.tethers[i].vertex)) {
            gpu::Tether t = p.tethers[i];
            t.vertex = c;
            p.tethers.push_back(t);
        }
}

}  // namespace

ConstraintVertices addPhantomVertices(PreparedCloth& p, const PhantomSplit& split) {
    CLOTH_ASSERT(p.vertexCount() == p.originalVertexCount);
    std::vector<std::uint32_t> copiesInOrder;
    const std::vector<std::uint32_t> newId = renumberCopies(p, split, copiesInOrder);
    setSegmentRanges(p, split, copiesInOrder);
    addVerticesAndGroups(p, split, copiesInOrder);
    repeatPerVertexConstraints(p);
    p.stats.phantomVertices = static_cast<std::uint32_t>(copiesInOrder.size());
    ConstraintVertices cv = split.constraints;
    for (std::uint32_t& v : cv.vertices) v = newId[v];
    // Write the copies into the items (type by type in table order, as in the split).
    std::uint32_t node = 0;
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        for (auto& item : p.items<typename T::Item>()) {
            const auto vs = cv.of(node++);
            for (int k = 0; k < T::kVertices; ++k) gpu::setItemVertex(item, k, vs[k]);
        }
    });
    return cv;
}

}  // namespace cloth
