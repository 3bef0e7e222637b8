// Colouring and packing of a PreparedCloth's distance and bending constraints, with phantom
// vertices when asked for.
#pragma once

#include <optional>

#include "prep/constraint_graph.h"
#include "prep/phantoms.h"
#include "prep/prepared.h"

namespace cloth {

// The constraint-graph node numbering: distance constraints [0, D), then bending [D, D + B).
ConstraintVertices constraintVertices(const PreparedCloth& p);

struct PhantomRequest {
    std::uint32_t targetColors = 8;
    PhantomMethod method = PhantomMethod::Repair;
};

// Colours the distance and bending constraints together (smallest-last greedy on the constraint
// graph) and reorders both arrays colour by colour, setting colorCount and the colour offsets.
// With a phantom request and more colours than its target, first splits vertices into phantoms
// (addPhantomVertices) so that at most targetColors colours are used. Fills the colouring and
// phantom fields of stats. `p` must hold original vertices only. Deterministic.
void colorAndPack(PreparedCloth& p, const std::optional<PhantomRequest>& phantoms = {});

}  // namespace cloth
