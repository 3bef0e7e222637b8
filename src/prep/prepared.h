// PreparedCloth: the load-time result that BOTH solvers consume, in the same order.
// Built once by prepareScene(); the CPU reference and the Vulkan solver run the same stages over
// the same arrays, so their results can be compared vertex by vertex.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/scene.h"
#include "types.h"  // shaders/shared: the GPU buffer layouts

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

struct ClothInfo {  // per cloth, for output and rendering
    std::string name;
    std::uint32_t triangleBegin = 0, triangleEnd = 0;  // range in PreparedCloth::triangles
};

struct PreparedCloth {
    SimSettings sim;

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
    std::vector<std::uint32_t> vertexTriangleOffsets;  // CSR, size originalVertexCount + 1
    std::vector<std::uint32_t> vertexTriangles;

    // ---- coloured constraints ----
    // Constraints of colour c are [xColorOffsets[c], xColorOffsets[c + 1]) of each array; no two
    // constraints of one colour (of any type) share a vertex. Offsets have colorCount + 1 entries.
    std::uint32_t colorCount = 0;
    std::vector<gpu::DistanceConstraint> distance;
    std::vector<gpu::BendingConstraint> bending;
    std::vector<std::uint32_t> distanceColorOffsets;
    std::vector<std::uint32_t> bendingColorOffsets;

    // ---- per-vertex constraints, solved after the colours in each iteration ----
    // At most one attachment and one tether per vertex, so each array is one parallel batch.
    std::vector<gpu::Attachment> attachments;
    std::vector<gpu::Motion> motions;
    std::vector<gpu::Tether> tethers;

    // ---- phantom vertices (empty when off) ----
    std::vector<gpu::PhantomGroup> phantomGroups;  // one per split vertex
    std::vector<std::uint32_t> phantomMembers;     // the original first, then its copies

    PrepStats stats;

    std::uint32_t vertexCount() const { return static_cast<std::uint32_t>(positions.size()); }
    std::uint32_t constraintCount() const {  // all projected constraints (not phantom groups)
        return static_cast<std::uint32_t>(distance.size() + bending.size() + attachments.size() +
                                          tethers.size());
    }
};

}  // namespace cloth
