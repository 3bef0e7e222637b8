#include "cpu/vertex_drivers.h"

#include "prep/solver_data.h"
#include "prep/springs.h"
#include "sim/schedule.h"

namespace cloth {

void blowWind(const PreparedCloth& p, double time, const std::vector<glm::vec4>& x,
              std::vector<glm::vec4>& v, std::uint32_t begin, std::uint32_t end,
              std::vector<glm::vec4>* previous, float h) {
    const float dt = substepDt(p.timing);
    const gpu::WindParams wind = windParams(*p.sim.wind, time, dt);
    for (std::uint32_t i = begin; i < end; ++i) {
        if (x[i].w <= 0.0f) continue;
        const glm::vec3 dv = gpu::springWind(glm::vec3(v[i]), x[i].w, vertexNormalSum(p, x, i),
                                             p.windVertices[i].area, wind);
        v[i] += glm::vec4(dv, 0.0f);
        if (previous) (*previous)[i] -= glm::vec4(h * dv, 0.0f);
    }
}

AttachmentTargets::AttachmentTargets(const PreparedCloth& p)
    : attachments_(&p.attachments), motions_(&p.motions) {
    static_assert(kNone == kNoSpringAttachment);
    if (!p.attachments.empty()) of_ = &modelTables(p, "the attachments").attachmentOf;
}

}  // namespace cloth
