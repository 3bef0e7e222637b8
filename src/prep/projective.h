// Projective dynamics' load-time data (docs/models.md "Projective dynamics"): a strain term per
// triangle and a bending term per interior edge (kernels/projective.h), their weights from the
// cloth's material.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/scene.h"
#include "prep/prepared.h"

namespace cloth {

// The membrane modulus (N/m) of a distance material of compliance alpha on a grid of square
// cells split by one diagonal: each cell's two edges and its diagonal are springs of 1/alpha,
// whose lattice has C11 = 3 / (2 alpha), C12 = 1 / (2 alpha), so the modulus under uniaxial
// stress C11 - C12^2 / C11 = 4 / (3 alpha).
inline double pdDistanceModulus(double alpha) {
    return 4.0 / (3.0 * alpha);
}

// A cloth triangle at rest, for the continuum models: the StVK items' triangles in their
// weft/warp frames (D_m^-1 as invRest), the other cloths' triangles in any in-plane frame (the
// first axis along v1 - v0), at rest (prep/rest_shape.h restTriangle: the pattern's shape for a
// cloth with rest_shape "uv"). Throws cloth::Error for a degenerate triangle.
struct RestTriangle {
    std::size_t cloth;
    std::uint32_t v0, v1, v2;
    float area;         // m^2
    glm::vec4 invRest;  // B = D_m^-1 column-major (B00, B10, B01, B11)
};
void forEachRestTriangle(const Scene& scene, const std::vector<std::uint32_t>& clothBegin,
                         const PreparedCloth& p, const std::function<void(const RestTriangle&)>& fn);

// Fills p.pdTerms.triangles and p.pdTerms.bends (after the cloths are appended, before colouring).
// Strain: a StVK material's triangles keep their weft/warp frame (D_m from the StVK items, which
// hold the pattern's shape where the rest shape is the pattern) with
// k_u = E_x, k_v = E_y; a distance material's any in-plane frame with k_u = k_v =
// pdDistanceModulus(stretch_compliance). Bending: every interior edge's isometric stencil; an
// isometric material's weight D / (A1 + A2) (its energy), a dihedral one's 1 / (alpha |e|^2) (a
// fold theta then costs theta^2 / (2 alpha), as the dihedral constraint does, since |C| = |e|
// theta to first order). Fixed angles: in place of their edges' bends, one term per edge
// (PD_TERM_FIXED_ANGLE, fixedAngleTerm) of weight 1 / (alpha |e|^2), or for a hard one
// (compliance 0) the stiffest term's: the largest membrane modulus or bending weight. Seams: one
// term (w/2) |x_a - x_b|^2 per pair (PD_TERM_SEAM; w from prep/sewing.h seamStiffness, a hard
// seam's the largest membrane modulus), which a merge removes. Throws cloth::Error for what the
// model cannot take: a rigid material (compliance 0).
void buildProjective(const Scene& scene, const std::vector<std::uint32_t>& clothBegin,
                     PreparedCloth& p);

// Every hinge's bending as a term of PD's bends' form (PD_TERM_BEND: (w/2) |C - p|^2, C = sum K_i
// x_i the isometric stencil, p = rho C / |C| with rho = |C| at rest): a dihedral item's weight
// k / |e|^2 from its compliance 1/k (prep/hinge_bending.h, or the expert override), so that a
// fold theta costs (k/2) theta^2 to first order as |C| = |e| theta; an isometric item's
// 1 / compliance (rho 0). PD's bends and the FEM's (prep/fem.h), in item order.
std::vector<gpu::PdBend> hingeBendTerms(const PreparedCloth& p);

// The hinge `rest` (v0, v1 the edge, v2 and v3 opposite, as a bend's) laid flat and folded to
// targetAngle (radians, bendingAngle's convention: negative folds towards the faces' normals):
// the edge from the origin along +x, v2's wing at +y and v3's at -y before the fold, the normals
// +z, each wing turned by half the fold about the edge. Each wing keeps its triangle's shape.
std::array<glm::dvec3, 4> foldHinge(const std::array<glm::vec3, 4>& rest, float targetAngle);

// A fixed angle's term over the rest hinge (kernels/projective.h): the rest stencil's weights,
// and a, b of C* = sum K_i X_i over foldHinge(rest, targetAngle) in that hinge's frame.
gpu::PdBend fixedAngleTerm(const std::array<glm::vec3, 4>& rest, std::uint32_t v0,
                           std::uint32_t v1, std::uint32_t v2, std::uint32_t v3,
                           float targetAngle, float weight);

// How many of p.pdTerms.bends are of a kind (gpu::PD_TERM_SEAM, gpu::PD_TERM_FIXED_ANGLE, ...).
std::size_t pdTermCount(const PreparedCloth& p, std::uint32_t kind);
// How many of p.pdTerms.bends are seam terms.
inline std::size_t pdSeamTermCount(const PreparedCloth& p) {
    return pdTermCount(p, gpu::PD_TERM_SEAM);
}

// What the model runs on each backend is core/model_support.h's table (prep/model_checks.h).
// Every iteration scheme runs: gs selects the direct (LDLT) global step, jacobi and chebyshev
// the Jacobi one (kernels/pd_jacobi.h; the GPU runs only these).
// The Jacobi schemes also need a relaxation gamma <= kPdMaxRelaxation: a sweep converges when
// gamma lambda_max(D^-1 A) < 2, and a term's at most 4 corners bound lambda_max by 4 (Cauchy-Schwarz:
// (a_c . x)^2 <= 4 sum_j a_cj^2 x_j^2, so A <= 4 D). Measured on an 8 x 8 cloth: 0.8 converges,
// 0.9 diverges.
inline constexpr float kPdMaxRelaxation = 0.5f;
// Throws cloth::Error for a Jacobi scheme's relaxation past kPdMaxRelaxation.
void refusePdRelaxation(const PreparedCloth& p);

}  // namespace cloth
