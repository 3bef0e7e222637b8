#include "reference.h"

#include <algorithm>
#include <cmath>

#include "kernels/collider.h"
#include "kernels/constraints.h"
#include "kernels/feature_contacts.h"
#include "cpu/float_env.h"
#include "sim/schedule.h"
#include "kernels/solver_io.h"
#include "kernels/wind.h"

namespace cloth::test {

using namespace cloth::gpu;

SerialReference::SerialReference(const PreparedCloth& p)
    : p_(p),
      pos_(p.positions),
      pred_(p.positions),
      vel_(p.velocities),
      lambdaAttach_(p.attachments.size()) {
    for (const auto& x : p.positions)
        contacts_.push_back(contactStateNew(glm::vec3(x)));
    memory_.assign(p.positions.size(), meshMemoryNone());
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        auto& l = std::get<T::kIndex>(lambdas_);
        l.assign(p.items<typename T::Item>().size(), typename T::Lambda(0.0f));
    });
}

// The frame as the shared schedule lists it (sim/schedule.h), each step written out serially.
void SerialReference::stepFrame() {
    const FlushSubnormals flush;  // as the CPU reference and the GPU
    forEachStep(p_.sim, p_.timing, time_,
                [&](const ScheduleEntry& e, const StepContext& c) { step(e, c); });
    time_ += static_cast<double>(substepDt(p_.timing)) * p_.timing.substeps;
}

void SerialReference::step(const ScheduleEntry& e, const StepContext& c) {
    const SolveParams& sp = c.solve;
    switch (e.step) {
        case Step::Wind:
            if (p_.sim.wind) wind(c.wind);
            break;
        case Step::Collisions:
            collisions(c);
            break;
        case Step::Contacts:
            contacts(c);
            break;
        case Step::SelfCollisions:
        case Step::SelfContacts:
        case Step::SelfBounds:
            break;  // no self-collision here (the constructor refuses it)
        case Step::Restitution:
            for (std::size_t v = 0; v < pos_.size(); ++v)
                vel_[v] = glm::vec4(restituteVelocity(glm::vec3(vel_[v]), contacts_[v]), 0.0f);
            break;
        case Step::Predict:
            for (std::size_t v = 0; v < pos_.size(); ++v)
                predictVertex(pos_[v], vel_[v], pred_[v], p_.sim.gravity, c.dt);
            break;
        case Step::Colors:
            colors(sp);
            break;
        case Step::Attachments:
            for (std::size_t i = 0; i < p_.attachments.size(); ++i) {
                const auto& a = p_.attachments[i];
                glm::vec3 target = glm::vec3(a.anchor) + motionOffset(p_.motions[a.motion], sp.time);
                projectAttachment(pos_[a.vertex], target, a.param, lambdaAttach_[i], sp);
            }
            break;
        case Step::Tethers:
            for (const auto& t : p_.tethers)
                projectTether(pos_[t.vertex], glm::vec3(pos_[t.anchor]), t.maxLength);
            break;
        case Step::Grab:
            grab(sp);
            break;
        case Step::Phantoms:
            averagePhantoms();
            break;
        case Step::Velocities:
            velocities(c.dt);
            break;
        case Step::Damping:
            damping();
            break;
        case Step::Normals:
            break;  // normals() computes them on request
        case Step::SpringForces: case Step::SpringMove: case Step::PdLocal: case Step::PdGlobal:
        case Step::PdResult: case Step::FemForces: case Step::FemSolve: case Step::FemMove:
            throw Error("XPBD: step " + std::to_string(int(e.step)) + " is another model's");
    }
}

void SerialReference::collisions(const StepContext& c) {
    for (std::uint32_t v = 0; v < pos_.size(); ++v) {
        glm::vec3 x(pos_[v]);
        const glm::vec4 known = contacts_[v].near;
        glm::vec4 gathered(0.0f, 0.0f, 0.0f, NEAR_UNSET);
        MeshMemory& memory = memory_[v];
        if (pos_[v].w > 0.0f)
            for (const Collider& k : p_.colliders)
                x = prestabilise(p_.meshNodes.data(), p_.meshTriangles.data(), k,
                                 colliderPose(k, c.start), x, vertexThickness(p_, v), known, gathered,
                                 memory);
        pos_[v] = glm::vec4(x, pos_[v].w);
        contacts_[v] = contactStateAt(x, nearAfterPass(known, gathered), glm::uvec4(MESH_NO_HINT));
    }
}

