#include "hand_scenes.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "kernels/constraints.h"
#include "prep/solver_data.h"

namespace cloth::test {

namespace {

struct Raw {
    std::vector<gpu::DistanceConstraint> distance;
    std::vector<gpu::BendingConstraint> bending;
};

// Phantom copies get placeholder indices ~0u - serial until they are placed after all originals.
void addGrid(const HandGrid& g, PreparedCloth& p, Raw& raw, std::vector<glm::vec4>& phantoms,
             std::vector<std::vector<std::uint32_t>>& phantomGroups, std::uint32_t& serial) {
    const std::uint32_t n = g.n, row = n + 1, base = static_cast<std::uint32_t>(p.positions.size());
    const float h = g.size / static_cast<float>(n);
    auto id = [&](std::uint32_t r, std::uint32_t c) { return base + r * row + c; };
    for (std::uint32_t r = 0; r <= n; ++r)
        for (std::uint32_t c = 0; c <= n; ++c) {
            glm::vec3 x = g.origin + glm::vec3(h * c, -h * r, 0.0f);
            p.positions.push_back(glm::vec4(x, 1.0f / g.vertexMass));
            p.velocities.push_back(glm::vec4(0.0f));
            p.uvs.push_back({float(c) / n, float(r) / n});
        }
    auto tri0 = static_cast<std::uint32_t>(p.triangles.size());
    for (std::uint32_t r = 0; r < n; ++r)
        for (std::uint32_t c = 0; c < n; ++c) {
            p.triangles.push_back({id(r, c), id(r + 1, c), id(r + 1, c + 1)});
            p.triangles.push_back({id(r, c), id(r + 1, c + 1), id(r, c + 1)});
        }
    p.cloths.push_back({"hand", tri0, static_cast<std::uint32_t>(p.triangles.size())});

    // Edges from the triangles; bending pairs from edges shared by two triangles.
    std::map<std::pair<std::uint32_t, std::uint32_t>,
             std::vector<std::pair<std::uint32_t, std::uint32_t>>>
        edges;
    for (std::uint32_t t = tri0; t < p.triangles.size(); ++t) {
        glm::uvec3 tr = p.triangles[t];
        std::uint32_t v[3] = {tr.x, tr.y, tr.z};
        for (int k = 0; k < 3; ++k)
            edges[{std::min(v[k], v[(k + 1) % 3]), std::max(v[k], v[(k + 1) % 3])}].push_back(
                {v[k], v[(k + 2) % 3]});  // (first vertex in winding, opposite vertex)
    }
    auto pos = [&](std::uint32_t v) { return glm::vec3(p.positions[v]); };
    for (const auto& [e, sides] : edges) {
        raw.distance.push_back(
            {e.first, e.second, glm::length(pos(e.first) - pos(e.second)), g.stretchParam});
        if (!g.bending || sides.size() != 2) continue;
        std::uint32_t v0 = sides[0].first, v1 = v0 == e.first ? e.second : e.first;
        std::uint32_t v2 = sides[0].second, v3 = sides[1].second;
        float rest = gpu::bendingAngle(pos(v0), pos(v1), pos(v2), pos(v3));
        raw.bending.push_back({v0, v1, v2, v3, rest, g.bendParam, 0u, 0u});
    }

    std::vector<std::uint32_t> anchors = {id(0, 0), id(0, n)};
    for (std::uint32_t a : anchors) {
        if (g.attachTopCorners) {
            gpu::Motion m{};
            m.type = gpu::MOTION_CIRCLE;
            m.radius = 0.1f;
            m.angularSpeed = 6.0f;
            m.phase = a == anchors[0] ? 0.0f : 1.5f;
            m.u = {1.0f, 0.0f, 0.0f, 0.0f};
            m.v = {0.0f, 0.0f, 1.0f, 0.0f};
            p.attachments.push_back(
                {p.positions[a], a, static_cast<std::uint32_t>(p.motions.size()), 0.0f, 0u});
            p.attachments.back().anchor.w = 0.0f;
            p.motions.push_back(m);
        } else if (g.pinTopCorners) {
            p.positions[a].w = 0.0f;
        }
    }
    if (g.tethers && (g.attachTopCorners || g.pinTopCorners)) {
        for (std::uint32_t v = base; v < base + row * row; ++v) {
            if (std::find(anchors.begin(), anchors.end(), v) != anchors.end()) continue;
            std::uint32_t best = anchors[0];
            for (std::uint32_t a : anchors)
                if (glm::length(pos(v) - pos(a)) < glm::length(pos(v) - pos(best))) best = a;
            p.tethers.push_back({v, best, 1.02f * glm::length(pos(v) - pos(best)), 0u});
        }
    }

    gpu::ClothSegment seg{};
    seg.vertexBegin = base;
    seg.vertexEnd = base + row * row;
    seg.linearDamping = g.linearDamping;
    seg.rigidDamping = g.rigidDamping;
    p.segments.push_back(seg);

    if (g.phantomCopies > 0) {
        // Split the centre vertex: its distance constraints go round-robin to it and its copies;
        // the mass is shared equally (inverse mass times the member count).
        std::uint32_t v = id(n / 2, n / 2), members = g.phantomCopies + 1;
        p.positions[v].w *= static_cast<float>(members);
        std::vector<std::uint32_t> group = {v};
        for (std::uint32_t k = 0; k < g.phantomCopies; ++k) {
            phantoms.push_back(p.positions[v]);
            group.push_back(~0u - serial++);
        }
        phantomGroups.push_back(group);
        std::uint32_t next = 0;
        for (auto& d : raw.distance) {
            std::uint32_t* end = d.v0 == v ? &d.v0 : d.v1 == v ? &d.v1 : nullptr;
            if (!end) continue;
            *end = group[next++ % members];
        }
    }
}

// Greedy colouring over both types; then packing by colour.
void colourAndPack(PreparedCloth& p, const Raw& raw) {
    std::vector<std::uint64_t> used(p.positions.size(), 0);
    auto pick = [&](std::initializer_list<std::uint32_t> vs) {
        std::uint64_t mask = 0;
        for (auto v : vs) mask |= used[v];
        std::uint32_t c = 0;
        while (mask & (1ull << c)) ++c;
        for (auto v : vs) used[v] |= 1ull << c;
        return c;
    };
    // Bending first, so that distance constraints fill the same colours: most colours then
    // hold both types (as the real colouring's do).
    std::vector<std::uint32_t> dc, bc;
    for (const auto& b : raw.bending) bc.push_back(pick({b.v0, b.v1, b.v2, b.v3}));
    for (const auto& d : raw.distance) dc.push_back(pick({d.v0, d.v1}));
    std::uint32_t colors = 0;
    for (auto c : dc) colors = std::max(colors, c + 1);
    for (auto c : bc) colors = std::max(colors, c + 1);
    p.resetColors();
    for (std::uint32_t c = 0; c < colors; ++c) {
        for (std::size_t i = 0; i < raw.distance.size(); ++i)
            if (dc[i] == c) p.items<gpu::DistanceConstraint>().push_back(raw.distance[i]);
        for (std::size_t i = 0; i < raw.bending.size(); ++i)
            if (bc[i] == c) p.items<gpu::BendingConstraint>().push_back(raw.bending[i]);
        p.endColor();
    }
}

}  // namespace

PreparedCloth buildHandScene(const HandScene& scene) {
    PreparedCloth p;
    p.sim = scene.sim;
    p.timing = frameTiming(scene.sim, "hand scene");
    Raw raw;
    std::vector<std::vector<glm::vec4>> phantoms(scene.cloths.size());
    std::vector<std::vector<std::vector<std::uint32_t>>> groups(scene.cloths.size());
    std::uint32_t serial = 0;
    for (std::size_t i = 0; i < scene.cloths.size(); ++i)
        addGrid(scene.cloths[i], p, raw, phantoms[i], groups[i], serial);
    p.originalVertexCount = static_cast<std::uint32_t>(p.positions.size());

    // Phantom copies go after all original vertices, grouped by segment; patch their indices.
    std::map<std::uint32_t, std::uint32_t> patch;
    serial = 0;
    for (std::size_t i = 0; i < scene.cloths.size(); ++i) {
        p.segments[i].phantomBegin = static_cast<std::uint32_t>(p.positions.size());
        for (const auto& x : phantoms[i]) {
            patch[~0u - serial++] = static_cast<std::uint32_t>(p.positions.size());
            p.positions.push_back(x);
            p.velocities.push_back(glm::vec4(0.0f));
        }
        p.segments[i].phantomEnd = static_cast<std::uint32_t>(p.positions.size());
    }
    auto patched = [&](std::uint32_t v) { return patch.count(v) ? patch[v] : v; };
    for (std::size_t i = 0; i < scene.cloths.size(); ++i)
        for (auto& group : groups[i]) {
            p.phantomGroups.push_back({static_cast<std::uint32_t>(p.phantomMembers.size()),
                                       static_cast<std::uint32_t>(group.size())});
            for (auto m : group) p.phantomMembers.push_back(patched(m));
        }
    for (auto& d : raw.distance) {
        d.v0 = patched(d.v0);
        d.v1 = patched(d.v1);
    }
    colourAndPack(p, raw);

    // Vertex -> triangles (CSR) over the original vertices.
    p.vertexTriangleOffsets.assign(p.originalVertexCount + 1, 0);
    for (const auto& t : p.triangles)
        for (auto v : {t.x, t.y, t.z}) ++p.vertexTriangleOffsets[v + 1];
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v)
        p.vertexTriangleOffsets[v + 1] += p.vertexTriangleOffsets[v];
    p.vertexTriangles.resize(p.vertexTriangleOffsets.back());
    std::vector<std::uint32_t> fill(p.vertexTriangleOffsets.begin(),
                                    p.vertexTriangleOffsets.end() - 1);
    for (std::uint32_t t = 0; t < p.triangles.size(); ++t)
        for (auto v : {p.triangles[t].x, p.triangles[t].y, p.triangles[t].z})
            p.vertexTriangles[fill[v]++] = t;
    prepareSolverData(p);
    return p;
}

}  // namespace cloth::test
