#include "vk/frame_plan.h"

#include "core/error.h"

namespace cloth::vk::detail {

FramePlan::FramePlan(const PreparedCloth& p, std::uint32_t runItems) {
    vertexCount = p.vertexCount();
    originalVertexCount = p.originalVertexCount;
    triangleCount = static_cast<std::uint32_t>(p.triangles.size());
    colorCount = p.colorCount;
    gpu::forEachConstraintType([&](auto t) {
        offsets[t.kIndex] = p.set<typename decltype(t)::Item>().colorOffsets;
        CLOTH_ASSERT(offsets[t.kIndex].size() == colorCount + 1u);
        // Every item is in a colour (the Jacobi passes take them all by these offsets).
        CLOTH_ASSERT(offsets[t.kIndex].front() == 0u &&
                     offsets[t.kIndex].back() == p.items<typename decltype(t)::Item>().size());
        if (offsets[t.kIndex].back() > offsets[t.kIndex].front()) presentTypes |= 1u << t.kIndex;
    });
    attachmentCount = static_cast<std::uint32_t>(p.attachments.size());
    tetherCount = static_cast<std::uint32_t>(p.tethers.size());
    phantomGroupCount = static_cast<std::uint32_t>(p.phantomGroups.size());
    segmentCount = static_cast<std::uint32_t>(p.segments.size());
    phantomGroups = p.phantomGroups;
    phantomMembers = p.phantomMembers;
    for (const auto& s : p.segments) rigidDamping = rigidDamping || s.rigidDamping > 0.0f;
    wind = p.sim.wind.has_value();
    CLOTH_ASSERT(!wind || p.windVertices.size() == p.positions.size());

    // Phantom averaging after every colour needs a dispatch between colours: no runs then.
    const bool runs = runItems > 0 && !(p.sim.averagePhantomsEachColor && phantomGroupCount);
    for (std::uint32_t c = 0; c < colorCount;) {
        std::uint32_t end = c;
        while (runs && end < colorCount && colorItems(end) <= runItems) ++end;
        if (end - c < 2) end = c + 1;
        colorGroups.push_back({c, end});
        c = end;
    }
}

std::uint32_t FramePlan::colorItems(std::uint32_t c) const {
    std::uint32_t n = 0;
    for (const auto& o : offsets) n += o[c + 1] - o[c];
    return n;
}

std::size_t FramePlan::multiplierBytes(std::size_t type, std::size_t lambdaSize) const {
    const auto& perColour = offsets[type];  // per colour: the items are all of them
    return lambdaSize * (perColour.empty() ? 0 : perColour.back());
}

}  // namespace cloth::vk::detail
