// Nearest-point queries over a fixed point set (a k-d tree in flat arrays), used to give each
// dynamic vertex a tether to its nearest anchor.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace cloth {

inline float squaredDistance(glm::vec3 a, glm::vec3 b) {
    const glm::vec3 d = a - b;
    return d.x * d.x + d.y * d.y + d.z * d.z;
}

class NearestPoint {
  public:
    explicit NearestPoint(std::vector<glm::vec3> points);

    // Index (into the constructor's points) of the point nearest to q by squaredDistance(); ties
    // go to the lowest index, so the answer equals a brute-force scan's. Needs a non-empty set.
    std::uint32_t nearest(glm::vec3 q) const;

  private:
    struct Best {
        float d2;
        std::uint32_t index;
    };
    void build(std::uint32_t lo, std::uint32_t hi);
    void search(std::uint32_t lo, std::uint32_t hi, glm::vec3 q, Best& best) const;

    std::vector<glm::vec3> points_;
    std::vector<std::uint32_t> tree_;  // point indices; node of [lo, hi) is at (lo + hi) / 2
    std::vector<std::uint8_t> axis_;   // split axis of the node stored at each position
};

}  // namespace cloth
