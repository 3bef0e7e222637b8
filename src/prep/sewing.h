// Sewing (Anon. 2023 §4.9): seams are pairs of vertex chains (core/scene.h SeamDesc).
//
// Stage 1: each pair is a zero-length distance item among the distance items, so it is coloured,
// phantom-split, solved by both backends and counted like every other distance constraint.
// distanceEval skips a pair closer than 1e-6 m (its direction is undefined there), so merge
// distances below that may never be reached.
//
// Stage 2: after a frame, every pair closer than its merge distance is merged, all at once:
// the data is rebuilt from the scene's unmerged, uncoloured data (SewingBase) with every merged
// pair's b replaced by its a in every item, triangle, attachment and tether. Pairs joined through
// other pairs form groups (union-find in pair order; the group's vertex is its root). A group's
// masses add up (pinned if one of them is); its other vertices keep their slots (inverse mass 0,
// in no constraint or triangle) and are shown at the group's vertex (shownAt). Items and
// triangles whose vertices are no longer distinct are dropped, and of two tethers on one group
// the shorter stays. The constraint graph is then coloured (and phantom-split) again by the same
// code as at load. Merging depends only on which pairs are merged, not on the order they merged
// in; the new state is the mass-weighted mean of the merged vertices' positions and velocities
// (a pinned vertex keeps its place).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "core/scene.h"
#include "prep/batches.h"
#include "prep/prepared.h"

namespace cloth {

struct SewingBase {
    PreparedCloth uncoloured;  // original vertices only, items in build order, nothing merged
    std::optional<PhantomRequest> phantoms;  // as at load
};

// Resolves the scene's seams into p.seamPairs (global vertex indices) and appends one zero-length
// distance item per pair (param: the seam's compliance, or PBD's hard k' = 1). Called by
// prepareScene after every cloth is appended, before colouring. Throws cloth::Error naming the
// seam for a cloth index out of range, chains that do not pair up (seamChainPairs), or a group of
// sewn vertices holding more than one pinned or attached vertex.
void addSeams(const Scene& scene, PreparedCloth& p);

// The unmerged pairs of `p` whose two vertices (where they are shown) are closer than their
// merge distance in `positions` (all vertices, as Solver::readPositions gives them), ascending.
std::vector<std::uint32_t> seamPairsToMerge(const PreparedCloth& p,
                                            const std::vector<glm::vec4>& positions);

struct SewingState {
    const std::vector<glm::vec4>& positions;  // of every vertex of the current PreparedCloth
    const std::vector<glm::vec4>& velocities;
    double time = 0.0;  // the solver's simTime()
};

// `current` with `pairs` (indices into seamPairs) merged as well, coloured again, holding
// `state` (merged groups at their mass-weighted mean) and starting its clock at state.time.
PreparedCloth mergeSeamPairs(const PreparedCloth& current, const std::vector<std::uint32_t>& pairs,
                             const SewingState& state);

// Puts every merged vertex at the position of the vertex it was merged into (exports).
void showMergedVertices(const PreparedCloth& p, std::vector<glm::vec4>& positions);

// The stiffness (N/m) of a seam pair's term in the models other than XPBD, a spring of rest
// length 0 (docs/models.md): 1 / the seam's compliance; a hard seam (compliance 0) takes `hard`,
// the model's stiffest term of the scene's cloths (an explicit or implicit step cannot hold a
// pair rigidly together). Throws cloth::Error when `hard` is 0 (nothing to take it from).
float seamStiffness(const Scene& scene, const SeamPair& pair, double hard);

std::uint32_t mergedSeamPairCount(const PreparedCloth& p);
bool hasUnmergedSeamPairs(const PreparedCloth& p);

}  // namespace cloth
