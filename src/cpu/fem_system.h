// The linear system of the FEM's backward-Euler step (cpu/fem.h), in 3x3 blocks over the free
// vertices, and its solve by conjugate gradients on the thread team.
//
// The stiffness K (the membrane's, refilled each step, plus the constant Hessian w K_c K_d I of
// the hinges' quadratic bending, cpu/fem.h femBendResidual) is stored by block rows (one row per free vertex, its blocks in the order of
// its free neighbours, itself included), so a member fills and multiplies its own rows only.
// The system matrix A = d M + s K (M the lumped masses) is never formed: a product adds d m_i p_i
// to s (K p)_i. The preconditioner is block Jacobi (the inverse of A's 3x3 diagonal blocks).
// Rows are dealt to members in fixed chunks, and every sum over rows (the dot products) adds the
// chunks' partial sums in chunk order, so any team size gives the same bits.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "kernels/projective.h"
#include "prep/fem_plan.h"

namespace cloth {

class ThreadPool;
struct FemElement;

struct FemCgResult {
    int iterations = 0;
    double relativeResidual = 0.0;  // |b - A x| / |b|
    bool converged = true;
};

class FemSystem {
public:
    // pattern: K's block pattern over the free rows (prep/fem_plan.h femPattern, kept by
    // reference: it outlives the system); mass[r]: row r's lumped mass; A = d M + s K + E,
    // E = diag(extra) (per row, times the 3x3 identity: a compliant attachment's h^2 /
    // compliance; empty: none). The hinges' constant blocks w k_c k_d I join K from the pattern.
    FemSystem(const std::vector<gpu::PdTriangle>& triangles, const FemPattern& pattern,
              std::vector<double> mass, double d, double s, std::vector<double> extra = {},
              FemCouplings couplings = {}, FemStencils stencils = {});
    // The stencils' blocks for the next fill() and solve() (kept by pointer; none: empty).
    void setStencilBlocks(const std::vector<glm::dmat3>* blocks) { stencilBlocks_ = blocks; }

    std::int32_t rows() const { return rows_; }
    // Blocks stored (each 3x3): the non-zero pattern of K over the free vertices.
    std::size_t blockCount() const { return blocks_.size(); }

    // Collective: every member of the run calls these with its (member, size).
    // K's rows from the elements, and the preconditioner's.
    void fill(const std::vector<FemElement>& elements, int member, int size);
    // out[r] = (K v)[r] for the member's rows.
    void multiplyK(const std::vector<glm::dvec3>& v, std::vector<glm::dvec3>& out, int member,
                   int size) const;
    // Solves A x = b from the x given, to |b - A x| <= tolerance |b| or maxIterations; ends
    // with a barrier. b and x: one entry per row. The member's rows of b must be written; the
    // whole of x (it reads the neighbours' entries).
    FemCgResult solve(ThreadPool& pool, const std::vector<glm::dvec3>& b, std::vector<glm::dvec3>& x,
                      double tolerance, int maxIterations, int member, int size);

    // The block (i, j) of K, or zero where none is stored (tests).
    glm::dmat3 block(std::int32_t i, std::int32_t j) const;

    // Rows per chunk: the unit of the members' shares and of the partial sums.
    static constexpr std::int32_t kChunk = 64;
    // The rows [begin, end) of `member`: the ones fill, multiplyK and solve give it.
    void chunkRange(int member, int size, std::int32_t& begin, std::int32_t& end) const;

private:
    // (A p)_r for one row.
    glm::dvec3 applyRow(std::int32_t r, const std::vector<glm::dvec3>& p) const;
    // Every member: the chunks' partials summed in chunk order.
    double total(const std::vector<double>& partial) const;

    const std::vector<gpu::PdTriangle>* triangles_;
    std::int32_t rows_;
    std::int32_t chunks_;
    // Block rows: offsets_[r] .. offsets_[r + 1] index columns_ (free rows) and blocks_; the
    // pattern's (prep/fem_plan.h FemPattern).
    const std::vector<std::uint32_t>& offsets_;
    const std::vector<std::int32_t>& columns_;
    std::vector<glm::dmat3> blocks_;
    const std::vector<double>& bendBlocks_;  // per block, the bends' w k_c k_d (empty: none)
    FemCouplings couplings_;
    FemStencils stencils_;
    const std::vector<glm::dmat3>* stencilBlocks_ = nullptr;
    const std::vector<std::uint32_t>& diagonal_;  // per row, its own block's index
    // Per row, its (triangle, corner) pairs in triangle order, and for each of the triangle's
    // three corners the block it adds to (or -1 for a pinned corner).
    const std::vector<std::uint32_t>&cornerOffsets_, &corners_;
    const std::vector<std::int32_t>& cornerBlocks_;  // 3 per corner
    std::vector<double> mass_;
    std::vector<double> extra_;  // per row (zeros without)
    double d_, s_;
    std::vector<glm::dmat3> inverseDiagonal_;
    // The solve's vectors and the chunks' partial sums.
    std::vector<glm::dvec3> r_, z_, p_, q_;
    std::vector<double> partA_, partB_, partC_;
};

}  // namespace cloth
