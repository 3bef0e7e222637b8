// Packing coloured constraints into contiguous batches.
#pragma once

#include <cstdint>
#include <vector>

#include "prep/constraint_graph.h"

namespace cloth {

struct ColorBatches {
    // Constraint indices (into the input range) in packed order: colour by colour, and within a
    // colour by smallest vertex index (then by index), for memory locality.
    std::vector<std::uint32_t> order;
    std::vector<std::uint32_t> colorOffsets;  // colorCount + 1 entries into `order`
};

// Packs the constraints [first, first + count) of `cv`, whose colours are color[first ..].
// Deterministic: a total order on (colour, smallest vertex, index).
ColorBatches packByColor(const ConstraintVertices& cv, std::uint32_t first, std::uint32_t count,
                         const std::vector<std::uint32_t>& color, std::uint32_t colorCount);

// Reorders `items` so that out[i] = items[order[i]].
template <typename T>
std::vector<T> permuted(const std::vector<T>& items, const std::vector<std::uint32_t>& order) {
    std::vector<T> out;
    out.reserve(order.size());
    for (std::uint32_t i : order) out.push_back(items[i]);
    return out;
}

}  // namespace cloth
