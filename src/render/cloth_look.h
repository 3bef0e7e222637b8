// How each cloth looks: its colours (a material's "color", else a fixed palette in cloth order)
// and, for a cloth whose mesh has no texture coordinates, coordinates for the woven check taken
// from its starting shape.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "kernels/render_types.h"

namespace cloth::render {

// The palette's size; cloth i takes entry i modulo this.
inline constexpr std::size_t kPaletteSize = 8;

// Entry `index` of the palette (linear RGB front and back): a deep red front with a teal back
// first (a single cloth looks as it always did), then blue, yellow, green, purple, orange, cyan
// and pink fronts, each with a back of a contrasting hue.
gpu::ClothLook paletteLook(std::size_t index);

// The look of cloth `index`: with a material colour, that colour on the front and the same hue
// at 35% on the back (the inside of the same cloth); without one, the palette's entry.
gpu::ClothLook clothLook(std::size_t index, const std::optional<glm::vec3>& color);

// Texture coordinates for the woven check on a cloth without them: its vertices projected onto
// the plane of its area-weighted normal (onto the plane across its thinnest side when the mesh
// curves round too much for one, as a tube does), in units of its largest extent, so a square
// sheet gets the check of a square grid.
std::vector<glm::vec2> projectedUvs(std::span<const glm::vec4> positions,
                                    std::span<const glm::uvec3> triangles,
                                    std::uint32_t vertexBegin);

}  // namespace cloth::render
