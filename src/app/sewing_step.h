// Stage 2 of sewing (prep/sewing.h) between frames, for any backend: clothsim's headless run and
// window, and clothcheck, call this after each frame and re-create their solver when it merges.
#pragma once

#include <optional>

#include "prep/prepared.h"
#include "sim/solver.h"

namespace cloth {

// When `prepared` has seam pairs waiting to merge, reads the solver's positions (nothing is read
// otherwise) and, if any of those pairs is now closer than its merge distance, returns
// `prepared` with all such pairs merged at once, holding the solver's positions, velocities and
// simulated time; the caller replaces its solver with one made from it. Else nullopt.
std::optional<PreparedCloth> sewCloseSeams(const PreparedCloth& prepared, Solver& solver);

}  // namespace cloth
