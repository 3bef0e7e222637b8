#include "prep/sewing.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "core/error.h"
#include "core/limits.h"
#include "prep/prepare.h"
#include "prep/solver_data.h"

namespace cloth {

namespace {

// Union-find over original vertices; the root of a set is its group's vertex.
struct Groups {
    std::vector<std::uint32_t> parent;
    explicit Groups(std::uint32_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
    std::uint32_t find(std::uint32_t v) {
        while (parent[v] != v) v = parent[v] = parent[parent[v]];
        return v;
    }
};

std::string seamSource(const Scene& scene, std::uint32_t i) {
    return "scene '" + scene.name + "': seams[" + std::to_string(i) + "]";
}

// Pinned (or in no triangle: inverse mass 0) or attached: a vertex the solver places itself.
std::vector<bool> anchoredVertices(const PreparedCloth& p) {
    std::vector<bool> anchored(p.originalVertexCount, false);
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v)
        anchored[v] = p.positions[v].w <= 0.0f;
    for (const gpu::Attachment& a : p.attachments) anchored[a.vertex] = true;
    return anchored;
}

// Items of one type with every vertex replaced by its group's; items whose vertices are no
// longer distinct are dropped.
template <class Item, int V>
std::vector<Item> rewriteItems(const std::vector<Item>& items,
                               const std::vector<std::uint32_t>& rep) {
    std::vector<Item> out;
    out.reserve(items.size());
    for (Item c : items) {
        std::uint32_t vs[V];
        bool distinct = true;
        for (int k = 0; k < V; ++k) {
            vs[k] = rep[gpu::itemVertex(c, k)];
            for (int j = 0; j < k; ++j) distinct = distinct && vs[j] != vs[k];
            gpu::setItemVertex(c, k, vs[k]);
        }
        if (distinct) out.push_back(c);
    }
    return out;
}

void rewriteTriangles(PreparedCloth& p, const std::vector<std::uint32_t>& rep) {
    std::vector<glm::uvec3> out;
    std::vector<std::array<glm::vec3, 3>> rest;
    out.reserve(p.triangles.size());
    for (ClothInfo& info : p.cloths) {
        const std::uint32_t begin = static_cast<std::uint32_t>(out.size());
        for (std::uint32_t t = info.triangleBegin; t < info.triangleEnd; ++t) {
            const glm::uvec3 r(rep[p.triangles[t].x], rep[p.triangles[t].y], rep[p.triangles[t].z]);
            if (r.x == r.y || r.y == r.z || r.x == r.z) continue;
            out.push_back(r);
            if (!p.restCorners.empty()) rest.push_back(p.restCorners[t]);
        }
        info.triangleBegin = begin;
        info.triangleEnd = static_cast<std::uint32_t>(out.size());
    }
    p.triangles = std::move(out);
    p.restCorners = std::move(rest);
}

// The other models' terms (springs, PD's triangles and bends, FEM's triangles and bends, the angle springs) with every vertex
// replaced by its group's; a term whose vertices are no longer distinct is dropped, and so is a
// seam's term (a spring of rest length 0, PD's seam term) once its pair is one vertex.
void rewriteModelTerms(PreparedCloth& p, const std::vector<std::uint32_t>& rep) {
    std::vector<gpu::Spring> springs;
    for (gpu::Spring s : p.springTerms.springs) {
        const std::uint32_t a = rep[s.a], b = rep[s.b];
        if (a == b) continue;
        s.a = std::min(a, b);
        s.b = std::max(a, b);
        springs.push_back(s);
    }
    p.springTerms.springs = std::move(springs);
    auto triangles = [&](std::vector<gpu::PdTriangle>& terms) {
        std::vector<gpu::PdTriangle> out;
        for (gpu::PdTriangle t : terms) {
            t.v0 = rep[t.v0], t.v1 = rep[t.v1], t.v2 = rep[t.v2];
            if (t.v0 != t.v1 && t.v1 != t.v2 && t.v0 != t.v2) out.push_back(t);
        }
        terms = std::move(out);
    };
    triangles(p.pdTerms.triangles);
    triangles(p.femTerms.triangles);
    auto bends = [&](std::vector<gpu::PdBend>& terms) {
        std::vector<gpu::PdBend> out;
        for (gpu::PdBend b : terms) {
            b.v0 = rep[b.v0], b.v1 = rep[b.v1], b.v2 = rep[b.v2], b.v3 = rep[b.v3];
            const bool distinct = b.kind == gpu::PD_TERM_SEAM ? b.v0 != b.v1
                                               : b.v0 != b.v1 && b.v0 != b.v2 && b.v0 != b.v3 &&
                                                     b.v1 != b.v2 && b.v1 != b.v3 && b.v2 != b.v3;
            if (distinct) out.push_back(b);
        }
        terms = std::move(out);
    };
    bends(p.pdTerms.bends);
    bends(p.femTerms.bends);
    std::vector<gpu::FixedAngleConstraint> angles;
    for (gpu::FixedAngleConstraint a : p.springTerms.angles) {
        a.v0 = rep[a.v0], a.v1 = rep[a.v1], a.v2 = rep[a.v2], a.v3 = rep[a.v3];
        if (a.v0 != a.v1 && a.v0 != a.v2 && a.v0 != a.v3 && a.v1 != a.v2 && a.v1 != a.v3 &&
            a.v2 != a.v3)
            angles.push_back(a);
    }
    p.springTerms.angles = std::move(angles);
}

// Tethers on a group's vertex: none when it is pinned or attached, else the shortest of its
// members' (the first of equals); anchors move to their group's vertex.
void rewriteTethers(PreparedCloth& p, const std::vector<std::uint32_t>& rep) {
    std::vector<bool> attached(p.originalVertexCount, false);
    for (const gpu::Attachment& a : p.attachments) attached[a.vertex] = true;
    std::vector<std::uint32_t> slot(p.originalVertexCount, UINT32_MAX);
    std::vector<gpu::Tether> out;
    for (gpu::Tether t : p.tethers) {
        t.vertex = rep[t.vertex];
        t.anchor = rep[t.anchor];
        if (t.vertex == t.anchor || attached[t.vertex] || p.positions[t.vertex].w <= 0.0f) continue;
        std::uint32_t& s = slot[t.vertex];
        if (s == UINT32_MAX) {
            s = static_cast<std::uint32_t>(out.size());
            out.push_back(t);
        } else if (t.maxLength < out[s].maxLength) {
            out[s] = t;
        }
    }
    p.tethers = std::move(out);
}

// Inverse masses of the groups: the members' masses add up, pinned if any member is; the other
// members get inverse mass 0. Single vertices keep theirs exactly.
void mergeMasses(PreparedCloth& p, const std::vector<std::uint32_t>& rep) {
    const std::uint32_t n = p.originalVertexCount;
    std::vector<float> mass(n, 0.0f);
    std::vector<std::uint32_t> members(n, 0);
    std::vector<bool> pinned(n, false);
    for (std::uint32_t v = 0; v < n; ++v) {
        const std::uint32_t r = rep[v];
        ++members[r];
        if (p.positions[v].w <= 0.0f)
            pinned[r] = true;
        else
            mass[r] += 1.0f / p.positions[v].w;
    }
    for (std::uint32_t v = 0; v < n; ++v) {
        if (rep[v] != v)
            p.positions[v].w = 0.0f;
        else if (members[v] > 1)
            p.positions[v].w = pinned[v] ? 0.0f : 1.0f / mass[v];
    }
}

// The state of the merged data: a group made of one current vertex keeps that vertex's state
// exactly; a group joining several takes their mass-weighted mean (masses from the unmerged
// data), or the pinned one's state. Merged members sit at their group's vertex.
void carrySewnState(const PreparedCloth& current, const PreparedCloth& base,
                    const std::vector<std::uint32_t>& rep, const SewingState& s,
                    PreparedCloth& next) {
    const std::uint32_t n = base.originalVertexCount;
    auto shown = [&](std::uint32_t v) { return current.shownAt.empty() ? v : current.shownAt[v]; };
    // Mass of each current vertex's group (pinned: infinite).
    std::vector<float> mass(n, 0.0f);
    std::vector<bool> pinned(n, false);
    for (std::uint32_t v = 0; v < n; ++v) {
        const float w = base.positions[v].w;
        if (w <= 0.0f)
            pinned[shown(v)] = true;
        else
            mass[shown(v)] += 1.0f / w;
    }
    std::vector<glm::vec3> x(n, glm::vec3(0.0f)), u(n, glm::vec3(0.0f));
    std::vector<float> total(n, 0.0f);
    std::vector<std::uint32_t> parts(n, 0), first(n, 0);
    std::vector<bool> pinnedGroup(n, false);
    for (std::uint32_t c = 0; c < n; ++c) {
        if (shown(c) != c) continue;  // merged before: its state is its group's vertex's
        const std::uint32_t r = rep[c];
        if (parts[r]++ == 0) first[r] = c;
        if (pinnedGroup[r]) continue;
        if (pinned[c]) {
            pinnedGroup[r] = true;
            x[r] = glm::vec3(s.positions[c]);
            u[r] = glm::vec3(s.velocities[c]);
            continue;
        }
        x[r] += mass[c] * glm::vec3(s.positions[c]);
        u[r] += mass[c] * glm::vec3(s.velocities[c]);
        total[r] += mass[c];
    }
    for (std::uint32_t v = 0; v < n; ++v) {
        const std::uint32_t r = rep[v];
        glm::vec3 xv, uv;
        if (parts[r] == 1) {
            xv = glm::vec3(s.positions[first[r]]);
            uv = glm::vec3(s.velocities[first[r]]);
        } else if (pinnedGroup[r]) {
            xv = x[r];
            uv = u[r];
        } else {
            xv = x[r] / total[r];
            uv = u[r] / total[r];
        }
        next.positions[v] = glm::vec4(xv, next.positions[v].w);
        next.velocities[v] = glm::vec4(uv, 0.0f);
    }
}

}  // namespace

void addSeams(const Scene& scene, PreparedCloth& p) {
    if (scene.seams.empty()) return;
    const std::vector<bool> anchored = anchoredVertices(p);
    Groups groups(p.originalVertexCount);
    std::vector<std::uint32_t> anchorOf(p.originalVertexCount, UINT32_MAX);
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v)
        if (anchored[v]) anchorOf[v] = v;
    const bool pbd = scene.sim.mode == SolverMode::Pbd;
    for (std::uint32_t i = 0; i < scene.seams.size(); ++i) {
        const SeamDesc& seam = scene.seams[i];
        const std::string source = seamSource(scene, i);
        for (std::uint32_t c : {seam.a.cloth, seam.b.cloth})
            if (c >= scene.cloths.size())
                throw Error(source + ": no cloth " + std::to_string(c) + " (the scene has " +
                            std::to_string(scene.cloths.size()) + ")");
        if (!(seam.compliance >= 0.0f && seam.compliance <= limits::kMaxCompliance))
            throw Error(source + ": compliance out of range [0, 1e6]");
        if (!(seam.mergeDistance >= 0.0f && seam.mergeDistance <= limits::kMaxCoordinate))
            throw Error(source + ": merge distance out of range [0, 10000] m");
        const Mesh ma = buildClothMesh(scene.cloths[seam.a.cloth]);
        const Mesh mb =
            seam.b.cloth == seam.a.cloth ? ma : buildClothMesh(scene.cloths[seam.b.cloth]);
        const std::uint32_t baseA = p.segments[seam.a.cloth].vertexBegin;
        const std::uint32_t baseB = p.segments[seam.b.cloth].vertexBegin;
        for (auto [la, lb] : seamChainPairs(seam, ma, mb, source)) {
            SeamPair pair;
            pair.a = baseA + la;
            pair.b = baseB + lb;
            pair.seam = i;
            pair.mergeDistance = seam.mergeDistance;
            const std::uint32_t ra = groups.find(pair.a), rb = groups.find(pair.b);
            if (ra != rb) {
                if (anchorOf[ra] != UINT32_MAX && anchorOf[rb] != UINT32_MAX)
                    throw Error(source + ": vertex " + std::to_string(la) + " of cloth " +
                                std::to_string(seam.a.cloth) + " and vertex " + std::to_string(lb) +
                                " of cloth " + std::to_string(seam.b.cloth) +
                                " would be sewn into one vertex with two pinned or attached " +
                                "vertices (global " + std::to_string(anchorOf[ra]) + " and " +
                                std::to_string(anchorOf[rb]) +
                                "); at most one vertex of a sewn group may be pinned or attached");
                groups.parent[rb] = ra;
                if (anchorOf[ra] == UINT32_MAX) anchorOf[ra] = anchorOf[rb];
            }
            gpu::DistanceConstraint c{};
            c.v0 = pair.a;
            c.v1 = pair.b;
            c.restLength = 0.0f;
            c.param = pbd ? 1.0f : seam.compliance;
            p.items<gpu::DistanceConstraint>().push_back(c);
            p.seamPairs.push_back(pair);
        }
    }
}

