// What the renderer needs from a PreparedCloth, gathered once at load: the triangle list, UVs,
// marker instances for pinned and kinematic vertices, where the cloth starts out, and the rigid
// colliders' meshes.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "prep/prepared.h"
#include "render/camera.h"
#include "render/collider_mesh.h"
#include "kernels/render_types.h"

namespace cloth::render {

// One collider's mesh in ColliderDrawData's arrays.
struct ColliderDraw {
    std::uint32_t collider = 0;  // index into ColliderDrawData::colliders (its instance)
    std::uint32_t firstIndex = 0, indexCount = 0;
    std::int32_t vertexOffset = 0;
};

// The scene's colliders: planes are drawn as squares of the ground placed by their pose, every
// other shape by its mesh (render/collider_mesh.h), all tessellated once here.
struct ColliderDrawData {
    std::vector<gpu::Collider> colliders;       // as prepared, in scene order
    std::vector<gpu::ColliderVertex> vertices;  // every solid's mesh, each in its own frame
    std::vector<std::uint32_t> indices;
    std::vector<ColliderDraw> solids;   // the colliders that are not planes
    std::vector<std::uint32_t> planes;  // the plane colliders (indices into `colliders`)
    std::optional<Bounds> bounds;       // the solids at t = 0 (planes have none)
    // The plane that is the floor (in place of the automatic ground): the one facing up the most,
    // when it faces up by 60 degrees or more at t = 0.
    std::optional<std::uint32_t> floor;
};

// One cloth of the scene: its triangles, drawn with its index as the instance index so that the
// fragment shader finds its ClothLook.
struct ClothRange {
    std::uint32_t firstTriangle = 0, triangleCount = 0;
};

struct ClothDrawData {
    std::uint32_t vertexCount = 0;          // positions, phantom copies included
    std::uint32_t originalVertexCount = 0;  // normals and UVs
    std::vector<glm::uvec3> triangles;      // original vertex indices
    // One per original vertex: the mesh's, or for a cloth without them projected from its
    // starting shape (render/cloth_look.h), so that every cloth can show the woven check.
    std::vector<glm::vec2> uvs;
    std::vector<ClothRange> cloths;      // in scene order (one for all triangles if none listed)
    std::vector<gpu::ClothLook> looks;   // one per entry of `cloths`
    std::vector<gpu::Marker> markers;       // MARKER_PIN and MARKER_KINEMATIC
    Bounds bounds;                          // of the original vertices as prepared
    float meanEdgeLength = 0.0f;
    ColliderDrawData colliders;
};

ClothDrawData makeDrawData(const PreparedCloth& prepared);
ColliderDrawData makeColliderDrawData(const PreparedCloth& prepared);

// Bounds of the first `count` positions (xyz).
Bounds boundsOf(const std::vector<glm::vec4>& positions, std::uint32_t count);

}  // namespace cloth::render
