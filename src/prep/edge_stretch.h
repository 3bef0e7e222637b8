// The edge stretch of a prepared cloth's state: what clothsim's stretch warning, the metrics
// (app/metrics.h) and the scenes' stretch checks measure.
#pragma once

#include <vector>

#include <glm/glm.hpp>

#include "prep/prepared.h"

namespace cloth {

// Edge stretch |x_i - x_j| / rest - 1 over the distance constraints (those with a rest length)
// and each StVK triangle's three edges (their rest lengths from its rest shape; an edge shared by
// two triangles counts twice in the mean): the largest and the mean; both 0 without such
// constraints. x: every vertex.
struct EdgeStretch {
    double largest = 0.0, mean = 0.0;
};
EdgeStretch edgeStretch(const PreparedCloth& p, const std::vector<glm::vec4>& x);

}  // namespace cloth
