// Projective dynamics on the CPU (docs/models.md "Projective dynamics"; kernels/projective.h):
// one implicit step per substep, `iterations` local/global iterations, the global system
// prefactored once by a sparse Cholesky (Eigen's SimplicialLDLT) and reused until its terms
// change. Pins are hard: their rows leave the system, their columns move to its right-hand side
// (a pin released would change the matrix and need a new factor; none is released yet). A hard
// attachment's vertex leaves the system too, its column times its moving target on the right; a
// compliant attachment is a term w |x_i - t|^2 / 2 (w on the diagonal: the factor stays). The
// wind changes the velocities before each step's prediction. Tethers and the colliders, meshes
// included (kernels/collider.h springContactAny, with friction and restitution), are projections
// after each step; the materials' linear damping scales the velocities.
// Threads share the local step (by terms) and the right-hand sides (by vertices, each summing its
// terms in a fixed order); x, y and z are solved on up to three of them. Any thread count gives
// the same bits. Iteration scheme jacobi or chebyshev replaces the factor by one Jacobi sweep per
// iteration, Chebyshev-accelerated (cpu/pd_jacobi.h).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <glm/glm.hpp>

#include "cpu/thread_pool.h"
#include "prep/pd_jacobi.h"
#include "prep/prepared.h"
#include "sim/solver.h"

namespace cloth {

// The global system of a step of h over the prepared terms, its factor, and the iterations.
class ProjectiveSystem {
public:
    ProjectiveSystem(const PreparedCloth& p, float h);
    ~ProjectiveSystem();
    ProjectiveSystem(const ProjectiveSystem&) = delete;
    ProjectiveSystem& operator=(const ProjectiveSystem&) = delete;

    // The inertial prediction s = x + h v + h^2 g of the free vertices (pinned: x).
    void predict(const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& v, glm::vec3 g,
                 std::vector<glm::vec4>& s) const;
    // One local/global iteration from y towards the minimum of g (s fixed), every member of the
    // pool together (barriers inside; the last call of a run may be followed by member 0 alone).
    // A vertex carried by a hard attachment is not in the system: y holds it at its target, and
    // its column times that position moves to the right-hand side. targets: per vertex, its
    // attachment's target at the step's end (needed with compliant attachments: their term
    // (w/2) |x_i - t|^2 puts w on the diagonal, w t on the right).
    void iterate(ThreadPool& pool, int member, int size, std::vector<glm::vec4>& y,
                 const std::vector<glm::vec4>& s, const std::vector<glm::vec4>* targets = nullptr);
    // g(y) with every term at its projection for y (kernels/projective.h), in double; with
    // targets (as iterate's), the compliant attachments' (w/2) |y_i - t_i|^2 too.
    double energy(const std::vector<glm::vec4>& y, const std::vector<glm::vec4>& s,
                  const std::vector<glm::vec4>* targets = nullptr) const;

    std::uint64_t factorizations() const { return factorizations_; }

private:
    struct Factor;
    const PreparedCloth& p_;
    float h_;
    std::vector<double> mass_;     // per vertex, 0 for pinned ones
    std::vector<glm::vec3> pins_;  // per vertex: its pin (pinned ones)
    std::vector<std::int32_t> row_;  // per vertex: its row in the system, -1 if pinned or carried
    std::int32_t freeCount_ = 0;
    std::vector<double> pinned_;     // per coordinate, per row: -sum over pins of A_rp x_p
    std::vector<double> attachment_;  // per vertex: a compliant attachment's w = 1 / compliance
    // Per row, its couplings A_rk to carried vertices k (CSR, in term order), which move: -A_rk
    // y_k joins the right-hand side at each iteration.
    std::vector<std::uint32_t> carriedOffsets_, carriedVertex_;
    std::vector<double> carriedValue_;
    // Per vertex, its terms' corners (CSR): triangle t's corner c as 3 t + c, bend b's as 4 b + c
    // (p_'s solver data).
    const PdJacobiLayout& layout_;
    std::vector<glm::vec3> triProjections_;  // per triangle: r_u, r_v
    std::vector<glm::vec3> bendProjections_;
    std::vector<double> rhs_;  // per coordinate, per row
    std::unique_ptr<Factor> factor_;
    std::uint64_t factorizations_ = 0;
};

// threads >= 1: the most threads a frame runs on, one per `verticesPerThread` vertices at most
// (0: all of them, for the tests). Throws cloth::Error for what the model does not run.
inline constexpr std::uint32_t kVerticesPerPdThread = 2048;
std::unique_ptr<Solver> makeProjectiveSolver(SharedCloth prepared, int threads = 1,
                                             std::uint32_t verticesPerThread = kVerticesPerPdThread);
// The same from a copy of `prepared` (a caller that keeps and changes its own: tests).
inline std::unique_ptr<Solver> makeProjectiveSolver(
    const PreparedCloth& prepared, int threads = 1,
    std::uint32_t verticesPerThread = kVerticesPerPdThread) {
    return makeProjectiveSolver(shareCopy(prepared), threads, verticesPerThread);
}

}  // namespace cloth
