#include "app/sewing_step.h"

#include "prep/sewing.h"

namespace cloth {

std::optional<PreparedCloth> sewCloseSeams(const PreparedCloth& prepared, Solver& solver) {
    if (!hasUnmergedSeamPairs(prepared)) return std::nullopt;
    std::vector<glm::vec4> positions, velocities;
    solver.readPositions(positions);
    const std::vector<std::uint32_t> pairs = seamPairsToMerge(prepared, positions);
    if (pairs.empty()) return std::nullopt;
    solver.readVelocities(velocities);
    return mergeSeamPairs(prepared, pairs, {positions, velocities, solver.simTime()});
}

}  // namespace cloth
