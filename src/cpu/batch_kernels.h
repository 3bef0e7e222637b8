// The colour batches of the CPU reference, several constraints at a time.
//
// No two constraints of one colour share a vertex, so a block of them can be gathered into
// local structure-of-arrays, solved lane by lane with the shared maths of
// src/kernels/constraints.h in a loop the compiler vectorises, and scattered back. Every lane
// computes the same IEEE operations on the same values as the plain loop
//     for i in [begin, end): <type>Solve(pos, c[i], lambda[i])  (load, project, store)
// so the results are bit-identical to it, on every instruction set (tests/cpu/test_cpu_batch.cpp).
// Like the shader, a constraint's vertices are read once and written back in order v0, v1, ...
#pragma once

#include <cstdint>
#include <string_view>

#include "kernels/constraints.h"

namespace cloth {

enum class BatchIsa {
    Scalar,    // one constraint at a time: the plain loop above, as the CPU reference solved
               // colours before the block kernels (kept to compare against, e.g. clothbench)
    Portable,  // plain C++ for other CPUs; on x86-64 no faster than the plain loop (measured):
               // its lane-by-lane gather defeats store-to-load forwarding
    Sse2,      // SSE2 gather and scatter, four lanes per vector (any x86-64)
    Avx2,      // AVX2, eight lanes per vector, where the CPU has it
    Avx512,    // AVX-512 (F, VL, BW, DQ), sixteen lanes per vector, where the CPU has it
};

inline constexpr BatchIsa kBatchIsas[] = {BatchIsa::Scalar, BatchIsa::Portable, BatchIsa::Sse2,
                                          BatchIsa::Avx2, BatchIsa::Avx512};

const char* batchIsaName(BatchIsa isa);            // "scalar", "portable", "sse2", "avx2", "avx512"
BatchIsa batchIsaFromName(std::string_view name);  // the inverse; throws cloth::Error if unknown
bool batchIsaAvailable(BatchIsa isa);              // compiled in and supported by this CPU
BatchIsa bestBatchIsa();                           // the fastest available one

// The multipliers of an item type (ConstraintType::Lambda: float or glm::vec4).
template <class Item>
using BatchLambda = typename gpu::ConstraintType<gpu::constraintTypeIndex<Item>>::Lambda;

// Projects the items [begin, end) of one colour of a constraint type onto pos, in place (defined
// for every type of src/kernels/constraint_types.h).
template <class Item>
void solveBatch(BatchIsa isa, glm::vec4* pos, const Item* items, BatchLambda<Item>* lambda,
                std::uint32_t begin, std::uint32_t end, const gpu::SolveParams& sp);

// Where a block's time goes, for the cost floors (clothbench --kernel-parts): All is solveBatch;
// Move loads the records and gathers and scatters the positions without the maths; Maths solves
// every whole block's lanes on the first block's gathered positions, moving nothing. The parts
// count whole blocks only, run in XPBD mode on avx2 and avx512 (else a cloth::Error); Move and
// Maths leave positions and multipliers that mean nothing.
enum class BatchPart { All, Move, Maths };

template <class Item>
void solveBatchPart(BatchPart part, BatchIsa isa, glm::vec4* pos, const Item* items,
                    BatchLambda<Item>* lambda, std::uint32_t begin, std::uint32_t end,
                    const gpu::SolveParams& sp);

}  // namespace cloth
