// A cloth's rest state, from its starting positions or from the flat sewing pattern its texture
// coordinates lay out (ClothDesc::restShape; docs/usage.md#garments-from-patterns).
//
// From the pattern, every triangle keeps its own corners' UVs (an OBJ vertex on a seam has one
// in each panel), laid in the plane z = 0 at uvScale metres per UV unit: (u s, (1 - v) s, 0)
// with v top-down as Mesh's, so the pattern keeps the OBJ's orientation. What comes from it:
// - each triangle's rest shape (StVK) and area (the lumped masses);
// - each edge's rest length: its length in the triangles that hold it, averaged over them (one
//   on a border; two elsewhere, which agree unless the two panels of a seam disagree);
// - bending: flat, as a pattern is; the isometric model's stencil is the two triangles unfolded
//   flat about their shared edge (each from its own corners), the dihedral rest angle 0;
// - tethers: a tether may stretch to the longer of its vertices' distance in the starting pose
//   and in the pattern (from each vertex's first UV), so it never holds the cloth shorter than its
//   pattern. Across panels the pattern distance means little; the tether then binds late or
//   not at all.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/mesh.h"
#include "core/scene.h"
#include "prep/prepared.h"

namespace cloth {

struct RestShapeData {
    bool fromPattern = false;
    // From the pattern only (empty otherwise): each triangle's corners at rest, in the
    // triangle's corner order, and each vertex's point in the pattern (its first UV).
    std::vector<std::array<glm::vec3, 3>> corners;
    std::vector<glm::vec3> vertexPoints;
};

// The rest shape `desc` asks for. From the pattern it needs a UV at every corner (an OBJ whose
// faces all give `vt`, or a grid), finite, and no triangle whose pattern is degenerate (zero
// area, up to rounding): each is an Error naming `source`, the triangle and the problem.
RestShapeData restShapeOf(const ClothDesc& desc, const Mesh& mesh, const std::string& source);

// Each edge of topo.edges at rest (see above); from positions, its length in `world`.
std::vector<float> restEdgeLengths(const Mesh& mesh, const Topology& topo,
                                   const RestShapeData& rest, const std::vector<glm::vec3>& world);

// The triangle holding the three vertices (a triangle of v0's); cloth::Error if none does.
std::uint32_t triangleOf(const Mesh& mesh, const Topology& topo, std::uint32_t v0,
                         std::uint32_t v1, std::uint32_t v2);

// The four corners of bending pair `pair` (topo.bendingPairs) at rest, in its v0..v3 order; from
// positions, their points in `world`.
std::array<glm::vec3, 4> restStencil(const Mesh& mesh, const Topology& topo,
                                     const RestShapeData& rest,
                                     const std::vector<glm::vec3>& world, std::size_t pair);

// Lumped masses (density x rest area, a third to each corner); from positions, lumpMasses of
// `world` (prep/cloth_builder.h).
std::vector<float> restMasses(const Mesh& mesh, const RestShapeData& rest,
                              const std::vector<glm::vec3>& world, float density);

// The stencil of a hinge laid flat: triangle a's corners a0, a1, a2 (at v0, v1, v2) as they
// are, and v3 where triangle b (corners b0, b1, b3 at v0, v1, v3) puts it relative to the shared
// edge, on the far side of the edge from v2. Both triangles lie in the plane z = 0 (a pattern's).
std::array<glm::vec3, 4> unfoldHinge(glm::vec3 a0, glm::vec3 a1, glm::vec3 a2, glm::vec3 b0,
                                     glm::vec3 b1, glm::vec3 b3);

// The prepared cloth's rest state (PreparedCloth::restCorners; its starting positions where a
// hand-built cloth has none), as the models other than XPBD read it (docs/models.md):
// triangle t's corners at rest;
std::array<glm::vec3, 3> restTriangle(const PreparedCloth& p, std::uint32_t t);
// the hinge v0, v1 (the shared edge), v2, v3 at rest: from the pattern, its two triangles
// unfolded flat (unfoldHinge); else the starting positions. Needs p's vertexTriangles.
std::array<glm::vec3, 4> restHinge(const PreparedCloth& p, std::uint32_t v0, std::uint32_t v1,
                                   std::uint32_t v2, std::uint32_t v3);
// vertices [begin, end) of one cloth at rest: from the pattern, each vertex's first corner in
// triangle order (one UV per vertex on a grid); else the starting positions.
std::vector<glm::vec3> restVertexPoints(const PreparedCloth& p, std::uint32_t begin,
                                        std::uint32_t end);

}  // namespace cloth
