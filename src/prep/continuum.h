// Load-time builders of the continuum constraints: orthotropic StVK membrane triangles
// (src/kernels/constraint/stvk.h) and isometric bending stencils
// (src/kernels/constraint/iso_bending.h). Vertex indices are left 0: the caller sets them.
#pragma once

#include <string>

#include <glm/glm.hpp>

#include "kernels/constraint/iso_bending.h"
#include "kernels/constraint/stvk.h"
#include "core/orthotropic.h"

namespace cloth {

struct StvkBuild {
    gpu::StvkConstraint item{};
    float restArea = 0.0f;  // A0, m^2
    std::string error;      // empty when item is usable
    bool ok() const { return error.empty(); }
};

struct IsoBendingBuild {
    gpu::IsoBendingConstraint item{};
    std::string error;  // empty when item is usable
    bool ok() const { return error.empty(); }
};

// A triangle is degenerate when twice its area is below this share of its longest edge squared.
inline constexpr double kDegenerateTriangle = 1e-6;

// From rest material coordinates (metres on the weft u and warp v axes).
StvkBuild makeStvk(glm::vec2 uv0, glm::vec2 uv1, glm::vec2 uv2, const OrthotropicMaterial& m,
                   float pbdStiffness = 1.0f);

// From rest world positions and the weft direction (projected onto the triangle's plane; the
// warp is n x weft, n = (x1 - x0) x (x2 - x0) normalised).
StvkBuild makeStvk(glm::vec3 x0, glm::vec3 x1, glm::vec3 x2, glm::vec3 weft,
                   const OrthotropicMaterial& m, float pbdStiffness = 1.0f);

// Edge x0 -> x1, x2 opposite in (x0, x1, x2), x3 opposite in (x1, x0, x3), flat rest state.
// hingeWeight: the hinge's k in N m (> 0; prep/hinge_bending.h), the energy (k/2) theta^2 for a
// fold theta: compliance |e|^2 / k per component of C.
IsoBendingBuild makeIsoBending(glm::vec3 x0, glm::vec3 x1, glm::vec3 x2, glm::vec3 x3,
                               double hingeWeight, float pbdStiffness = 1.0f);

}  // namespace cloth
