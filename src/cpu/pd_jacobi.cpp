#include "cpu/pd_jacobi.h"

#include "kernels/pd_jacobi.h"
#include "prep/solver_data.h"

namespace cloth {

PdJacobiSystem::PdJacobiSystem(const PreparedCloth& p)
    : p_(p), layout_(pdLayout(p, "projective dynamics' Jacobi iteration")) {
    triProjections_.assign(2 * p.pdTerms.triangles.size(), glm::vec4(0.0f));
    bendProjections_.assign(p.pdTerms.bends.size(), glm::vec4(0.0f));
    for (auto& x : iterates_) x.assign(p.originalVertexCount, glm::vec4(0.0f));
}

void PdJacobiSystem::project(const std::vector<glm::vec4>& y, int member, int size) {
    const auto& tris = p_.pdTerms.triangles;
    const auto& bends = p_.pdTerms.bends;
    std::uint32_t b, e;
    ThreadPool::split(std::uint32_t(tris.size()), member, size, b, e);
    for (std::uint32_t t = b; t < e; ++t) {
        const gpu::PdTriangle& k = tris[t];
        glm::vec3 ru, rv;
        gpu::pdProjectTriangle(glm::vec3(y[k.v0]), glm::vec3(y[k.v1]), glm::vec3(y[k.v2]),
                               k.invRest, k.stiffness, ru, rv);
        triProjections_[2 * t] = glm::vec4(ru, 0.0f);
        triProjections_[2 * t + 1] = glm::vec4(rv, 0.0f);
    }
    ThreadPool::split(std::uint32_t(bends.size()), member, size, b, e);
    for (std::uint32_t i = b; i < e; ++i) {
        const gpu::PdBend& k = bends[i];
        bendProjections_[i] =
            glm::vec4(gpu::pdProjectBend(glm::vec3(y[k.v0]), glm::vec3(y[k.v1]), glm::vec3(y[k.v2]),
                                         glm::vec3(y[k.v3]), k),
                      0.0f);
    }
}

void PdJacobiSystem::sweep(const std::vector<glm::vec4>& cur, const std::vector<glm::vec4>& prev,
                           const std::vector<glm::vec4>& s, std::vector<glm::vec4>& next,
                           float omega, float gamma, std::uint32_t begin, std::uint32_t end,
                           const std::vector<glm::vec4>* targets) const {
    const PdJacobiLayout& l = layout_;
    for (std::uint32_t v = begin; v < end; ++v) {
        const gpu::PdJacobiVertex jv = l.vertices[v];
        glm::vec3 sum = gpu::pdJacobiInertia(s[v], cur[v], jv);
        for (std::uint32_t k = l.triOffsets[v]; k < l.triOffsets[v + 1]; ++k) {
            const std::uint32_t t = l.triCorners[k] / 3, c = l.triCorners[k] % 3;
            const gpu::PdTriangle& term = p_.pdTerms.triangles[t];
            sum += gpu::pdTriangleJacobiTerm(
                glm::vec3(cur[term.v0]), glm::vec3(cur[term.v1]), glm::vec3(cur[term.v2]), c,
                term.invRest, term.stiffness, term.area, glm::vec3(triProjections_[2 * t]),
                glm::vec3(triProjections_[2 * t + 1]));
        }
        for (std::uint32_t k = l.bendOffsets[v]; k < l.bendOffsets[v + 1]; ++k) {
            const std::uint32_t i = l.bendCorners[k] / 4, c = l.bendCorners[k] % 4;
            const gpu::PdBend& term = p_.pdTerms.bends[i];
            sum += gpu::pdBendJacobiTerm(glm::vec3(cur[term.v0]), glm::vec3(cur[term.v1]),
                                         glm::vec3(cur[term.v2]), glm::vec3(cur[term.v3]), c,
                                         term.k, term.weight, glm::vec3(bendProjections_[i]));
        }
        if (jv.attachment > 0.0f)
            sum += gpu::pdAttachmentJacobiTerm(glm::vec3((*targets)[v]), glm::vec3(cur[v]),
                                               jv.attachment);
        next[v] = gpu::pdJacobiVertex(cur[v], prev[v], sum, jv, omega, gamma);
    }
}

void PdJacobiSystem::start(const std::vector<glm::vec4>& s, std::uint32_t begin,
                           std::uint32_t end) {
    for (std::uint32_t v = begin; v < end; ++v) iterates_[0][v] = iterates_[2][v] = s[v];
}

void PdJacobiSystem::result(int iterations, std::vector<glm::vec4>& y, std::uint32_t begin,
                            std::uint32_t end) const {
    const std::vector<glm::vec4>& last = iterates_[iterations % 3];
    for (std::uint32_t v = begin; v < end; ++v) y[v] = last[v];
}

}  // namespace cloth
