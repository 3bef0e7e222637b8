// The CPU reference's linear BVH (shaders/shared/lbvh.h): Morton codes of the boxes' centres, a
// stable radix sort, Karras' hierarchy from the sorted codes, bounds bottom-up, and the
// overlapping pairs found by walking it. Groundwork of self-collision (issue 13), which the GPU
// will build the same way from the same keys.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include <lbvh.h>  // shaders/shared (angle brackets: not this file)

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
    std::uint32_t root() const { return 0; }
};

// Morton codes of the centres over the union of the boxes (a flat axis gets extent 1, so its
// codes are 0), sorted stably (equal codes keep index order: the tie-breaker of lbvhDelta).
Lbvh buildLbvh(const std::vector<Aabb>& boxes);

// Every pair (a, b), a < b, of boxes that overlap (closed boxes: touching counts), found by
// walking `tree` once per box; sorted.
std::vector<glm::uvec2> lbvhOverlapPairs(const Lbvh& tree, const std::vector<Aabb>& boxes);

}  // namespace cloth
