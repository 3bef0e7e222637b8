// What the GPU solver's frame recording needs from the prepared data (internal to GpuSolver):
// the counts of each kind of item, each constraint type's colour offsets, and which colours are
// solved together as one run.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "kernels/constraint_types.h"
#include "prep/prepared.h"

namespace cloth::vk::detail {

struct FramePlan {
    // `runItems`: colours of at most this many items are solved in runs (0: none).
    FramePlan(const PreparedCloth& p, std::uint32_t runItems);

    std::uint32_t vertexCount = 0, originalVertexCount = 0, triangleCount = 0;
    std::uint32_t colorCount = 0;
    std::array<std::vector<std::uint32_t>, gpu::kConstraintTypeCount> offsets;  // per type
    // SPEC_VARIANT of the colour kernels that take several types: the types the cloth has, so
    // that the code of the others is compiled out (colors.glsl).
    std::uint32_t presentTypes = 0;
    // What each iteration records, in colour order: [begin, end) of a colour run (end - begin
    // >= 2, one dispatch) or of a single colour (end = begin + 1, its own dispatches).
    std::vector<glm::uvec2> colorGroups;
    std::uint32_t attachmentCount = 0, tetherCount = 0, phantomGroupCount = 0, segmentCount = 0;
    std::vector<gpu::PhantomGroup> phantomGroups;  // to find the group of a grabbed vertex
    std::vector<std::uint32_t> phantomMembers;
    bool rigidDamping = false;
    bool wind = false;  // sim.wind: the wind pass before each prediction (which it unfuses)

    // Items of every type in colour c.
    std::uint32_t colorItems(std::uint32_t c) const;
    // The bytes of a constraint type's stored multipliers (lambdaSize per item).
    std::size_t multiplierBytes(std::size_t type, std::size_t lambdaSize) const;
};

}  // namespace cloth::vk::detail
