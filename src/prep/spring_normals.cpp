// The mass-spring solvers' vertex normals (prep/springs.h), on both backends.
#include <cmath>

#include "kernels/constraints.h"
#include "prep/springs.h"

namespace cloth {

glm::vec3 vertexNormalSum(const PreparedCloth& p, const std::vector<glm::vec4>& x, std::uint32_t v) {
    glm::vec3 n(0.0f);
    for (std::uint32_t k = p.vertexTriangleOffsets[v]; k < p.vertexTriangleOffsets[v + 1]; ++k) {
        const glm::uvec3 t = p.triangles[p.vertexTriangles[k]];
        n += gpu::triangleNormal(glm::vec3(x[t.x]), glm::vec3(x[t.y]), glm::vec3(x[t.z]));
    }
    return n;
}

void vertexNormals(const PreparedCloth& p, const std::vector<glm::vec4>& x,
                   std::vector<glm::vec4>& out, std::uint32_t begin, std::uint32_t end) {
    out.resize(p.originalVertexCount);
    for (std::uint32_t v = begin; v < end; ++v) {
        const glm::vec3 n = vertexNormalSum(p, x, v);
        const float len2 = glm::dot(n, n);
        out[v] = len2 > 0.0f ? glm::vec4(n / std::sqrt(len2), 0.0f) : glm::vec4(0, 0, 1, 0);
    }
}

}  // namespace cloth
