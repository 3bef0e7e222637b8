// Kinematic attachment targets: scene MotionDesc -> gpu::Motion (see motionOffset in
// src/kernels/constraints.h).
#pragma once

#include <string>

#include "core/scene.h"
#include "kernels/types.h"

namespace cloth {

// Builds the motion of an attachment; every vertex of the attachment shares it, so they all move
// along congruent paths, each starting at its own anchor (motionOffset is zero at t = 0).
// Circle: u, v orthonormal and perpendicular to the axis with u x v = axis (counter-clockwise
// seen from the axis tip), angularSpeed = 2 pi / period, phase 0, so the circle's centre is
// anchor - radius * u. Axis and velocity are in world space. Throws cloth::Error naming
// `source` for a non-positive period, a negative radius or a zero axis.
// Rotate needs each vertex's own circle: makeRotation. Throws for it here.
gpu::Motion makeMotion(const MotionDesc& desc, const std::string& source);

// A Rotate motion of the vertex at `point` (world space): the circle motion of radius r, the
// point's distance from the axis line, in the plane of u = perpendicular(axis) and
// v = axis x u, with phase phi = atan2((p - c).v, (p - c).u), p - c the point's offset from the
// line: motionOffset = r (cos(w t + phi) - cos phi) u + r (sin(w t + phi) - sin phi) v is then
// the point turned by w t about the line, minus the point. Throws cloth::Error naming `source`
// for a non-positive period or a zero axis.
gpu::Motion makeRotation(const MotionDesc& desc, glm::vec3 point, const std::string& source);

}  // namespace cloth
