#include "cpu/mass_spring.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "core/error.h"
#include "core/stopwatch.h"
#include "cpu/cpu_info.h"
#include "cpu/team.h"
#include "cpu/model_frame.h"
#include "cpu/model_damping.h"
#include "cpu/thread_pool.h"
#include "kernels/constraints.h"
#include "prep/solver_data.h"
#include "prep/springs.h"
#include "sim/schedule.h"
#include "sim/mass_spring_solver.h"
#include "prep/model_checks.h"

namespace cloth {

SpringStepper::SpringStepper(const std::vector<gpu::Spring>& springs, const SpringIncidence& in)
    : springCount_(springs.size()), offsets_(in.offsets), force_(in.offsets.size() - 1) {
    const auto vertices = std::uint32_t(in.offsets.size() - 1);
    neighbours_.resize(in.springs.size());
    for (std::uint32_t v = 0; v < vertices; ++v)
        for (std::uint32_t k = offsets_[v]; k < offsets_[v + 1]; ++k) {
            const gpu::Spring& s = springs[in.springs[k]];
            neighbours_[k] = {s.a == v ? s.b : s.a, s.rest, s.stiffness};
        }
}

// The springs' force on the vertices [begin, end), each summed over its springs in order.
void SpringStepper::setAttachments(const PreparedCloth& p) {
    attachments_ = AttachmentTargets(p);
}

void SpringStepper::setAngles(const PreparedCloth& p) {
    angles_ = &p.springTerms.angles;
    angleIncidence_ = &modelTables(p, "the mass-spring solver").angles;
}

void SpringStepper::forces(const std::vector<glm::vec4>& x, std::uint32_t begin, std::uint32_t end,
                           float t0) {
    for (std::uint32_t v = begin; v < end; ++v) {
        glm::vec3 sum(0.0f);
        const glm::vec3 xv(x[v]);
        for (std::uint32_t k = offsets_[v]; k < offsets_[v + 1]; ++k) {
            const Neighbour& n = neighbours_[k];
            sum += gpu::springForce(xv, glm::vec3(x[n.other]), n.rest, n.stiffness);
        }
        if (angleIncidence_)
            for (std::uint32_t k = angleIncidence_->offsets[v];
                 k < angleIncidence_->offsets[v + 1]; ++k) {
                const std::uint32_t corner = angleIncidence_->springs[k];
                const gpu::FixedAngleConstraint& t = (*angles_)[corner / 4];
                sum += gpu::angleSpringForce(glm::vec3(x[t.v0]), glm::vec3(x[t.v1]),
                                             glm::vec3(x[t.v2]), glm::vec3(x[t.v3]),
                                             t.targetAngle, t.param, corner % 4);
            }
        if (attachments_.held(v) && !attachments_.carried(v))
            sum += gpu::springAttachmentForce(xv, attachments_.target(v, t0),
                                              attachments_.compliance(v));
        force_[v] = sum;
    }
}

void SpringStepper::step(Integrator integrator, SpringState& s, float h, glm::vec3 g,
                         const std::vector<float>& damping) {
    const auto n = vertexCount();
    if (springKeepsPrevious(integrator) && s.previous.size() != n)
        s.previous = springPrevious(s.x, s.v, h);
    forces(s.x, 0, n);
    integrate(integrator, s, {h, h, 1.0f}, g, damping, 0, n);
}

void SpringStepper::integrate(Integrator integrator, SpringState& s, SpringStepSize size,
                              glm::vec3 g, const std::vector<float>& damping, std::uint32_t begin,
                              std::uint32_t end, float t0, float t1) const {
    const float h = size.h;
    for (std::uint32_t v = begin; v < end; ++v) {
        if (s.x[v].w <= 0.0f) continue;
        if (!s.start.empty()) s.start[v] = s.x[v];
        if (carried(v)) {
            glm::vec4 previous = s.x[v];
            gpu::springFollowTarget(s.x[v], previous, s.v[v], attachments_.target(v, t0),
                                    attachments_.target(v, t1), h);
            if (springKeepsPrevious(integrator)) s.previous[v] = previous;
            if (!s.start.empty()) s.start[v].w = 0.0f;  // never in contact
            continue;
        }
        switch (integrator) {
            case Integrator::Explicit:
                gpu::springExplicitStep(s.x[v], s.v[v], force_[v], g, damping[v], h);
                break;
            case Integrator::Symplectic:
                gpu::springSymplecticStep(s.x[v], s.v[v], force_[v], g, damping[v], h);
                break;
            case Integrator::Verlet:
                gpu::springVerletStep(s.x[v], s.previous[v], s.v[v], force_[v], g, damping[v], h);
                break;
            case Integrator::AdaptiveVerlet:
                gpu::springTimeCorrectedVerletStep(s.x[v], s.previous[v], s.v[v], force_[v], g,
                                                   damping[v], h, size.hMean, size.ratio);
                break;
        }
    }
}

namespace {

class MassSpringSolver final : public MassSpringSolverBase {
public:
    MassSpringSolver(SharedCloth shared, int threads, std::uint32_t verticesPerThread)
        : MassSpringSolverBase(std::move(shared)),
          tables_(modelTables(p_, "the mass-spring solver")),
          stepper_(p_.springTerms.springs, tables_.springs),
          threads_(threads),
          members_(modelTeamSize(p_, threads, verticesPerThread)),
          pool_(threads),
          rigid_(p_) {
        stepper_.setAttachments(p_);
        stepper_.setAngles(p_);
        state_.x = p_.positions;
        state_.v = p_.velocities;
        if (springKeepsPrevious(p_.sim.massSpring.integrator))
            state_.previous = springPrevious(state_.x, state_.v, springLastStep(plan_));
        if (!p_.colliders.empty()) {
            state_.start = state_.x;
            for (glm::vec4& x : state_.start) x.w = 0.0f;
            poses_.resize(std::size_t(threads) * 2 * p_.colliders.size());
            memory_.assign(p_.originalVertexCount, gpu::meshMemoryNone());
            bounceBelow_ = springBounceBelow(p_.sim, plan_);
        }
        normals_.assign(p_.originalVertexCount, glm::vec4(0.0f, 0.0f, 1.0f, 0.0f));
        computeNormals(0, p_.originalVertexCount);
    }

