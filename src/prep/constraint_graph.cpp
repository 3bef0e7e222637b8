#include "prep/constraint_graph.h"

#include <algorithm>

#include "core/error.h"

namespace cloth {

Incidence buildIncidence(const ConstraintVertices& cv, std::uint32_t vertexCount) {
    Incidence inc;
    inc.offsets.assign(std::size_t(vertexCount) + 1, 0);
    for (std::uint32_t v : cv.vertices) {
        CLOTH_ASSERT(v < vertexCount);
        ++inc.offsets[v + 1];
    }
    for (std::uint32_t v = 0; v < vertexCount; ++v) inc.offsets[v + 1] += inc.offsets[v];
    inc.constraints.resize(cv.vertices.size());
    std::vector<std::uint32_t> fill(inc.offsets.begin(), inc.offsets.end() - 1);
    // Constraints in ascending order, so each vertex's list comes out sorted.
    for (std::uint32_t c = 0; c < cv.count(); ++c) {
        for (std::uint32_t v : cv.of(c)) inc.constraints[fill[v]++] = c;
    }
    return inc;
}

Graph buildConstraintGraph(const ConstraintVertices& cv, std::uint32_t vertexCount) {
    const Incidence inc = buildIncidence(cv, vertexCount);
    const std::uint32_t n = cv.count();
    // Upper bound on the adjacency size: every incidence of every vertex of every constraint.
    std::uint64_t bound = 0;
    for (std::uint32_t v : cv.vertices) bound += inc.offsets[v + 1] - inc.offsets[v];
    if (bound > UINT32_MAX) throw Error("constraint graph too large for 32-bit indices");
    Graph g;
    g.offsets.resize(std::size_t(n) + 1);
    g.offsets[0] = 0;
    g.adjacency.resize(bound);
    std::uint32_t* out = g.adjacency.data();
    std::uint32_t size = 0;
    // seen[d] == c + 1 marks d as already listed for c (a stamp, so no clearing is needed).
    std::vector<std::uint32_t> seen(n, 0);
    for (std::uint32_t c = 0; c < n; ++c) {
        seen[c] = c + 1;
        for (std::uint32_t v : cv.of(c)) {
            for (std::uint32_t i = inc.offsets[v]; i < inc.offsets[v + 1]; ++i) {
                const std::uint32_t d = inc.constraints[i];
                if (seen[d] == c + 1) continue;
                seen[d] = c + 1;
                out[size++] = d;
            }
        }
        g.offsets[c + 1] = size;
    }
    g.adjacency.resize(size);  // keeps the capacity: the graph is short-lived
    return g;
}

Graph graphFromEdges(std::uint32_t nodeCount,
                     const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges) {
    std::vector<std::vector<std::uint32_t>> lists(nodeCount);
    for (auto [a, b] : edges) {
        CLOTH_ASSERT(a < nodeCount && b < nodeCount);
        if (a == b) continue;
        lists[a].push_back(b);
        lists[b].push_back(a);
    }
    Graph g;
    for (auto& l : lists) {
        std::sort(l.begin(), l.end());
        l.erase(std::unique(l.begin(), l.end()), l.end());
        g.adjacency.insert(g.adjacency.end(), l.begin(), l.end());
        g.offsets.push_back(static_cast<std::uint32_t>(g.adjacency.size()));
    }
    return g;
}

}  // namespace cloth
