// Projective dynamics' Jacobi global step on the CPU (kernels/pd_jacobi.h, Wang 2015): per
// local/global iteration, the local step (threads by terms), then one Jacobi sweep with
// Chebyshev's blend (threads by vertices, each adding its terms in the layout's fixed order). Any
// thread count gives the same bits, and so does shaders/pd_jacobi.comp.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "cpu/thread_pool.h"
#include "prep/pd_jacobi.h"
#include "prep/prepared.h"

namespace cloth {

class PdJacobiSystem {
  public:
    PdJacobiSystem(const PreparedCloth& p, float h);

    // `iterations` local/global iterations of the step from s (the inertial prediction, also the
    // start; a carried vertex's is its target), leaving the result in y. Every member of the pool
    // together, each with its vertices [begin, end) of ThreadPool::split; barriers inside.
    // targets: per vertex, its attachment's target at the step's end (needed with compliant
    // attachments).
    void solve(ThreadPool& pool, int member, int size, const std::vector<glm::vec4>& s,
               std::vector<glm::vec4>& y, std::uint32_t begin, std::uint32_t end,
               const std::vector<glm::vec4>* targets = nullptr);

    // The parts, for the tests: the local step from y (terms split among the members), and one
    // sweep of vertices [begin, end) from cur (prev: the iterate before) into next.
    void project(const std::vector<glm::vec4>& y, int member, int size);
    void sweep(const std::vector<glm::vec4>& cur, const std::vector<glm::vec4>& prev,
               const std::vector<glm::vec4>& s, std::vector<glm::vec4>& next, float omega,
               float gamma, std::uint32_t begin, std::uint32_t end,
               const std::vector<glm::vec4>* targets = nullptr) const;

    const PdJacobiLayout& layout() const { return layout_; }

  private:
    const PreparedCloth& p_;
    PdJacobiLayout layout_;
    std::vector<glm::vec4> triProjections_;   // per triangle: r_u, r_v
    std::vector<glm::vec4> bendProjections_;  // per bend: p
    std::vector<glm::vec4> iterates_[3];      // x^k rotating: x^(k+1) overwrites x^(k-1)
};

}  // namespace cloth
