// What moves the vertices of the per-vertex models of the CPU reference (cpu/mass_spring.h,
// cpu/projective.h, cpu/fem.h) from outside the cloth: the wind of a substep and the
// attachments' moving targets (docs/models.md).
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "kernels/spring.h"
#include "prep/prepared.h"

namespace cloth {

// The wind of the substep that starts at `time` (kernels/spring.h springWind, as XPBD applies it)
// on the original vertices [begin, end) at positions x: each free vertex's velocity changes by
// dv, from the area-weighted sum of its triangles' normals at x and its area share. With
// `previous` (position Verlet), its previous position moves back by h dv.
void blowWind(const PreparedCloth& p, double time, const std::vector<glm::vec4>& x,
              std::vector<glm::vec4>& v, std::uint32_t begin, std::uint32_t end,
              std::vector<glm::vec4>* previous = nullptr, float h = 0.0f);

// The attachments per vertex (prep/springs.h springAttachmentOf: one per vertex at most): a hard
// one (compliance 0) carries its vertex, a compliant one pulls it towards its target. It reads
// the prepared scene's arrays and its solver data's table (prep/solver_data.h), which outlive it.
class AttachmentTargets {
public:
    AttachmentTargets() = default;
    explicit AttachmentTargets(const PreparedCloth& p);

    bool any() const { return of_ != nullptr; }
    // Vertex v has an attachment.
    bool held(std::uint32_t v) const { return of_ && (*of_)[v] != kNone; }
    // Vertex v is carried by a hard attachment.
    bool carried(std::uint32_t v) const { return held(v) && attachment(v).param == 0.0f; }
    // The compliance (m/N) of v's attachment (held vertices only).
    float compliance(std::uint32_t v) const { return attachment(v).param; }
    // Where v's attachment holds it at time t (held vertices only).
    glm::vec3 target(std::uint32_t v, float t) const {
        const gpu::Attachment& a = attachment(v);
        return gpu::attachmentTarget(a, (*motions_)[a.motion], t);
    }

private:
    static constexpr std::uint32_t kNone = 0xffffffffu;
    const gpu::Attachment& attachment(std::uint32_t v) const { return (*attachments_)[(*of_)[v]]; }
    const std::vector<gpu::Attachment>* attachments_ = nullptr;
    const std::vector<gpu::Motion>* motions_ = nullptr;
    const std::vector<std::uint32_t>* of_ = nullptr;  // per vertex; null without attachments
};

}  // namespace cloth
