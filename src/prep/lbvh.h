// The CPU reference's linear BVH (src/kernels/lbvh_tree.h): Morton codes of the boxes' centres, a
// stable radix sort, Karras' hierarchy from the sorted codes, bounds bottom-up, and the
// overlapping pairs found by walking it. Self-collision (cpu/self_collision.h) runs the same
// phases in parallel; the GPU builds the same tree from the same keys.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "kernels/lbvh_tree.h"

namespace cloth {

struct Aabb {
    glm::vec3 lo;
    glm::vec3 hi;
};

struct Lbvh {
    // n = boxes: internal nodes [0, n - 1), leaves [n - 1, 2n - 1) in sorted order (a single box:
    // one leaf, the root). Empty for no boxes.
    std::vector<gpu::LbvhNode> nodes;
    std::vector<std::uint32_t> codes;  // the sorted Morton codes
    std::vector<std::uint32_t> order;  // sorted position -> box index
    std::vector<std::uint32_t> parent;    // per node; LBVH_LEAF for the root
    std::vector<std::uint32_t> rangeEnd;  // per node: the last sorted position under it
    std::uint32_t root() const { return 0; }
};

// ---- the phases (each a loop over independent items but the sort and the bounds) ----

// The Morton grid over [lo, hi]: 1 / extent per axis (1 for a flat axis, so its codes are 0).
glm::vec3 lbvhInverseExtent(glm::vec3 lo, glm::vec3 hi);
// Sorts (code, index) by code, stably (equal codes keep index order: lbvhDelta's tie-breaker):
// three 10-bit passes; `scratch` holds two more arrays' worth.
void lbvhRadixSort(std::vector<std::uint32_t>& codes, std::vector<std::uint32_t>& order,
                   std::vector<std::uint32_t>& scratchCodes,
                   std::vector<std::uint32_t>& scratchOrder);
// Internal nodes [begin, end) of a tree over n >= 2 sorted codes: children, parents of the
// children, range ends.
void lbvhInternalNodes(Lbvh& t, std::uint32_t n, std::uint32_t begin, std::uint32_t end);
// Leaves [begin, end) (sorted positions): the box of order[i].
void lbvhLeaves(Lbvh& t, const Aabb* boxes, std::uint32_t n, std::uint32_t begin,
                std::uint32_t end);
// Bounds of every internal node, bottom-up: each leaf climbs while it is the second child to
// arrive (the order the GPU's per-leaf climb with arrival counters gives; min and max are exact
// either way). `arrived`: scratch.
void lbvhFitBounds(Lbvh& t, std::uint32_t n, std::vector<std::uint8_t>& arrived);

// All of it, one thread: codes over the union of the boxes.
Lbvh buildLbvh(const std::vector<Aabb>& boxes);

// Does node k's box overlap [lo, hi] (closed boxes: touching counts)?
inline bool lbvhOverlaps(const gpu::LbvhNode& k, glm::vec3 lo, glm::vec3 hi) {
    return k.minX <= hi.x && k.minY <= hi.y && k.minZ <= hi.z && k.maxX >= lo.x &&
           k.maxY >= lo.y && k.maxZ >= lo.z;
}

// Calls visit(j) for every sorted position j > i whose box overlaps [lo, hi], in the walk's
// order (depth first, left child first), skipping subtrees that end at or before i. `stack`:
// scratch. Returns the nodes it looked at (the walk's cost: the same count as the GPU's
// stackless walk, which looks at the same nodes in the same order).
template <class Visit>
std::uint32_t lbvhWalkAfter(const Lbvh& t, std::uint32_t i, glm::vec3 lo, glm::vec3 hi,
                            std::vector<std::uint32_t>& stack, Visit&& visit) {
    const auto n = static_cast<std::uint32_t>(t.order.size());
    if (n < 2) return 0;
    stack.clear();
    std::uint32_t node = t.root();
    std::uint32_t looked = 0;
    for (;;) {
        ++looked;
        const gpu::LbvhNode& k = t.nodes[node];
        if (t.rangeEnd[node] > i && lbvhOverlaps(k, lo, hi)) {
            if (k.right == gpu::LBVH_LEAF) {
                visit(node - (n - 1));
            } else {
                stack.push_back(k.right);
                node = k.left;
                continue;
            }
        }
        if (stack.empty()) return looked;
        node = stack.back();
        stack.pop_back();
    }
}

// Every pair (a, b), a < b, of boxes that overlap (closed boxes: touching counts), found by
// walking `tree` once per box; sorted.
std::vector<glm::uvec2> lbvhOverlapPairs(const Lbvh& tree, const std::vector<Aabb>& boxes);

}  // namespace cloth