std::vector<std::uint32_t> seamPairsToMerge(const PreparedCloth& p,
                                            const std::vector<glm::vec4>& positions) {
    std::vector<std::uint32_t> out;
    auto shown = [&](std::uint32_t v) { return p.shownAt.empty() ? v : p.shownAt[v]; };
    for (std::uint32_t i = 0; i < p.seamPairs.size(); ++i) {
        const SeamPair& s = p.seamPairs[i];
        if (s.merged) continue;
        const glm::dvec3 d = glm::dvec3(glm::vec3(positions[shown(s.a)])) -
                             glm::dvec3(glm::vec3(positions[shown(s.b)]));
        const double md = s.mergeDistance;
        if (glm::dot(d, d) < md * md) out.push_back(i);
    }
    return out;
}

PreparedCloth mergeSeamPairs(const PreparedCloth& current, const std::vector<std::uint32_t>& pairs,
                             const SewingState& state) {
    CLOTH_ASSERT(current.sewingBase);
    CLOTH_ASSERT(state.positions.size() == current.positions.size() &&
                 state.velocities.size() >= current.originalVertexCount);
    const SewingBase& base = *current.sewingBase;
    const std::uint32_t n = base.uncoloured.originalVertexCount;
    std::vector<SeamPair> seamPairs = current.seamPairs;
    std::vector<SeamMerge> merges = current.run.seamMerges;
    auto merge = [&](std::uint32_t i) {
        seamPairs[i].merged = true;
        merges.push_back({i, state.time});
    };
    for (std::uint32_t i : pairs) {
        CLOTH_ASSERT(i < seamPairs.size());
        if (!seamPairs[i].merged) merge(i);
    }
    Groups groups(n);
    for (const SeamPair& s : seamPairs) {
        if (!s.merged) continue;
        const std::uint32_t ra = groups.find(s.a), rb = groups.find(s.b);
        if (ra != rb) groups.parent[rb] = ra;
    }
    std::vector<std::uint32_t> rep(n);
    for (std::uint32_t v = 0; v < n; ++v) rep[v] = groups.find(v);
    // Pairs whose vertices other pairs joined are merged too.
    for (std::uint32_t i = 0; i < seamPairs.size(); ++i)
        if (!seamPairs[i].merged && rep[seamPairs[i].a] == rep[seamPairs[i].b]) merge(i);

    PreparedCloth next = base.uncoloured;
    mergeMasses(next, rep);
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        auto& items = next.items<typename T::Item>();
        items = rewriteItems<typename T::Item, T::kVertices>(items, rep);
    });
    rewriteTriangles(next, rep);
    rewriteModelTerms(next, rep);
    for (gpu::Attachment& a : next.attachments) a.vertex = rep[a.vertex];
    rewriteTethers(next, rep);
    buildVertexTriangles(next);
    carrySewnState(current, base.uncoloured, rep, state, next);
    colorAndPack(next, base.phantoms);  // phantom copies start at their original's state
    if (next.sim.wind)
        buildWindVertices(next, base.uncoloured.positions, base.uncoloured.triangles, rep);
    next.seamPairs = std::move(seamPairs);
    next.shownAt = std::move(rep);
    next.sewingBase = current.sewingBase;
    next.run.sewingRebuilds = current.run.sewingRebuilds + 1;
    next.run.time = state.time;
    next.run.seamMerges = std::move(merges);
    next.stats.prepareMs = current.stats.prepareMs;
    prepareSolverData(next);
    return next;
}

void showMergedVertices(const PreparedCloth& p, std::vector<glm::vec4>& positions) {
    for (std::uint32_t v = 0; v < p.shownAt.size(); ++v)
        if (p.shownAt[v] != v)
            positions[v] = glm::vec4(glm::vec3(positions[p.shownAt[v]]), positions[v].w);
}

float seamStiffness(const Scene& scene, const SeamPair& pair, double hard) {
    const float c = scene.seams[pair.seam].compliance;
    if (c > 0.0f) return float(1.0 / double(c));
    if (!(hard > 0.0))
        throw Error(seamSource(scene, pair.seam) + ": a hard seam (compliance 0) takes the "
                    "stiffness of the cloths' stiffest term, and they have none; give the seam a "
                    "compliance");
    return float(hard);
}

std::uint32_t mergedSeamPairCount(const PreparedCloth& p) {
    std::uint32_t n = 0;
    for (const SeamPair& s : p.seamPairs) n += s.merged ? 1u : 0u;
    return n;
}

bool hasUnmergedSeamPairs(const PreparedCloth& p) {
    for (const SeamPair& s : p.seamPairs)
        if (!s.merged && s.mergeDistance > 0.0f) return true;
    return false;
}

}  // namespace cloth
