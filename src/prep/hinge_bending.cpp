#include "prep/hinge_bending.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

namespace cloth {

namespace {

// An apex's place relative to the edge x0 -> x1 (unit direction t): s along it, h away from it.
void apexPlace(glm::dvec3 x0, glm::dvec3 t, glm::dvec3 apex, double& s, double& h,
               glm::dvec3& across) {
    const glm::dvec3 d = apex - x0;
    s = glm::dot(d, t);
    across = d - s * t;
    h = glm::length(across);
}

}  // namespace

HingeShape hingeShape(glm::dvec3 x0, glm::dvec3 x1, glm::dvec3 x2, glm::dvec3 x3) {
    HingeShape out;
    const glm::dvec3 e = x1 - x0;
    const double L = glm::length(e);
    if (!(L > 0.0) || !std::isfinite(L)) return out;
    const glm::dvec3 t = e / L;
    double sA, hA, sB, hB;
    glm::dvec3 acrossA, acrossB;
    apexPlace(x0, t, x2, sA, hA, acrossA);
    apexPlace(x0, t, x3, sB, hB, acrossB);
    // A triangle flatter than 1e-6 of its edge has no usable cotangents.
    if (!(hA > 1e-6 * L) || !(hB > 1e-6 * L)) return out;
    const double cA = sA * (L - sA) / (hA * hA), cB = sB * (L - sB) / (hB * hB);
    out.length = L;
    out.p = 0.5 * (hA + hB);
    out.q = sB - sA;
    out.r = 0.5 * (hA * cA + hB * cB);
    out.areaA = 0.5 * L * hA;
    out.areaB = 0.5 * L * hB;
    out.normalA = acrossA / hA;
    out.ok = true;
    return out;
}

double hingeMeanSquareFold(const HingeShape& h) {
    // theta / kappa = P sin^2 a + Q sin a cos a - R cos^2 a, a the angle of d from the edge;
    // over a uniform a: <sin^4> = <cos^4> = 3/8, <sin^2 cos^2> = 1/8, the odd moments 0.
    return 0.375 * h.p * h.p + 0.125 * h.q * h.q + 0.375 * h.r * h.r - 0.25 * h.p * h.r;
}

double hingeRigidity(glm::dvec3 across, glm::dvec3 weft, double bWeft, double bWarp) {
    if (bWeft == bWarp) return bWeft;
    // The weft in the hinge's plane (across and the edge span it: remove the normal component).
    const double w2 = glm::dot(weft, weft);
    if (!(w2 > 0.0)) return bWeft;
    const glm::dvec3 u = weft / std::sqrt(w2);
    const double c = glm::dot(across, u);
    const double c2 = std::min(1.0, c * c);
    return bWeft * c2 + bWarp * (1.0 - c2);
}

std::vector<double> hingeBendWeights(const std::vector<HingeInput>& hinges,
                                     const std::vector<glm::uvec3>& triangles,
                                     const std::vector<std::array<glm::vec3, 3>>& triangleRest,
                                     double bWeft, double bWarp) {
    const std::size_t nt = triangles.size();
    std::vector<HingeShape> shape(hinges.size());
    std::vector<double> fold(hinges.size(), 0.0);
    std::vector<double> area(nt, 0.0), foldSum(nt, 0.0);
    std::set<std::pair<std::uint32_t, std::uint32_t>> interior;
    for (std::size_t i = 0; i < hinges.size(); ++i) {
        const HingeInput& h = hinges[i];
        interior.insert({std::min(h.v0, h.v1), std::max(h.v0, h.v1)});
        const std::array<glm::vec3, 4>& x = h.rest;
        shape[i] = hingeShape(glm::dvec3(x[0]), glm::dvec3(x[1]), glm::dvec3(x[2]),
                              glm::dvec3(x[3]));
        if (!shape[i].ok) continue;
        fold[i] = hingeMeanSquareFold(shape[i]);
        foldSum[h.triangleA] += fold[i];
        foldSum[h.triangleB] += fold[i];
    }
    // Each triangle's area, and its border edges as hinges with their mirror images.
    for (std::size_t t = 0; t < nt; ++t) {
        const std::array<glm::vec3, 3>& c = triangleRest[t];
        const glm::dvec3 a(c[0]), b(c[1]), d(c[2]);
        area[t] = 0.5 * glm::length(glm::cross(b - a, d - a));
        for (int e = 0; e < 3; ++e) {
            const std::uint32_t p = triangles[t][e], q = triangles[t][(e + 1) % 3];
            if (interior.count({std::min(p, q), std::max(p, q)})) continue;
            const glm::dvec3 x0(c[e]), x1(c[(e + 1) % 3]), apex(c[(e + 2) % 3]);
            const glm::dvec3 mirror = 2.0 * (x0 + glm::dot(apex - x0, glm::normalize(x1 - x0)) *
                                                      glm::normalize(x1 - x0)) - apex;
            const HingeShape s = hingeShape(x0, x1, apex, mirror);
            if (s.ok) foldSum[t] += hingeMeanSquareFold(s);
        }
    }
    std::vector<double> k(hinges.size(), 0.0);
    for (std::size_t i = 0; i < hinges.size(); ++i) {
        if (!(fold[i] > 0.0)) continue;
        const double sa = foldSum[hinges[i].triangleA], sb = foldSum[hinges[i].triangleB];
        const double b = hingeRigidity(shape[i].normalA, glm::dvec3(hinges[i].weft), bWeft, bWarp);
        k[i] = b * (area[hinges[i].triangleA] / sa + area[hinges[i].triangleB] / sb);
    }
    return k;
}

}  // namespace cloth
