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
    // A step of the prepared timing's substep; the layout is p's solver data's
    // (prep/solver_data.h).
    explicit PdJacobiSystem(const PreparedCloth& p);

    // A step's local/global iterations in the parts its schedule runs (sim/schedule.h
    // kProjectiveSchedule), every member of the pool with its vertices [begin, end) of
    // ThreadPool::split and a barrier after each part: start() from s (the inertial prediction,
    // also the start; a carried vertex's is its target); iteration k's local() then global()
    // (omega, gamma: Chebyshev's weight and the relaxation); result() puts the last iterate in y.
    // targets: per vertex, its attachment's target at the step's end (needed with compliant
    // attachments).
    void start(const std::vector<glm::vec4>& s, std::uint32_t begin, std::uint32_t end);
    void local(int k, int member, int size) { project(iterates_[k % 3], member, size); }
    void global(int k, float omega, float gamma, const std::vector<glm::vec4>& s,
                std::uint32_t begin, std::uint32_t end,
                const std::vector<glm::vec4>* targets = nullptr) {
        sweep(iterates_[k % 3], iterates_[(k + 2) % 3], s, iterates_[(k + 1) % 3], omega, gamma,
              begin, end, targets);
    }
    void result(int iterations, std::vector<glm::vec4>& y, std::uint32_t begin,
                std::uint32_t end) const;

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
    const PdJacobiLayout& layout_;
    std::vector<glm::vec4> triProjections_;   // per triangle: r_u, r_v
    std::vector<glm::vec4> bendProjections_;  // per bend: p
    std::vector<glm::vec4> iterates_[3];      // x^k rotating: x^(k+1) overwrites x^(k-1)
};

}  // namespace cloth
