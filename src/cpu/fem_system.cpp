#include "cpu/fem_system.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "cpu/fem_element.h"
#include "cpu/thread_pool.h"

namespace cloth {

FemSystem::FemSystem(const std::vector<gpu::PdTriangle>& triangles, const FemPattern& pattern,
                     std::vector<double> mass, double d, double s, std::vector<double> extra,
                     FemCouplings couplings, FemStencils stencils)
    : triangles_(&triangles),
      rows_(pattern.rows),
      chunks_((pattern.rows + kChunk - 1) / kChunk),
      offsets_(pattern.offsets),
      columns_(pattern.columns),
      bendBlocks_(pattern.bendBlocks),
      couplings_(std::move(couplings)),
      stencils_(std::move(stencils)),
      diagonal_(pattern.diagonal),
      cornerOffsets_(pattern.cornerOffsets),
      corners_(pattern.corners),
      cornerBlocks_(pattern.cornerBlocks),
      mass_(std::move(mass)),
      extra_(std::move(extra)),
      d_(d),
      s_(s) {
    if (extra_.empty()) extra_.assign(rows_, 0.0);
    blocks_.assign(columns_.size(), glm::dmat3(0.0));
    inverseDiagonal_.assign(rows_, glm::dmat3(1.0));
    r_.assign(rows_, glm::dvec3(0.0));
    z_ = p_ = q_ = r_;
    partA_.assign(chunks_, 0.0);
    partB_ = partC_ = partA_;
}

void FemSystem::chunkRange(int member, int size, std::int32_t& begin, std::int32_t& end) const {
    std::uint32_t cb, ce;
    ThreadPool::split(std::uint32_t(chunks_), member, size, cb, ce);
    begin = std::int32_t(cb) * kChunk;
    end = std::min(rows_, std::int32_t(ce) * kChunk);
}

void FemSystem::fill(const std::vector<FemElement>& elements, int member, int size) {
    std::int32_t rb, re;
    chunkRange(member, size, rb, re);
    for (std::int32_t r = rb; r < re; ++r) {
        for (std::uint32_t b = offsets_[r]; b < offsets_[r + 1]; ++b)
            blocks_[b] = glm::dmat3(bendBlocks_.empty() ? 0.0 : bendBlocks_[b]);
        for (std::uint32_t k = cornerOffsets_[r]; k < cornerOffsets_[r + 1]; ++k) {
            const std::uint32_t t = corners_[k] / 3, i = corners_[k] % 3;
            for (std::uint32_t c = 0; c < 3; ++c)
                if (const std::int32_t b = cornerBlocks_[3 * k + c]; b >= 0)
                    blocks_[b] += femStiffness((*triangles_)[t], elements[t], int(i), int(c));
        }
        glm::dmat3 diagonal = glm::dmat3(d_ * mass_[r] + extra_[r]) + s_ * blocks_[diagonal_[r]];
        if (stencilBlocks_ && !stencils_.offsets.empty())
            for (std::uint32_t k = stencils_.offsets[r]; k < stencils_.offsets[r + 1]; ++k)
                if (stencils_.columns[k] == r) diagonal += (*stencilBlocks_)[stencils_.slots[k]];
        inverseDiagonal_[r] = glm::inverse(diagonal);
    }
}

void FemSystem::multiplyK(const std::vector<glm::dvec3>& v, std::vector<glm::dvec3>& out,
                          int member, int size) const {
    std::int32_t rb, re;
    chunkRange(member, size, rb, re);
    for (std::int32_t r = rb; r < re; ++r) {
        glm::dvec3 sum(0.0);
        for (std::uint32_t b = offsets_[r]; b < offsets_[r + 1]; ++b)
            sum += blocks_[b] * v[columns_[b]];
        out[r] = sum;
    }
}

glm::dvec3 FemSystem::applyRow(std::int32_t r, const std::vector<glm::dvec3>& p) const {
    glm::dvec3 sum(0.0);
    for (std::uint32_t b = offsets_[r]; b < offsets_[r + 1]; ++b) sum += blocks_[b] * p[columns_[b]];
    glm::dvec3 own = (d_ * mass_[r] + extra_[r]) * p[r] + s_ * sum;
    if (stencilBlocks_ && !stencils_.offsets.empty())
        for (std::uint32_t k = stencils_.offsets[r]; k < stencils_.offsets[r + 1]; ++k)
            own += (*stencilBlocks_)[stencils_.slots[k]] * p[stencils_.columns[k]];
    if (couplings_.offsets.empty()) return own;
    glm::dvec3 off(0.0);
    for (std::uint32_t k = couplings_.offsets[r]; k < couplings_.offsets[r + 1]; ++k)
        off += couplings_.weights[k] * p[couplings_.columns[k]];
    return own - off;
}

double FemSystem::total(const std::vector<double>& partial) const {
    double sum = 0.0;
    for (double v : partial) sum += v;
    return sum;
}

glm::dmat3 FemSystem::block(std::int32_t i, std::int32_t j) const {
    for (std::uint32_t b = offsets_[i]; b < offsets_[i + 1]; ++b)
        if (columns_[b] == j) return blocks_[b];
    return glm::dmat3(0.0);
}

// Preconditioned conjugate gradients, three barriers per iteration. A partial sum is read
// only after the barrier that follows its writing, and written again only after the barrier
// that follows every member's reading of it.
FemCgResult FemSystem::solve(ThreadPool& pool, const std::vector<glm::dvec3>& b,
                             std::vector<glm::dvec3>& x, double tolerance, int maxIterations,
                             int member, int size) {
    std::uint32_t cb, ce;
    ThreadPool::split(std::uint32_t(chunks_), member, size, cb, ce);
    auto rowsOf = [&](std::uint32_t c, std::int32_t& begin, std::int32_t& end) {
        begin = std::int32_t(c) * kChunk;
        end = std::min(rows_, begin + kChunk);
    };
    std::int32_t begin, end;
    for (std::uint32_t c = cb; c < ce; ++c) {
        double rr = 0.0, bb = 0.0, rz = 0.0;
        rowsOf(c, begin, end);
        for (std::int32_t r = begin; r < end; ++r) {
            r_[r] = b[r] - applyRow(r, x);
            z_[r] = inverseDiagonal_[r] * r_[r];
            rr += glm::dot(r_[r], r_[r]);
            bb += glm::dot(b[r], b[r]);
            rz += glm::dot(r_[r], z_[r]);
        }
        partA_[c] = rr, partB_[c] = bb, partC_[c] = rz;
    }
    // x is read whole above: no member may change its rows until all have read.
    pool.barrier();
    const double bNorm2 = total(partB_);
    double rNorm2 = total(partA_), rz = total(partC_);
    FemCgResult result;
    if (bNorm2 == 0.0) {
        std::int32_t rb, re;
        chunkRange(member, size, rb, re);
        for (std::int32_t r = rb; r < re; ++r) x[r] = glm::dvec3(0.0);
        pool.barrier();
        return result;
    }
    const double threshold = std::max(tolerance * tolerance * bNorm2, DBL_MIN);
    for (std::uint32_t c = cb; c < ce; ++c) {
        rowsOf(c, begin, end);
        for (std::int32_t r = begin; r < end; ++r) p_[r] = z_[r];
    }
    pool.barrier();
    while (rNorm2 >= threshold && result.iterations < maxIterations) {
        for (std::uint32_t c = cb; c < ce; ++c) {
            double pq = 0.0;
            rowsOf(c, begin, end);
            for (std::int32_t r = begin; r < end; ++r) {
                q_[r] = applyRow(r, p_);
                pq += glm::dot(p_[r], q_[r]);
            }
            partA_[c] = pq;
        }
        pool.barrier();
        const double alpha = rz / total(partA_);
        for (std::uint32_t c = cb; c < ce; ++c) {
            double rr = 0.0, rzNew = 0.0;
            rowsOf(c, begin, end);
            for (std::int32_t r = begin; r < end; ++r) {
                x[r] += alpha * p_[r];
                r_[r] -= alpha * q_[r];
                z_[r] = inverseDiagonal_[r] * r_[r];
                rr += glm::dot(r_[r], r_[r]);
                rzNew += glm::dot(r_[r], z_[r]);
            }
            partB_[c] = rr, partC_[c] = rzNew;
        }
        pool.barrier();
        ++result.iterations;
        rNorm2 = total(partB_);
        const double rzNew = total(partC_);
        if (rNorm2 < threshold) break;
        const double beta = rzNew / rz;
        rz = rzNew;
        for (std::uint32_t c = cb; c < ce; ++c) {
            rowsOf(c, begin, end);
            for (std::int32_t r = begin; r < end; ++r) p_[r] = z_[r] + beta * p_[r];
        }
        pool.barrier();
    }
    result.relativeResidual = std::sqrt(rNorm2 / bNorm2);
    result.converged = rNorm2 < threshold;
    pool.barrier();  // x whole before anyone reads it
    return result;
}

}  // namespace cloth
