// The implicit corotational FEM's load-time data (docs/models.md "Implicit corotational FEM"):
// a linear membrane triangle per cloth triangle with its material's plane-stress stiffness.
#pragma once

#include <cstdint>
#include <vector>

#include "core/scene.h"
#include "prep/prepared.h"

namespace cloth {

// Fills p.femTerms.triangles and p.femTerms.bends (after the cloths are appended). Bending: every
// hinge's quadratic isometric term (prep/projective.h hingeBendTerms: weight from the material's
// rigidity B, as PD's). Each triangle with (C11, C22, C12, C33) in N/m,
// engineering shear. A StVK material gives its orthotropic moduli in its weft/warp frame. A
// distance material of compliance alpha gives the isotropic lattice of prep/projective.h:
// E = 4 / (3 alpha), nu = 1/3, G = 1 / (2 alpha) (C11 = C22 = 3 / (2 alpha), C12 = C33 =
// 1 / (2 alpha)). D_m from the triangle at rest (prep/projective.h forEachRestTriangle: the
// pattern's shape for a cloth with rest_shape "uv"). Throws cloth::Error for a rigid material
// (compliance 0). Seams: p.springTerms.springs gets a spring of rest length 0 per pair
// (prep/sewing.h seamStiffness; a hard seam's the largest C11 or C22), in the backward-Euler system
// as an attachment is (cpu/fem.h), which a merge removes.
void buildFem(const Scene& scene, const std::vector<std::uint32_t>& clothBegin, PreparedCloth& p);

}  // namespace cloth
