// Triangle meshes: procedural grids, OBJ files, and the adjacency the constraints need.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

namespace cloth {

struct Mesh {
    std::vector<glm::vec3> positions;
    std::vector<glm::vec2> uvs;  // empty, or one per vertex; v runs top-down (0 = top row)
    std::vector<glm::uvec3> triangles;
    // Empty, or the UV of every triangle's corners (3 per triangle, in its corners' order; v
    // top-down as `uvs`). A vertex on a seam of a sewing pattern has a UV in each panel: `uvs`
    // keeps the first, these keep each triangle's own (a rest shape from the pattern needs them).
    // OBJ files only: a grid's UVs have no seams, its `uvs` serve.
    std::vector<glm::vec2> cornerUvs;
};

enum class GridPattern { Regular, Alternating, Random };

// A rectangular cloth in the XY plane, centred on the origin, y up. resX x resY quads, so
// (resX + 1) * (resY + 1) vertices; vertex index = row * (resX + 1) + column, row 0 on top
// (y = +height / 2), column 0 on the left (x = -width / 2). Each quad is split along one
// diagonal: always the same one (Regular), alternating like a checkerboard (Alternating), or
// chosen at random from `seed` (Random). UVs run from (0, 0) top-left to (1, 1) bottom-right.
struct GridDesc {
    float width = 1.0f;
    float height = 1.0f;
    std::uint32_t resX = 16;
    std::uint32_t resY = 16;
    GridPattern pattern = GridPattern::Regular;
    std::uint32_t seed = 1;
    bool operator==(const GridDesc&) const = default;
};

Mesh makeGrid(const GridDesc& desc);
// What makeGrid checks before building: positive finite sizes, a resolution of at least 1 x 1
// and vertex and triangle counts that fit int32. Throws cloth::Error.
void checkGridDesc(const GridDesc& desc);

const char* gridPatternName(GridPattern p);
// Parses "regular" | "alternating" | "random"; throws cloth::Error otherwise.
GridPattern parseGridPattern(const std::string& name);

// Two triangles sharing the edge (v0, v1): triangle A = (v0, v1, v2) in A's winding order,
// triangle B holds v1, v0 and the opposite vertex v3.
struct BendingPair {
    std::uint32_t v0, v1, v2, v3;
};

struct Topology {
    std::vector<glm::uvec2> edges;             // unique undirected edges, x < y, sorted
    std::vector<std::uint32_t> boundaryEdges;  // indices into edges used by one triangle
    std::vector<BendingPair> bendingPairs;     // one per interior edge, in edge order
    // Vertex -> incident triangles (CSR): triangles of vertex v are
    // vertexTriangles[vertexTriangleOffsets[v] .. vertexTriangleOffsets[v + 1]).
    std::vector<std::uint32_t> vertexTriangleOffsets;
    std::vector<std::uint32_t> vertexTriangles;
};

// Builds the adjacency. Throws cloth::Error naming `source` for an edge shared by three or more
// triangles or an index out of range.
Topology buildTopology(const Mesh& mesh, const std::string& source);

// Refuses empty meshes, NaN/Inf coordinates, indices out of range, degenerate (zero-area)
// triangles and non-manifold edges, with a cloth::Error that names `source` and the problem.
void validateMesh(const Mesh& mesh, const std::string& source);
// The test validateMesh refuses a triangle by: its height below 1e-6 of its longest edge
// (collinear or coincident corners, up to float rounding of the input coordinates).
bool degenerateTriangle(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c);

// OBJ through tinyobjloader; polygons are triangulated. Vertices keep the file's order (all `v`
// lines, every one must be used by a face); a vertex's UV is the first `vt` a face gives it,
// with v flipped (1 - v) to the top-down convention above; the corners' UVs are kept as given
// when every corner of every face has one. Throws cloth::Error for a missing,
// unreadable or malformed file (and everything validateMesh refuses).
// Only regular files of at most kMaxObjFileBytes (core/input_file.h) are read.
Mesh loadObj(const std::string& path);
// The same from OBJ text; `source` names it in errors.
Mesh parseObjText(std::string_view text, const std::string& source);

// Writes vertices in order and 1-based faces.
void saveObj(const std::string& path, const std::vector<glm::vec3>& positions,
             const std::vector<glm::uvec3>& triangles);

// One named object of an OBJ file written by saveObjObjects.
struct ObjObject {
    std::string name;
    std::span<const glm::vec3> positions;
    std::span<const glm::vec2> uvs;        // empty, or one per vertex (v top-down, as Mesh's)
    std::span<const glm::vec3> normals;    // empty, or one per vertex
    std::span<const glm::uvec3> triangles;  // indices into this object's vertices
};

// Writes each object as `o NAME` with its `v`, `vt` (v flipped back to OBJ's bottom-up), `vn`
// and `f` lines (v/vt/vn, v//vn or v, with the file's running indices), values written as the
// shortest text that reads back to the same float. A control character in a name becomes `_`
// (an OBJ name ends at the line). Throws cloth::Error naming `path` when it cannot be written.
void saveObjObjects(const std::string& path, std::span<const ObjObject> objects);

}  // namespace cloth
