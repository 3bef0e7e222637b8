// The sane ranges of the wind settings (core/limits.h), for scenes built in code; scene files
// check the same ranges key by key (scene_read.cpp).
#include <cmath>

#include "core/json_node.h"
#include "core/limits.h"
#include "core/scene.h"

namespace cloth {

std::optional<std::string> windProblem(const WindSettings& w) {
    using detail::shortNumber;
    const glm::vec3& v = w.velocity;
    if (!(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z)))
        return "wind velocity must be finite";
    const double speed = glm::length(glm::dvec3(v));
    if (!(speed <= limits::kMaxSpeed))
        return "wind speed " + shortNumber(speed) +
               " m/s is beyond the sane range (at most 10000 m/s)";
    auto coefficient = [](float c, const char* name) -> std::optional<std::string> {
        if (!(c >= 0.0f && c <= limits::kMaxAeroCoefficient))
            return std::string("wind ") + name + " coefficient " + shortNumber(c) +
                   " is out of range (allowed: 0 to 100)";
        return std::nullopt;
    };
    if (auto p = coefficient(w.drag, "drag")) return p;
    if (auto p = coefficient(w.lift, "lift")) return p;
    if (!(w.airDensity > 0.0f && w.airDensity <= limits::kMaxAirDensity))
        return "wind air density " + shortNumber(w.airDensity) +
               " kg/m^3 is out of range (allowed: above 0, at most 10000)";
    if (!(w.gusts.amplitude >= 0.0f && w.gusts.amplitude <= limits::kMaxGustAmplitude))
        return "wind gust amplitude " + shortNumber(w.gusts.amplitude) +
               " is out of range (allowed: 0 to 10, a fraction of the mean speed)";
    if (!(w.gusts.direction >= 0.0f && w.gusts.direction <= 180.0f))
        return "wind gust direction " + shortNumber(w.gusts.direction) +
               " degrees is out of range (allowed: 0 to 180)";
    if (!(w.gusts.period >= limits::kMinPeriod && w.gusts.period <= 1e9f))
        return "wind gust period " + shortNumber(w.gusts.period) +
               " s is out of range (allowed: 0.001 to 1e9)";
    return std::nullopt;
}

}  // namespace cloth
