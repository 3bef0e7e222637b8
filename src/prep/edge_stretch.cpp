#include "prep/edge_stretch.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace cloth {

namespace {

glm::dvec3 at(const std::vector<glm::vec4>& x, std::uint32_t i) { return glm::dvec3(glm::vec3(x[i])); }

}  // namespace

EdgeStretch edgeStretch(const PreparedCloth& p, const std::vector<glm::vec4>& x) {
    CLOTH_ASSERT(x.size() >= p.positions.size());
    EdgeStretch out;
    double sum = 0.0;
    std::size_t edges = 0;
    auto add = [&](std::uint32_t a, std::uint32_t b, double rest) {
        if (!(rest > 0.0)) return;
        const double stretch = glm::length(at(x, a) - at(x, b)) / rest - 1.0;
        out.largest = edges == 0 ? stretch : std::max(out.largest, stretch);
        sum += stretch;
        ++edges;
    };
    for (const gpu::DistanceConstraint& c : p.items<gpu::DistanceConstraint>())
        add(c.v0, c.v1, double(c.restLength));
    // A StVK triangle's rest edges are the columns of D_m = (D_m^-1)^-1, u1 - u0 and u2 - u0 in
    // the material plane, and their difference.
    for (const gpu::StvkConstraint& c : p.items<gpu::StvkConstraint>()) {
        const double b00 = c.invRest.x, b10 = c.invRest.y, b01 = c.invRest.z, b11 = c.invRest.w;
        const double det = b00 * b11 - b01 * b10;
        if (!(std::abs(det) > 0.0)) continue;
        const glm::dvec2 d1(b11 / det, -b10 / det), d2(-b01 / det, b00 / det);
        add(c.v0, c.v1, glm::length(d1));
        add(c.v0, c.v2, glm::length(d2));
        add(c.v1, c.v2, glm::length(d2 - d1));
    }
    out.mean = edges ? sum / double(edges) : 0.0;
    return out;
}

}  // namespace cloth
