// Turns a PhantomSplit into PreparedCloth data: phantom vertices after the originals, grouped by
// cloth, with the original's mass shared equally among all its copies; averaging groups;
// attachments and tethers repeated on every copy; constraints rewritten to the copies.
#pragma once

#include "prep/phantoms.h"
#include "prep/prepared.h"

namespace cloth {

// `p` holds original vertices only, its constraints in the order of `split.constraints`
// (type by type, in table order). Returns the constraints' vertex lists in final vertex numbering.
//
// Why attachments and tethers go on every copy: they run before the averaging, so acting on the
// original alone would be diluted by its share of the mass. A hard attachment on every copy puts
// every copy, hence their mean, on the target; a tether's ball is convex, so when every copy is
// inside it, so is their mean.
ConstraintVertices addPhantomVertices(PreparedCloth& p, const PhantomSplit& split);

}  // namespace cloth
