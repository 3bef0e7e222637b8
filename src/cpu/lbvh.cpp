#include "cpu/lbvh.h"

#include <algorithm>
#include <array>

#include "core/error.h"

namespace cloth {

namespace {

// Stable least-significant-digit radix sort of (code, index) by code: three passes of 10 bits.
void radixSort(std::vector<std::uint32_t>& codes, std::vector<std::uint32_t>& order) {
    const std::size_t n = codes.size();
    std::vector<std::uint32_t> codes2(n), order2(n);
    for (int shift = 0; shift < 30; shift += 10) {
        std::array<std::uint32_t, 1025> start{};
        for (std::uint32_t c : codes) ++start[((c >> shift) & 0x3FFu) + 1];
        for (std::size_t k = 1; k < start.size(); ++k) start[k] += start[k - 1];
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t slot = start[(codes[i] >> shift) & 0x3FFu]++;
            codes2[slot] = codes[i];
            order2[slot] = order[i];
        }
        codes.swap(codes2);
        order.swap(order2);
    }
}

gpu::LbvhNode leafNode(const Aabb& b, std::uint32_t primitive) {
    return {b.lo.x, b.lo.y, b.lo.z, primitive, b.hi.x, b.hi.y, b.hi.z, gpu::LBVH_LEAF};
}

}  // namespace

Lbvh buildLbvh(const std::vector<Aabb>& boxes) {
    Lbvh t;
    const auto n = static_cast<std::uint32_t>(boxes.size());
    if (n == 0) return t;
    CLOTH_ASSERT(n < (1u << 30));
    glm::vec3 lo(boxes[0].lo), hi(boxes[0].hi);
    for (const Aabb& b : boxes) {
        lo = glm::min(lo, b.lo);
        hi = glm::max(hi, b.hi);
    }
    glm::vec3 inv;
    for (int k = 0; k < 3; ++k) inv[k] = hi[k] > lo[k] ? 1.0f / (hi[k] - lo[k]) : 1.0f;
    t.codes.resize(n);
    t.order.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        t.codes[i] = gpu::lbvhMortonCode(0.5f * (boxes[i].lo + boxes[i].hi), lo, inv);
        t.order[i] = i;
    }
    radixSort(t.codes, t.order);
    if (n == 1) {
        t.nodes = {leafNode(boxes[0], 0)};
        return t;
    }
    t.nodes.resize(2 * std::size_t(n) - 1);
    std::vector<std::uint32_t> parent(t.nodes.size(), gpu::LBVH_LEAF);
    for (std::uint32_t i = 0; i + 1 < n; ++i) {
        gpu::LbvhNode& node = t.nodes[i];
        gpu::lbvhChildren(t.codes.data(), static_cast<int>(i), static_cast<int>(n), node.left,
                          node.right);
        CLOTH_ASSERT(node.left < t.nodes.size() && node.right < t.nodes.size());
        CLOTH_ASSERT(parent[node.left] == gpu::LBVH_LEAF && parent[node.right] == gpu::LBVH_LEAF);
        parent[node.left] = parent[node.right] = i;
    }
    for (std::uint32_t i = 0; i < n; ++i)
        t.nodes[n - 1 + i] = leafNode(boxes[t.order[i]], t.order[i]);
    // Bounds bottom-up: each leaf climbs while it is the second child to arrive (the order the
    // GPU's per-leaf climb with an arrival counter gives; min and max are exact either way).
    std::vector<std::uint8_t> arrived(n - 1, 0);
    for (std::uint32_t i = 0; i < n; ++i) {
        std::uint32_t node = parent[n - 1 + i];
        while (node != gpu::LBVH_LEAF && arrived[node]++ == 1) {
            gpu::LbvhNode& p = t.nodes[node];
            const gpu::LbvhNode& a = t.nodes[p.left];
            const gpu::LbvhNode& b = t.nodes[p.right];
            p.minX = std::min(a.minX, b.minX);
            p.minY = std::min(a.minY, b.minY);
            p.minZ = std::min(a.minZ, b.minZ);
            p.maxX = std::max(a.maxX, b.maxX);
            p.maxY = std::max(a.maxY, b.maxY);
            p.maxZ = std::max(a.maxZ, b.maxZ);
            node = parent[node];
        }
    }
    CLOTH_ASSERT(parent[0] == gpu::LBVH_LEAF && arrived[0] == 2);
    return t;
}

std::vector<glm::uvec2> lbvhOverlapPairs(const Lbvh& tree, const std::vector<Aabb>& boxes) {
    std::vector<glm::uvec2> pairs;
    if (tree.nodes.empty()) return pairs;
    std::vector<std::uint32_t> stack;
    for (std::uint32_t a = 0; a < boxes.size(); ++a) {
        const Aabb& q = boxes[a];
        stack.assign(1, tree.root());
        while (!stack.empty()) {
            const gpu::LbvhNode& node = tree.nodes[stack.back()];
            stack.pop_back();
            if (node.minX > q.hi.x || node.minY > q.hi.y || node.minZ > q.hi.z ||
                node.maxX < q.lo.x || node.maxY < q.lo.y || node.maxZ < q.lo.z)
                continue;
            if (node.right == gpu::LBVH_LEAF) {
                if (node.left > a) pairs.push_back({a, node.left});
            } else {
                stack.push_back(node.right);
                stack.push_back(node.left);
            }
        }
    }
    std::sort(pairs.begin(), pairs.end(), [](glm::uvec2 x, glm::uvec2 y) {
        return x.x < y.x || (x.x == y.x && x.y < y.y);
    });
    return pairs;
}

}  // namespace cloth
