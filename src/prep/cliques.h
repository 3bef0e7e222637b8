// Maximal clique enumeration: Bron-Kerbosch with Tomita pivoting, run from each node in
// degeneracy order (Eppstein, Loeffler & Strash 2010), so each sub-problem is limited to the
// node's later neighbours (at most the degeneracy).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "prep/coloring.h"
#include "prep/constraint_graph.h"

namespace cloth {

struct Cliques {
    std::vector<std::uint32_t> offsets{0};  // clique k is members[offsets[k] .. offsets[k + 1])
    std::vector<std::uint32_t> members;     // node indices, ascending within a clique

    std::uint32_t count() const { return static_cast<std::uint32_t>(offsets.size() - 1); }
    std::span<const std::uint32_t> of(std::uint32_t k) const {
        return {members.data() + offsets[k], members.data() + offsets[k + 1]};
    }
};

// Every maximal clique with at least `minSize` nodes (minSize <= 1: all of them, isolated nodes
// included), each exactly once, of the graph `g` = buildConstraintGraph(cv, ...): two nodes are
// adjacent exactly when their element (vertex) lists in `cv` share an element. `order` must be
// degeneracyOrder(g). Cliques come grouped by their earliest node in `order`, those groups in
// node index order; deterministic, whatever the number of threads (0: one per core; small
// graphs use one).
Cliques maximalCliques(const Graph& g, const ConstraintVertices& cv, const DegeneracyOrder& order,
                       std::uint32_t minSize = 1, unsigned threads = 0);

// Element lists for an arbitrary graph: one element per edge, held by its two ends, so that
// buildConstraintGraph(edgeElements(g), edges) reproduces g (for cliques of any graph).
ConstraintVertices edgeElements(const Graph& g);

}  // namespace cloth
