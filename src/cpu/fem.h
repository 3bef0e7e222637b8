// The implicit corotational orthotropic FEM on the CPU (docs/models.md "Implicit corotational
// FEM"; Trendafilov 2021 §3): linear membrane triangles whose strain is measured in their own
// rotated frame, lumped masses, Rayleigh damping, one linearised backward-Euler step per substep
// solved by block-Jacobi-preconditioned conjugate gradients (cpu/fem_system.h). The wind changes
// the velocities before each step; a compliant attachment is a spring of rest length 0 to its
// target in the step (force and stiffness), a hard one carries its vertex like a moving pin.
// Tethers and the colliders, meshes included, act after each step (cpu/post_step.h). Threads
// share the elements, the vertices and the system's rows; every sum is in a fixed order, so any
// thread count gives the same bits. Seams: springs of rest length 0 in the step (prep/fem.h).
#pragma once

#include <cstdint>
#include <memory>

#include <glm/glm.hpp>

#include "cpu/fem_element.h"  // the element maths, for the tests and tools that include this
#include "prep/prepared.h"
#include "sim/solver.h"

namespace cloth {

// threads >= 1: the most threads a frame runs on, one per `verticesPerThread` vertices at most
// (0: all of them). Throws cloth::Error for what the model does not run.
inline constexpr std::uint32_t kVerticesPerFemThread = 2048;
std::unique_ptr<Solver> makeFemSolver(SharedCloth prepared, int threads = 1,
                                      std::uint32_t verticesPerThread = kVerticesPerFemThread);
// The same from a copy of `prepared` (a caller that keeps and changes its own: tests).
inline std::unique_ptr<Solver> makeFemSolver(
    const PreparedCloth& prepared, int threads = 1,
    std::uint32_t verticesPerThread = kVerticesPerFemThread) {
    return makeFemSolver(shareCopy(prepared), threads, verticesPerThread);
}

}  // namespace cloth
