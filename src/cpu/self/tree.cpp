#include "cpu/self/tree.h"

#include <algorithm>

#include "core/error.h"

namespace cloth {

SelfTree::SelfTree(std::uint32_t triangles) : n_(triangles) {
    tree_.codes.resize(n_);
    tree_.order.resize(n_);
    const std::size_t nodes = n_ <= 1 ? n_ : 2 * std::size_t(n_) - 1;
    tree_.nodes.resize(nodes);
    tree_.parent.assign(nodes, gpu::LBVH_LEAF);
    tree_.rangeEnd.assign(nodes, 0);
}

void SelfTree::rebuild(ThreadPool& pool, int member, int size, const std::vector<Aabb>& boxes) {
    CLOTH_ASSERT(boxes.size() == n_);
    if (member == 0) {
        partialLo_.assign(size, glm::vec3(0.0f));
        partialHi_.assign(size, glm::vec3(0.0f));
    }
    pool.barrier();
    std::uint32_t b, e;
    ThreadPool::split(n_, member, size, b, e);
    // The union of the boxes: each member folds its range in order (exact min and max: any
    // order gives the same bits).
    if (b < e) {
        glm::vec3 lo = boxes[b].lo, hi = boxes[b].hi;
        for (std::uint32_t i = b + 1; i < e; ++i) {
            lo = glm::min(lo, boxes[i].lo);
            hi = glm::max(hi, boxes[i].hi);
        }
        partialLo_[member] = lo;
        partialHi_[member] = hi;
    }
    pool.barrier();
    glm::vec3 lo(0.0f), hi(0.0f);
    bool any = false;
    for (int m = 0; m < size; ++m) {
        std::uint32_t mb, me;
        ThreadPool::split(n_, m, size, mb, me);
        if (mb == me) continue;
        lo = any ? glm::min(lo, partialLo_[m]) : partialLo_[m];
        hi = any ? glm::max(hi, partialHi_[m]) : partialHi_[m];
        any = true;
    }
    const glm::vec3 inv = lbvhInverseExtent(lo, hi);
    for (std::uint32_t i = b; i < e; ++i) {
        tree_.codes[i] = gpu::lbvhMortonCode(0.5f * (boxes[i].lo + boxes[i].hi), lo, inv);
        tree_.order[i] = i;
    }
    pool.barrier();
    if (member == 0) lbvhRadixSort(tree_.codes, tree_.order, sortCodes_, sortOrder_);
    pool.barrier();
    if (n_ >= 2) {
        ThreadPool::split(n_ - 1, member, size, b, e);
        lbvhInternalNodes(tree_, n_, b, e);
    }
    ThreadPool::split(n_, member, size, b, e);
    lbvhLeaves(tree_, boxes.data(), n_, b, e);
    pool.barrier();
    if (member == 0) {
        if (n_ >= 2) lbvhFitBounds(tree_, n_, arrived_);
        built_ = true;
    }
    pool.barrier();
}

void SelfTree::refit(ThreadPool& pool, int member, int size, const std::vector<Aabb>& boxes) {
    CLOTH_ASSERT(built_ && boxes.size() == n_);
    std::uint32_t b, e;
    ThreadPool::split(n_, member, size, b, e);
    lbvhLeaves(tree_, boxes.data(), n_, b, e);
    pool.barrier();
    if (member == 0 && n_ >= 2) lbvhFitBounds(tree_, n_, arrived_);
    pool.barrier();
}

}  // namespace cloth