    const char* backendName() const override { return "cpu"; }
    std::string deviceName() const override { return cpuModelName(); }
    int threadCount() const override { return threads_; }
    int threadsUsed() const override { return members_; }

    // Members share the vertices (and the tethers: one per vertex at most); the driver puts a
    // barrier after each step (cpu/model_frame.h).
    void stepFrame() override {
        runModelFrame(pool_, members_, kMassSpringSchedule, p_.sim, p_.timing, time_,
                      int(plan_.steps), times_,
                      [&](int member, int size, const ScheduleEntry& e, const StepContext& c) {
                          return runStep(member, size, e, c);
                      });
        time_ += double(p_.timing.frameDt);
    }
    double simTime() const override { return time_; }

    void readPositions(std::vector<glm::vec4>& out) override { out = state_.x; }
    void readVelocities(std::vector<glm::vec4>& out) override { out = state_.v; }
    void readNormals(std::vector<glm::vec4>& out) override { out = normals_; }
    // Free vertices in contact with a collider at the frame's last step.
    std::uint32_t contactCount() const override {
        std::uint32_t n = 0;
        for (const glm::vec4& s : state_.start) n += s.w > 0.0f ? 1u : 0u;
        return n;
    }
    std::vector<StageTime> stageTimes() const override {
        std::vector<StageTime> out;
        for (int i = 0; i < kStageCount; ++i) out.push_back({kStageNames[i], times_[i]});
        return out;
    }

private:
    // One step of kMassSpringSchedule for one member; false where the scene lacks what it needs.
    // The Iteration loop's index is the step k of the substep's plan.
    bool runStep(int member, int size, const ScheduleEntry& e, const StepContext& c) {
        const Integrator integrator = p_.sim.massSpring.integrator;
        std::uint32_t b, end;
        ThreadPool::split(stepper_.vertexCount(), member, size, b, end);
        const auto k = std::uint32_t(c.iteration);
        switch (e.step) {
            case Step::Wind:
                if (!p_.sim.wind) return false;
                blow(c.substep, springLastStep(plan_), integrator, b, end);
                return true;
            case Step::SpringForces:
                stepper_.forces(state_.x, b, end, springStepTime(time_, plan_, c.substep, k));
                return true;
            case Step::SpringMove:
                stepper_.integrate(integrator, state_, springStepSize(plan_, k), p_.sim.gravity,
                                   tables_.damping, b, end,
                                   springStepTime(time_, plan_, c.substep, k),
                                   springStepTime(time_, plan_, c.substep, k + 1));
                return true;
            case Step::Tethers: {
                if (p_.tethers.empty()) return false;
                std::uint32_t tb, te;
                ThreadPool::split(std::uint32_t(p_.tethers.size()), member, size, tb, te);
                projectTethers(springStepSize(plan_, k).h, integrator, tb, te);
                return true;
            }
            case Step::Contacts:
                if (p_.colliders.empty()) return false;
                collide(member, springStepTime(time_, plan_, c.substep, k),
                        springStepTime(time_, plan_, c.substep, k + 1), springStepSize(plan_, k).h,
                        integrator, b, end);
                return true;
            case Step::Damping:
                // Mueller's damping at the substep's end; Verlet's previous positions move back
                // by the last step times the change (cpu/model_damping.h).
                if (!rigid_.any()) return false;
                rigid_.apply(pool_, member, size, state_.x, state_.v, b, end,
                             springKeepsPrevious(integrator) ? &state_.previous : nullptr,
                             springLastStep(plan_));
                return true;
            case Step::Normals: {
                std::uint32_t nb, ne;
                ThreadPool::split(p_.originalVertexCount, member, size, nb, ne);
                computeNormals(nb, ne);
                return true;
            }
            default:
                throw Error("mass_spring: step " + std::to_string(int(e.step)) +
                            " is not in its schedule");
        }
    }
    // Tethers (at most their length from their anchor) after each step; the velocity takes the
    // projection's move over the step (Verlet's follows from its previous positions).
    void projectTethers(float h, Integrator integrator, std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t i = begin; i < end; ++i) {
            const gpu::Tether& t = p_.tethers[i];
            glm::vec4& x = state_.x[t.vertex];
            const glm::vec4 before = x;
            gpu::projectTether(x, glm::vec3(state_.x[t.anchor]), t.maxLength);
            if (!springKeepsPrevious(integrator) && x != before)
                state_.v[t.vertex] += glm::vec4((glm::vec3(x) - glm::vec3(before)) / h, 0.0f);
        }
    }
    // The wind of substep `sub` on the vertices [begin, end) (cpu/vertex_drivers.h); h: the step
    // (Verlet's previous positions move back by dv h).
    void blow(int sub, float h, Integrator integrator, std::uint32_t begin, std::uint32_t end) {
        blowWind(p_, time_ + double(substepDt(p_.timing)) * double(sub), state_.x, state_.v, begin,
                 end, springKeepsPrevious(integrator) ? &state_.previous : nullptr, h);
    }
    // The colliders after a step from t0 to t1 (kernels/collider.h springContactAny), over
    // the vertices [begin, end); each member places the colliders in its own slots.
    void collide(int member, float t0, float t1, float h, Integrator integrator,
                 std::uint32_t begin, std::uint32_t end) {
        const std::size_t count = p_.colliders.size();
        gpu::ColliderPose* p0 = poses_.data() + std::size_t(member) * 2 * count;
        gpu::ColliderPose* p1 = p0 + count;
        for (std::size_t c = 0; c < count; ++c) {
            p0[c] = gpu::colliderPose(p_.colliders[c], t0);
            p1[c] = gpu::colliderPose(p_.colliders[c], t1);
        }
        for (std::uint32_t i = begin; i < end; ++i) {
            glm::vec4& x = state_.x[i];
            if (x.w <= 0.0f || stepper_.carried(i)) continue;
            gpu::ContactState s = gpu::contactStateAt(glm::vec3(state_.start[i]), glm::vec4(0.0f),
                                                      glm::uvec4(0u));
            const glm::vec4 before = x;
            const glm::vec3 vStep(state_.v[i]);
            for (std::size_t c = 0; c < count; ++c)
                gpu::springContactAny(p_.meshNodes.data(), p_.meshTriangles.data(), p_.colliders[c],
                                      p1[c], p0[c], x, vStep, tables_.thickness[i], h,
                                      bounceBelow_, s, memory_[i]);
            state_.start[i].w = s.start.w;
            if (s.start.w <= 0.0f) continue;
            const glm::vec3 v =
                gpu::springContactVelocity(vStep, glm::vec3(x) - glm::vec3(before), h, s);
            state_.v[i] = glm::vec4(v, 0.0f);
            if (springKeepsPrevious(integrator) && s.bounce.w > 0.0f)
                state_.previous[i] = glm::vec4(glm::vec3(x) - h * v, x.w);
        }
    }
    void computeNormals(std::uint32_t begin, std::uint32_t end) {
        vertexNormals(p_, state_.x, normals_, begin, end);
    }

