#include "prep/nearest.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.h"

namespace cloth {

NearestPoint::NearestPoint(std::vector<glm::vec3> points) : points_(std::move(points)) {
    CLOTH_ASSERT(!points_.empty());
    tree_.resize(points_.size());
    std::iota(tree_.begin(), tree_.end(), 0u);
    axis_.assign(points_.size(), 0);
    build(0, static_cast<std::uint32_t>(points_.size()));
}

void NearestPoint::build(std::uint32_t lo, std::uint32_t hi) {
    if (hi - lo <= 1) return;
    glm::vec3 mn(points_[tree_[lo]]), mx(mn);
    for (std::uint32_t i = lo; i < hi; ++i) {
        mn = glm::min(mn, points_[tree_[i]]);
        mx = glm::max(mx, points_[tree_[i]]);
    }
    const glm::vec3 extent = mx - mn;
    const int axis =
        extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
    const std::uint32_t mid = lo + (hi - lo) / 2;
    std::nth_element(tree_.begin() + lo, tree_.begin() + mid, tree_.begin() + hi,
                     [&](std::uint32_t a, std::uint32_t b) {
                         const float pa = points_[a][axis], pb = points_[b][axis];
                         return pa != pb ? pa < pb : a < b;
                     });
    axis_[mid] = static_cast<std::uint8_t>(axis);
    build(lo, mid);
    build(mid + 1, hi);
}

void NearestPoint::search(std::uint32_t lo, std::uint32_t hi, glm::vec3 q, Best& best) const {
    if (lo >= hi) return;
    const std::uint32_t mid = lo + (hi - lo) / 2;
    const std::uint32_t index = tree_[mid];
    const glm::vec3 p = points_[index];
    const float d2 = squaredDistance(q, p);
    if (d2 < best.d2 || (d2 == best.d2 && index < best.index)) best = {d2, index};
    const int axis = axis_[mid];
    const float diff = q[axis] - p[axis];
    // Points of the far side are at least |diff| away along the axis; equal distances still have
    // to be visited for the lowest-index tie-break.
    const bool lowFirst = diff < 0.0f;
    search(lowFirst ? lo : mid + 1, lowFirst ? mid : hi, q, best);
    if (diff * diff <= best.d2) search(lowFirst ? mid + 1 : lo, lowFirst ? hi : mid, q, best);
}

std::uint32_t NearestPoint::nearest(glm::vec3 q) const {
    Best best{INFINITY, UINT32_MAX};
    search(0, static_cast<std::uint32_t>(points_.size()), q, best);
    return best.index;
}

}  // namespace cloth
