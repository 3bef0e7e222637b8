// Load-time data of a triangle-mesh collider: the triangle records with their pseudo-normals
// and the bounding volume hierarchy that src/kernels/mesh_distance.h walks.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/mesh_distance.h"
#include "core/mesh.h"

namespace cloth {

// Triangles per leaf at most (a leaf of more is split).
inline constexpr std::uint32_t kMeshLeafTriangles = 4;

// An item's bounds, for building a hierarchy over it.
struct MeshItemBox {
    glm::vec3 lo{std::numeric_limits<float>::max()};
    glm::vec3 hi{-std::numeric_limits<float>::max()};
    void add(glm::vec3 p) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    void add(const MeshItemBox& b) {
        lo = glm::min(lo, b.lo);
        hi = glm::max(hi, b.hi);
    }
};

// Appends a hierarchy over items with bounds `boxes` to `nodes` (top-down median split, see
// below) and returns its root. Leaves list runs of at most kMeshLeafTriangles items: leaf
// (first, n) holds the items order[first - firstItem ..][0, n), so the caller stores item
// order[i] at firstItem + i. The result depends only on the boxes.
std::uint32_t appendMedianTree(const std::vector<MeshItemBox>& boxes, std::uint32_t firstItem,
                               std::vector<gpu::MeshNode>& nodes,
                               std::vector<std::uint32_t>& order);

// Appends `mesh` (closed, consistently oriented with outward counter-clockwise triangles, no
// degenerate triangle: src/core/collider_mesh.h checks that with messages) to the shared
// arrays of every mesh collider and returns its root node. Child indices and triangle ranges
// are absolute indices into `nodes` and `triangles`. Triangles are stored in leaf order, with
// unit face normals and angle-weighted pseudo-normals (computed in double, rounded once).
//
// The hierarchy is split top-down at the median triangle (by box centre along the longest axis
// of the centres' bounds; ties by index), not by the surface area heuristic: a median split is
// balanced, so no leaf is deeper than ceil(log2(n / 4)) and the query's fixed stack
// (gpu::MESH_STACK_SIZE) always fits, and collider meshes are evenly tessellated, where the
// heuristic buys little. The result depends only on the mesh (leaves list their triangles by
// index), so every run and machine builds the same arrays.
//
// Cheap invariants are asserted (CLOTH_ASSERT): indices in range, no zero-area triangle, every
// edge used once in each direction, the depth bound.
std::uint32_t appendMeshCollider(const Mesh& mesh, std::vector<gpu::MeshNode>& nodes,
                                 std::vector<gpu::MeshTriangle>& triangles);

}  // namespace cloth
