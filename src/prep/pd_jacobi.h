// Projective dynamics' Jacobi global step (kernels/pd_jacobi.h): the load-time data both backends
// read, built once per substep length.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/pd_jacobi.h"
#include "prep/prepared.h"

namespace cloth {

struct PdJacobiLayout {
    std::vector<gpu::PdJacobiVertex> vertices;  // per original vertex: m / h^2 and A_ii
    // Per vertex, its terms' corners (CSR in term order): triangle t's corner c as 3 t + c, bend
    // b's as 4 b + c. A vertex adds its triangles first, then its bends.
    std::vector<std::uint32_t> triOffsets, triCorners, bendOffsets, bendCorners;
};

// A_ii = m_i / h^2 + sum_c w_c a_ci^2 (+ w of a compliant attachment) summed in double in term
// order, rounded once; a pin and a vertex carried by a hard attachment get inertia 0 and
// diagonal 1 (they are never divided), the carried one `carried` 1.
PdJacobiLayout buildPdJacobiLayout(const PreparedCloth& p, float h);

// Each original vertex's linear damping (1/s), its cloth's material's: what the implicit models
// scale their velocities by after a step (cpu/post_step.h, shaders/pd_jacobi.comp).
std::vector<float> implicitDamping(const PreparedCloth& p);

}  // namespace cloth
