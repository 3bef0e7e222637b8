// Sharp features of mesh colliders: the convex edges whose faces meet at a sharp angle, and their
// corners. A cloth draped over such an edge can be cut by it between two cloth vertices, which
// the per-vertex contacts do not see; edge-edge contacts and corner-against-cloth-triangle
// contacts (Anon. 2023 §4.5-4.7) are made only for these features. Each feature is owned by one
// triangle (representative triangles, Anon. 2023 §6.4), so a pair of close triangles yields it once.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/mesh_distance.h"

namespace cloth {

// Per triangle of `triangles` (mesh_collider.h records, any number of closed meshes one after
// another): bit e (0..2) set when it owns sharp edge e (ab, bc, ca), bit 3 + k when it owns sharp
// corner k (a, b, c). An edge is sharp when it is convex (the neighbouring face turns away from
// this one's interior) and its two faces' normals are at least `minAngleDegrees` apart; a corner
// when it ends a sharp edge. The owner is the lower-indexed of an edge's two triangles and the
// lowest-indexed triangle around a corner. Edges and corners are matched by their corners' exact
// coordinates (a shared vertex has the same bits in every record).
std::vector<std::uint32_t> sharpMeshFeatures(const std::vector<gpu::MeshTriangle>& triangles,
                                             float minAngleDegrees = 30.0f);

// The sharp features of one mesh collider, triangles [begin, end) of `triangles`, appended to
// `features` (gpu::MeshFeature: each owned edge, then each owned corner, triangle by triangle,
// then reordered into the leaves of their hierarchy) with a hierarchy over their bounds appended
// to `nodes` (appendMedianTree). Returns its root, or gpu::MESH_NO_HINT when the mesh has no
// sharp feature.
std::uint32_t appendMeshFeatures(const std::vector<gpu::MeshTriangle>& triangles,
                                 std::uint32_t begin, std::uint32_t end,
                                 std::vector<gpu::MeshNode>& nodes,
                                 std::vector<gpu::MeshFeature>& features,
                                 float minAngleDegrees = 30.0f);

inline constexpr std::uint32_t kFeatureEdges = 0x7u;    // bits 0..2
inline constexpr std::uint32_t kFeatureCorners = 0x38u;  // bits 3..5

}  // namespace cloth