    // p_'s solver data's tables (prep/solver_data.h): each vertex's springs, angle springs and
    // attachment, its damping (air + its material's linear damping) and thickness.
    const ModelTables& tables_;
    SpringStepper stepper_;
    int threads_, members_;
    ThreadPool pool_;
    ModelRigidDamping rigid_;
    SpringState state_;
    std::vector<glm::vec4> normals_;
    std::vector<gpu::ColliderPose> poses_;  // per member: the colliders at a step's start and end
    std::vector<gpu::MeshMemory> memory_;   // per vertex: what its mesh queries remember
    float bounceBelow_ = 0.0f;
    std::vector<double> times_ = std::vector<double>(kStageCount, 0.0);
    double time_ = p_.run.time;
};

}  // namespace

std::unique_ptr<Solver> makeMassSpringSolver(SharedCloth prepared, int threads,
                                             std::uint32_t verticesPerThread) {
    if (threads < 1 || threads > 1024)
        throw Error("--threads must be between 1 and 1024, got " + std::to_string(threads));
    if (prepared->sim.model != ClothModel::MassSpring)
        throw Error("makeMassSpringSolver: the scene's model is " +
                    std::string(clothModelName(prepared->sim.model)));
    refuseWhatTheModelLacks(*prepared, SolverBackend::Cpu);
    return std::make_unique<MassSpringSolver>(std::move(prepared), threads, verticesPerThread);
}

}  // namespace cloth
