#include "prep/coloring.h"

#include <algorithm>

#include "core/error.h"

namespace cloth {

DegeneracyOrder degeneracyOrder(const Graph& g) {
    const std::uint32_t n = g.nodeCount();
    DegeneracyOrder out;
    out.removal.resize(n);
    std::vector<std::uint32_t> degree(n);
    std::uint32_t maxDegree = 0;
    for (std::uint32_t v = 0; v < n; ++v) {
        degree[v] = g.degree(v);
        maxDegree = std::max(maxDegree, degree[v]);
    }
    // `order` holds the nodes; those at positions > i (not yet removed) are sorted by their
    // remaining degree, and the bucket of degree d is [max(bucketStart[d], i + 1),
    // max(bucketStart[d + 1], i + 1)). position[v] is v's place in `order`.
    std::vector<std::uint32_t> bucketStart(std::size_t(maxDegree) + 2, 0);
    for (std::uint32_t v = 0; v < n; ++v) ++bucketStart[degree[v] + 1];
    for (std::uint32_t d = 0; d <= maxDegree; ++d) bucketStart[d + 1] += bucketStart[d];
    std::vector<std::uint32_t> order(n), position(n);
    {
        std::vector<std::uint32_t> fill(bucketStart.begin(), bucketStart.end() - 1);
        for (std::uint32_t v = 0; v < n; ++v) {
            position[v] = fill[degree[v]]++;
            order[position[v]] = v;
        }
    }
    // Remove the front node (minimum remaining degree); each remaining neighbour u moves to the
    // front of its bucket, the bucket boundary steps past it and u's degree drops by one, which
    // keeps the remaining part sorted.
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t v = order[i];
        out.removal[i] = v;
        out.degeneracy = std::max(out.degeneracy, degree[v]);
        for (std::uint32_t u : g.neighbours(v)) {
            if (position[u] <= i) continue;  // removed already
            const std::uint32_t du = degree[u];
            const std::uint32_t front = std::max(bucketStart[du], i + 1);
            const std::uint32_t w = order[front];
            if (w != u) {
                order[position[u]] = w;
                position[w] = position[u];
                order[front] = u;
                position[u] = front;
            }
            bucketStart[du] = front + 1;
            --degree[u];
        }
    }
    return out;
}

Coloring colorSmallestLast(const Graph& g) {
    return colorSmallestLast(g, degeneracyOrder(g));
}

Coloring colorSmallestLast(const Graph& g, const DegeneracyOrder& order) {
    const std::uint32_t n = g.nodeCount();
    CLOTH_ASSERT(order.removal.size() == n);
    Coloring out;
    out.degeneracy = order.degeneracy;
    constexpr std::uint32_t kNone = UINT32_MAX;
    out.color.assign(n, kNone);
    // forbidden[c] == v + 1: colour c is taken by a neighbour of v.
    std::vector<std::uint32_t> forbidden(std::size_t(order.degeneracy) + 2, 0);
    for (std::uint32_t i = n; i-- > 0;) {
        const std::uint32_t v = order.removal[i];
        for (std::uint32_t u : g.neighbours(v)) {
            const std::uint32_t c = out.color[u];
            if (c != kNone && c < forbidden.size()) forbidden[c] = v + 1;
        }
        std::uint32_t c = 0;
        while (forbidden[c] == v + 1) ++c;
        CLOTH_ASSERT(c <= order.degeneracy);
        out.color[v] = c;
        out.colorCount = std::max(out.colorCount, c + 1);
    }
    return out;
}

}  // namespace cloth
