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
#include "core/scene.h"
#include "prep/constraint_graph.h"
#include "prep/prepared.h"
#include "fixtures/meshes.h"

namespace cloth::test {

// The shared builders (src/fixtures/meshes.h) are the tests' too.
using namespace cloth::fixtures;


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

// A random graph of n nodes, each pair joined with probability p.
inline Graph randomGraph(std::uint32_t n, double p, std::mt19937& rng) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
    std::bernoulli_distribution coin(p);
    for (std::uint32_t a = 0; a < n; ++a)
        for (std::uint32_t b = a + 1; b < n; ++b)
            if (coin(rng)) edges.emplace_back(a, b);
    return graphFromEdges(n, edges);
}

// A scene named "test" of the cloths given, with the default settings.
inline Scene sceneOf(std::vector<ClothDesc> cloths) {
    Scene s;
    s.name = "test";
    s.cloths = std::move(cloths);
    return s;
}

}  // namespace cloth::test
