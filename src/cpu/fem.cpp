#include "cpu/fem.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>

#include "core/error.h"
#include "core/stopwatch.h"
#include "cpu/cpu_info.h"
#include "cpu/team.h"
#include "cpu/fem_system.h"
#include "cpu/model_damping.h"
#include "cpu/model_frame.h"
#include "cpu/post_step.h"
#include "cpu/thread_pool.h"
#include "cpu/vertex_drivers.h"
#include "prep/fem.h"
#include "prep/fem_plan.h"
#include "prep/model_checks.h"
#include "prep/solver_data.h"
#include "prep/springs.h"
#include "sim/schedule.h"

namespace cloth {

namespace {

class FemSolver final : public Solver {
public:
    FemSolver(SharedCloth shared, int threads, std::uint32_t verticesPerThread)
        : shared_(std::move(shared)),
          p_(*shared_),
          h_(substepDt(p_.timing)),
          threads_(threads),
          members_(modelTeamSize(p_, threads, verticesPerThread)),
          pool_(threads),
          post_(p_, threads),
          rigid_(p_) {
        const std::uint32_t n = p_.originalVertexCount;
        x_.assign(p_.positions.begin(), p_.positions.begin() + n);
        v_.assign(p_.velocities.begin(), p_.velocities.begin() + n);
        y_ = x_;
        // The rows, incidences, diagonal and pattern: the preparation's (prep/fem_plan.h).
        const SolverData& data = solverData(p_, "the FEM solver");
        if (!data.fem)
            throw Error("the FEM solver: the prepared scene's solver data has no FEM plan (its "
                        "settings do not ask for one)");
        const FemPlan& plan = *data.fem;
        plan_ = &plan;
        rows_ = plan.rows;
        elements_.resize(p_.femTerms.triangles.size());
        force_.assign(n, glm::dvec3(0.0));
        const ModelTables& tables = *data.model;  // built with the plan
        angles_ = &tables.angles;
        angleTerms_.resize(p_.springTerms.angles.size());
        stencilBlocks_.assign(16 * p_.springTerms.angles.size(), glm::dmat3(0.0));
        // Per vertex, its bends' corners (4 b + c), in bend order (the force's sum).
        bends_ = &tables.bends;
        bendResiduals_.assign(p_.femTerms.bends.size(), glm::dvec3(0.0));
        const double h = h_;
        system_.emplace(p_.femTerms.triangles, plan.pattern, plan.mass,
                        1.0 + h * double(p_.sim.fem.rayleighAlpha),
                        h * double(p_.sim.fem.rayleighBeta) + h * h, plan.extra, plan.couplings,
                        plan.stencils);
        if (!p_.springTerms.angles.empty()) system_->setStencilBlocks(&stencilBlocks_);
        dv_.assign(rows_, glm::dvec3(0.0));
        rhs_ = kv_ = velocity_ = dv_;
        normals_.assign(n, glm::vec4(0.0f, 0.0f, 1.0f, 0.0f));
        vertexNormals(p_, x_, normals_, 0, n);
    }

    const char* backendName() const override { return "cpu"; }
    std::string deviceName() const override { return cpuModelName(); }
    int threadCount() const override { return threads_; }
    int threadsUsed() const override { return members_; }

    void stepFrame() override {
        cgIterations_ = 0;
        cgLargestError_ = 0.0;
        runModelFrame(pool_, members_, kFemSchedule, p_.sim, p_.timing, time_, p_.sim.iterations,
                      times_,
                      [&](int member, int size, const ScheduleEntry& e, const StepContext& c) {
                          return runStep(member, size, e, c);
                      });
        time_ += double(p_.timing.frameDt);
    }
    double simTime() const override { return time_; }

