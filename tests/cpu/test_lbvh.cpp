// The CPU reference's linear BVH (src/prep/lbvh.h, src/kernels/lbvh_tree.h): Morton codes against a
// bit-by-bit interleave, the tree's structure (every primitive in exactly one leaf, each internal
// node's range contiguous, children inside their parent's bounds), and the overlapping pairs it
// finds against brute force over all pairs, on random soups (with duplicated centres, so equal
// codes, and a flat one) and on the triangles of a cloth folded over itself.
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "prep/lbvh.h"

using namespace cloth;

namespace {

std::uint32_t interleaveReference(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
    std::uint32_t code = 0;
    for (int b = 9; b >= 0; --b) {
        code = (code << 1) | ((x >> b) & 1u);
        code = (code << 1) | ((y >> b) & 1u);
        code = (code << 1) | ((z >> b) & 1u);
    }
    return code;
}

std::vector<glm::uvec2> bruteForcePairs(const std::vector<Aabb>& boxes) {
    std::vector<glm::uvec2> pairs;
    for (std::uint32_t a = 0; a < boxes.size(); ++a)
        for (std::uint32_t b = a + 1; b < boxes.size(); ++b) {
            const Aabb &p = boxes[a], &q = boxes[b];
            if (p.lo.x <= q.hi.x && p.lo.y <= q.hi.y && p.lo.z <= q.hi.z && q.lo.x <= p.hi.x &&
                q.lo.y <= p.hi.y && q.lo.z <= p.hi.z)
                pairs.push_back({a, b});
        }
    return pairs;  // already in (a, b) order
}

std::vector<Aabb> randomSoup(std::mt19937& rng, std::uint32_t n, float size, bool flat,
                             bool duplicates) {
    std::uniform_real_distribution<float> u(0.0f, 1.0f), s(0.0f, size);
    std::vector<Aabb> boxes;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (duplicates && i > 0 && i % 3 == 0) {
            boxes.push_back(boxes[i / 2]);  // the same box again: the same code
            continue;
        }
        const glm::vec3 c(u(rng), u(rng), flat ? 0.5f : u(rng));
        const glm::vec3 e(s(rng), s(rng), flat ? 0.0f : s(rng));
        boxes.push_back({c - e, c + e});
    }
    return boxes;
}

// Walks the tree: every leaf once, each node's primitives a contiguous sorted range, bounds
// holding the children's.
void expectWellFormed(const Lbvh& t, const std::vector<Aabb>& boxes) {
    const std::size_t n = boxes.size();
    ASSERT_EQ(t.nodes.size(), 2 * n - 1);
    std::vector<int> seen(n, 0);
    struct Item {
        std::uint32_t node, depth;
    };
    std::vector<Item> stack = {{0, 0}};
    std::uint32_t deepest = 0;
    // Each internal node's sorted range, from its leaves: recursion via explicit post-order.
    std::vector<glm::uvec2> range(t.nodes.size(), glm::uvec2(UINT32_MAX, 0));
    std::vector<std::uint32_t> post;
    while (!stack.empty()) {
        const Item it = stack.back();
        stack.pop_back();
        post.push_back(it.node);
        deepest = std::max(deepest, it.depth);
        const gpu::LbvhNode& k = t.nodes[it.node];
        if (k.right == gpu::LBVH_LEAF) {
            ASSERT_GE(it.node, n - 1);
            const std::uint32_t sorted = it.node - std::uint32_t(n - 1);
            ASSERT_EQ(k.left, t.order[sorted]);
            ++seen[k.left];
            range[it.node] = {sorted, sorted};
            const Aabb& b = boxes[k.left];
            EXPECT_TRUE(k.minX == b.lo.x && k.maxX == b.hi.x && k.minY == b.lo.y &&
                        k.maxY == b.hi.y && k.minZ == b.lo.z && k.maxZ == b.hi.z);
            continue;
        }
        ASSERT_LT(it.node, n - 1);
        for (std::uint32_t c : {k.left, k.right}) {
            const gpu::LbvhNode& ch = t.nodes[c];
            EXPECT_TRUE(ch.minX >= k.minX && ch.minY >= k.minY && ch.minZ >= k.minZ &&
                        ch.maxX <= k.maxX && ch.maxY <= k.maxY && ch.maxZ <= k.maxZ);
            stack.push_back({c, it.depth + 1});
        }
    }
    for (int s : seen) EXPECT_EQ(s, 1);
    for (auto it = post.rbegin(); it != post.rend(); ++it) {
        const gpu::LbvhNode& k = t.nodes[*it];
        if (k.right == gpu::LBVH_LEAF) continue;
        const glm::uvec2 a = range[k.left], b = range[k.right];
        EXPECT_EQ(a.y + 1, b.x) << "children's ranges must be adjacent, left first";
        range[*it] = {a.x, b.y};
    }
    EXPECT_EQ(range[0], glm::uvec2(0, n - 1));
    EXPECT_TRUE(std::is_sorted(t.codes.begin(), t.codes.end()));
    for (std::size_t i = 1; i < n; ++i)
        if (t.codes[i] == t.codes[i - 1]) {
            EXPECT_LT(t.order[i - 1], t.order[i]);
        }
}

}  // namespace

