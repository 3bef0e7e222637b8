// Triangle meshes for rigid colliders (ColliderShape::Mesh): read like a cloth's OBJ, then held
// to what a signed distance needs, a closed surface wound outward.
#pragma once

#include <string>

#include "core/mesh.h"

namespace cloth {

// Refuses a mesh that does not bound a volume the right way round: every edge must be used by
// exactly two triangles, in opposite directions (a consistent orientation), and the signed
// volume must be positive (counter-clockwise winding seen from outside, normals outward). The
// cloth::Error names `source` and the first offending edge or triangle in triangle order.
void validateClosedMesh(const Mesh& mesh, const std::string& source);

// loadObj (everything validateMesh refuses) and then validateClosedMesh, naming `path`.
Mesh loadColliderMesh(const std::string& path);

}  // namespace cloth
