// Does a cloth fit the device? Buffer sizes against maxStorageBufferRange and the device-local
// heap, dispatch sizes against maxComputeWorkGroupCount. Checked from the scene description
// before meshes are built (estimateCounts) and again from the prepared data (countsOf).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/scene.h"
#include "prep/prepared.h"
#include "vk/context.h"

namespace cloth::vk {

struct SolverCounts {
    std::uint64_t vertices = 0;  // phantoms included
    std::uint64_t originalVertices = 0;
    std::uint64_t triangles = 0;
    std::array<std::uint64_t, gpu::kConstraintTypeCount> items{};  // per constraint type
    std::uint64_t attachments = 0;
    std::uint64_t motions = 0;
    std::uint64_t tethers = 0;
    std::uint64_t phantomGroups = 0;
    std::uint64_t phantomMembers = 0;
    std::uint64_t segments = 0;
    std::uint64_t windVertices = 0;  // scenes with wind: every vertex
    std::uint64_t colliders = 0;
    std::uint64_t contactVertices = 0;  // scenes with colliders: every vertex
    std::uint64_t meshNodes = 0, meshTriangles = 0;  // mesh colliders (0 in the estimate)
    std::uint64_t meshFeatures = 0;  // their sharp features (0 in the estimate)
    std::uint64_t featureSums = 0;   // with features: 3 per triangle + 1 per original vertex
    std::uint64_t largestColor = 0;  // items (all types) of the largest colour; 0 = unknown
    bool jacobi = false;  // Jacobi or Chebyshev iterations: their deltas, lists and previous state
};

struct BufferNeed {
    std::string name;
    std::uint64_t bytes = 0;
};

SolverCounts countsOf(const PreparedCloth& prepared);
// From the scene alone: exact for grid cloths; OBJ cloths are not loaded and count as zero.
SolverCounts estimateCounts(const Scene& scene);
// The solver's storage buffers for these counts and workgroup size.
std::vector<BufferNeed> bufferNeeds(const SolverCounts& counts, std::uint32_t workgroupSize);
// Throws cloth::Error naming `what`, the buffer or dispatch and the device limit it exceeds.
void checkFitsDevice(const Context& ctx, const SolverCounts& counts, std::uint32_t workgroupSize,
                     const std::string& what);

}  // namespace cloth::vk
