#include "render/scene_camera.h"

#include <cmath>

namespace cloth::render {

OrbitCamera sceneCamera(const CameraDesc& desc, const Bounds& frame, float aspect) {
    const float fovY = glm::radians(desc.fovDegrees.value_or(kDefaultFovDegrees));
    if (!desc.position) return OrbitCamera::framing(frame, aspect, fovY, desc.target);
    const glm::vec3 target = desc.target.value_or(frame.center());
    return OrbitCamera::lookingAt(*desc.position, target, fovY, frame);
}

OrbitCamera turntableAt(const OrbitCamera& base, float degreesPerSecond, double seconds) {
    OrbitCamera c = base;
    // Turning by a whole number of turns changes nothing: keep the angle small for floats.
    const double degrees = std::fmod(double(degreesPerSecond) * seconds, 360.0);
    c.yaw = float(double(base.yaw) + degrees * (3.14159265358979323846 / 180.0));
    return c;
}

}  // namespace cloth::render
