// Bending in physical units: each hinge's weight from the material's bending rigidity (N m) and
// the hinge's rest geometry, so that a finer or another triangulation of the same cloth bends
// alike (docs/model.md#bending-in-physical-units).
//
// A hinge (edge x0 -> x1, apex x2 of triangle A, apex x3 of triangle B) stores (k/2) theta^2,
// theta its fold (the dihedral angle's change). k follows from the plate energy (B/2) kappa^2
// per area of a cloth bent to a cylinder of curvature kappa:
//
// 1. The fold of a flat hinge bent to curvature tensor K (small, in its plane), with the edge
//    along t, its in-plane normal n, each apex at distance s along the edge and h from it: the
//    two faces are the planes through the height field z = x^T K x / 2 at their corners, and
//    theta is the jump of their slopes across the edge,
//      theta = P K_nn + Q K_tn - R K_tt,
//      P = (h_A + h_B) / 2,  Q = s_B - s_A,  R = (h_A c_A + h_B c_B) / 2,  c = s (L - s) / h^2
//    (c is the product of the cotangents of the triangle's angles at the edge's ends).
// 2. For a cylinder (K = kappa d d^T) at a uniformly random direction d, the mean square fold is
//      m = <theta^2> / kappa^2 = 3/8 P^2 + 1/8 Q^2 + 3/8 R^2 - 1/4 P R.
// 3. Each triangle's rest area is shared among its edges in proportion to their m, so a hinge's
//    share is A_e = sum over its two triangles T of A_T m_e / S_T, S_T the sum of m over T's three
//    edges (a border edge counted as the hinge of T and its mirror image: P = h, Q = 0, R = h c;
//    its share is lost, as the border cannot fold); asking the hinge's mean energy
//    (k/2) m kappa^2 to be the plate's (B/2) kappa^2 A_e gives
//      k = B(n) (A_A / S_A + A_B / S_B).
//    A strip of a grid with alternating diagonals then bends along its lines with exactly the
//    plate's energy, whatever its width.
//    On an equilateral mesh this is B |e|^2 / (A_A + A_B) and the energy of every cylinder is
//    the plate's; on irregular meshes it holds on the mean over directions and within a few
//    percent in each (tests/shared/test_hinge_bending.cpp); a grid whose diagonals all run one
//    way cannot be isotropic with any weights per hinge (docs/model.md).
// 4. Warp and weft: B(n) = B_weft (n.u)^2 + B_warp (n.v)^2, n the hinge's bending direction
//    (across its edge), u the weft, v the warp: exact for a grid along its yarns.
//
// The models use k as: XPBD dihedral compliance 1/k; isometric (|C| = |e| theta to first order)
// compliance |e|^2 / k per component; PD's bend weight k / |e|^2; angle springs (mass_spring,
// fem) k.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace cloth {

// The hinge's terms of step 1 from its rest corners (each triangle in its own plane). False when
// a triangle or the edge is degenerate.
struct HingeShape {
    double length = 0.0;             // |e|
    double p = 0.0, q = 0.0, r = 0.0;
    double areaA = 0.0, areaB = 0.0;  // rest areas of the triangles (x0, x1, x2) and (x1, x0, x3)
    glm::dvec3 normalA{0.0};         // unit, in A's plane, across the edge towards x2
    bool ok = false;
};
HingeShape hingeShape(glm::dvec3 x0, glm::dvec3 x1, glm::dvec3 x2, glm::dvec3 x3);

// m = <theta^2> / kappa^2 over bending directions (step 2), m^2.
double hingeMeanSquareFold(const HingeShape& h);

// The bending rigidity across a hinge whose bending direction is `across` (unit, in A's plane)
// for weft direction `weft` (any length; zero: isotropic, bWeft).
double hingeRigidity(glm::dvec3 across, glm::dvec3 weft, double bWeft, double bWarp);

// One hinge of a cloth: its edge's vertices, its rest stencil, its two triangles (indices into
// the cloth's triangle list) and its weft direction (world; zero when the material is
// isotropic).
struct HingeInput {
    std::uint32_t v0 = 0, v1 = 0;
    std::array<glm::vec3, 4> rest;
    std::uint32_t triangleA = 0, triangleB = 0;
    glm::vec3 weft{0.0f};
};

// k (N m) of each hinge (step 3); 0 for a degenerate one. `triangles` are the cloth's, with each
// one's rest corners in `triangleRest` (the same order).
std::vector<double> hingeBendWeights(const std::vector<HingeInput>& hinges,
                                     const std::vector<glm::uvec3>& triangles,
                                     const std::vector<std::array<glm::vec3, 3>>& triangleRest,
                                     double bWeft, double bWarp);

}  // namespace cloth
