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

float distanceToSegment(const glm::vec3& p, const Segment& s) {
    const glm::vec3 d = s.to - s.from;
    const float len2 = glm::dot(d, d);
    float t = len2 > 0.0f ? glm::dot(p - s.from, d) / len2 : 0.0f;
    t = std::clamp(t, 0.0f, 1.0f);
    return glm::length(p - (s.from + t * d));
}

}  // namespace

std::vector<std::uint32_t> selectInteriorEdges(const Mesh& mesh, const Topology& topo,
                                               const EdgeSelection& sel,
                                               const std::string& source) {
    // Interior edge index by its (min, max) vertex pair: bendingPairs follow topo.edges' order.
    auto key = [](std::uint32_t a, std::uint32_t b) {
        return glm::uvec2(std::min(a, b), std::max(a, b));
    };
    std::vector<glm::uvec2> interior;
    interior.reserve(topo.bendingPairs.size());
    for (const BendingPair& p : topo.bendingPairs) interior.push_back(key(p.v0, p.v1));
    auto less = [](const glm::uvec2& a, const glm::uvec2& b) {
        return a.x < b.x || (a.x == b.x && a.y < b.y);
    };
    std::vector<std::uint32_t> order(interior.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return less(interior[a], interior[b]); });

    std::vector<std::uint32_t> out;
    for (const glm::uvec2& e : sel.edges) {
        for (std::uint32_t v : {e.x, e.y})
            if (v >= mesh.positions.size())
                throw Error(source + ": vertex index " + std::to_string(v) +
                            " out of range (the mesh has " +
                            std::to_string(mesh.positions.size()) + " vertices)");
        const glm::uvec2 k = key(e.x, e.y);
        auto it = std::lower_bound(order.begin(), order.end(), k,
                                   [&](std::uint32_t i, const glm::uvec2& v) {
                                       return less(interior[i], v);
                                   });
        if (it == order.end() || interior[*it] != k)
            throw Error(source + ": (" + std::to_string(e.x) + ", " + std::to_string(e.y) +
                        ") is not an interior edge of the mesh (two triangles must share it)");
        out.push_back(*it);
    }
    if (!sel.lines.empty() || !sel.boxes.empty()) {
        const float tol = boundsOf(mesh).tol;
        for (std::uint32_t i = 0; i < interior.size(); ++i) {
            const glm::vec3 &a = mesh.positions[interior[i].x], &b = mesh.positions[interior[i].y];
            bool picked = false;
            for (const Segment& s : sel.lines)
                picked = picked || (distanceToSegment(a, s) <= tol && distanceToSegment(b, s) <= tol);
            for (const Box& box : sel.boxes) picked = picked || (inside(box, a) && inside(box, b));
            if (picked) out.push_back(i);
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

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
