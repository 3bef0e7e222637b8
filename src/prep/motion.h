// Kinematic attachment targets: scene MotionDesc -> gpu::Motion (see motionOffset in
// shaders/shared/constraints.h).
#pragma once

#include <string>

#include "core/scene.h"
#include "types.h"

namespace cloth {

// Builds the motion of an attachment; every vertex of the attachment shares it, so they all move
// along congruent paths, each starting at its own anchor (motionOffset is zero at t = 0).
// Circle: u, v orthonormal and perpendicular to the axis with u x v = axis (counter-clockwise
// seen from the axis tip), angularSpeed = 2 pi / period, phase 0, so the circle's centre is
// anchor - radius * u. Axis and velocity are in world space. Throws cloth::Error naming
// `source` for a non-positive period, a negative radius or a zero axis.
gpu::Motion makeMotion(const MotionDesc& desc, const std::string& source);

}  // namespace cloth
