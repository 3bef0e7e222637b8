// Where the Jacobi and Chebyshev iterations (src/kernels/jacobi.h) keep each item's moves and
// previous multipliers, and which moves each vertex adds up: built at load time from the
// prepared items, the same for every backend.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "kernels/jacobi.h"
#include "prep/prepared.h"

namespace cloth {

struct JacobiLayout {
    // Per constraint type: the first delta slot of its items (item k, vertex j: base + k V + j)
    // and the first previous-multiplier slot (one vec4 per item, whatever the type's multiplier).
    std::array<std::uint32_t, gpu::kConstraintTypeCount> deltaBase{};
    std::array<std::uint32_t, gpu::kConstraintTypeCount> lambdaBase{};
    std::uint32_t deltaCount = 0;
    std::uint32_t lambdaCount = 0;
    std::vector<gpu::JacobiVertex> vertices;  // per vertex, phantoms included
    std::vector<std::uint32_t> sources;       // delta slots, vertex by vertex, in slot order
};

JacobiLayout buildJacobiLayout(const PreparedCloth& prepared);

}  // namespace cloth
