// PreparedCloth: the load-time result that BOTH solvers consume, in the same order.
// Built once by prepareScene(); the CPU reference and the Vulkan solver run the same stages over
// the same arrays, so their results can be compared vertex by vertex.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include "core/frame_rate.h"
#include "core/scene.h"
#include "kernels/constraint_types.h"
#include "kernels/types.h"
#include "kernels/wind.h"
#include "kernels/collider.h"
#include "kernels/spring.h"
#include "kernels/projective.h"

namespace cloth {

struct PrepStats {
    std::uint32_t colorsBeforePhantoms = 0;
    std::uint32_t phantomVertices = 0;
    std::uint32_t cliquesFound = 0;  // maximal cliques >= the target (phantom method "cliques")
    std::uint32_t degeneracy = 0;    // of the graph before phantoms: its colours <= degeneracy + 1
    std::uint64_t graphEdges = 0;    // pairs of constraints that share a vertex (before phantoms)
    double graphMs = 0.0;            // building the constraint graph
    double colorMs = 0.0;            // smallest-last colouring and packing
    double cliqueMs = 0.0;           // Bron-Kerbosch, all rounds (phantom method "cliques")
    double phantomMs = 0.0;          // all of the phantom split, cliqueMs included
    double prepareMs = 0.0;          // the whole of prepareScene()
};

// One pair of a seam (core/scene.h SeamDesc; prep/sewing.h): original vertex indices.
struct SeamPair {
    std::uint32_t a = 0, b = 0;  // when merged, every reference to b became a reference to a
    std::uint32_t seam = 0;      // index into Scene::seams
    float mergeDistance = 0.0f;  // m; merged once closer than this
    bool merged = false;         // joined into one vertex (when: RunState::seamMerges)
};

// A seam pair's merge in a run's history: the pair (index into PreparedCloth::seamPairs) and the
// simulated time it merged at (s; 0 for the pairs closed at load).
struct SeamMerge {
    std::uint32_t pair = 0;
    double time = 0.0;
};

// Where a run stands when a solver is made from a PreparedCloth: 0 and none at load; sewing, which
// re-makes the prepared data mid-run, carries it on to the next solver.
struct RunState {
    // Simulated time (s) of the positions and velocities: a solver starts its clock here.
    double time = 0.0;
    // How many times merging seam pairs has re-made the data since the solvers started (the
    // merges at load not counted): a solver re-created from it continues its counts
    // (pd.factorizations).
    std::uint32_t sewingRebuilds = 0;
    // The seam pairs merged so far, in the order they merged (each pair once).
    std::vector<SeamMerge> seamMerges;
};

struct SewingBase;  // prep/sewing.h: the scene's data before any merge and before colouring
struct SolverData;  // prep/solver_data.h: the solvers' load-time data (layouts, plans, rest data)

struct ClothInfo {  // per cloth, for output and rendering
    std::string name;
    std::uint32_t triangleBegin = 0, triangleEnd = 0;  // range in PreparedCloth::triangles
    std::uint32_t vertexBegin = 0, vertexEnd = 0;      // its original vertices
    bool hasUvs = false;  // its mesh has texture coordinates (a grid always has)
    bool restFromPattern = false;  // rest_shape "uv" (prep/rest_shape.h)
    std::optional<glm::vec3> color;  // its material's "color" (linear RGB), if given
};

// One constraint type's items, colour by colour: colour c is items [colorOffsets[c],
// colorOffsets[c + 1]) (colorCount + 1 offsets).
template <class Item>
struct ColoredSet {
    std::vector<Item> items;
    std::vector<std::uint32_t> colorOffsets;
    std::uint32_t colorSize(std::uint32_t c) const { return colorOffsets[c + 1] - colorOffsets[c]; }
};

// The mass-spring model's terms (sim.model MassSpring; prep/springs.h), which the FEM shares for
// its seams and fixed angles.
struct SpringTerms {
    std::vector<gpu::Spring> springs;
    std::uint32_t families[3] = {0, 0, 0};  // structural, shear, flexion springs
    // (After the cloths' springs: one spring of rest length 0 per unmerged seam pair, under
    // mass_spring and fem; prep/springs.h, prep/fem.h.)
    // The fixed angles as energies (w/2) wrap(theta - theta_0)^2, under mass_spring and fem
    // (kernels/spring.h angleSpringForce): the FixedAngleConstraint items with param = w (N m).
    std::vector<gpu::FixedAngleConstraint> angles;
};

// Projective dynamics' terms (sim.model Projective; prep/projective.h).
struct PdTerms {
    std::vector<gpu::PdTriangle> triangles;
    std::vector<gpu::PdBend> bends;
};

// The implicit corotational FEM's (sim.model Fem; prep/fem.h; the CPU reference only): its
// triangles, each with (C11, C22, C12, C33) of its plane-stress stiffness (N/m) in `stiffness`,
// the weft/warp frame in invRest; its bending, per hinge the quadratic isometric term
// (w/2) |C - p|^2 of PD's bends (prep/projective.h hingeBendTerms; kind PD_TERM_BEND), w from the
// material's rigidity.
struct FemTerms {
    std::vector<gpu::PdTriangle> triangles;
    std::vector<gpu::PdBend> bends;
};

struct PreparedCloth {
    SimSettings sim;     // the scene's, as given
    FrameTiming timing;  // what a frame runs: 1/fps s of sim.substeps * 60 / fps substeps