TEST(Lbvh, MortonCodesInterleaveTheQuantisedAxes) {
    std::mt19937 rng(1);
    std::uniform_int_distribution<std::uint32_t> q(0, 1023);
    for (int i = 0; i < 1000; ++i) {
        const std::uint32_t x = q(rng), y = q(rng), z = q(rng);
        EXPECT_EQ((gpu::lbvhSpreadBits(x) << 2) | (gpu::lbvhSpreadBits(y) << 1) |
                      gpu::lbvhSpreadBits(z),
                  interleaveReference(x, y, z));
        // The code of the centre of grid cell (x, y, z) over the unit box.
        const glm::vec3 p = (glm::vec3(x, y, z) + 0.5f) / 1024.0f;
        EXPECT_EQ(gpu::lbvhMortonCode(p, glm::vec3(0.0f), glm::vec3(1.0f)),
                  interleaveReference(x, y, z));
    }
    // Outside the box clamps to the border cells.
    EXPECT_EQ(gpu::lbvhMortonCode(glm::vec3(-1.0f), glm::vec3(0.0f), glm::vec3(1.0f)), 0u);
    EXPECT_EQ(gpu::lbvhMortonCode(glm::vec3(2.0f), glm::vec3(0.0f), glm::vec3(1.0f)),
              (1u << 30) - 1u);
}

TEST(Lbvh, TreesAreWellFormedAndFindBruteForcesPairs) {
    std::mt19937 rng(2);
    int pairsChecked = 0;
    for (std::uint32_t n : {1u, 2u, 3u, 5u, 17u, 64u, 100u, 1000u, 3000u}) {
        for (int variant = 0; variant < 4; ++variant) {
            SCOPED_TRACE(std::to_string(n) + " boxes, variant " + std::to_string(variant));
            const auto boxes = randomSoup(rng, n, variant == 3 ? 0.2f : 0.02f, variant == 1,
                                          variant == 2);
            const Lbvh t = buildLbvh(boxes);
            if (n == 1) {
                ASSERT_EQ(t.nodes.size(), 1u);
            } else {
                expectWellFormed(t, boxes);
            }
            const auto want = bruteForcePairs(boxes);
            EXPECT_EQ(lbvhOverlapPairs(t, boxes), want);
            pairsChecked += static_cast<int>(want.size());
        }
    }
    EXPECT_GT(pairsChecked, 10000);
}

TEST(Lbvh, AClothFoldedOnItselfGivesBruteForcesPairs) {
    // A 40 x 40 grid of triangles folded in half along x = 0.5, the upper half 2 mm above the
    // lower: every triangle's box (grown by 1 mm) meets its neighbours and the ones above/below.
    const int n = 40;
    auto at = [&](int i, int j) {
        const float x = float(i) / n, z = float(j) / n;
        return x <= 0.5f ? glm::vec3(x, 0.0f, z) : glm::vec3(1.0f - x, 0.002f, z);
    };
    std::vector<Aabb> boxes;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            const glm::vec3 a = at(i, j), b = at(i + 1, j), c = at(i, j + 1), d = at(i + 1, j + 1);
            for (const auto& tri : {std::array{a, b, d}, std::array{a, d, c}}) {
                Aabb box{glm::min(glm::min(tri[0], tri[1]), tri[2]) - glm::vec3(0.001f),
                         glm::max(glm::max(tri[0], tri[1]), tri[2]) + glm::vec3(0.001f)};
                boxes.push_back(box);
            }
        }
    const Lbvh t = buildLbvh(boxes);
    expectWellFormed(t, boxes);
    const auto want = bruteForcePairs(boxes);
    EXPECT_EQ(lbvhOverlapPairs(t, boxes), want);
    std::printf("folded cloth: %zu triangles, %zu overlapping box pairs\n", boxes.size(),
                want.size());
    EXPECT_GT(want.size(), boxes.size() * 6);
}
