#include "prep/motion.h"

#include <cmath>

#include "kernels/constraints.h"
#include "core/error.h"

namespace cloth {

namespace {

// A unit vector perpendicular to unit `axis`: the coordinate axis least aligned with it, with
// the component along `axis` removed.
glm::vec3 perpendicular(glm::vec3 axis) {
    const glm::vec3 a = glm::abs(axis);
    const glm::vec3 helper = a.x <= a.y && a.x <= a.z ? glm::vec3(1, 0, 0)
                             : a.y <= a.z             ? glm::vec3(0, 1, 0)
                                                      : glm::vec3(0, 0, 1);
    return glm::normalize(helper - axis * glm::dot(helper, axis));
}

}  // namespace

gpu::Motion makeMotion(const MotionDesc& desc, const std::string& source) {
    gpu::Motion m{};
    m.type = gpu::MOTION_STATIC;
    m.u = glm::vec4(0.0f);
    m.v = glm::vec4(0.0f);
    switch (desc.type) {
        case MotionType::Static:
            break;
        case MotionType::Linear:
            if (!std::isfinite(desc.velocity.x) || !std::isfinite(desc.velocity.y) ||
                !std::isfinite(desc.velocity.z))
                throw Error(source + ": attachment velocity must be finite");
            m.type = gpu::MOTION_LINEAR;
            m.u = glm::vec4(desc.velocity, 0.0f);
            break;
        case MotionType::Oscillate: {
            if (!(desc.period > 0.0f) || !std::isfinite(desc.period))
                throw Error(source + ": oscillate motion needs a positive period (seconds)");
            const glm::vec3 a = desc.amplitude;
            if (!std::isfinite(a.x) || !std::isfinite(a.y) || !std::isfinite(a.z) ||
                !std::isfinite(desc.phaseDegrees))
                throw Error(source + ": oscillate motion needs a finite amplitude and phase");
            m.type = gpu::MOTION_OSCILLATE;
            m.angularSpeed = 2.0f * gpu::CLOTH_PI / desc.period;
            m.phase = desc.phaseDegrees * (gpu::CLOTH_PI / 180.0f);
            m.u = glm::vec4(a, 0.0f);
            break;
        }
        case MotionType::Circle: {
            if (!(desc.period > 0.0f) || !std::isfinite(desc.period))
                throw Error(source + ": circle motion needs a positive period (seconds per turn)");
            if (!(desc.radius >= 0.0f) || !std::isfinite(desc.radius))
                throw Error(source + ": circle motion needs a radius >= 0");
            const float len = glm::length(desc.axis);
            if (!(len > 0.0f) || !std::isfinite(len))
                throw Error(source + ": circle motion needs a non-zero axis");
            const glm::vec3 axis = desc.axis / len;
            const glm::vec3 u = perpendicular(axis);
            m.type = gpu::MOTION_CIRCLE;
            m.radius = desc.radius;
            m.angularSpeed = 2.0f * gpu::CLOTH_PI / desc.period;
            m.phase = 0.0f;
            m.u = glm::vec4(u, 0.0f);
            m.v = glm::vec4(glm::cross(axis, u), 0.0f);
            break;
        }
        case MotionType::Rotate:
            throw Error(source + ": a rotation is one circle per vertex (makeRotation)");
    }
    return m;
}

gpu::Motion makeRotation(const MotionDesc& desc, glm::vec3 point, const std::string& source) {
    if (!(desc.period > 0.0f) || !std::isfinite(desc.period))
        throw Error(source + ": rotate motion needs a positive period (seconds per turn)");
    const float len = glm::length(desc.axis);
    if (!(len > 0.0f) || !std::isfinite(len))
        throw Error(source + ": rotate motion needs a non-zero axis");
    const glm::vec3 axis = desc.axis / len;
    const glm::vec3 u = perpendicular(axis), v = glm::cross(axis, u);
    const glm::vec3 d = point - desc.centre;
    const glm::vec3 off = d - axis * glm::dot(axis, d);  // from the line, across it
    gpu::Motion m{};
    m.type = gpu::MOTION_CIRCLE;
    m.radius = glm::length(off);
    m.angularSpeed = 2.0f * gpu::CLOTH_PI / desc.period;
    m.phase = std::atan2(glm::dot(off, v), glm::dot(off, u));
    m.u = glm::vec4(u, 0.0f);
    m.v = glm::vec4(v, 0.0f);
    return m;
}

}  // namespace cloth
