// The implicit FEM's load-time data beyond its terms (prep/fem.h): which vertices the
// backward-Euler system solves for, the incidences its force and its rows read, the constant
// parts of its diagonal, and its matrix's block pattern. Built once in the preparation
// (prep/solver_data.h, for model fem), read by the CPU's FEM solver (cpu/fem.h) and its system
// (cpu/fem_system.h), which build nothing of it.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/projective.h"
#include "prep/prepared.h"
#include "prep/springs.h"

namespace cloth {

// Couplings of the system outside K: per row (CSR), other rows j and weights c, each adding
// -c x_j to the row's product (a seam's spring of stiffness w couples its two rows by -h^2 w I;
// its h^2 w on each diagonal goes into `extra`).
struct FemCouplings {
    std::vector<std::uint32_t> offsets;  // rows + 1, or empty: none
    std::vector<std::int32_t> columns;
    std::vector<double> weights;
};

// Four-vertex terms' stiffness outside K (the fixed angles' angle springs, Gauss-Newton's
// h^2 w g g^T): per row (CSR), the rows j it couples to (itself included) and the slot of each
// 3x3 block in a vector the caller refills every step (FemSystem::setStencilBlocks); A gains
// sum B x_j.
struct FemStencils {
    std::vector<std::uint32_t> offsets;  // rows + 1, or empty: none
    std::vector<std::int32_t> columns;
    std::vector<std::uint32_t> slots;
};

// The block pattern of K over the free rows (cpu/fem_system.h): each row's free neighbours
// through its triangles and its bends, itself included, sorted.
struct FemPattern {
    std::int32_t rows = 0;
    // Block rows: offsets[r] .. offsets[r + 1] index columns (free rows) and the blocks.
    std::vector<std::uint32_t> offsets;
    std::vector<std::int32_t> columns;
    std::vector<std::uint32_t> diagonal;  // per row, its own block's index
    // Per row, its (triangle, corner) pairs (3 t + c) in triangle order, and for each of the
    // triangle's three corners the block it adds to (or -1 for a pinned corner).
    std::vector<std::uint32_t> cornerOffsets, corners;
    std::vector<std::int32_t> cornerBlocks;  // 3 per corner
    std::vector<double> bendBlocks;  // per block, the bends' sum of w k_c k_d (empty: no bends)
};

// row[v]: the free row of vertex v, or -1 for one the solve leaves out; rows: how many are free.
// bends: the hinges' quadratic terms (PdBend: stencil k, weight w), whose constant blocks
// w k_c k_d I join K.
FemPattern femPattern(const std::vector<gpu::PdTriangle>& triangles,
                      const std::vector<std::int32_t>& row, std::int32_t rows,
                      const std::vector<gpu::PdBend>& bends = {});

// The FEM solver's plan for p (model fem) at substep h, s. `angles`: the model tables' angle
// springs' incidence (prep/solver_data.h ModelTables::angles); `attachmentOf`: per vertex its
// attachment's index, or kNoSpringAttachment.
struct FemPlan {
    // A vertex carried by a hard attachment leaves the solve like a pin (it moves, so its
    // neighbours feel its move at the next step's force).
    std::vector<std::int32_t> row;  // per original vertex: its free row, or -1
    std::int32_t rows = 0;
    std::vector<std::uint32_t> rowVertex;  // per free row, its vertex
    // Per vertex, its triangles' corners (3 t + c), in triangle order.
    std::vector<std::uint32_t> cornerOffsets, corners;
    // Per vertex, its seam springs (p.springTerms.springs: rest length 0), in spring order.
    struct SeamSpring {
        std::uint32_t other;
        double stiffness;
    };
    std::vector<std::uint32_t> springOffsets;  // per vertex (CSR into springs)
    std::vector<SeamSpring> springs;
    // Per free row: its lumped mass (1 / w), a compliant attachment's stiffness (1 / compliance,
    // or 0) and the constant part of its diagonal, h^2 (attachment + the seams' stiffnesses).
    std::vector<double> mass, attachment, extra;
    FemCouplings couplings;  // the seams' -h^2 w between free rows (empty: no seams)
    FemStencils stencils;    // the angle springs' blocks' slots (empty: no angle springs)
    FemPattern pattern;
};
FemPlan buildFemPlan(const PreparedCloth& p, const SpringIncidence& angles,
                     const std::vector<std::uint32_t>& attachmentOf, double h);

}  // namespace cloth
