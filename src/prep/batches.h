// Colouring and packing of a PreparedCloth's distance and bending constraints.
#pragma once

#include "prep/constraint_graph.h"
#include "prep/prepared.h"

namespace cloth {

// The constraint-graph node numbering: distance constraints [0, D), then bending [D, D + B).
ConstraintVertices constraintVertices(const PreparedCloth& p);

// Colours the distance and bending constraints together (smallest-last greedy on the constraint
// graph) and reorders both arrays colour by colour, setting colorCount and the colour offsets.
// Fills stats.graphMs, colorMs, graphEdges and degeneracy. Deterministic.
void colorAndPack(PreparedCloth& p);

}  // namespace cloth