    void readPositions(std::vector<glm::vec4>& out) override { out = x_; }
    void readVelocities(std::vector<glm::vec4>& out) override { out = v_; }
    void readNormals(std::vector<glm::vec4>& out) override { out = normals_; }
    void keepMultipliers(bool) override {}
    void readMultipliers(std::size_t, std::vector<glm::vec4>&) override {
        throw Error("model fem has no XPBD multipliers (the residual metrics are XPBD's)");
    }
    std::vector<StageTime> stageTimes() const override {
        std::vector<StageTime> out;
        for (int i = 0; i < kStageCount; ++i) out.push_back({kStageNames[i], times_[i]});
        return out;
    }
    void setGrab(std::optional<Grab> grab) override {
        checkGrabVertex(grab, p_.originalVertexCount);
        if (grab) throw Error("model fem: the grab is not built for this model yet");
    }
    std::uint32_t contactCount() const override { return post_.contactCount(); }
    std::vector<ModelFigure> modelFigures() const override {
        return {{"cg_iterations_per_frame", double(cgIterations_)},
                {"cg_largest_relative_residual", cgLargestError_},
                {"cg_unconverged_steps", double(cgUnconverged_)}};
    }

private:
    // One step of kFemSchedule for one member; false where the scene lacks what it needs.
    bool runStep(int member, int size, const ScheduleEntry& e, const StepContext& c) {
        const std::uint32_t n = p_.originalVertexCount;
        std::uint32_t b, end;
        ThreadPool::split(n, member, size, b, end);
        const AttachmentTargets& attachments = post_.attachments();
        const float t1 = c.start + h_;
        switch (e.step) {
            case Step::Wind:
                if (!p_.sim.wind) return false;
                blowWind(p_, time_ + double(h_) * double(c.substep), x_, v_, b, end);
                return true;
            case Step::FemForces:
                forces(member, size, b, end, t1);
                return true;
            case Step::FemSolve: {
                rightHandSide(member, size);
                const FemCgResult r = system_->solve(pool_, rhs_, dv_, p_.sim.fem.tolerance,
                                                     p_.sim.fem.maxIterations, member, size);
                if (member == 0) {
                    cgIterations_ += std::uint64_t(r.iterations);
                    cgLargestError_ = std::max(cgLargestError_, r.relativeResidual);
                    if (!r.converged) ++cgUnconverged_;
                }
                return true;
            }
            case Step::FemMove:
                for (std::uint32_t v = b; v < end; ++v) {
                    if (attachments.carried(v)) y_[v] = glm::vec4(attachments.target(v, t1), x_[v].w);
                    if (plan_->row[v] < 0) continue;
                    for (int k = 0; k < 3; ++k) v_[v][k] += float(dv_[plan_->row[v]][k]);
                    y_[v] = glm::vec4(glm::vec3(x_[v]) + h_ * glm::vec3(v_[v]), x_[v].w);
                }
                return true;
            default:
                return post_.runStep(e.step, pool_, member, size, c, x_, y_, v_, normals_, rigid_);
        }
    }

