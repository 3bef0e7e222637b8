#include "deviation.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace cloth::check {

std::vector<double> segmentDiagonals(const PreparedCloth& p, const std::vector<glm::vec4>& x) {
    std::vector<double> out;
    for (const auto& seg : p.segments) {
        glm::dvec3 lo(INFINITY), hi(-INFINITY);
        for (std::uint32_t v = seg.vertexBegin; v < seg.vertexEnd; ++v) {
            lo = glm::min(lo, glm::dvec3(x[v]));
            hi = glm::max(hi, glm::dvec3(x[v]));
        }
        out.push_back(seg.vertexEnd > seg.vertexBegin ? glm::length(hi - lo) : 0.0);
    }
    return out;
}

Deviation compare(const PreparedCloth& p, const std::vector<double>& diagonals,
                  const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
    CLOTH_ASSERT(a.size() == b.size() && a.size() >= p.originalVertexCount);
    CLOTH_ASSERT(diagonals.size() == p.segments.size());
    Deviation d;
    double sumAbs2 = 0.0, sumRel2 = 0.0;
    std::size_t n = 0;
    for (std::size_t s = 0; s < p.segments.size(); ++s) {
        const double diag = diagonals[s] > 0.0 ? diagonals[s] : 1.0;
        for (std::uint32_t v = p.segments[s].vertexBegin; v < p.segments[s].vertexEnd; ++v) {
            const double dist = glm::length(glm::dvec3(a[v]) - glm::dvec3(b[v]));
            const double rel = dist / diag;
            // NaN compares false: make it the worst so that a blown-up backend fails the check.
            if (!(dist <= d.maxAbs) || std::isnan(dist)) {
                d.maxAbs = std::isnan(dist) ? INFINITY : dist;
            }
            if (!(rel <= d.maxRel) || std::isnan(rel)) {
                d.maxRel = std::isnan(rel) ? INFINITY : rel;
                d.worstVertex = v;
            }
            sumAbs2 += dist * dist;
            sumRel2 += rel * rel;
            ++n;
        }
    }
    if (n > 0) {
        d.rmsAbs = std::sqrt(sumAbs2 / static_cast<double>(n));
        d.rmsRel = std::sqrt(sumRel2 / static_cast<double>(n));
    }
    return d;
}

}  // namespace cloth::check
