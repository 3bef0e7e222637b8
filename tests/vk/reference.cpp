#include "reference.h"

#include <algorithm>
#include <cmath>

#include "constraints.h"
#include "solver_io.h"

namespace cloth::test {

using namespace cloth::gpu;

SerialReference::SerialReference(const PreparedCloth& p)
    : p_(p),
      pos_(p.positions),
      pred_(p.positions),
      vel_(p.velocities),
      lambdaDistance_(p.distance.size()),
      lambdaBending_(p.bending.size()),
      lambdaAttach_(p.attachments.size()) {}

void SerialReference::stepFrame() {
    const float dt = p_.sim.frameDt / static_cast<float>(p_.sim.substeps);
    for (int s = 0; s < p_.sim.substeps; ++s)
        substep(dt, static_cast<float>(time_ + static_cast<double>(dt) * (s + 1)));
    time_ += static_cast<double>(dt) * p_.sim.substeps;
}

void SerialReference::substep(float dt, float tEnd) {
    for (std::size_t v = 0; v < pos_.size(); ++v)
        predictVertex(pos_[v], vel_[v], pred_[v], p_.sim.gravity, dt);
    SolveParams sp{};
    sp.invDt2 = 1.0f / (dt * dt);
    sp.mode = p_.sim.mode == SolverMode::Pbd ? MODE_PBD : MODE_XPBD;
    sp.time = tEnd;
    for (int it = 0; it < p_.sim.iterations; ++it) {
        sp.firstIteration = it == 0 ? 1u : 0u;
        iteration(sp);
    }
    const float invDt = 1.0f / dt;
    for (const auto& seg : p_.segments) {
        const float k = std::max(0.0f, 1.0f - seg.linearDamping * dt);
        auto update = [&](std::uint32_t v) {
            vel_[v] = glm::vec4(substepVelocity(glm::vec3(pos_[v]), glm::vec3(pred_[v]),
                                                glm::vec3(vel_[v]), invDt, k),
                                0.0f);
        };
        for (auto v = seg.vertexBegin; v < seg.vertexEnd; ++v) update(v);
        for (auto v = seg.phantomBegin; v < seg.phantomEnd; ++v) update(v);
    }
    damping();
}

void SerialReference::iteration(const SolveParams& sp) {
    for (std::uint32_t c = 0; c < p_.colorCount; ++c) {
        for (auto i = p_.distanceColorOffsets[c]; i < p_.distanceColorOffsets[c + 1]; ++i) {
            const auto& d = p_.distance[i];
            projectDistance(pos_[d.v0], pos_[d.v1], d, lambdaDistance_[i], sp);
        }
        for (auto i = p_.bendingColorOffsets[c]; i < p_.bendingColorOffsets[c + 1]; ++i) {
            const auto& b = p_.bending[i];
            projectBending(pos_[b.v0], pos_[b.v1], pos_[b.v2], pos_[b.v3], b, lambdaBending_[i],
                           sp);
        }
        if (p_.sim.averagePhantomsEachColor) averagePhantoms();
    }
    for (std::size_t i = 0; i < p_.attachments.size(); ++i) {
        const auto& a = p_.attachments[i];
        glm::vec3 target = glm::vec3(a.anchor) + motionOffset(p_.motions[a.motion], sp.time);
        projectAttachment(pos_[a.vertex], target, a.param, lambdaAttach_[i], sp);
    }
    for (const auto& t : p_.tethers)
        projectTether(pos_[t.vertex], glm::vec3(pos_[t.anchor]), t.maxLength);
    if (grab_) {  // after the tethers, on the vertex and all its phantom copies; hard
        std::vector<std::uint32_t> grabbed = {grab_->vertex};
        for (const auto& g : p_.phantomGroups)
            if (p_.phantomMembers[g.first] == grab_->vertex)
                grabbed.assign(p_.phantomMembers.begin() + g.first,
                               p_.phantomMembers.begin() + g.first + g.count);
        for (std::uint32_t v : grabbed) {
            float lambda = 0.0f;
            projectAttachment(pos_[v], grab_->target, 0.0f, lambda, sp);
        }
    }
    averagePhantoms();
}

void SerialReference::averagePhantoms() {
    for (const auto& g : p_.phantomGroups) {
        glm::vec4 acc(0.0f);
        bool pinned = false;
        glm::vec3 pinnedAt(0.0f);
        for (std::uint32_t k = 0; k < g.count; ++k) {
            const glm::vec4& x = pos_[p_.phantomMembers[g.first + k]];
            if (x.w > 0.0f) {
                acc = phantomMeanAdd(acc, x);
            } else {
                pinned = true;
                pinnedAt = glm::vec3(x);
            }
        }
        glm::vec3 mean = pinned ? pinnedAt : phantomMean(acc);
        for (std::uint32_t k = 0; k < g.count; ++k) {
            glm::vec4& x = pos_[p_.phantomMembers[g.first + k]];
            x = glm::vec4(mean, x.w);
        }
    }
}

void SerialReference::damping() {
    for (const auto& seg : p_.segments) {
        if (seg.rigidDamping <= 0.0f) continue;
        const glm::vec3 ref(pos_[seg.vertexBegin]);
        // Vertex by vertex within runs of RIGID_SUM_CHUNK, then run by run (the CPU's order).
        RigidSums total = rigidSumsZero();
        auto addRuns = [&](std::uint32_t begin, std::uint32_t end) {
            for (std::uint32_t b = begin; b < end; b += RIGID_SUM_CHUNK) {
                RigidSums run = rigidSumsZero();
                for (std::uint32_t v = b; v < std::min(end, b + RIGID_SUM_CHUNK); ++v)
                    if (pos_[v].w > 0.0f)
                        run = rigidSumsAdd(run, glm::vec3(pos_[v]) - ref, glm::vec3(vel_[v]),
                                           1.0f / pos_[v].w);
                total = rigidSumsCombine(total, run);
            }
        };
        addRuns(seg.vertexBegin, seg.vertexEnd);
        addRuns(seg.phantomBegin, seg.phantomEnd);
        RigidMotion rm = rigidMotionFromSums(total, ref, seg.rigidDamping);
        auto apply = [&](std::uint32_t v) {
            if (pos_[v].w > 0.0f)
                vel_[v] = glm::vec4(rigidDampedVelocity(glm::vec3(pos_[v]), glm::vec3(vel_[v]), rm),
                                    0.0f);
        };
        for (auto v = seg.vertexBegin; v < seg.vertexEnd; ++v) apply(v);
        for (auto v = seg.phantomBegin; v < seg.phantomEnd; ++v) apply(v);
    }
}

std::vector<glm::vec4> SerialReference::normals() const {
    std::vector<glm::vec4> out(p_.originalVertexCount);
    for (std::uint32_t v = 0; v < p_.originalVertexCount; ++v) {
        glm::vec3 n(0.0f);
        for (auto k = p_.vertexTriangleOffsets[v]; k < p_.vertexTriangleOffsets[v + 1]; ++k) {
            glm::uvec3 t = p_.triangles[p_.vertexTriangles[k]];
            n += triangleNormal(glm::vec3(pos_[t.x]), glm::vec3(pos_[t.y]), glm::vec3(pos_[t.z]));
        }
        const float len2 = dot(n, n);
        out[v] = len2 > 0.0f ? glm::vec4(n / std::sqrt(len2), 0.0f) : glm::vec4(0, 0, 1, 0);
    }
    return out;
}

}  // namespace cloth::test