    // ---- vertices ----
    // [0, originalVertexCount): the scene's vertices, cloth after cloth, each cloth's in its
    // mesh's order. [originalVertexCount, size): phantom copies, grouped by cloth segment.
    std::uint32_t originalVertexCount = 0;
    std::vector<glm::vec4> positions;   // xyz, w = inverse mass (0 = pinned)
    std::vector<glm::vec4> velocities;  // xyz
    std::vector<glm::vec2> uvs;         // per original vertex (zeros when the mesh has none)
    std::vector<gpu::ClothSegment> segments;
    std::vector<ClothInfo> cloths;

    // ---- surface (original vertices only), for normals, export and rendering ----
    std::vector<glm::uvec3> triangles;
    // Per triangle, its corners at rest in its corner order (prep/rest_shape.h): the pattern's
    // for a cloth with rest_shape "uv", else its starting positions. The models other than XPBD
    // take their rest state from these (docs/models.md); XPBD's items carry theirs.
    std::vector<std::array<glm::vec3, 3>> restCorners;
    std::vector<std::uint32_t> vertexTriangleOffsets;  // CSR, size originalVertexCount + 1
    std::vector<std::uint32_t> vertexTriangles;

    // ---- coloured constraints: one set per type of src/kernels/constraint_types.h ----
    // No two items of one colour (of any type) share a vertex.
    std::uint32_t colorCount = 0;
    gpu::PerConstraintType<ColoredSet> constraints;

    template <class Item>
    ColoredSet<Item>& set() { return std::get<gpu::constraintTypeIndex<Item>>(constraints); }
    template <class Item>
    const ColoredSet<Item>& set() const {
        return std::get<gpu::constraintTypeIndex<Item>>(constraints);
    }
    template <class Item>
    std::vector<Item>& items() { return set<Item>().items; }
    template <class Item>
    const std::vector<Item>& items() const { return set<Item>().items; }
    // Building colours by hand (tests): resetColors() starts every type's offsets at {0} with no
    // colours; endColor() closes a colour holding the items added since (of every type).
    void resetColors();
    void endColor();
    std::uint64_t coloredItemCount() const;   // all types
    std::uint32_t colorItems(std::uint32_t c) const;  // colour c, all types

    // ---- per-vertex constraints, solved after the colours in each iteration ----
    // At most one attachment and one tether per vertex, so each array is one parallel batch.
    std::vector<gpu::Attachment> attachments;
    std::vector<gpu::Motion> motions;
    std::vector<gpu::Tether> tethers;

    // ---- phantom vertices (empty when off) ----
    std::vector<gpu::PhantomGroup> phantomGroups;  // one per split vertex
    std::vector<std::uint32_t> phantomMembers;     // the original first, then its copies

    // ---- wind (sim.wind set; empty otherwise): per vertex, phantoms included ----
    std::vector<gpu::WindVertex> windVertices;
    // ---- the models' own terms, a block per model (empty under the others) ----
    SpringTerms springTerms;  // mass_spring (its seams' springs and fixed angles: fem's too)
    PdTerms pdTerms;          // projective dynamics
    FemTerms femTerms;        // the implicit FEM

