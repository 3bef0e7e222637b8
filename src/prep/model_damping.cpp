#include "prep/model_damping.h"

#include <algorithm>
#include <bit>

#include "kernels/types.h"

namespace cloth {

ModelRigidTable modelRigidTable(const PreparedCloth& p) {
    ModelRigidTable t;
    std::vector<glm::uvec4> segments;
    for (const gpu::ClothSegment& seg : p.segments) {
        if (!(seg.rigidDamping > 0.0f)) continue;
        const auto d = std::uint32_t(segments.size());
        const std::uint32_t first = t.runCount;
        const std::uint32_t end = std::min(seg.vertexEnd, p.originalVertexCount);
        for (std::uint32_t b = seg.vertexBegin; b < end; b += gpu::RIGID_SUM_CHUNK) {
            t.entries.push_back({b, std::min(gpu::RIGID_SUM_CHUNK, end - b), d, 0u});
            ++t.runCount;
        }
        segments.push_back({first, t.runCount - first, seg.vertexBegin,
                            std::bit_cast<std::uint32_t>(seg.rigidDamping)});
    }
    t.segmentCount = std::uint32_t(segments.size());
    t.entries.insert(t.entries.end(), segments.begin(), segments.end());
    return t;
}

}  // namespace cloth
