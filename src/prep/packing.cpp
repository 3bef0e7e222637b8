#include "prep/packing.h"

#include <algorithm>

#include "core/error.h"

namespace cloth {

ColorBatches packByColor(const ConstraintVertices& cv, std::uint32_t first, std::uint32_t count,
                         const std::vector<std::uint32_t>& color, std::uint32_t colorCount) {
    struct Key {
        std::uint64_t colorAndVertex;
        std::uint32_t index;
    };
    std::vector<Key> keys(count);
    ColorBatches out;
    out.colorOffsets.assign(std::size_t(colorCount) + 1, 0);
    for (std::uint32_t i = 0; i < count; ++i) {
        const auto vs = cv.of(first + i);
        CLOTH_ASSERT(!vs.empty());
        const std::uint32_t c = color[first + i];
        CLOTH_ASSERT(c < colorCount);
        const std::uint32_t minVertex = *std::min_element(vs.begin(), vs.end());
        keys[i] = {(std::uint64_t(c) << 32) | minVertex, i};
        ++out.colorOffsets[c + 1];
    }
    std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
        return a.colorAndVertex != b.colorAndVertex ? a.colorAndVertex < b.colorAndVertex
                                                    : a.index < b.index;
    });
    for (std::uint32_t c = 0; c < colorCount; ++c) out.colorOffsets[c + 1] += out.colorOffsets[c];
    out.order.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) out.order[i] = keys[i].index;
    return out;
}

}  // namespace cloth
