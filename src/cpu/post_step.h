// What the implicit models of the CPU reference (cpu/projective.h, cpu/fem.h) do after each step,
// alike: the tethers projected, the colliders, mesh colliders included (kernels/collider.h
// springContactAny: friction over the step, restitution), the velocity (x_{n+1} - x_n) / h, the materials' linear damping
// (v *= max(0, 1 - c h), as XPBD), and the contact count. A vertex carried by a hard attachment
// goes to its target at the step's end at the target's velocity over the step, and no collider
// moves it (as in the mass-spring model).
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "cpu/model_damping.h"
#include "cpu/thread_pool.h"
#include "cpu/vertex_drivers.h"
#include "kernels/collider.h"
#include "prep/prepared.h"
#include "prep/solver_data.h"
#include "sim/schedule.h"

namespace cloth {

class PostStep {
public:
    // `members`: the most team members that call finish() together.
    PostStep(const PreparedCloth& p, int members);

    // Tethers [begin, end) of p.tethers, projected in y (their anchors are pinned).
    void tethers(std::vector<glm::vec4>& y, std::uint32_t begin, std::uint32_t end) const;
    // The vertices [begin, end): y out of the colliders over the step from x (t0 to t1 = t0 + h),
    // then v = (y - x) / h with restitution and damping, and x = y. Pinned vertices keep x, v 0;
    // carried ones go to their target at t0 + h, v its velocity over the step.
    void finish(int member, float t0, float h, std::vector<glm::vec4>& x,
                std::vector<glm::vec4>& y, std::vector<glm::vec4>& v, std::uint32_t begin,
                std::uint32_t end);
    // The steps of their schedules (sim/schedule.h) that both implicit models run after their
    // solve, one member's share: Tethers (in y), Velocities (finish above, over the substep c),
    // Damping (Mueller's, `rigid`, on x and v) and Normals (from x). False for any other step,
    // or where the scene lacks what the step needs.
    bool runStep(Step step, ThreadPool& pool, int member, int size, const StepContext& c,
                 std::vector<glm::vec4>& x, std::vector<glm::vec4>& y,
                 std::vector<glm::vec4>& v, std::vector<glm::vec4>& normals,
                 ModelRigidDamping& rigid);
    // Free vertices in contact in the last step.
    std::uint32_t contactCount() const;
    const AttachmentTargets& attachments() const { return attachments_; }

private:
    const PreparedCloth& p_;
    AttachmentTargets attachments_;
    // p_'s solver data's per-vertex damping and thickness (prep/solver_data.h).
    const ModelTables& tables_;
    std::vector<std::uint8_t> contact_;
    std::vector<gpu::ColliderPose> poses_;  // per member: the colliders at the step's start, end
    std::vector<gpu::MeshMemory> memory_;   // per vertex: what its mesh queries remember
    float bounceBelow_ = 0.0f;
};

}  // namespace cloth
