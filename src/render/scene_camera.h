// The camera a scene asks for (CameraDesc: its key "camera" and clothsim's camera flags), made an
// OrbitCamera: what the window starts from and what rendered headless runs use every frame.
#pragma once

#include "core/scene.h"
#include "render/camera.h"

namespace cloth::render {

// The camera of `desc` for images `aspect` wide per unit of height. A given position and target
// are used as they are; a missing target is the centre of `frame`, a missing position the one
// from which OrbitCamera::framing sees every corner of `frame` (around the target). The near
// and far planes hold `frame` from the eye. The turntable is not applied (turntableAt).
OrbitCamera sceneCamera(const CameraDesc& desc, const Bounds& frame, float aspect);

// `base` turned about the vertical line through its target by `degreesPerSecond` times `seconds`
// (counter-clockwise seen from above for a positive rate): the yaw grows, distance and pitch stay.
OrbitCamera turntableAt(const OrbitCamera& base, float degreesPerSecond, double seconds);

}  // namespace cloth::render
