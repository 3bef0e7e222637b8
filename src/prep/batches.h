// Colouring and packing of a PreparedCloth's colour-batched constraints (every type of
// src/kernels/constraint_types.h), with phantom vertices when asked for.
#pragma once

#include <optional>

#include "prep/constraint_graph.h"
#include "prep/phantoms.h"
#include "prep/prepared.h"

namespace cloth {

// The constraint-graph node numbering: the items of each constraint type, type by type in table
// order (first type [0, N0), then [N0, N0 + N1), ...).
ConstraintVertices constraintVertices(const PreparedCloth& p);

struct PhantomRequest {
    std::uint32_t targetColors = 8;
    PhantomMethod method = PhantomMethod::Repair;
};

// Colours the items of every constraint type together (smallest-last greedy on the constraint
// graph) and reorders each type's items colour by colour, setting colorCount and the colour offsets.
// With a phantom request and more colours than its target, first splits vertices into phantoms
// (addPhantomVertices) so that at most targetColors colours are used. Fills the colouring and
// phantom fields of stats. `p` must hold original vertices only. Deterministic.
void colorAndPack(PreparedCloth& p, const std::optional<PhantomRequest>& phantoms = {});

}  // namespace cloth
