// The k-d tree nearest-point query against a brute-force scan (same distance, same tie-break).
#include <random>

#include <gtest/gtest.h>

#include "prep/nearest.h"

using namespace cloth;

namespace {

std::uint32_t bruteForceNearest(const std::vector<glm::vec3>& pts, glm::vec3 q) {
    std::uint32_t best = 0;
    for (std::uint32_t i = 1; i < pts.size(); ++i)
        if (squaredDistance(q, pts[i]) < squaredDistance(q, pts[best])) best = i;
    return best;
}

}  // namespace

TEST(NearestPoint, MatchesBruteForceOnRandomPoints) {
    std::mt19937 rng(2);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int trial = 0; trial < 20; ++trial) {
        std::vector<glm::vec3> pts(1 + rng() % 200);
        for (auto& p : pts) p = {u(rng), u(rng), trial % 2 ? 0.0f : u(rng)};
        const NearestPoint index(pts);
        for (int q = 0; q < 200; ++q) {
            const glm::vec3 query{2 * u(rng), 2 * u(rng), 2 * u(rng)};
            EXPECT_EQ(index.nearest(query), bruteForceNearest(pts, query));
        }
    }
}

TEST(NearestPoint, TiesGoToTheLowestIndex) {
    // Points on a lattice with duplicates: many exact ties.
    std::vector<glm::vec3> pts;
    for (int rep = 0; rep < 3; ++rep)
        for (int i = 0; i < 5; ++i)
            for (int j = 0; j < 5; ++j) pts.emplace_back(float(i), float(j), 0.0f);
    const NearestPoint index(pts);
    for (int i = 0; i < 9; ++i)
        for (int j = 0; j < 9; ++j) {
            const glm::vec3 q{0.5f * float(i), 0.5f * float(j), 0.25f};
            EXPECT_EQ(index.nearest(q), bruteForceNearest(pts, q)) << q.x << "," << q.y;
        }
}
