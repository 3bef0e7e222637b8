// What the exporters (app/export_obj.h, app/export_gltf.h) write of a run: every cloth as an object
// of its own with the scene's topology as loaded (the same in every frame, sewing or not), its
// UVs when its mesh has them and per-vertex normals from each frame's positions; and, when asked,
// every collider tessellated once in its own frame (render/collider_mesh.h, as the renderer draws
// it) and placed by the pose the physics uses at the frame's time.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "kernels/collider.h"
#include "prep/prepared.h"

namespace cloth {

struct ExportCloth {
    std::string name;               // the scene's name, or cloth<i> when it is empty
    std::uint32_t vertexBegin = 0;  // its first original vertex
    std::uint32_t vertexCount = 0;
    std::vector<glm::uvec3> triangles;  // indices into its own vertices
    std::vector<glm::vec2> uvs;         // one per vertex (v top-down, core/mesh.h), or none
};

struct ExportCollider {
    std::string name;
    gpu::Collider collider;            // placed at time t by colliderPose
    std::vector<glm::vec3> positions;  // in the collider's frame
    std::vector<glm::vec3> normals;    // unit, outward
    std::vector<glm::uvec3> triangles;
};

// A plane collider is exported as a square of this half extent (m) about its origin, as the
// renderer's ground (render/stage.h), in two triangles.
inline constexpr float kExportPlaneHalfExtent = 10.0f;

struct ExportScene {
    std::vector<ExportCloth> cloths;
    std::vector<ExportCollider> colliders;  // empty unless asked for

    // Per cloth, per vertex: the positions of one frame as shown (a vertex merged by sewing at
    // the vertex it was merged into; phantom copies left out) and their normals.
    struct Frame {
        std::vector<std::vector<glm::vec3>> positions, normals;
    };
    void frame(const PreparedCloth& p, const std::vector<glm::vec4>& positions, Frame& out) const;
};

ExportScene makeExportScene(const PreparedCloth& p, bool colliders);

// Area-weighted vertex normals: per vertex the normalised sum of its triangles' cross products
// (b - a) x (c - a). A vertex whose triangles have no area at all gets (0, 1, 0).
void vertexNormals(std::span<const glm::vec3> positions, std::span<const glm::uvec3> triangles,
                   std::vector<glm::vec3>& out);

// A collider's rigid pose at simulated time t (colliderPose): its frame's axes as the columns
// of `axes`, then its origin.
struct ExportPose {
    glm::mat3 axes;
    glm::vec3 origin;
    glm::vec3 point(glm::vec3 p) const { return axes * p + origin; }
    glm::quat rotation() const;  // unit, from `axes`
};
ExportPose exportPose(const gpu::Collider& c, double time);

}  // namespace cloth
