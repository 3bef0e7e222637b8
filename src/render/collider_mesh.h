// Triangle meshes of the rigid colliders (src/kernels/collider.h) for drawing: each shape
// tessellated once, in its collider's frame with the sizes as prepared, and placed every frame by
// the pose the physics uses (colliderPose at the simulated time).
//
// Winding is counter-clockwise seen from outside; normals are the shape's outward unit normals
// at each vertex (analytic for the sphere, capsule and rounded box; for a triangle mesh the face
// normal, averaged with its neighbours' across edges flatter than kMeshCreaseDegrees). A plane
// has no mesh: the renderer draws it as a finite square of the ground (render/stage.h).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "kernels/collider.h"
#include "render/camera.h"  // Bounds
#include "kernels/render_types.h"

namespace cloth::render {

struct ColliderMesh {
    std::vector<gpu::ColliderVertex> vertices;  // collider frame
    std::vector<std::uint32_t> indices;         // triangles, 3 per
};

// Segments around a sphere's or capsule's axis, latitude rings per hemisphere, and segments
// over each 90-degree rounded edge of a box.
inline constexpr std::uint32_t kRoundSegments = 48;
inline constexpr std::uint32_t kHemisphereRings = 12;
inline constexpr std::uint32_t kEdgeSegments = 8;
inline constexpr float kMeshCreaseDegrees = 40.0f;

ColliderMesh sphereMesh(float radius);
// Radius `radius` around the segment (0, -halfHeight, 0) to (0, halfHeight, 0).
ColliderMesh capsuleMesh(float radius, float halfHeight);
// Half extents `half` (rounding included), edges and corners rounded by `rounding` (0: sharp).
ColliderMesh roundedBoxMesh(glm::vec3 half, float rounding);
// The triangles as given (corners a, b, c; faces oriented by faceNormal when it is set, else by
// their winding), normals smoothed across edges flatter than kMeshCreaseDegrees.
ColliderMesh triangleMesh(std::span<const gpu::MeshTriangle> triangles);

// The mesh of any collider but a plane (empty for a plane). `triangles`: the collider's own
// triangles (PreparedCloth::meshTriangles over colliderTriangles), for SHAPE_MESH.
ColliderMesh colliderMesh(const gpu::Collider& c, std::span<const gpu::MeshTriangle> triangles);

// The collider's frame at simulated time `time` as a rigid model matrix (columns: the unit axes,
// then the origin), from colliderPose: the same function the solvers place it with.
glm::mat4 colliderModel(const gpu::Collider& c, float time);

// World bounds of `mesh` placed by colliderModel(c, time).
Bounds meshBounds(const ColliderMesh& mesh, const glm::mat4& model);

}  // namespace cloth::render
