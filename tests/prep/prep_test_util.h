// Helpers shared by the prep tests: irregular meshes, constraints from a mesh, and a brute-force
// check of coloured batches that does not use the colouring code.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/mesh.h"
#include "prep/prepared.h"

namespace cloth::test {

// Runs `f`, expects a cloth::Error whose message contains every fragment.
inline ::testing::AssertionResult throwsError(const std::function<void()>& f,
                                              std::initializer_list<std::string> fragments) {
    try {
        f();
    } catch (const Error& e) {
        const std::string msg = e.what();
        for (const std::string& frag : fragments)
            if (msg.find(frag) == std::string::npos)
                return ::testing::AssertionFailure()
                       << "message \"" << msg << "\" lacks \"" << frag << "\"";
        return ::testing::AssertionSuccess();
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure() << "threw a non-cloth::Error: " << e.what();
    }
    return ::testing::AssertionFailure() << "did not throw";
}

// The source tree (set by ctest; falls back to the compile-time path).
inline std::string sourceDir() {
    const char* env = std::getenv("CLOTH_SOURCE_DIR");
    return env ? env : CLOTH_TEST_SOURCE_DIR;
}

// A grid with random diagonals, its interior vertices jittered, and about `removeShare` of its
// triangles removed at random (unreferenced vertices remain).
inline Mesh irregularMesh(std::uint32_t res, double removeShare, std::uint32_t seed) {
    GridDesc d;
    d.resX = res;
    d.resY = res;
    d.pattern = GridPattern::Random;
    d.seed = seed;
    Mesh m = makeGrid(d);
    std::mt19937 rng(seed);
    const float h = 1.0f / float(res);
    std::uniform_real_distribution<float> jitter(-0.3f * h, 0.3f * h);
    for (std::uint32_t r = 1; r < res; ++r)
        for (std::uint32_t c = 1; c < res; ++c) {
            glm::vec3& p = m.positions[r * (res + 1) + c];
            p.x += jitter(rng);
            p.y += jitter(rng);
            p.z += jitter(rng);
        }
    std::bernoulli_distribution drop(removeShare);
    std::vector<glm::uvec3> kept;
    for (const glm::uvec3& t : m.triangles)
        if (!drop(rng)) kept.push_back(t);
    m.triangles = kept;
    return m;
}

// A disc: a centre vertex of valence `segments` and `rings` rings of `segments` vertices, each
// quad between rings split along alternating diagonals. Vertices of valence up to `segments`.
inline Mesh discMesh(std::uint32_t rings, std::uint32_t segments) {
    Mesh m;
    m.positions.emplace_back(0.0f);
    for (std::uint32_t r = 1; r <= rings; ++r)
        for (std::uint32_t s = 0; s < segments; ++s) {
            const float a = 6.2831853f * (float(s) + 0.5f * float(r % 2)) / float(segments);
            m.positions.emplace_back(float(r) * std::cos(a), float(r) * std::sin(a), 0.0f);
        }
    auto at = [&](std::uint32_t r, std::uint32_t s) {
        return r == 0 ? 0u : 1 + (r - 1) * segments + s % segments;
    };
    for (std::uint32_t s = 0; s < segments; ++s)
        m.triangles.emplace_back(0, at(1, s), at(1, s + 1));
    for (std::uint32_t r = 1; r < rings; ++r)
        for (std::uint32_t s = 0; s < segments; ++s) {
            const std::uint32_t a = at(r, s), b = at(r, s + 1), c = at(r + 1, s),
                                e = at(r + 1, s + 1);
            if ((r + s) % 2) {
                m.triangles.emplace_back(a, c, e);
                m.triangles.emplace_back(a, e, b);
            } else {
                m.triangles.emplace_back(a, c, b);
                m.triangles.emplace_back(b, c, e);
            }
        }
    return m;
}

// Positions (inverse mass 1) and uncoloured distance (and optionally bending) constraints.
inline PreparedCloth constraintsOf(const Mesh& mesh, bool bending) {
    const Topology topo = buildTopology(mesh, "test mesh");
    PreparedCloth p;
    for (const glm::vec3& x : mesh.positions) p.positions.emplace_back(x, 1.0f);
    p.originalVertexCount = p.vertexCount();
    p.velocities.assign(p.vertexCount(), glm::vec4(0.0f));
    gpu::ClothSegment seg{};
    seg.vertexEnd = seg.phantomBegin = seg.phantomEnd = p.vertexCount();
    p.segments.push_back(seg);
    for (const glm::uvec2& e : topo.edges) p.items<gpu::DistanceConstraint>().push_back({e.x, e.y, 0.0f, 0.0f});
    if (bending)
        for (const BendingPair& b : topo.bendingPairs)
            p.items<gpu::BendingConstraint>().push_back({b.v0, b.v1, b.v2, b.v3, 0.0f, 0.0f, 0, 0});
    return p;
}

using Tuple = std::array<std::uint32_t, 4>;
inline std::vector<Tuple> constraintTuples(const PreparedCloth& p) {
    std::vector<Tuple> out;
    for (const auto& c : p.items<gpu::DistanceConstraint>()) out.push_back({c.v0, c.v1, UINT32_MAX, UINT32_MAX});
    for (const auto& c : p.items<gpu::BendingConstraint>()) out.push_back({c.v0, c.v1, c.v2, c.v3});
    std::sort(out.begin(), out.end());
    return out;
}

// Every colour's batches (both types together) touch each vertex at most once; offsets are
// well formed and cover the arrays; every colour is used.
inline ::testing::AssertionResult batchesAreValid(const PreparedCloth& p) {
    const std::uint32_t colors = p.colorCount;
    if (p.set<gpu::DistanceConstraint>().colorOffsets.size() != colors + 1 || p.set<gpu::BendingConstraint>().colorOffsets.size() != colors + 1)
        return ::testing::AssertionFailure() << "offsets need colorCount + 1 entries";
    if (p.set<gpu::DistanceConstraint>().colorOffsets.front() != 0 || p.set<gpu::DistanceConstraint>().colorOffsets.back() != p.items<gpu::DistanceConstraint>().size() ||
        p.set<gpu::BendingConstraint>().colorOffsets.front() != 0 || p.set<gpu::BendingConstraint>().colorOffsets.back() != p.items<gpu::BendingConstraint>().size())
        return ::testing::AssertionFailure() << "offsets do not cover the constraint arrays";
    std::vector<std::uint32_t> stamp(p.vertexCount(), UINT32_MAX);
    auto touch = [&](std::uint32_t v, std::uint32_t c) {
        if (v >= stamp.size() || stamp[v] == c) return false;
        stamp[v] = c;
        return true;
    };
    for (std::uint32_t c = 0; c < colors; ++c) {
        const std::uint32_t d0 = p.set<gpu::DistanceConstraint>().colorOffsets[c], d1 = p.set<gpu::DistanceConstraint>().colorOffsets[c + 1];
        const std::uint32_t b0 = p.set<gpu::BendingConstraint>().colorOffsets[c], b1 = p.set<gpu::BendingConstraint>().colorOffsets[c + 1];
        if (d0 > d1 || b0 > b1) return ::testing::AssertionFailure() << "offsets decrease";
        if (d0 == d1 && b0 == b1)
            return ::testing::AssertionFailure() << "colour " << c << " empty";
        for (std::uint32_t i = d0; i < d1; ++i)
            if (!touch(p.items<gpu::DistanceConstraint>()[i].v0, c) || !touch(p.items<gpu::DistanceConstraint>()[i].v1, c))
                return ::testing::AssertionFailure()
                       << "colour " << c << ": distance " << i << " shares a vertex";
        for (std::uint32_t i = b0; i < b1; ++i) {
            const auto& b = p.items<gpu::BendingConstraint>()[i];
            if (!touch(b.v0, c) || !touch(b.v1, c) || !touch(b.v2, c) || !touch(b.v3, c))
                return ::testing::AssertionFailure()
                       << "colour " << c << ": bending " << i << " shares a vertex";
        }
    }
    return ::testing::AssertionSuccess();
}

// The largest number of constraints at one vertex: a clique, so a lower bound on the colours.
inline std::uint32_t maxConstraintsAtVertex(const PreparedCloth& p) {
    std::vector<std::uint32_t> count(p.vertexCount(), 0);
    for (const auto& c : p.items<gpu::DistanceConstraint>()) ++count[c.v0], ++count[c.v1];
    for (const auto& c : p.items<gpu::BendingConstraint>()) ++count[c.v0], ++count[c.v1], ++count[c.v2], ++count[c.v3];
    return *std::max_element(count.begin(), count.end());
}

}  // namespace cloth::test