    // The elements, angle springs and bends at the step's start, then every vertex's force and
    // the system's blocks (a barrier between: the vertices read every member's terms). t1: the
    // step's end, where a compliant attachment's target is.
    void forces(int member, int size, std::uint32_t b, std::uint32_t end, float t1) {
        std::uint32_t eb, ee, ab, ae, bb, be;
        ThreadPool::split(std::uint32_t(p_.femTerms.triangles.size()), member, size, eb, ee);
        ThreadPool::split(std::uint32_t(p_.springTerms.angles.size()), member, size, ab, ae);
        ThreadPool::split(std::uint32_t(p_.femTerms.bends.size()), member, size, bb, be);
        const AttachmentTargets& attachments = post_.attachments();
        for (std::uint32_t i = eb; i < ee; ++i) {
            const gpu::PdTriangle& t = p_.femTerms.triangles[i];
            elements_[i] = femElement(t, glm::vec3(x_[t.v0]), glm::vec3(x_[t.v1]),
                                      glm::vec3(x_[t.v2]));
        }
        for (std::uint32_t a = ab; a < ae; ++a) angleTerm(a);
        for (std::uint32_t k = bb; k < be; ++k) {
            const gpu::PdBend& t = p_.femTerms.bends[k];
            bendResiduals_[k] =
                femBendResidual(t, glm::vec3(x_[t.v0]), glm::vec3(x_[t.v1]),
                                glm::vec3(x_[t.v2]), glm::vec3(x_[t.v3]));
        }
        pool_.barrier();
        for (std::uint32_t v = b; v < end; ++v) {
            glm::dvec3 f(0.0);
            for (std::uint32_t k = plan_->cornerOffsets[v]; k < plan_->cornerOffsets[v + 1]; ++k) {
                const std::uint32_t t = plan_->corners[k] / 3;
                f += femForce(p_.femTerms.triangles[t], elements_[t], int(plan_->corners[k] % 3));
            }
            // A seam's spring of rest length 0: w (x_other - x).
            for (std::uint32_t k = plan_->springOffsets[v]; k < plan_->springOffsets[v + 1]; ++k)
                f += plan_->springs[k].stiffness *
                     (glm::dvec3(glm::vec3(x_[plan_->springs[k].other])) -
                      glm::dvec3(glm::vec3(x_[v])));
            // The angle springs' force -w (theta - theta_0) g_c, and their share
            // -h (H v)_c = -h w (g . v) g_c of the right-hand side (H = w g g^T).
            for (std::uint32_t k = angles_->offsets[v]; k < angles_->offsets[v + 1]; ++k) {
                const AngleTerm& a = angleTerms_[angles_->springs[k] / 4];
                f += a.factor * a.g[angles_->springs[k] % 4];
            }
            // The bends' force -k_c w (C - p).
            for (std::uint32_t k = bends_->offsets[v]; k < bends_->offsets[v + 1]; ++k) {
                const gpu::PdBend& t = p_.femTerms.bends[bends_->springs[k] / 4];
                f -= double(t.k[int(bends_->springs[k] % 4)]) *
                     bendResiduals_[bends_->springs[k] / 4];
            }
            const std::int32_t r = plan_->row[v];
            // A compliant attachment's spring to its target at the step's end.
            if (r >= 0 && plan_->attachment[r] > 0.0)
                f += plan_->attachment[r] * (glm::dvec3(attachments.target(v, t1)) -
                                       glm::dvec3(glm::vec3(x_[v])));
            force_[v] = f;
            if (r >= 0) velocity_[r] = glm::dvec3(glm::vec3(v_[v]));
        }
        system_->fill(elements_, member, size);
    }

    // Angle spring a at the step's start: theta's gradient g, the factor -w (theta - theta_0)
    // - h w theta' (theta' = sum g_c . v_c) that each corner's g takes in its force, and the
    // blocks h^2 w g_c g_d^T of the system (kernels/spring.h angleSpringForce's energy,
    // Gauss-Newton's stiffness). A degenerate hinge: nothing.
    void angleTerm(std::uint32_t a) {
        const gpu::FixedAngleConstraint& t = p_.springTerms.angles[a];
        const std::uint32_t v[4] = {t.v0, t.v1, t.v2, t.v3};
        float angle;
        glm::vec3 g[4];
        AngleTerm& out = angleTerms_[a];
        const bool ok = gpu::bendingEval(glm::vec3(x_[t.v0]), glm::vec3(x_[t.v1]), glm::vec3(x_[t.v2]),
                                         glm::vec3(x_[t.v3]), angle, g[0], g[1], g[2], g[3]);
        const double w = ok ? double(t.param) : 0.0, h = h_;
        double rate = 0.0;
        for (int c = 0; c < 4; ++c) {
            out.g[c] = glm::dvec3(g[c]);
            rate += glm::dot(out.g[c], glm::dvec3(glm::vec3(v_[v[c]])));
        }
        out.factor = -w * double(gpu::wrapAngle(angle - t.targetAngle)) - h * w * rate;
        for (int c = 0; c < 4; ++c)
            for (int d = 0; d < 4; ++d)
                stencilBlocks_[16 * a + 4 * c + d] = (h * h * w) * glm::outerProduct(out.g[c], out.g[d]);
    }

