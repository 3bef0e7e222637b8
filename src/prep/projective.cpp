#include "prep/projective.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "core/error.h"
#include "prep/continuum.h"
#include "prep/rest_shape.h"
#include "prep/sewing.h"

namespace cloth {

namespace {

std::string shortText(float v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", double(v));
    return text;
}

std::size_t clothOf(const std::vector<std::uint32_t>& clothBegin, std::uint32_t v) {
    return std::size_t(std::upper_bound(clothBegin.begin(), clothBegin.end(), v) -
                       clothBegin.begin()) - 1;
}

// B = D_m^-1 in an orthonormal frame of the triangle's plane (first axis along x1 - x0), and
// the rest area.
bool isotropicRest(glm::vec3 x0, glm::vec3 x1, glm::vec3 x2, glm::vec4& invRest, float& area) {
    const glm::dvec3 d1 = glm::dvec3(x1 - x0), d2 = glm::dvec3(x2 - x0);
    const glm::dvec3 n = glm::cross(d1, d2);
    const double twice = glm::length(n);
    const double longest = std::max({glm::dot(d1, d1), glm::dot(d2, d2),
                                     glm::dot(d2 - d1, d2 - d1)});
    if (!(twice > kDegenerateTriangle * longest)) return false;
    const glm::dvec3 e1 = glm::normalize(d1), e2 = glm::cross(n / twice, e1);
    const double m00 = glm::dot(e1, d1), m01 = glm::dot(e1, d2);
    const double m10 = glm::dot(e2, d1), m11 = glm::dot(e2, d2);
    const double det = m00 * m11 - m01 * m10;
    // B column-major (B00, B10, B01, B11) of the inverse of [[m00, m01], [m10, m11]].
    invRest = glm::vec4(float(m11 / det), float(-m10 / det), float(-m01 / det), float(m00 / det));
    area = float(0.5 * twice);
    return true;
}

// The hinge's stencil and rest |C| from its rest state x (prep/rest_shape.h restHinge).
gpu::PdBend bendTerm(const std::array<glm::vec3, 4>& x, std::uint32_t v0, std::uint32_t v1,
                     std::uint32_t v2, std::uint32_t v3) {
    const IsoBendingBuild b = makeIsoBending(x[0], x[1], x[2], x[3], 1.0f);
    gpu::PdBend t{};
    t.v0 = v0, t.v1 = v1, t.v2 = v2, t.v3 = v3;
    if (!b.ok()) return t;  // weight 0: a degenerate hinge is left out of the energy
    t.k = b.item.k;
    const glm::vec3 c = x[0] * t.k.x + x[1] * t.k.y + x[2] * t.k.z + x[3] * t.k.w;
    t.restNorm = glm::length(c);
    return t;
}

}  // namespace

std::array<glm::dvec3, 4> foldHinge(const std::array<glm::vec3, 4>& rest, float targetAngle) {
    const glm::dvec3 x0(rest[0]), e = glm::dvec3(rest[1]) - x0;
    const double length = glm::length(e);
    const glm::dvec3 along = e / length;
    // Each wing's foot along the edge and height off it, laid flat in the plane z = 0 with the
    // edge on the x axis: v2 at +y, v3 at -y, so both faces' normals are +z.
    auto wing = [&](glm::vec3 x, double side, double half) {
        const glm::dvec3 r = glm::dvec3(x) - x0;
        const double foot = glm::dot(r, along);
        const double height = glm::length(r - foot * along);
        // Folding towards +z (the normals' side) by theta = -targetAngle: each wing turns by
        // theta / 2 about the edge.
        return glm::dvec3(foot, side * height * std::cos(half), height * std::sin(half));
    };
    const double half = -0.5 * double(targetAngle);
    return {glm::dvec3(0.0), glm::dvec3(length, 0.0, 0.0), wing(rest[2], 1.0, half),
            wing(rest[3], -1.0, half)};
}

gpu::PdBend fixedAngleTerm(const std::array<glm::vec3, 4>& rest, std::uint32_t v0,
                           std::uint32_t v1, std::uint32_t v2, std::uint32_t v3,
                           float targetAngle, float weight) {
    gpu::PdBend t = bendTerm(rest, v0, v1, v2, v3);
    t.kind = gpu::PD_TERM_FIXED_ANGLE;
    t.restNorm = 0.0f;
    if (!(glm::dot(t.k, t.k) > 0.0f)) return t;  // degenerate: weight 0, as a bend's
    const std::array<glm::dvec3, 4> x = foldHinge(rest, targetAngle);
    glm::dvec3 c(0.0);
    for (int i = 0; i < 4; ++i) c += double(t.k[i]) * x[i];
    // The folded hinge's frame, as pdProjectFixedAngle takes it (in double).
    const glm::dvec3 along = glm::normalize(x[1] - x[0]);
    const glm::dvec3 n1 = glm::normalize(glm::cross(x[2] - x[0], x[2] - x[1]));
    const glm::dvec3 n2 = glm::normalize(glm::cross(x[3] - x[1], x[3] - x[0]));
    const glm::dvec3 n = glm::normalize(n1 + n2);
    t.restNorm = float(glm::dot(c, n));
    t.restTangent = float(glm::dot(c, glm::cross(along, n)));
    t.weight = weight;
    return t;
}

void forEachRestTriangle(const Scene& scene, const std::vector<std::uint32_t>& clothBegin,
                         const PreparedCloth& p, const std::function<void(const RestTriangle&)>& fn) {
    std::vector<bool> stvk(scene.cloths.size(), false);
    for (std::size_t i = 0; i < scene.cloths.size(); ++i)
        stvk[i] = scene.cloths[i].material.stretchModel == StretchModel::Stvk;
    for (const gpu::StvkConstraint& s : p.items<gpu::StvkConstraint>()) {
        const glm::vec4 b = s.invRest;
        const double det = double(b.x) * b.w - double(b.z) * b.y;
        fn({clothOf(clothBegin, s.v0), s.v0, s.v1, s.v2, float(0.5 / std::abs(det)), b});
    }
    for (std::size_t i = 0; i < scene.cloths.size(); ++i) {
        if (stvk[i]) continue;
        for (std::uint32_t t = p.cloths[i].triangleBegin; t < p.cloths[i].triangleEnd; ++t) {
            const glm::uvec3 tri = p.triangles[t];
            RestTriangle r{i, tri.x, tri.y, tri.z, 0.0f, glm::vec4(0.0f)};
            const std::array<glm::vec3, 3> x = restTriangle(p, t);
            if (!isotropicRest(x[0], x[1], x[2], r.invRest, r.area))
                throw Error("cloth '" + scene.cloths[i].name + "': triangle " +
                            std::to_string(t - p.cloths[i].triangleBegin) +
                            " is degenerate (no area at rest)");
            fn(r);
        }
    }
}

std::vector<gpu::PdBend> hingeBendTerms(const PreparedCloth& p) {
    std::vector<gpu::PdBend> out;
    // The dihedral items' hinges, or the isometric items' stencils.
    for (const gpu::BendingConstraint& b : p.items<gpu::BendingConstraint>()) {
        const std::array<glm::vec3, 4> x = restHinge(p, b.v0, b.v1, b.v2, b.v3);
        gpu::PdBend t = bendTerm(x, b.v0, b.v1, b.v2, b.v3);
        const double e2 = glm::dot(x[1] - x[0], x[1] - x[0]);
        // The item's compliance: the hinge's 1/k (or the expert override), so the weight is
        // k / |e|^2 (prep/hinge_bending.h).
        const double alpha = b.param;
        if (glm::dot(t.k, t.k) > 0.0f) t.weight = float(1.0 / (alpha * e2));
        out.push_back(t);
    }
    for (const gpu::IsoBendingConstraint& b : p.items<gpu::IsoBendingConstraint>()) {
        gpu::PdBend t{};
        t.v0 = b.v0, t.v1 = b.v1, t.v2 = b.v2, t.v3 = b.v3;
        t.k = b.k;
        t.weight = b.compliance > 0.0f ? 1.0f / b.compliance : 0.0f;
        t.restNorm = 0.0f;  // isometric bending's rest state is flat
        out.push_back(t);
    }
    return out;
}

void buildProjective(const Scene& scene, const std::vector<std::uint32_t>& clothBegin,
                     PreparedCloth& p) {
    p.pdTerms.triangles.clear();
    p.pdTerms.bends.clear();
    for (const ClothDesc& c : scene.cloths) {
        if (c.material.stretchModel == StretchModel::Distance && !(c.material.stretchCompliance > 0.0f))
            throw Error("cloth '" + c.name + "': model pd takes its membrane modulus from the "
                        "material's stretch_compliance (4 / (3 compliance) N/m), which is 0 "
                        "(rigid); give a compliance above 0");
        if (c.material.bendModel == BendModel::Dihedral && c.material.bendCompliance &&
            !(*c.material.bendCompliance > 0.0f))
            throw Error("cloth '" + c.name + "': model pd takes its bending weight from the "
                        "material's bend_compliance, which is 0 (rigid); give one above 0");
    }
    forEachRestTriangle(scene, clothBegin, p, [&](const RestTriangle& t) {
        const Material& m = scene.cloths[t.cloth].material;
        const auto k = float(pdDistanceModulus(m.stretchCompliance));
        const glm::vec4 stiffness = m.stretchModel == StretchModel::Stvk
                                        ? glm::vec4(m.membrane.ex, m.membrane.ey, 0.0f, 0.0f)
                                        : glm::vec4(k, k, 0.0f, 0.0f);
        p.pdTerms.triangles.push_back({t.v0, t.v1, t.v2, t.area, t.invRest, stiffness});
    });
    p.pdTerms.bends = hingeBendTerms(p);
    double stiffest = 0.0;
    for (const gpu::PdTriangle& t : p.pdTerms.triangles)
        stiffest = std::max({stiffest, double(t.stiffness.x), double(t.stiffness.y)});
    // Fixed angles (in place of their edges' bends): the hinge's stencil with p the target fold's
    // stencil vector (kernels/projective.h). A compliant one weighs 1 / (alpha |e|^2), as a
    // dihedral bend; a hard one (compliance 0) the stiffest term of the scene: the largest
    // membrane modulus or bending weight.
    double hardAngle = stiffest;
    for (const gpu::PdBend& t : p.pdTerms.bends) hardAngle = std::max(hardAngle, double(t.weight));
    for (const gpu::FixedAngleConstraint& f : p.items<gpu::FixedAngleConstraint>()) {
        const std::array<glm::vec3, 4> x = restHinge(p, f.v0, f.v1, f.v2, f.v3);
        const double e2 = glm::dot(glm::dvec3(x[1] - x[0]), glm::dvec3(x[1] - x[0]));
        const double w = f.param > 0.0f ? 1.0 / (double(f.param) * e2) : hardAngle;
        p.pdTerms.bends.push_back(
            fixedAngleTerm(x, f.v0, f.v1, f.v2, f.v3, f.targetAngle, float(w)));
    }
    // Seams: (w/2) |x_a - x_b|^2 per pair, a term of the bends' form with p = 0 (kernels/
    // projective.h PD_TERM_SEAM); a hard seam as stiff as the stiffest membrane modulus.
    for (const SeamPair& s : p.seamPairs) {
        gpu::PdBend t{};
        t.v0 = t.v2 = s.a;
        t.v1 = t.v3 = s.b;
        t.k = glm::vec4(1.0f, -1.0f, 0.0f, 0.0f);
        t.weight = seamStiffness(scene, s, stiffest);
        t.restNorm = 0.0f;
        t.kind = gpu::PD_TERM_SEAM;
        p.pdTerms.bends.push_back(t);
    }
}

std::size_t pdTermCount(const PreparedCloth& p, std::uint32_t kind) {
    return std::size_t(std::count_if(p.pdTerms.bends.begin(), p.pdTerms.bends.end(),
                                     [&](const gpu::PdBend& b) { return b.kind == kind; }));
}

void refusePdRelaxation(const PreparedCloth& p) {
    const IterationSettings& it = p.sim.iteration;
    if (it.scheme != IterationScheme::GaussSeidel && it.relaxation > kPdMaxRelaxation)
        throw Error("model pd: the Jacobi global step (iteration " +
                    std::string(iterationSchemeName(it.scheme)) + ") converges on every cloth "
                    "only with a relaxation of at most 0.5, got " + shortText(it.relaxation) +
                    "; give --relaxation 0.5 (or the scene's iteration.relaxation)");
}

}  // namespace cloth