    // ---- rigid colliders (src/kernels/collider.h), in scene order ----
    std::vector<gpu::Collider> colliders;
    std::vector<std::string> colliderNames;
    // Every mesh collider's hierarchy and triangles (src/kernels/mesh_distance.h), in its
    // collider's frame with the scale applied; a collider's root is Collider::meshNode.
    std::vector<gpu::MeshNode> meshNodes;
    std::vector<gpu::MeshTriangle> meshTriangles;
    // Their sharp features (src/kernels/feature_contacts.h), whose hierarchies are in
    // meshNodes too (Collider::featureNode), and per cloth triangle the edges it owns (bit e:
    // edge e from corner e to e + 1; each edge owned by its lowest-indexed triangle), the
    // corners it owns (bit gpu::TRIANGLE_OWNS_VERTEX_SHIFT + k, likewise) and its segment (from
    // bit gpu::TRIANGLE_SEGMENT_SHIFT). Empty without colliders and self-collision.
    std::vector<gpu::MeshFeature> meshFeatures;
    std::vector<std::uint32_t> triangleFeatureInfo;
    // Self-collision (sim.selfCollision set; empty otherwise): per original vertex its rest
    // position (the scene's initial shape), whose close primitives are neighbours that never
    // become contacts (cpu/self_collision.h).
    std::vector<glm::vec4> restPositions;
    // Per collider: its triangles [x, y) in meshTriangles (mesh colliders; {0, 0} otherwise).
    std::vector<glm::uvec2> colliderTriangles;
    // ---- sewing (prep/sewing.h; empty without seams) ----
    // Each unmerged pair is one zero-length item among the distance items.
    std::vector<SeamPair> seamPairs;  // every pair of every seam, seam by seam, chain order
    // Per original vertex: itself, or the vertex it was merged into (its position in exports).
    // Empty until a pair merges.
    std::vector<std::uint32_t> shownAt;
    std::shared_ptr<const SewingBase> sewingBase;  // null without seams

    // ---- the solvers' load-time data, built from the above by prepareSolverData (prep/
    // solver_data.h): the Jacobi layouts, the spring plan, self-collision's rest data ----
    std::shared_ptr<const SolverData> solverData;

    // ---- where the run stands (runtime state, apart from the prepared data above) ----
    RunState run;

    PrepStats stats;

    std::uint32_t vertexCount() const { return static_cast<std::uint32_t>(positions.size()); }
    std::uint32_t constraintCount() const {  // all projected constraints (not phantom groups)
        return static_cast<std::uint32_t>(coloredItemCount() + attachments.size() + tethers.size());
    }
};

inline std::uint64_t PreparedCloth::coloredItemCount() const {
    std::uint64_t n = 0;
    gpu::forEachConstraintType([&](auto t) { n += items<typename decltype(t)::Item>().size(); });
    return n;
}

inline void PreparedCloth::resetColors() {
    colorCount = 0;
    gpu::forEachConstraintType([&](auto t) { set<typename decltype(t)::Item>().colorOffsets = {0u}; });
}

inline void PreparedCloth::endColor() {
    gpu::forEachConstraintType([&](auto t) {
        auto& s = set<typename decltype(t)::Item>();
        s.colorOffsets.push_back(static_cast<std::uint32_t>(s.items.size()));
    });
    ++colorCount;
}

inline std::uint32_t PreparedCloth::colorItems(std::uint32_t c) const {
    std::uint32_t n = 0;
    gpu::forEachConstraintType([&](auto t) { n += set<typename decltype(t)::Item>().colorSize(c); });
    return n;
}

// A prepared scene as the solvers hold it: shared and read-only. A solver keeps one of these, never
// a copy (sim/solver.h); its state (positions, velocities, multipliers) is its own.
using SharedCloth = std::shared_ptr<const PreparedCloth>;
inline SharedCloth shareCloth(PreparedCloth&& p) {
    return std::make_shared<const PreparedCloth>(std::move(p));
}
// A shared copy, for a caller that goes on changing its own (tests, clothcheck's restarts).
inline SharedCloth shareCopy(const PreparedCloth& p) {
    return std::make_shared<const PreparedCloth>(p);
}

// The contact thickness of vertex v (original or phantom copy): its cloth segment's.
inline float vertexThickness(const PreparedCloth& p, std::uint32_t v) {
    for (const gpu::ClothSegment& s : p.segments)
        if ((v >= s.vertexBegin && v < s.vertexEnd) || (v >= s.phantomBegin && v < s.phantomEnd))
            return s.thickness;
    return 0.0f;
}

// The phantom group whose original (first member) is `vertex`, if that vertex was split. Every
// backend finds the grabbed vertex's copies with it.
inline std::optional<std::uint32_t> phantomGroupOf(const std::vector<gpu::PhantomGroup>& groups,
                                                   const std::vector<std::uint32_t>& members,
                                                   std::uint32_t vertex) {
    for (std::uint32_t g = 0; g < groups.size(); ++g)
        if (members[groups[g].first] == vertex) return g;
    return std::nullopt;
}

// The vertices a grab of `vertex` pulls: the vertex, or all its phantom copies when it was
// split (pulling one copy alone, the averaging would dilute the grab).
inline std::vector<std::uint32_t> grabbedVertices(const std::vector<gpu::PhantomGroup>& groups,
                                                  const std::vector<std::uint32_t>& members,
                                                  std::uint32_t vertex) {
    const std::optional<std::uint32_t> g = phantomGroupOf(groups, members, vertex);
    if (!g) return {vertex};
    return {members.begin() + groups[*g].first,
            members.begin() + groups[*g].first + groups[*g].count};
}

}  // namespace cloth
