// Collider meshes: closed, consistently oriented, wound outward (see collider_mesh.h).
#include "core/collider_mesh.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "core/error.h"
#include "core/json_node.h"

namespace cloth {

namespace {

using detail::shortNumber;

std::string str(std::size_t v) {
    return std::to_string(v);
}

std::string edgeName(std::uint32_t a, std::uint32_t b) {
    std::string s = "edge (";  // appended piecewise: gcc 12 warns falsely on "(" + std::string
    s += str(a);
    s += ", ";
    s += str(b);
    s += ")";
    return s;
}

std::string triangleName(const Mesh& mesh, std::size_t t) {
    const glm::uvec3& tri = mesh.triangles[t];
    return "triangle " + str(t) + " (vertices " + str(tri.x) + ", " + str(tri.y) + ", " +
           str(tri.z) + ")";
}

// The triangles using one undirected edge, in triangle order, and the direction each runs it.
struct EdgeUse {
    std::uint32_t count = 0;
    std::uint32_t tri[2] = {0, 0};
    bool forward[2] = {false, false};  // runs the edge from its smaller vertex to its larger
};

std::uint64_t edgeKey(std::uint32_t a, std::uint32_t b) {
    return (std::uint64_t(std::min(a, b)) << 32) | std::max(a, b);
}

// Every edge used by two triangles that run it in opposite directions; the first edge that is
// not, in triangle order, is the error.
void checkClosedAndOriented(const Mesh& mesh, const std::string& source) {
    std::unordered_map<std::uint64_t, EdgeUse> uses;
    uses.reserve(mesh.triangles.size() * 2);
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = mesh.triangles[t][k], b = mesh.triangles[t][(k + 1) % 3];
            EdgeUse& u = uses[edgeKey(a, b)];
            if (u.count < 2) {
                u.tri[u.count] = std::uint32_t(t);
                u.forward[u.count] = a < b;
            }
            ++u.count;
        }
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = mesh.triangles[t][k], b = mesh.triangles[t][(k + 1) % 3];
            const EdgeUse& u = uses.at(edgeKey(a, b));
            const std::string where =
                source + ": not a closed mesh: " + edgeName(a, b) + " of " + triangleName(mesh, t);
            if (u.count == 1)
                throw Error(where +
                            " belongs to no other triangle (a hole; a collider mesh must be "
                            "closed)");
            if (u.count > 2)
                throw Error(where + " is shared by " + str(u.count) +
                            " triangles (every edge of a collider mesh needs exactly two)");
            if (u.forward[0] == u.forward[1]) {
                const std::uint32_t other = u.tri[0] == t ? u.tri[1] : u.tri[0];
                throw Error(source + ": inconsistently oriented: " + triangleName(mesh, t) +
                            " and " + triangleName(mesh, other) + " both run " + edgeName(a, b) +
                            " from " + str(a) + " to " + str(b) +
                            " (neighbours must run a shared edge in opposite directions)");
            }
        }
}

// Six times the signed volume (divergence theorem over the triangles, relative to the first
// vertex for precision); positive when the triangles wind counter-clockwise seen from outside.
double sixVolume(const Mesh& mesh) {
    const glm::dvec3 o(mesh.positions[0]);
    double sum = 0.0;
    for (const glm::uvec3& tri : mesh.triangles) {
        const glm::dvec3 a = glm::dvec3(mesh.positions[tri.x]) - o;
        const glm::dvec3 b = glm::dvec3(mesh.positions[tri.y]) - o;
        const glm::dvec3 c = glm::dvec3(mesh.positions[tri.z]) - o;
        sum += glm::dot(a, glm::cross(b, c));
    }
    return sum;
}

// Positive volume, beyond rounding: a volume below 1e-9 of the bounding box's diagonal cubed
// (a flat sheet glued back to back, say) counts as none.
void checkOutward(const Mesh& mesh, const std::string& source) {
    glm::dvec3 lo(mesh.positions[0]), hi(mesh.positions[0]);
    for (const glm::vec3& p : mesh.positions) {
        lo = glm::min(lo, glm::dvec3(p));
        hi = glm::max(hi, glm::dvec3(p));
    }
    const double diag = glm::length(hi - lo);
    const double volume = sixVolume(mesh) / 6.0;
    const double tiny = 1e-9 * diag * diag * diag;
    if (volume < -tiny)
        throw Error(source + ": inside out: the signed volume is " + shortNumber(volume) +
                    " (negative): the triangles wind clockwise seen from outside, so their "
                    "normals point inward (" +
                    triangleName(mesh, 0) +
                    " among them); a collider mesh needs counter-clockwise winding seen from "
                    "outside");
    if (!(volume > tiny))
        throw Error(source + ": encloses no volume (signed volume " + shortNumber(volume) +
                    "); a collider mesh must bound a solid");
}

}  // namespace

void validateClosedMesh(const Mesh& mesh, const std::string& source) {
    validateMesh(mesh, source);  // indices in range, no degenerate or non-manifold triangles
    checkClosedAndOriented(mesh, source);
    checkOutward(mesh, source);
}

Mesh loadColliderMesh(const std::string& path) {
    Mesh mesh = loadObj(path);
    validateClosedMesh(mesh, path);
    return mesh;
}

}  // namespace cloth
