#include "prep/lbvh.h"

#include <algorithm>
#include <array>

#include "core/error.h"

namespace cloth {

glm::vec3 lbvhInverseExtent(glm::vec3 lo, glm::vec3 hi) {
    glm::vec3 inv;
    for (int k = 0; k < 3; ++k) inv[k] = hi[k] > lo[k] ? 1.0f / (hi[k] - lo[k]) : 1.0f;
    return inv;
}

void lbvhRadixSort(std::vector<std::uint32_t>& codes, std::vector<std::uint32_t>& order,
                   std::vector<std::uint32_t>& codes2, std::vector<std::uint32_t>& order2) {
    const std::size_t n = codes.size();
    codes2.resize(n);
    order2.resize(n);
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

void lbvhInternalNodes(Lbvh& t, std::uint32_t n, std::uint32_t begin, std::uint32_t end) {
    for (std::uint32_t i = begin; i < end; ++i) {
        gpu::LbvhNode& node = t.nodes[i];
        int last = 0;
        gpu::lbvhChildren(t.codes.data(), static_cast<int>(i), static_cast<int>(n), node.left,
                          node.right, last);
        CLOTH_ASSERT(node.left < t.nodes.size() && node.right < t.nodes.size());
        t.parent[node.left] = t.parent[node.right] = i;
        t.rangeEnd[i] = static_cast<std::uint32_t>(std::max(static_cast<int>(i), last));
    }
}

void lbvhLeaves(Lbvh& t, const Aabb* boxes, std::uint32_t n, std::uint32_t begin,
                std::uint32_t end) {
    for (std::uint32_t i = begin; i < end; ++i) {
        const Aabb& b = boxes[t.order[i]];
        t.nodes[n - 1 + i] = {b.lo.x, b.lo.y, b.lo.z, t.order[i],
                              b.hi.x, b.hi.y, b.hi.z, gpu::LBVH_LEAF};
        t.rangeEnd[n - 1 + i] = i;
    }
}

void lbvhFitBounds(Lbvh& t, std::uint32_t n, std::vector<std::uint8_t>& arrived) {
    arrived.assign(n - 1, 0);
    for (std::uint32_t i = 0; i < n; ++i) {
        std::uint32_t node = t.parent[n - 1 + i];
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
            node = t.parent[node];
        }
    }
    CLOTH_ASSERT(t.parent[0] == gpu::LBVH_LEAF && arrived[0] == 2);
}

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
    const glm::vec3 inv = lbvhInverseExtent(lo, hi);
    t.codes.resize(n);
    t.order.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        t.codes[i] = gpu::lbvhMortonCode(0.5f * (boxes[i].lo + boxes[i].hi), lo, inv);
        t.order[i] = i;
    }
    std::vector<std::uint32_t> c2, o2;
    lbvhRadixSort(t.codes, t.order, c2, o2);
    const std::size_t nodes = n == 1 ? 1 : 2 * std::size_t(n) - 1;
    t.nodes.resize(nodes);
    t.parent.assign(nodes, gpu::LBVH_LEAF);
    t.rangeEnd.assign(nodes, 0);
    if (n == 1) {
        lbvhLeaves(t, boxes.data(), 1, 0, 1);
        return t;
    }
    lbvhInternalNodes(t, n, 0, n - 1);
    lbvhLeaves(t, boxes.data(), n, 0, n);
    std::vector<std::uint8_t> arrived;
    lbvhFitBounds(t, n, arrived);
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
            if (!lbvhOverlaps(node, q.lo, q.hi)) continue;
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
