#include "core/orthotropic.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/error.h"

namespace cloth {

std::array<double, 4> orthotropicStiffness(const OrthotropicMaterial& m) {
    const double ex = m.ex, ey = m.ey, nxy = m.nuXY, nyx = m.nuYX;
    const double k = 1.0 / (1.0 - nxy * nyx);
    return {ex * k, ey * k, 0.5 * (nxy * ex + nyx * ey) * k, double(m.g)};
}

std::optional<std::string> orthotropicProblem(const OrthotropicMaterial& m,
                                              double pairingTolerance) {
    std::ostringstream why;
    for (float v : {m.ex, m.ey, m.nuXY, m.nuYX, m.g})
        if (!std::isfinite(v)) return "a modulus or Poisson ratio is not a finite number";
    if (!(m.ex > 0.0f) || !(m.ey > 0.0f) || !(m.g > 0.0f)) {
        why << "moduli must be positive (ex " << m.ex << ", ey " << m.ey << ", g " << m.g
            << " N/m)";
        return why.str();
    }
    const double a = double(m.nuXY) * m.ex, b = double(m.nuYX) * m.ey;
    if (std::abs(a - b) > pairingTolerance * std::max({std::abs(a), std::abs(b), 1e-30})) {
        why << "Poisson ratios are not symmetric: nuXY * ex = " << a << " but nuYX * ey = " << b
            << " (they must agree within " << pairingTolerance * 100.0 << "%)";
        return why.str();
    }
    if (!(1.0 - double(m.nuXY) * m.nuYX > 0.0)) {
        why << "nuXY * nuYX = " << double(m.nuXY) * m.nuYX << " must be below 1";
        return why.str();
    }
    auto c = orthotropicStiffness(m);
    if (!(c[0] * c[1] - c[2] * c[2] > 0.0)) {
        why << "the stiffness is not positive definite (C11 C22 - C12^2 = "
            << c[0] * c[1] - c[2] * c[2] << ")";
        return why.str();
    }
    return std::nullopt;
}

void validateOrthotropic(const OrthotropicMaterial& m, const std::string& what) {
    if (auto problem = orthotropicProblem(m)) throw Error(what + ": " + *problem);
}

}  // namespace cloth
