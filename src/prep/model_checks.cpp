#include "prep/model_checks.h"

#include "prep/projective.h"

namespace cloth {

void refuseWhatTheModelLacks(const PreparedCloth& p, SolverBackend backend) {
    requireSupported(modelFeatures(p.sim, p.vertexCount() != p.originalVertexCount), backend);
    if (p.sim.model == ClothModel::Projective) refusePdRelaxation(p);
}

}  // namespace cloth
