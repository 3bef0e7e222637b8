// One cloth of a scene -> its part of a PreparedCloth (before colouring).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/scene.h"
#include "prep/prepared.h"

namespace cloth {

// Appends the cloth's vertices, surface, segment, colour-batched constraints of
// every type (distance: mesh edge order; bending: interior edge order), attachments, motions and tethers to `out`, with vertex indices
// offset by the vertices already there. Constraints are left uncoloured.
void appendCloth(const ClothDesc& desc, std::uint32_t clothIndex, const SimSettings& sim,
                 PreparedCloth& out);

// Items per constraint type that appendCloth makes for a grid cloth of rx x ry quads (for size
// checks before the mesh is built).
std::array<std::uint64_t, gpu::kConstraintTypeCount> gridItemCounts(const ClothDesc& desc,
                                                                    std::uint64_t rx,
                                                                    std::uint64_t ry);

// Lumped masses: a third of each triangle's mass (density x area) to each of its vertices.
std::vector<float> lumpMasses(const std::vector<glm::vec3>& positions,
                              const std::vector<glm::uvec3>& triangles, float density);

// For each vertex in `dynamic`, the nearest vertex in `anchors` (indices into `positions`;
// nearest by squaredDistance, lowest index on ties). `anchors` must not be empty.
std::vector<std::uint32_t> nearestAnchors(const std::vector<glm::vec3>& positions,
                                          const std::vector<std::uint32_t>& anchors,
                                          const std::vector<std::uint32_t>& dynamic);

}  // namespace cloth