void SerialReference::contacts(const StepContext& c) {
    const float bounceBelow = restitutionThreshold(p_.sim, p_.timing);
    for (std::uint32_t v = 0; v < pos_.size(); ++v) {
        glm::vec4 gathered(0.0f, 0.0f, 0.0f, NEAR_UNSET);
        for (const Collider& k : p_.colliders)
            projectContact(p_.meshNodes.data(), p_.meshTriangles.data(), k,
                           colliderPose(k, c.solve.time), colliderPose(k, c.start), pos_[v],
                           glm::vec3(vel_[v]), vertexThickness(p_, v), c.dt, bounceBelow, contacts_[v],
                           memory_[v], gathered);
        contacts_[v].near = nearAfterPass(contacts_[v].near, gathered);
    }
    if (!p_.meshFeatures.empty()) sharpFeatures(c);
}

// The sharp features' three passes (feature_contacts.h), each over all its items first.
void SerialReference::sharpFeatures(const StepContext& c) {
    std::vector<ColliderPose> end, start;
    for (const Collider& k : p_.colliders) {
        end.push_back(colliderPose(k, c.solve.time));
        start.push_back(colliderPose(k, c.start));
    }
    const std::size_t tris = p_.triangles.size();
    std::vector<glm::vec4> sums(3 * tris);
    for (std::size_t i = 0; i < tris; ++i) {
        const std::uint32_t info = p_.triangleFeatureInfo[i];
        featureTrianglePass(p_.meshNodes.data(), p_.meshFeatures.data(), p_.colliders.data(),
                            static_cast<std::uint32_t>(p_.colliders.size()), end.data(),
                            start.data(), pos_.data(), contacts_.data(), p_.triangles[i], info,
                            p_.segments[info >> TRIANGLE_SEGMENT_SHIFT].thickness,
                            sums.data() + 3 * i);
    }
    std::vector<glm::vec4> moved(p_.originalVertexCount);
    for (std::uint32_t v = 0; v < p_.originalVertexCount; ++v) {
        moved[v] = featureMovePass(p_.vertexTriangleOffsets.data(), p_.vertexTriangles.data(),
                                   p_.triangles.data(), sums.data(), v);
        if (moved[v].w > 0.0f && pos_[v].w > 0.0f) {
            pos_[v] += glm::vec4(glm::vec3(moved[v]), 0.0f);
            contacts_[v].start.w += std::sqrt(meshLength2(glm::vec3(moved[v])));
        }
    }
    for (const PhantomGroup& g : p_.phantomGroups) {
        const glm::vec4 d = moved[p_.phantomMembers[g.first]];
        if (d.w <= 0.0f) continue;
        for (std::uint32_t k = 1; k < g.count; ++k) {
            const std::uint32_t v = p_.phantomMembers[g.first + k];
            if (pos_[v].w > 0.0f) pos_[v] += glm::vec4(glm::vec3(d), 0.0f);
        }
    }
}

void SerialReference::colors(const SolveParams& sp) {
    for (std::uint32_t c = 0; c < p_.colorCount; ++c) {
        // Each constraint type in table order, item by item, with the type's own solve.
        gpu::forEachConstraintType([&](auto t) {
            using T = decltype(t);
            const auto& set = p_.set<typename T::Item>();
            auto& lambdas = std::get<T::kIndex>(lambdas_);
            glm::vec4* pos = pos_.data();
            for (auto i = set.colorOffsets[c]; i < set.colorOffsets[c + 1]; ++i)
                T::solve(pos, set.items[i], lambdas[i], sp);
        });
        if (p_.sim.averagePhantomsEachColor) averagePhantoms();
    }
}

// After the tethers, on the vertex and all its phantom copies; hard.
void SerialReference::grab(const SolveParams& sp) {
    if (!grab_) return;
    for (std::uint32_t v : grabbedVertices(p_.phantomGroups, p_.phantomMembers, grab_->vertex)) {
        float lambda = 0.0f;
        projectAttachment(pos_[v], grab_->target, 0.0f, lambda, sp);
    }
}

void SerialReference::velocities(float dt) {
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
}

void SerialReference::averagePhantoms() {
    glm::vec4* positions = pos_.data();
    for (const auto& g : p_.phantomGroups) averagePhantomGroup(positions, p_.phantomMembers.data(), g);
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

// Every vertex from the normals of the positions before any of them changes (velocities only).
void SerialReference::wind(const WindParams& w) {
    for (std::size_t v = 0; v < pos_.size(); ++v) {
        const WindVertex wv = p_.windVertices[v];
        glm::vec3 sum(0.0f);
        for (auto k = p_.vertexTriangleOffsets[wv.normalVertex];
             k < p_.vertexTriangleOffsets[wv.normalVertex + 1]; ++k) {
            glm::uvec3 t = p_.triangles[p_.vertexTriangles[k]];
            sum += triangleNormal(glm::vec3(pos_[t.x]), glm::vec3(pos_[t.y]), glm::vec3(pos_[t.z]));
        }
        vel_[v] += glm::vec4(windVelocityChange(glm::vec3(vel_[v]), pos_[v].w, windNormal(sum),
                                                wv.area, w),
                             0.0f);
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
