// Vertex selections: indices, named regions of the bounding box, boxes.
#include <algorithm>
#include <iterator>
#include <limits>
#include <string>

#include "core/error.h"
#include "core/scene.h"

namespace cloth {

namespace {

struct Bounds {
    glm::vec3 min{std::numeric_limits<float>::max()};
    glm::vec3 max{std::numeric_limits<float>::lowest()};
    float tol = 0.0f;  // 1e-4 of the diagonal
};

Bounds boundsOf(const Mesh& mesh) {
    Bounds b;
    for (const glm::vec3& p : mesh.positions) {
        b.min = glm::min(b.min, p);
        b.max = glm::max(b.max, p);
    }
    if (!mesh.positions.empty()) b.tol = 1e-4f * glm::length(b.max - b.min);
    return b;
}

// Vertices on one side of the box: axis 0 = x, 1 = y; high = max side.
void selectSide(const Mesh& mesh, const Bounds& b, int axis, bool high,
                std::vector<std::uint32_t>& out) {
    for (std::uint32_t i = 0; i < mesh.positions.size(); ++i) {
        float v = mesh.positions[i][axis];
        if (high ? v >= b.max[axis] - b.tol : v <= b.min[axis] + b.tol) out.push_back(i);
    }
}

// The leftmost and rightmost vertices of the top (or bottom) edge set. Ties within the
// tolerance go to the vertex further out in y (top or bottom), then to the lower index.
void selectCorners(const Mesh& mesh, const Bounds& b, bool top, std::vector<std::uint32_t>& out) {
    std::vector<std::uint32_t> edge;
    selectSide(mesh, b, 1, top, edge);
    if (edge.empty()) return;
    auto pick = [&](bool right) {
        std::uint32_t best = edge[0];
        for (std::uint32_t i : edge) {
            const glm::vec3 &p = mesh.positions[i], &q = mesh.positions[best];
            float dx = right ? p.x - q.x : q.x - p.x;  // > 0: i is further out
            float dy = top ? p.y - q.y : q.y - p.y;
            if (dx > b.tol || (dx >= -b.tol && dy > 0.0f)) best = i;
        }
        return best;
    };
    out.push_back(pick(false));
    out.push_back(pick(true));
}

void selectRegion(const Mesh& mesh, const Bounds& b, const std::string& region,
                  const std::string& source, std::vector<std::uint32_t>& out) {
    if (region == "top_edge") return selectSide(mesh, b, 1, true, out);
    if (region == "bottom_edge") return selectSide(mesh, b, 1, false, out);
    if (region == "left_edge") return selectSide(mesh, b, 0, false, out);
    if (region == "right_edge") return selectSide(mesh, b, 0, true, out);
    if (region == "top_corners") return selectCorners(mesh, b, true, out);
    if (region == "bottom_corners") return selectCorners(mesh, b, false, out);
    if (region == "all") {
        for (std::uint32_t i = 0; i < mesh.positions.size(); ++i) out.push_back(i);
        return;
    }
    throw Error(source + ": unknown region '" + region + "' (expected " + regionNameList() + ")");
}

bool inside(const Box& box, const glm::vec3& p) {
    return glm::all(glm::greaterThanEqual(p, box.min)) && glm::all(glm::lessThanEqual(p, box.max));
}

}  // namespace

const std::vector<std::string>& regionNames() {
    static const std::vector<std::string> names = {"top_edge",   "bottom_edge", "left_edge",
                                                   "right_edge", "top_corners", "bottom_corners",
                                                   "all"};
    return names;
}

std::string regionNameList() {
    std::string s;
    for (const std::string& n : regionNames()) s += (s.empty() ? "" : ", ") + n;
    return s;
}

std::vector<std::uint32_t> selectVertices(const Mesh& mesh, const VertexSelection& sel,
                                          const std::string& source) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t i : sel.indices) {
        if (i >= mesh.positions.size())
            throw Error(source + ": vertex index " + std::to_string(i) +
                        " out of range (the mesh has " + std::to_string(mesh.positions.size()) +
                        " vertices)");
        out.push_back(i);
    }
    if (!sel.regions.empty()) {
        Bounds b = boundsOf(mesh);
        for (const std::string& r : sel.regions) selectRegion(mesh, b, r, source, out);
    }
    for (const Box& box : sel.boxes)
        for (std::uint32_t i = 0; i < mesh.positions.size(); ++i)
            if (inside(box, mesh.positions[i])) out.push_back(i);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace cloth

namespace cloth {

std::vector<std::pair<std::uint32_t, std::uint32_t>> seamChainPairs(const SeamDesc& seam,
                                                                     const Mesh& meshA,
                                                                     const Mesh& meshB,
                                                                     const std::string& source) {
    const std::vector<std::uint32_t> a = selectVertices(meshA, seam.a.vertices, source + " a");
    std::vector<std::uint32_t> b = selectVertices(meshB, seam.b.vertices, source + " b");
    if (a.empty() || b.empty())
        throw Error(source + ": side " + (a.empty() ? "a" : "b") + " selects no vertices");
    if (a.size() != b.size())
        throw Error(source + ": the chains differ in length (a has " + std::to_string(a.size()) +
                    " vertices, b " + std::to_string(b.size()) +
                    "); a seam pairs its two chains vertex by vertex");
    if (seam.reverse) std::reverse(b.begin(), b.end());
    if (seam.a.cloth == seam.b.cloth) {
        std::vector<std::uint32_t> both;
        std::vector<std::uint32_t> sortedB(b);
        std::sort(sortedB.begin(), sortedB.end());
        std::set_intersection(a.begin(), a.end(), sortedB.begin(), sortedB.end(),
                              std::back_inserter(both));
        if (!both.empty())
            throw Error(source + ": vertex " + std::to_string(both.front()) +
                        " is on both sides of the seam");
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    pairs.reserve(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) pairs.emplace_back(a[i], b[i]);
    return pairs;
}

}  // namespace cloth
