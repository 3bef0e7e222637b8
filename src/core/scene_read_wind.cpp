// The key "wind" (scene.h WindSettings): mean velocity, drag and lift, air density, gusts.
#include <cstdint>

#include <glm/glm.hpp>

#include "core/json_node.h"
#include "core/limits.h"
#include "core/scene_read_parts.h"

namespace cloth::detail {

namespace {

// "must be at least 0" for negatives, then the sane range.
float aeroCoefficient(const JsonNode& n) {
    n.atLeast(0);
    return n.inRange(0.0f, limits::kMaxAeroCoefficient,
                     "is beyond the sane range of an aerodynamic coefficient");
}

GustSettings readGusts(const JsonNode& n) {
    n.allowOnly({"amplitude", "period", "seed", "direction"});
    GustSettings g;
    if (n.has("amplitude"))
        g.amplitude = n["amplitude"].inRange(0.0f, limits::kMaxGustAmplitude,
                                             "is beyond the sane range of a gust amplitude "
                                             "(a fraction of the mean wind speed)");
    if (n.has("period"))
        g.period = positiveInRange(n["period"], limits::kMinPeriod, 1e9f,
                                   "is beyond the sane range of a gust period (seconds)");
    if (n.has("direction"))
        g.direction = n["direction"].inRange(0.0f, 180.0f,
                                             "is beyond the range of a heading's swing (0 to 180 "
                                             "degrees)");
    if (n.has("seed")) g.seed = static_cast<std::uint32_t>(n["seed"].intAtLeast(0, UINT32_MAX));
    return g;
}

}  // namespace

WindSettings readWind(const JsonNode& n) {
    n.allowOnly({"velocity", "drag", "lift", "air_density", "gusts"});
    WindSettings w;
    if (n.has("velocity")) {
        w.velocity = n["velocity"].vec3();
        const double speed = glm::length(glm::dvec3(w.velocity));
        if (!(speed <= limits::kMaxSpeed))
            n["velocity"].fail("speed " + shortNumber(speed) +
                               " m/s is beyond the sane range (at most 10000 m/s)");
    }
    if (n.has("drag")) w.drag = aeroCoefficient(n["drag"]);
    if (n.has("lift")) w.lift = aeroCoefficient(n["lift"]);
    if (n.has("air_density"))
        w.airDensity = positiveInRange(n["air_density"], 0.0f, limits::kMaxAirDensity,
                                       "is beyond the sane range of a density (kg/m^3)");
    if (n.has("gusts")) w.gusts = readGusts(n["gusts"]);
    return w;
}

}  // namespace cloth::detail
