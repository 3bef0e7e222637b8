#include "cpu/fem_element.h"

#include <cmath>

namespace cloth {

FemElement femElement(const gpu::PdTriangle& t, glm::vec3 x0, glm::vec3 x1, glm::vec3 x2) {
    FemElement e;
    gpu::pdProjectTriangle(x0, x1, x2, t.invRest, glm::vec4(1.0f, 1.0f, 0.0f, 0.0f), e.ru, e.rv);
    const glm::vec3 bu = gpu::pdWeightsU(t.invRest), bv = gpu::pdWeightsV(t.invRest);
    const glm::dvec3 fu = glm::dvec3(x0) * double(bu.x) + glm::dvec3(x1) * double(bu.y) +
                          glm::dvec3(x2) * double(bu.z);
    const glm::dvec3 fv = glm::dvec3(x0) * double(bv.x) + glm::dvec3(x1) * double(bv.y) +
                          glm::dvec3(x2) * double(bv.z);
    const glm::dvec3 ru(e.ru), rv(e.rv);
    e.strain = glm::dvec3(glm::dot(ru, fu) - 1.0, glm::dot(rv, fv) - 1.0,
                          glm::dot(ru, fv) + glm::dot(rv, fu));
    const glm::dvec4 c(t.stiffness);
    e.stress = glm::dvec3(c.x * e.strain.x + c.z * e.strain.y, c.z * e.strain.x + c.y * e.strain.y,
                          c.w * e.strain.z);
    return e;
}

double femEnergy(const gpu::PdTriangle& t, const FemElement& e) {
    return 0.5 * double(t.area) * glm::dot(e.strain, e.stress);
}

glm::dvec3 femForce(const gpu::PdTriangle& t, const FemElement& e, int i) {
    const double bu = gpu::pdWeightsU(t.invRest)[i], bv = gpu::pdWeightsV(t.invRest)[i];
    const glm::dvec3 ru(e.ru), rv(e.rv);
    return -double(t.area) *
           (e.stress.x * bu * ru + e.stress.y * bv * rv + e.stress.z * (bu * rv + bv * ru));
}

glm::dmat3 femStiffness(const gpu::PdTriangle& t, const FemElement& e, int i, int j) {
    const glm::vec3 bu = gpu::pdWeightsU(t.invRest), bv = gpu::pdWeightsV(t.invRest);
    const glm::dvec3 ru(e.ru), rv(e.rv);
    const glm::dvec4 c(t.stiffness);
    const glm::dvec3 ui = double(bu[i]) * ru, uj = double(bu[j]) * ru;
    const glm::dvec3 vi = double(bv[i]) * rv, vj = double(bv[j]) * rv;
    const glm::dvec3 gi = double(bu[i]) * rv + double(bv[i]) * ru;
    const glm::dvec3 gj = double(bu[j]) * rv + double(bv[j]) * ru;
    const glm::dmat3 k = c.x * glm::outerProduct(ui, uj) +
                         c.z * (glm::outerProduct(ui, vj) + glm::outerProduct(vi, uj)) +
                         c.y * glm::outerProduct(vi, vj) + c.w * glm::outerProduct(gi, gj);
    return double(t.area) * k;
}

glm::dvec3 femBendResidual(const gpu::PdBend& b, glm::vec3 x0, glm::vec3 x1, glm::vec3 x2,
                           glm::vec3 x3) {
    const glm::dvec3 c = double(b.k.x) * glm::dvec3(x0) + double(b.k.y) * glm::dvec3(x1) +
                         double(b.k.z) * glm::dvec3(x2) + double(b.k.w) * glm::dvec3(x3);
    const double l = glm::length(c), rho = b.restNorm;
    const glm::dvec3 d = rho > 0.0 && l > 0.0 ? c * (1.0 - rho / l) : c;
    return double(b.weight) * d;
}

double femBendEnergy(const gpu::PdBend& b, glm::vec3 x0, glm::vec3 x1, glm::vec3 x2, glm::vec3 x3) {
    const glm::dvec3 r = femBendResidual(b, x0, x1, x2, x3);
    return b.weight > 0.0f ? 0.5 * glm::dot(r, r) / double(b.weight) : 0.0;
}

}  // namespace cloth
