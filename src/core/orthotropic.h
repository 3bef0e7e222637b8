// Orthotropic membrane material (plane stress) in membrane units: moduli in N/m, i.e. the
// 3-D moduli times the thickness, as Trendafilov 2021 Table 3.1 gives them. Axis x is the
// weft (material u), y the warp (material v).
//
// Poisson pairing (symmetry of the compliance matrix): nuXY * ex = nuYX * ey. Then, under a stress along x alone, the
// lateral strain is eps_y = -nuYX eps_x; under a stress along y alone, eps_x = -nuXY eps_y.
// Stiffness (S = Cm eps, eps = (eps_xx, eps_yy, gamma_xy)), as in Anon. 2023 (41):
//   Cm = 1 / (1 - nuXY nuYX) [[ex, nuXY ex, 0], [nuYX ey, ey, 0], [0, 0, G (1 - nuXY nuYX)]],
// symmetric by the pairing; we use the mean of the two off-diagonal terms.
#pragma once

#include <array>
#include <optional>
#include <string>

namespace cloth {

struct OrthotropicMaterial {
    float ex = 0.0f;    // Young's modulus along the weft, N/m
    float ey = 0.0f;    // Young's modulus along the warp, N/m
    float nuXY = 0.0f;  // Poisson ratio, paired with nuYX by nuXY ex = nuYX ey
    float nuYX = 0.0f;
    float g = 0.0f;  // in-plane shear modulus, N/m
    bool operator==(const OrthotropicMaterial&) const = default;
};

// Relative tolerance of the pairing nuXY ex = nuYX ey (Table 3.1: 61.0 vs 61.1, 226.0 vs 225.3).
inline constexpr double kPoissonPairingTolerance = 0.02;

// The plane-stress stiffness as (C11, C22, C12, C33), N/m, in double.
std::array<double, 4> orthotropicStiffness(const OrthotropicMaterial& m);

// Why the material is not physically valid (non-finite or non-positive moduli, pairing
// violated, stiffness not positive definite), or nothing when it is.
std::optional<std::string> orthotropicProblem(const OrthotropicMaterial& m,
                                              double pairingTolerance = kPoissonPairingTolerance);

// Throws cloth::Error naming `what` and the problem.
void validateOrthotropic(const OrthotropicMaterial& m, const std::string& what);

}  // namespace cloth
