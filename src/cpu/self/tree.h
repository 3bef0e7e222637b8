// Self-collision's hierarchy on the CPU reference: a linear BVH over the triangles' boxes
// (prep/lbvh.h, Karras 2012), built anew in parallel phases (the boxes' union, Morton codes, a
// stable radix sort, the internal nodes and leaves, the bounds bottom-up), or refitted: the same
// order and nodes, the leaves' boxes replaced and the bounds climbed again. The GPU builds and
// refits the same tree node for node (src/vk/self/).
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "cpu/thread_pool.h"
#include "prep/lbvh.h"

namespace cloth {

class SelfTree {
public:
    explicit SelfTree(std::uint32_t triangles);

    // The tree anew from `boxes` (one per triangle); every member calls it, and it ends with a
    // barrier. The leaves' bounds are those of `boxes`.
    void rebuild(ThreadPool& pool, int member, int size, const std::vector<Aabb>& boxes);
    // The leaves' boxes from `boxes`, the bounds bottom-up; the order kept (after a rebuild).
    void refit(ThreadPool& pool, int member, int size, const std::vector<Aabb>& boxes);

    bool built() const { return built_; }
    const Lbvh& tree() const { return tree_; }

private:
    std::uint32_t n_;
    bool built_ = false;
    Lbvh tree_;
    std::vector<glm::vec3> partialLo_, partialHi_;  // per member
    std::vector<std::uint32_t> sortCodes_, sortOrder_;
    std::vector<std::uint8_t> arrived_;
};

}  // namespace cloth
