#include "cpu/post_step.h"

#include <algorithm>

#include "kernels/constraints.h"
#include "kernels/pd_jacobi.h"
#include "kernels/spring.h"
#include "prep/pd_jacobi.h"
#include "prep/solver_data.h"
#include "prep/springs.h"
#include "sim/schedule.h"

namespace cloth {

PostStep::PostStep(const PreparedCloth& p, int members)
    : p_(p),
      attachments_(p),
      tables_(modelTables(p, "the implicit models' step")) {
    const std::uint32_t n = p.originalVertexCount;
    contact_.assign(n, 0);
    poses_.resize(std::size_t(members) * 2 * p.colliders.size());
    memory_.assign(n, gpu::meshMemoryNone());
    bounceBelow_ = restitutionThreshold(p.sim, p.timing);
}

void PostStep::tethers(std::vector<glm::vec4>& y, std::uint32_t begin, std::uint32_t end) const {
    for (std::uint32_t i = begin; i < end; ++i) {
        const gpu::Tether& t = p_.tethers[i];
        gpu::projectTether(y[t.vertex], glm::vec3(y[t.anchor]), t.maxLength);
    }
}

void PostStep::finish(int member, float t0, float h, std::vector<glm::vec4>& x,
                      std::vector<glm::vec4>& y, std::vector<glm::vec4>& v, std::uint32_t begin,
                      std::uint32_t end) {
    const std::size_t count = p_.colliders.size();
    gpu::ColliderPose* p0 = poses_.data() + std::size_t(member) * 2 * count;
    gpu::ColliderPose* p1 = p0 + count;
    for (std::size_t c = 0; c < count; ++c) {
        p0[c] = gpu::colliderPose(p_.colliders[c], t0);
        p1[c] = gpu::colliderPose(p_.colliders[c], t0 + h);
    }
    for (std::uint32_t i = begin; i < end; ++i) {
        if (x[i].w <= 0.0f) {
            y[i] = x[i];
            v[i] = glm::vec4(0.0f);
            continue;
        }
        if (attachments_.carried(i)) {
            glm::vec4 before = x[i];
            gpu::springFollowTarget(x[i], before, v[i], attachments_.target(i, t0),
                                    attachments_.target(i, t0 + h), h);
            y[i] = x[i];
            contact_[i] = 0;
            continue;
        }
        const glm::vec3 start(x[i]);
        gpu::ContactState s = gpu::contactStateAt(start, glm::vec4(0.0f), glm::uvec4(0u));
        const glm::vec3 vStep = (glm::vec3(y[i]) - start) / h;
        for (std::size_t c = 0; c < count; ++c)
            gpu::springContactAny(p_.meshNodes.data(), p_.meshTriangles.data(), p_.colliders[c],
                                  p1[c], p0[c], y[i], vStep, tables_.thickness[i], h,
                                  bounceBelow_, s, memory_[i]);
        contact_[i] = s.start.w > 0.0f ? 1 : 0;
        v[i] = glm::vec4(gpu::implicitVelocity(glm::vec3(y[i]), start, h, contact_[i] != 0, s,
                                               tables_.damping[i]),
                         0.0f);
        x[i] = y[i];
    }
}

std::uint32_t PostStep::contactCount() const {
    return std::uint32_t(std::count(contact_.begin(), contact_.end(), std::uint8_t(1)));
}

bool PostStep::runStep(Step step, ThreadPool& pool, int member, int size, const StepContext& c,
                       std::vector<glm::vec4>& x, std::vector<glm::vec4>& y,
                       std::vector<glm::vec4>& v, std::vector<glm::vec4>& normals,
                       ModelRigidDamping& rigid) {
    std::uint32_t b, e;
    ThreadPool::split(p_.originalVertexCount, member, size, b, e);
    switch (step) {
        case Step::Tethers: {
            if (p_.tethers.empty()) return false;
            std::uint32_t tb, te;
            ThreadPool::split(std::uint32_t(p_.tethers.size()), member, size, tb, te);
            tethers(y, tb, te);
            return true;
        }
        case Step::Velocities:
            finish(member, c.start, c.dt, x, y, v, b, e);
            return true;
        case Step::Damping:
            if (!rigid.any()) return false;
            rigid.apply(pool, member, size, x, v, b, e);
            return true;
        case Step::Normals:
            vertexNormals(p_, x, normals, b, e);
            return true;
        default:
            return false;
    }
}

}  // namespace cloth
