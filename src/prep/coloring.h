// Greedy graph colouring in smallest-last (degeneracy) order (Matula & Beck 1983).
#pragma once

#include <cstdint>
#include <vector>

#include "prep/constraint_graph.h"

namespace cloth {

struct DegeneracyOrder {
    // Nodes in the order they were removed, each of minimum degree among those still present.
    std::vector<std::uint32_t> removal;
    // The largest degree a node had when it was removed: the graph's degeneracy.
    std::uint32_t degeneracy = 0;
};

// Smallest-last peeling with a bucket queue in flat arrays (after Batagelj & Zaversnik 2003, but
// with exact remaining degrees, as Matula & Beck remove nodes), O(V + E). Deterministic.
DegeneracyOrder degeneracyOrder(const Graph& g);

struct Coloring {
    std::vector<std::uint32_t> color;  // per node, in [0, colorCount)
    std::uint32_t colorCount = 0;
    std::uint32_t degeneracy = 0;
};

// Colours nodes in the reverse of the removal order (smallest last), each with the smallest
// colour none of its already coloured neighbours has. Uses at most degeneracy + 1 colours.
Coloring colorSmallestLast(const Graph& g);
// The same with an order computed already (degeneracyOrder(g)).
Coloring colorSmallestLast(const Graph& g, const DegeneracyOrder& order);

}  // namespace cloth
