// The implicit FEM's element maths (cpu/fem.h's solver and cpu/fem_system.h's matrix both use
// them): a corotated membrane triangle's strain, energy, forces and stiffness, and a hinge's
// quadratic bending (docs/models.md "Implicit corotational FEM").
#pragma once

#include <glm/glm.hpp>

#include "kernels/projective.h"

namespace cloth {

// An element at positions x0, x1, x2 (t: a femTriangle, stiffness = (C11, C22, C12, C33)). F =
// D_s D_m^-1 = R S with R (3x2, columns r_u, r_v) the polar factor; the corotated strain is
// S - I in Voigt form with engineering shear: (S_uu - 1, S_vv - 1, 2 S_uv); the stress C times it.
struct FemElement {
    glm::vec3 ru, rv;
    glm::dvec3 strain, stress;
};
FemElement femElement(const gpu::PdTriangle& t, glm::vec3 x0, glm::vec3 x1, glm::vec3 x2);
// A (strain . stress) / 2: the element's energy.
double femEnergy(const gpu::PdTriangle& t, const FemElement& e);
// The elastic force on corner i: -A J_i^T stress, J_i the strain's derivative at corner i with
// R held fixed (dE_uu = bu_i r_u, dE_vv = bv_i r_v, dgamma = bu_i r_v + bv_i r_u).
glm::dvec3 femForce(const gpu::PdTriangle& t, const FemElement& e, int i);
// The stiffness block K_ij = A J_i^T C J_j (3x3), R held fixed: the force's derivative
// -dF_i/dx_j with the rotation frozen (the corotational tangent).
glm::dmat3 femStiffness(const gpu::PdTriangle& t, const FemElement& e, int i, int j);

// A hinge's bending (b: a femBend, kind PD_TERM_BEND): E = (w/2) |C - p|^2 with C = sum K_i x_i
// (the isometric stencil) and p = rho C / |C| (rho = |C| at rest, 0 for a flat hinge), that is
// (w/2) (|C| - rho)^2. At rho = 0 it is Bergou et al.'s quadratic energy, whose Hessian
// w K_i K_j I is constant; the step uses that matrix for every hinge (for rho > 0 it bounds the
// true Hessian from above). femBendResidual gives w (C - p), and the force on corner i is
// -K_i times it.
glm::dvec3 femBendResidual(const gpu::PdBend& b, glm::vec3 x0, glm::vec3 x1, glm::vec3 x2,
                           glm::vec3 x3);
double femBendEnergy(const gpu::PdBend& b, glm::vec3 x0, glm::vec3 x1, glm::vec3 x2, glm::vec3 x3);

}  // namespace cloth
