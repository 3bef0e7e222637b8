#include "prep/continuum.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace cloth {
namespace {

using glm::dvec2;
using glm::dvec3;

// Twice the area is below kDegenerateTriangle of the longest edge squared (or not finite).
bool degenerate(double twiceArea, double longest2) {
    return !(twiceArea > kDegenerateTriangle * longest2) || !std::isfinite(twiceArea);
}

// cot of the angle between a and b.
double cotangent(dvec3 a, dvec3 b) {
    return glm::dot(a, b) / glm::length(glm::cross(a, b));
}

}  // namespace

StvkBuild makeStvk(glm::vec2 uv0, glm::vec2 uv1, glm::vec2 uv2, const OrthotropicMaterial& m,
                   float pbdStiffness) {
    StvkBuild out;
    if (auto problem = orthotropicProblem(m)) {
        out.error = "StVK material: " + *problem;
        return out;
    }
    const dvec2 a = dvec2(uv1) - dvec2(uv0), b = dvec2(uv2) - dvec2(uv0), c = b - a;
    const double det = a.x * b.y - b.x * a.y;  // D_m = [a b], det = twice the signed area
    const double longest2 = std::max({glm::dot(a, a), glm::dot(b, b), glm::dot(c, c)});
    if (degenerate(std::abs(det), longest2)) {
        std::ostringstream why;
        why << "StVK triangle is degenerate in material space (area " << 0.5 * det << " m^2)";
        out.error = why.str();
        return out;
    }
    // D_m^-1 = [[b.y, -b.x], [-a.y, a.x]] / det, stored column-major (B00, B10, B01, B11).
    out.item.invRest = glm::vec4(b.y / det, -a.y / det, -b.x / det, a.x / det);
    const double area = 0.5 * std::abs(det);
    out.restArea = float(area);
    // alpha = (A0 Cm)^-1: the 2x2 normal block inverted, the shear term on its own.
    auto s = orthotropicStiffness(m);  // C11, C22, C12, C33
    const double det2 = s[0] * s[1] - s[2] * s[2];
    out.item.complianceDiag =
        glm::vec4(s[1] / (det2 * area), s[0] / (det2 * area), 1.0 / (s[3] * area), 0.0);
    out.item.complianceOff = glm::vec4(-s[2] / (det2 * area), 0.0, 0.0, 0.0);
    out.item.pbdStiffness = pbdStiffness;
    return out;
}

StvkBuild makeStvk(glm::vec3 x0, glm::vec3 x1, glm::vec3 x2, glm::vec3 weft,
                   const OrthotropicMaterial& m, float pbdStiffness) {
    const dvec3 e1 = dvec3(x1) - dvec3(x0), e2 = dvec3(x2) - dvec3(x0);
    const dvec3 cr = glm::cross(e1, e2);
    const double longest2 =
        std::max({glm::dot(e1, e1), glm::dot(e2, e2), glm::dot(e2 - e1, e2 - e1)});
    if (degenerate(glm::length(cr), longest2)) {
        StvkBuild out;
        out.error = "StVK triangle is degenerate (its rest positions are collinear)";
        return out;
    }
    const dvec3 n = glm::normalize(cr);
    dvec3 u = dvec3(weft) - glm::dot(dvec3(weft), n) * n;
    if (!(glm::length(u) > 1e-6 * glm::length(dvec3(weft)))) {
        StvkBuild out;
        out.error = "StVK weft direction is zero or normal to the triangle";
        return out;
    }
    u = glm::normalize(u);
    const dvec3 v = glm::cross(n, u);
    auto coords = [&](dvec3 d) { return glm::vec2(float(glm::dot(d, u)), float(glm::dot(d, v))); };
    return makeStvk(glm::vec2(0.0f), coords(e1), coords(e2), m, pbdStiffness);
}

IsoBendingBuild makeIsoBending(glm::vec3 x0, glm::vec3 x1, glm::vec3 x2, glm::vec3 x3,
                               double hingeWeight, float pbdStiffness) {
    IsoBendingBuild out;
    if (!(hingeWeight > 0.0) || !std::isfinite(hingeWeight)) {
        std::ostringstream why;
        why << "isometric bending weight must be a positive number of N m (got " << hingeWeight
            << ")";
        out.error = why.str();
        return out;
    }
    const dvec3 p0 = x0, p1 = x1, p2 = x2, p3 = x3;
    const dvec3 e = p1 - p0;
    const double twiceA1 = glm::length(glm::cross(e, p2 - p0));
    const double twiceA2 = glm::length(glm::cross(e, p3 - p0));
    const double longest2 =
        std::max({glm::dot(e, e), glm::dot(p2 - p0, p2 - p0), glm::dot(p2 - p1, p2 - p1),
                  glm::dot(p3 - p0, p3 - p0), glm::dot(p3 - p1, p3 - p1)});
    if (degenerate(twiceA1, longest2) || degenerate(twiceA2, longest2)) {
        out.error = "isometric bending stencil has a degenerate triangle";
        return out;
    }
    // Angles of T1 = (x0, x1, x2) at x0 (a0) and x1 (a1); of T2 = (x1, x0, x3) at x0, x1.
    const double a0 = cotangent(e, p2 - p0), a1 = cotangent(-e, p2 - p1);
    const double b0 = cotangent(e, p3 - p0), b1 = cotangent(-e, p3 - p1);
    out.item.k = glm::vec4(-(a1 + b1), -(a0 + b0), a0 + a1, b0 + b1);
    // |C| = |e| theta to first order, so |C|^2 / (2 compliance) = (k / 2) theta^2.
    out.item.compliance = float(glm::dot(e, e) / hingeWeight);
    out.item.pbdStiffness = pbdStiffness;
    return out;
}

}  // namespace cloth
