// Load-time data of self-collision that both backends read (cpu/self_collision.h,
// vk/self_collision_gpu.h): per triangle its cloth's thickness, and the rest mesh's neighbours,
// which never become contacts.
#pragma once

#include <cstdint>
#include <vector>

#include "prep/prepared.h"

namespace cloth {

// The rest mesh's neighbours, which never become contacts (found once at load, shared with the
// GPU): per original vertex the triangles, per edge (3 t + e, t its owning triangle) the edges,
// of its own cloth within reach at rest; per triangle the triangles none of whose owned
// primitive pairs with it can collide. Each a CSR list, sorted.
struct RestNeighbours {
    std::vector<std::uint32_t> vtOffsets, vt, eeOffsets, ee, inertOffsets, inert;
};
RestNeighbours findRestNeighbours(const PreparedCloth& p);

// Per triangle, its cloth's thickness.
std::vector<float> triangleThicknesses(const PreparedCloth& p);

}  // namespace cloth
