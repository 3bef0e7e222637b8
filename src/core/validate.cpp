// Mesh validation: everything the solver cannot handle is refused with a message naming the
// source and the problem.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "core/mesh.h"

namespace cloth {

namespace {

// A triangle is degenerate when its height is below this fraction of its longest edge: exactly
// collinear or coincident corners, up to float rounding of the input coordinates.
constexpr double kDegenerateRatio = 1e-6;

std::string str(std::size_t v) {
    return std::to_string(v);
}

void checkNotEmpty(const Mesh& mesh, const std::string& source) {
    if (mesh.positions.empty()) throw Error(source + ": empty mesh (no vertices)");
    if (mesh.triangles.empty()) throw Error(source + ": empty mesh (no triangles)");
    if (!mesh.uvs.empty() && mesh.uvs.size() != mesh.positions.size())
        throw Error(source + ": " + str(mesh.uvs.size()) + " UVs for " +
                    str(mesh.positions.size()) + " vertices");
}

void checkFinite(const Mesh& mesh, const std::string& source) {
    for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
        const glm::vec3& p = mesh.positions[i];
        for (int k = 0; k < 3; ++k) {
            if (std::isnan(p[k]))
                throw Error(source + ": vertex " + str(i) + " has a NaN coordinate");
            if (std::isinf(p[k]))
                throw Error(source + ": vertex " + str(i) + " has an infinite coordinate");
        }
    }
}

void checkIndexRange(const Mesh& mesh, const std::string& source) {
    const std::size_t n = mesh.positions.size();
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
        for (int k = 0; k < 3; ++k)
            if (mesh.triangles[t][k] >= n)
                throw Error(source + ": triangle " + str(t) + " has vertex index " +
                            str(mesh.triangles[t][k]) + " out of range (the mesh has " + str(n) +
                            " vertices)");
}


void checkAreas(const Mesh& mesh, const std::string& source) {
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        const glm::uvec3& tri = mesh.triangles[t];
        glm::dvec3 a(mesh.positions[tri.x]), b(mesh.positions[tri.y]), c(mesh.positions[tri.z]);
        if (degenerateTriangle(a, b, c))
            throw Error(source + ": triangle " + str(t) + " (vertices " + str(tri.x) + ", " +
                        str(tri.y) + ", " + str(tri.z) + ") is degenerate (zero area)");
    }
}

void checkAllVerticesUsed(const Topology& topo, const std::string& source) {
    const auto& off = topo.vertexTriangleOffsets;
    for (std::size_t v = 0; v + 1 < off.size(); ++v)
        if (off[v] == off[v + 1])
            throw Error(source + ": vertex " + str(v) +
                        " is not used by any triangle (it would have no mass)");
}

}  // namespace

void validateMesh(const Mesh& mesh, const std::string& source) {
    checkNotEmpty(mesh, source);
    checkFinite(mesh, source);
    checkIndexRange(mesh, source);
    checkAreas(mesh, source);
    Topology topo = buildTopology(mesh, source);  // refuses non-manifold edges
    checkAllVerticesUsed(topo, source);
}

bool degenerateTriangle(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c) {
    double twiceArea = glm::length(glm::cross(b - a, c - a));
    double longest = std::max({glm::length(b - a), glm::length(c - b), glm::length(a - c)});
    // height = twiceArea / longest; degenerate when height <= ratio * longest.
    return !(twiceArea > kDegenerateRatio * longest * longest);
}

}  // namespace cloth
