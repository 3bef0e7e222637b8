// Distances between the two backends' vertices, for clothcheck.
#pragma once

#include <vector>

#include <glm/glm.hpp>

#include "prep/prepared.h"

namespace cloth::check {

struct Deviation {
    double maxAbs = 0.0;  // metres
    double rmsAbs = 0.0;
    double maxRel = 0.0;  // relative to the bounding-box diagonal of the vertex's cloth
    double rmsRel = 0.0;
    std::uint32_t worstVertex = 0;
};

// Bounding-box diagonal of each cloth segment's original vertices in `positions`.
std::vector<double> segmentDiagonals(const PreparedCloth& prepared,
                                     const std::vector<glm::vec4>& positions);

// Over the original vertices of every segment: |a - b| (xyz), absolute and divided by that
// segment's diagonal. Phantom copies are not compared (they follow their originals).
Deviation compare(const PreparedCloth& prepared, const std::vector<double>& diagonals,
                  const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b);

}  // namespace cloth::check
