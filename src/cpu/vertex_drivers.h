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
// one (compliance 0) carries its vertex, a compliant one pulls it towards its target.
class AttachmentTargets {
public:
    AttachmentTargets() = default;
    explicit AttachmentTargets(const PreparedCloth& p);

    bool any() const { return !of_.empty(); }
    // Vertex v has an attachment.
    bool held(std::uint32_t v) const { return !of_.empty() && of_[v] != kNone; }
    // Vertex v is carried by a hard attachment.
    bool carried(std::uint32_t v) const { return held(v) && attachments_[of_[v]].param == 0.0f; }
    // The compliance (m/N) of v's attachment (held vertices only).
    float compliance(std::uint32_t v) const { return attachments_[of_[v]].param; }
    // Where v's attachment holds it at time t (held vertices only).
    glm::vec3 target(std::uint32_t v, float t) const {
        const gpu::Attachment& a = attachments_[of_[v]];
        return gpu::attachmentTarget(a, motions_[a.motion], t);
    }

private:
    static constexpr std::uint32_t kNone = 0xffffffffu;
    std::vector<gpu::Attachment> attachments_;
    std::vector<gpu::Motion> motions_;
    std::vector<std::uint32_t> of_;  // per vertex, empty without attachments
};

}  // namespace cloth
