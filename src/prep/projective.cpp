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

void buildProjective(const Scene& scene, const std::vector<std::uint32_t>& clothBegin,
                     PreparedCloth& p) {
    p.pdTriangles.clear();
    p.pdBends.clear();
    for (const ClothDesc& c : scene.cloths) {
        if (!c.fixedAngles.empty())
            throw Error("cloth '" + c.name + "': model pd does not run fixed angles yet (XPBD "
                        "runs them: model xpbd)");
        if (c.material.stretchModel == StretchModel::Distance && !(c.material.stretchCompliance > 0.0f))
            throw Error("cloth '" + c.name + "': model pd takes its membrane modulus from the "
                        "material's stretch_compliance (4 / (3 compliance) N/m), which is 0 "
                        "(rigid); give a compliance above 0");
        if (c.material.bendModel == BendModel::Dihedral && !(c.material.bendCompliance > 0.0f))
            throw Error("cloth '" + c.name + "': model pd takes its bending weight from the "
                        "material's bend_compliance, which is 0 (rigid); give one above 0");
    }
    forEachRestTriangle(scene, clothBegin, p, [&](const RestTriangle& t) {
        const Material& m = scene.cloths[t.cloth].material;
        const auto k = float(pdDistanceModulus(m.stretchCompliance));
        const glm::vec4 stiffness = m.stretchModel == StretchModel::Stvk
                                        ? glm::vec4(m.membrane.ex, m.membrane.ey, 0.0f, 0.0f)
                                        : glm::vec4(k, k, 0.0f, 0.0f);
        p.pdTriangles.push_back({t.v0, t.v1, t.v2, t.area, t.invRest, stiffness});
    });
    // Bending: the dihedral items' hinges, or the isometric items' stencils.
    for (const gpu::BendingConstraint& b : p.items<gpu::BendingConstraint>()) {
        const std::array<glm::vec3, 4> x = restHinge(p, b.v0, b.v1, b.v2, b.v3);
        gpu::PdBend t = bendTerm(x, b.v0, b.v1, b.v2, b.v3);
        const double e2 = glm::dot(x[1] - x[0], x[1] - x[0]);
        const double alpha = scene.cloths[clothOf(clothBegin, b.v0)].material.bendCompliance;
        if (glm::dot(t.k, t.k) > 0.0f) t.weight = float(1.0 / (alpha * e2));
        p.pdBends.push_back(t);
    }
    for (const gpu::IsoBendingConstraint& b : p.items<gpu::IsoBendingConstraint>()) {
        gpu::PdBend t{};
        t.v0 = b.v0, t.v1 = b.v1, t.v2 = b.v2, t.v3 = b.v3;
        t.k = b.k;
        t.weight = b.compliance > 0.0f ? 1.0f / b.compliance : 0.0f;
        t.restNorm = 0.0f;  // isometric bending's rest state is flat
        p.pdBends.push_back(t);
    }
    // Seams: (w/2) |x_a - x_b|^2 per pair, a term of the bends' form with p = 0 (kernels/
    // projective.h PdBend::seam); a hard seam as stiff as the stiffest membrane modulus.
    double stiffest = 0.0;
    for (const gpu::PdTriangle& t : p.pdTriangles)
        stiffest = std::max({stiffest, double(t.stiffness.x), double(t.stiffness.y)});
    for (const SeamPair& s : p.seamPairs) {
        gpu::PdBend t{};
        t.v0 = t.v2 = s.a;
        t.v1 = t.v3 = s.b;
        t.k = glm::vec4(1.0f, -1.0f, 0.0f, 0.0f);
        t.weight = seamStiffness(scene, s, stiffest);
        t.restNorm = 0.0f;
        t.seam = 1u;
        p.pdBends.push_back(t);
    }
}

std::size_t pdSeamTermCount(const PreparedCloth& p) {
    return std::size_t(std::count_if(p.pdBends.begin(), p.pdBends.end(),
                                     [](const gpu::PdBend& b) { return b.seam != 0u; }));
}

void refuseWhatTheImplicitModelsLack(const PreparedCloth& p, const std::string& model,
                                     const std::string& step) {
    auto refuse = [&](const std::string& what) {
        throw Error("model " + model + ": " + what +
                    " not built for this model yet (XPBD runs them: model xpbd)");
    };
    if (p.sim.selfCollision) refuse("self-collision is");
    if (p.vertexCount() != p.originalVertexCount) refuse("phantom vertices are");
    if (p.sim.mode != SolverMode::Xpbd)
        throw Error("model " + model + ": solver mode pbd is XPBD's; leave the mode at xpbd");
    if (p.sim.iteration.scheme != IterationScheme::GaussSeidel && !step.empty())
        throw Error("model " + model + ": iteration scheme " +
                    iterationSchemeName(p.sim.iteration.scheme) + " is XPBD's (" + step +
                    "); leave it at gs");
}

void refuseWhatProjectiveLacks(const PreparedCloth& p) {
    refuseWhatTheImplicitModelsLack(p, "pd", "");  // gs: the direct global step; else Jacobi's
    const IterationSettings& it = p.sim.iteration;
    if (it.scheme != IterationScheme::GaussSeidel && it.relaxation > kPdMaxRelaxation)
        throw Error("model pd: the Jacobi global step (iteration " +
                    std::string(iterationSchemeName(it.scheme)) + ") converges on every cloth "
                    "only with a relaxation of at most 0.5, got " + shortText(it.relaxation) +
                    "; give --relaxation 0.5 (or the scene's iteration.relaxation)");
}

}  // namespace cloth
