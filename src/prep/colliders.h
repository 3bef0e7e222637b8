// Rigid colliders at load time: scene ColliderDesc -> gpu::Collider (src/kernels/collider.h),
// and mesh colliders' hierarchies.
#pragma once

#include <string>

#include "core/scene.h"
#include "prep/prepared.h"

namespace cloth {

// The collider's frame at t = 0 from its transform (origin = translate, axes = the rotation's
// columns), sizes times the transform's scale, spin axis normalised and in rad/s, its motion
// (makeMotion), friction and restitution. Mesh colliders get meshNode later (addColliders).
// Throws cloth::Error naming `source` for a meaningless value.
gpu::Collider makeCollider(const ColliderDesc& desc, const std::string& source);

// Appends every collider of the scene to p (colliders, colliderNames, colliderTriangles, and
// for mesh colliders meshNodes and meshTriangles).
void addColliders(const Scene& scene, PreparedCloth& p);

}  // namespace cloth
