// Load-time data of self-collision that both backends read (cpu/self_collision.h,
// vk/self_collision_gpu.h): per triangle its cloth's thickness, and the rest mesh's neighbours,
// which never become contacts.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/self_contacts.h"
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

// The rest mesh's neighbours as pairs, for the bounds (kernels/self_motion.h): they never become
// contacts, but no vertex may carry one through the other either, so each vertex's bound also
// takes the least over its rest neighbours' pairs. Each pair as a SelfCandidate (vertex-triangle:
// the vertex and the triangle's corners; edge-edge: the two edges' ends), and per original
// vertex the pairs it belongs to (CSR: offsets, one more than the vertices; then the pairs).
struct RestPairs {
    std::vector<gpu::SelfCandidate> pairs;
    std::vector<std::uint32_t> lists;  // offsets (vertices + 1), then pair indices
};
RestPairs restPairs(const PreparedCloth& p, const RestNeighbours& rest);

// Per triangle, its cloth's thickness.
std::vector<float> triangleThicknesses(const PreparedCloth& p);

// The vertex order's colours (SelfCollisionSettings::Order::Vertex, self_contacts.h's
// selfVertexMove): greedy over the original vertices in index order, each taking the lowest
// colour that none of its mesh neighbours (the vertices it shares a triangle with) has, so that
// a triangle's corners differ. Both backends pass over the vertices colour by colour.
struct SelfVertexColours {
    std::vector<std::uint32_t> colourOf;  // per original vertex
    std::vector<std::uint32_t> order;     // the original vertices by colour, ascending in one
    std::vector<std::uint32_t> offsets;   // per colour, into order; one more at the end
    std::uint32_t count() const { return static_cast<std::uint32_t>(offsets.size()) - 1; }
};
SelfVertexColours selfVertexColours(const PreparedCloth& p);

}  // namespace cloth
