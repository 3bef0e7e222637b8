// The scene's camera (scene.h CameraDesc): its checks, shared by the scene reader and clothsim's
// camera flags, and the reader of the key "camera".
#include <cmath>
#include <string>

#include "core/json_node.h"
#include "core/limits.h"
#include "core/scene_read_parts.h"

namespace cloth {

namespace {

struct CameraIssue {
    std::string key;  // "position", "target", "fov", "turntable"; "" for the camera as a whole
    std::string problem;
};

std::optional<CameraIssue> pointIssue(const char* key, const std::optional<glm::vec3>& p) {
    if (!p) return {};
    for (int i = 0; i < 3; ++i) {
        const float v = (*p)[i];
        if (!std::isfinite(v)) return CameraIssue{key, "must be finite numbers"};
        if (std::abs(v) > limits::kMaxCoordinate)
            return CameraIssue{key, detail::shortNumber(v) +
                                        " m is beyond the scene's size (allowed: -10000 to 10000)"};
    }
    return {};
}

std::optional<CameraIssue> cameraIssue(const CameraDesc& c) {
    if (auto issue = pointIssue("position", c.position)) return issue;
    if (auto issue = pointIssue("target", c.target)) return issue;
    if (c.position && c.target) {
        if (*c.position == *c.target)
            return CameraIssue{"", "position equals target: the camera needs a direction to "
                                   "look in"};
        if (std::abs(cameraPitch(*c.position, *c.target)) > kMaxCameraPitch)
            return CameraIssue{"", "position is straight above or below the target (within 1.2 "
                                   "degrees of vertical): the camera keeps +y up, so move the "
                                   "position sideways"};
    }
    if (c.fovDegrees) {
        const float f = *c.fovDegrees;
        if (!(f > kMinFovDegrees && f < kMaxFovDegrees))
            return CameraIssue{"fov", "must be between 1 and 179 degrees (both excluded), got " +
                                          detail::shortNumber(f)};
    }
    const float t = c.turntableDegreesPerSecond;
    if (!(std::abs(t) <= kMaxTurntableDegreesPerSecond))
        return CameraIssue{"turntable", detail::shortNumber(t) +
                                            " degrees/s is beyond the sane range (allowed: -3600 "
                                            "to 3600)"};
    return {};
}

}  // namespace

float cameraPitch(const glm::vec3& position, const glm::vec3& target) {
    const glm::dvec3 d = glm::dvec3(position) - glm::dvec3(target);
    return float(std::atan2(d.y, std::sqrt(d.x * d.x + d.z * d.z)));
}

std::optional<std::string> cameraProblem(const CameraDesc& camera) {
    const std::optional<CameraIssue> issue = cameraIssue(camera);
    if (!issue) return {};
    return issue->key.empty() ? issue->problem : issue->key + ": " + issue->problem;
}

namespace detail {

CameraDesc readCamera(const JsonNode& n) {
    n.allowOnly({"position", "target", "fov", "turntable"});
    CameraDesc c;
    if (n.has("position")) c.position = n["position"].vec3();
    if (n.has("target")) c.target = n["target"].vec3();
    if (n.has("fov")) c.fovDegrees = n["fov"].number();
    if (n.has("turntable")) c.turntableDegreesPerSecond = n["turntable"].number();
    if (const std::optional<CameraIssue> issue = cameraIssue(c)) {
        if (issue->key.empty()) n.fail(issue->problem);
        n[issue->key.c_str()].fail(issue->problem);
    }
    return c;
}

}  // namespace detail

}  // namespace cloth