    // The linearised backward-Euler step (docs/models.md): with K the corotational stiffness,
    // ((1 + h a) M + (h b + h^2) K) dv = h (f + M g - a M v - (b + h) K v), over the free
    // vertices (cpu/fem_system.h), solved by conjugate gradients from the last step's dv. Here
    // the member's rows of the right-hand side.
    void rightHandSide(int member, int size) {
        system_->multiplyK(velocity_, kv_, member, size);
        std::int32_t begin, end;
        system_->chunkRange(member, size, begin, end);
        const double h = h_, alpha = p_.sim.fem.rayleighAlpha, beta = p_.sim.fem.rayleighBeta;
        const glm::dvec3 g(p_.sim.gravity);
        for (std::int32_t r = begin; r < end; ++r) {
            const std::uint32_t v = plan_->rowVertex[r];
            const double m = 1.0 / double(x_[v].w);
            glm::dvec3 sum = force_[v] + m * g - alpha * m * velocity_[r] - (beta + h) * kv_[r];
            // A compliant attachment's stiffness w: -h w v (Rayleigh's beta does not damp it).
            if (plan_->attachment[r] > 0.0) sum -= h * plan_->attachment[r] * velocity_[r];
            // A seam's spring w: -h w (v - v_other), as the attachment's (not Rayleigh-damped).
            for (std::uint32_t k = plan_->springOffsets[v]; k < plan_->springOffsets[v + 1]; ++k)
                sum -= h * plan_->springs[k].stiffness *
                       (velocity_[r] - glm::dvec3(glm::vec3(v_[plan_->springs[k].other])));
            rhs_[r] = h * sum;
        }
    }

    SharedCloth shared_;      // the prepared scene: read, never copied (sim/solver.h)
    const PreparedCloth& p_;  // *shared_
    float h_;
    int threads_, members_;
    ThreadPool pool_;
    PostStep post_;
    ModelRigidDamping rigid_;  // Mueller's damping at each substep's end
    std::vector<glm::vec4> x_, v_, y_, normals_;
    const FemPlan* plan_ = nullptr;  // the preparation's (prep/fem_plan.h)
    std::int32_t rows_ = 0;
    std::vector<FemElement> elements_;
    std::vector<glm::dvec3> force_;
    // The angle springs (p.springTerms.angles): per vertex its corners (CSR), per spring its state
    // at the step's start (angleTerm), and the system's blocks (16 per spring).
    struct AngleTerm {
        glm::dvec3 g[4];
        double factor = 0.0;
    };
    const SpringIncidence* angles_ = nullptr;  // per vertex, its angle springs' corners (CSR)
    std::vector<AngleTerm> angleTerms_;
    std::vector<glm::dmat3> stencilBlocks_;
    // The bends (p.femTerms.bends): per vertex its corners (CSR; p_'s solver data's), per bend
    // w (C - p) at the step's start.
    const SpringIncidence* bends_ = nullptr;
    std::vector<glm::dvec3> bendResiduals_;
    std::optional<FemSystem> system_;
    // Per free row: the step's velocity change, right-hand side, K v, and v.
    std::vector<glm::dvec3> dv_, rhs_, kv_, velocity_;
    std::uint64_t cgIterations_ = 0, cgUnconverged_ = 0;
    double cgLargestError_ = 0.0;
    std::vector<double> times_ = std::vector<double>(kStageCount, 0.0);
    double time_ = p_.run.time;
};

}  // namespace

std::unique_ptr<Solver> makeFemSolver(SharedCloth prepared, int threads,
                                      std::uint32_t verticesPerThread) {
    if (threads < 1 || threads > 1024)
        throw Error("--threads must be between 1 and 1024, got " + std::to_string(threads));
    if (prepared->sim.model != ClothModel::Fem)
        throw Error("makeFemSolver: the scene's model is " +
                    std::string(clothModelName(prepared->sim.model)));
    refuseWhatTheModelLacks(*prepared, SolverBackend::Cpu);
    return std::make_unique<FemSolver>(std::move(prepared), threads, verticesPerThread);
}

}  // namespace cloth
