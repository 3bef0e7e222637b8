#include "cpu/projective.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include "core/error.h"
#include "core/stopwatch.h"
#include "cpu/cpu_info.h"
#include "cpu/team.h"
#include "cpu/model_frame.h"
#include "cpu/pd_jacobi.h"
#include "cpu/model_damping.h"
#include "cpu/post_step.h"
#include "cpu/vertex_drivers.h"
#include "kernels/constraints.h"
#include "kernels/pd_jacobi.h"
#include "kernels/projective.h"
#include "kernels/spring.h"
#include "prep/solver_data.h"
#include "prep/projective.h"
#include "prep/springs.h"
#include "sim/schedule.h"
#include "prep/model_checks.h"

namespace cloth {

struct ProjectiveSystem::Factor {
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt;
};

ProjectiveSystem::ProjectiveSystem(const PreparedCloth& p, float h)
    : p_(p),
      h_(h),
      layout_(pdLayout(p, "projective dynamics")),
      factor_(std::make_unique<Factor>()) {
    const std::uint32_t n = p.originalVertexCount;
    mass_.assign(n, 0.0);
    pins_.assign(n, glm::vec3(0.0f));
    for (std::uint32_t v = 0; v < n; ++v) {
        if (p.positions[v].w > 0.0f)
            mass_[v] = 1.0 / double(p.positions[v].w);
        else
            pins_[v] = glm::vec3(p.positions[v]);
    }
    const auto& tris = p.pdTerms.triangles;
    const auto& bends = p.pdTerms.bends;
    triProjections_.assign(2 * tris.size(), glm::vec3(0.0f));
    bendProjections_.assign(bends.size(), glm::vec3(0.0f));

    // A = M / h^2 + sum_c w_c A_c^T A_c (+ w I at a compliant attachment's vertex) over the free
    // vertices, one matrix for x, y and z. The pins are hard: their rows leave the system and their
    // columns, times their fixed positions, move to the right-hand side (pinned_ below). So do a
    // carried vertex's, times its target at each step's end (carried*_ below).
    attachment_.assign(n, 0.0);
    row_.assign(n, -1);
    for (std::uint32_t v = 0; v < n; ++v)
        if (mass_[v] > 0.0 && layout_.vertices[v].carried == 0u) row_[v] = freeCount_++;
    for (const gpu::Attachment& a : p.attachments)
        if (a.vertex < n && a.param > 0.0f) attachment_[a.vertex] = 1.0 / double(a.param);
    pinned_.assign(3 * std::size_t(freeCount_), 0.0);
    std::vector<Eigen::Triplet<double>> entries;
    struct Carried {
        std::int32_t row;
        std::uint32_t vertex;
        double value;
    };
    std::vector<Carried> carried;
    const double invH2 = 1.0 / (double(h) * double(h));
    for (std::uint32_t v = 0; v < n; ++v) {
        if (row_[v] < 0) continue;
        entries.emplace_back(row_[v], row_[v], mass_[v] * invH2);
        if (attachment_[v] > 0.0) entries.emplace_back(row_[v], row_[v], attachment_[v]);
    }
    auto couple = [&](std::uint32_t a, std::uint32_t b, double value) {
        if (row_[a] < 0) return;
        if (row_[b] >= 0) {
            entries.emplace_back(row_[a], row_[b], value);
            return;
        }
        if (mass_[b] > 0.0) {  // carried
            carried.push_back({row_[a], b, value});
            return;
        }
        const glm::dvec3 q = value * glm::dvec3(pins_[b]);
        for (int c = 0; c < 3; ++c) pinned_[std::size_t(c) * freeCount_ + row_[a]] -= q[c];
    };
    for (const gpu::PdTriangle& t : tris) {
        const glm::vec3 bu = gpu::pdWeightsU(t.invRest), bv = gpu::pdWeightsV(t.invRest);
        const std::uint32_t vs[3] = {t.v0, t.v1, t.v2};
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                couple(vs[i], vs[j], double(t.area) * (double(t.stiffness.x) * bu[i] * bu[j] +
                                                       double(t.stiffness.y) * bv[i] * bv[j]));
    }
    for (const gpu::PdBend& b : bends) {
        const std::uint32_t vs[4] = {b.v0, b.v1, b.v2, b.v3};
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) couple(vs[i], vs[j], double(b.weight) * b.k[i] * b.k[j]);
    }
    std::stable_sort(carried.begin(), carried.end(),
                     [](const Carried& l, const Carried& r) { return l.row < r.row; });
    carriedOffsets_.assign(std::size_t(freeCount_) + 1, 0);
    for (const Carried& c : carried) {
        ++carriedOffsets_[std::size_t(c.row) + 1];
        carriedVertex_.push_back(c.vertex);
        carriedValue_.push_back(c.value);
    }
    for (std::int32_t r = 0; r < freeCount_; ++r) carriedOffsets_[r + 1] += carriedOffsets_[r];
    rhs_.assign(3 * std::size_t(freeCount_), 0.0);
    Eigen::SparseMatrix<double> a(freeCount_, freeCount_);
    a.setFromTriplets(entries.begin(), entries.end());  // duplicates are summed
    factor_->ldlt.compute(a);
    ++factorizations_;
    if (factor_->ldlt.info() != Eigen::Success)
        throw Error("model pd: the global system could not be factored (not positive definite)");
}

ProjectiveSystem::~ProjectiveSystem() = default;

void ProjectiveSystem::predict(const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& v,
                               glm::vec3 g, std::vector<glm::vec4>& s) const {
    s.resize(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
        s[i] = x[i].w > 0.0f ? glm::vec4(glm::vec3(x[i]) + h_ * glm::vec3(v[i]) + (h_ * h_) * g, x[i].w)
                             : x[i];
}

void ProjectiveSystem::iterate(ThreadPool& pool, int member, int size, std::vector<glm::vec4>& y,
                               const std::vector<glm::vec4>& s,
                               const std::vector<glm::vec4>* targets) {
    const auto& tris = p_.pdTerms.triangles;
    const auto& bends = p_.pdTerms.bends;
    std::uint32_t b, e;
    ThreadPool::split(std::uint32_t(tris.size()), member, size, b, e);
    for (std::uint32_t t = b; t < e; ++t) {
        const gpu::PdTriangle& k = tris[t];
        gpu::pdProjectTriangle(glm::vec3(y[k.v0]), glm::vec3(y[k.v1]), glm::vec3(y[k.v2]),
                               k.invRest, k.stiffness, triProjections_[2 * t],
                               triProjections_[2 * t + 1]);
    }
    ThreadPool::split(std::uint32_t(bends.size()), member, size, b, e);
    for (std::uint32_t i = b; i < e; ++i) {
        const gpu::PdBend& k = bends[i];
        bendProjections_[i] = gpu::pdProjectBend(glm::vec3(y[k.v0]), glm::vec3(y[k.v1]),
                                                 glm::vec3(y[k.v2]), glm::vec3(y[k.v3]), k);
    }
    pool.barrier();
    const std::uint32_t n = p_.originalVertexCount;
    const double invH2 = 1.0 / (double(h_) * double(h_));
    ThreadPool::split(n, member, size, b, e);
    for (std::uint32_t v = b; v < e; ++v) {
        const std::int32_t r = row_[v];
        if (r < 0) continue;
        glm::dvec3 sum = mass_[v] * invH2 * glm::dvec3(glm::vec3(s[v]));
        for (std::uint32_t k = layout_.triOffsets[v]; k < layout_.triOffsets[v + 1]; ++k) {
            const std::uint32_t t = layout_.triCorners[k] / 3, c = layout_.triCorners[k] % 3;
            const gpu::PdTriangle& term = tris[t];
            const double wu = double(term.area) * term.stiffness.x * gpu::pdWeightsU(term.invRest)[c];
            const double wv = double(term.area) * term.stiffness.y * gpu::pdWeightsV(term.invRest)[c];
            sum += wu * glm::dvec3(triProjections_[2 * t]) + wv * glm::dvec3(triProjections_[2 * t + 1]);
        }
        for (std::uint32_t k = layout_.bendOffsets[v]; k < layout_.bendOffsets[v + 1]; ++k) {
            const std::uint32_t i = layout_.bendCorners[k] / 4, c = layout_.bendCorners[k] % 4;
            sum += double(bends[i].weight) * bends[i].k[c] * glm::dvec3(bendProjections_[i]);
        }
        if (attachment_[v] > 0.0) sum += attachment_[v] * glm::dvec3(glm::vec3((*targets)[v]));
        for (std::uint32_t k = carriedOffsets_[r]; k < carriedOffsets_[r + 1]; ++k)
            sum -= carriedValue_[k] * glm::dvec3(glm::vec3(y[carriedVertex_[k]]));
        const std::size_t m = freeCount_;
        rhs_[r] = sum.x + pinned_[r];
        rhs_[m + r] = sum.y + pinned_[m + r];
        rhs_[2 * m + r] = sum.z + pinned_[2 * m + r];
    }
    pool.barrier();
    for (int c = member; c < 3; c += size) {
        const Eigen::Map<const Eigen::VectorXd> rhs(rhs_.data() + std::size_t(c) * freeCount_,
                                                    freeCount_);
        const Eigen::VectorXd x = factor_->ldlt.solve(rhs);
        for (std::uint32_t v = 0; v < n; ++v) {
            if (row_[v] >= 0)
                y[v][c] = float(x[row_[v]]);
            else if (mass_[v] == 0.0)
                y[v][c] = pins_[v][c];  // a carried vertex stays at its target
        }
    }
    pool.barrier();
}

double ProjectiveSystem::energy(const std::vector<glm::vec4>& y, const std::vector<glm::vec4>& s,
                                const std::vector<glm::vec4>* targets) const {
    const double invH2 = 1.0 / (double(h_) * double(h_));
    double sum = 0.0;
    for (std::uint32_t v = 0; v < p_.originalVertexCount; ++v) {
        const glm::dvec3 d = glm::dvec3(glm::vec3(y[v])) - glm::dvec3(glm::vec3(s[v]));
        sum += 0.5 * mass_[v] * invH2 * glm::dot(d, d);
    }
    for (const gpu::PdTriangle& t : p_.pdTerms.triangles) {
        const glm::vec3 x0(y[t.v0]), x1(y[t.v1]), x2(y[t.v2]);
        glm::vec3 ru, rv;
        gpu::pdProjectTriangle(x0, x1, x2, t.invRest, t.stiffness, ru, rv);
        const glm::vec3 bu = gpu::pdWeightsU(t.invRest), bv = gpu::pdWeightsV(t.invRest);
        const glm::dvec3 du = glm::dvec3(x0) * double(bu.x) + glm::dvec3(x1) * double(bu.y) +
                              glm::dvec3(x2) * double(bu.z) - glm::dvec3(ru);
        const glm::dvec3 dv = glm::dvec3(x0) * double(bv.x) + glm::dvec3(x1) * double(bv.y) +
                              glm::dvec3(x2) * double(bv.z) - glm::dvec3(rv);
        sum += 0.5 * t.area * (t.stiffness.x * glm::dot(du, du) + t.stiffness.y * glm::dot(dv, dv));
    }
    for (const gpu::PdBend& b : p_.pdTerms.bends) {
        const glm::vec3 x[4] = {glm::vec3(y[b.v0]), glm::vec3(y[b.v1]), glm::vec3(y[b.v2]),
                                glm::vec3(y[b.v3])};
        const glm::vec3 q = gpu::pdProjectBend(x[0], x[1], x[2], x[3], b);
        glm::dvec3 c(0.0);
        for (int i = 0; i < 4; ++i) c += double(b.k[i]) * glm::dvec3(x[i]);
        const glm::dvec3 d = c - glm::dvec3(q);
        sum += 0.5 * b.weight * glm::dot(d, d);
    }
    if (targets)
        for (std::uint32_t v = 0; v < p_.originalVertexCount; ++v)
            if (attachment_[v] > 0.0) {
                const glm::dvec3 d = glm::dvec3(glm::vec3(y[v])) - glm::dvec3(glm::vec3((*targets)[v]));
                sum += 0.5 * attachment_[v] * glm::dot(d, d);
            }
    return sum;
}

namespace {

class ProjectiveSolver final : public Solver {
public:
    ProjectiveSolver(SharedCloth shared, int threads, std::uint32_t verticesPerThread)
        : shared_(std::move(shared)),
          p_(*shared_),
          h_(substepDt(p_.timing)),
          system_(p_.sim.iteration.scheme == IterationScheme::GaussSeidel
                      ? std::make_unique<ProjectiveSystem>(p_, h_)
                      : nullptr),
          jacobi_(system_ ? nullptr : std::make_unique<PdJacobiSystem>(p_)),
          threads_(threads),
          members_(modelTeamSize(p_, threads, verticesPerThread)),
          pool_(threads),
          post_(p_, threads),
          rigid_(p_) {
        const std::uint32_t n = p_.originalVertexCount;
        x_.assign(p_.positions.begin(), p_.positions.begin() + n);
        v_.assign(p_.velocities.begin(), p_.velocities.begin() + n);
        s_ = y_ = x_;
        targets_.assign(n, glm::vec4(0.0f));
        normals_.assign(n, glm::vec4(0.0f, 0.0f, 1.0f, 0.0f));
        vertexNormals(p_, x_, normals_, 0, n);
    }

    const char* backendName() const override { return "cpu"; }
    std::string deviceName() const override { return cpuModelName(); }
    int threadCount() const override { return threads_; }
    int threadsUsed() const override { return members_; }

    void stepFrame() override {
        runModelFrame(pool_, members_, kProjectiveSchedule, p_.sim, p_.timing, time_,
                      p_.sim.iterations, times_,
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
        throw Error("model pd has no XPBD multipliers (the residual metrics are XPBD's)");
    }
    std::vector<StageTime> stageTimes() const override {
        std::vector<StageTime> out;
        for (int i = 0; i < kStageCount; ++i) out.push_back({kStageNames[i], times_[i]});
        return out;
    }
    void setGrab(std::optional<Grab> grab) override {
        checkGrabVertex(grab, p_.originalVertexCount);
        if (grab) throw Error("model pd: the grab is not built for this model yet");
    }
    std::uint32_t contactCount() const override { return post_.contactCount(); }
    std::vector<ModelFigure> modelFigures() const override {
        return {{"iterations", double(p_.sim.iterations)},
                // A merge of seam pairs re-creates the solver, which factors its new system
                // once: the factorizations before it are the merges since the start.
                {"factorizations",
                 system_ ? double(system_->factorizations() + p_.run.sewingRebuilds) : 0.0}};
    }

private:
    // One step of kProjectiveSchedule for one member; false where the scene lacks what it needs.
    bool runStep(int member, int size, const ScheduleEntry& e, const StepContext& c) {
        std::uint32_t b, end;
        ThreadPool::split(p_.originalVertexCount, member, size, b, end);
        const AttachmentTargets& attachments = post_.attachments();
        const std::vector<glm::vec4>* targets = attachments.any() ? &targets_ : nullptr;
        switch (e.step) {
            case Step::Wind:
                if (!p_.sim.wind) return false;
                blowWind(p_, time_ + double(h_) * double(c.substep), x_, v_, b, end);
                return true;
            case Step::Predict: {
                const float t1 = c.start + h_;
                for (std::uint32_t v = b; v < end; ++v) {
                    s_[v] = gpu::pdPredict(x_[v], v_[v], p_.sim.gravity, h_);
                    if (attachments.held(v)) {
                        const glm::vec3 target = attachments.target(v, t1);
                        targets_[v] = glm::vec4(target, 0.0f);
                        if (attachments.carried(v)) s_[v] = glm::vec4(target, x_[v].w);
                    }
                    y_[v] = s_[v];
                }
                if (jacobi_) jacobi_->start(s_, b, end);
                return true;
            }
            case Step::PdLocal:
                if (jacobi_)
                    jacobi_->local(c.iteration, member, size);
                else
                    system_->iterate(pool_, member, size, y_, s_, targets);
                return true;
            case Step::PdGlobal:
                if (!jacobi_) return false;
                jacobi_->global(c.iteration, c.omega, c.gamma, s_, b, end, targets);
                return true;
            case Step::PdResult:
                if (!jacobi_) return false;
                jacobi_->result(p_.sim.iterations, y_, b, end);
                return true;
            default:
                return post_.runStep(e.step, pool_, member, size, c, x_, y_, v_, normals_, rigid_);
        }
    }

    SharedCloth shared_;      // the prepared scene: read, never copied (sim/solver.h)
    const PreparedCloth& p_;  // *shared_
    float h_;
    std::unique_ptr<ProjectiveSystem> system_;  // the direct global step (scheme gs)
    std::unique_ptr<PdJacobiSystem> jacobi_;    // the Jacobi one (jacobi, chebyshev)
    int threads_, members_;
    ThreadPool pool_;
    PostStep post_;
    ModelRigidDamping rigid_;  // Mueller's damping at each substep's end
    std::vector<glm::vec4> x_, v_, s_, y_, normals_;
    std::vector<glm::vec4> targets_;  // per vertex: its attachment's target at the step's end
    std::vector<double> times_ = std::vector<double>(kStageCount, 0.0);
    double time_ = p_.run.time;
};

}  // namespace

std::unique_ptr<Solver> makeProjectiveSolver(SharedCloth prepared, int threads,
                                             std::uint32_t verticesPerThread) {
    if (threads < 1 || threads > 1024)
        throw Error("--threads must be between 1 and 1024, got " + std::to_string(threads));
    if (prepared->sim.model != ClothModel::Projective)
        throw Error("makeProjectiveSolver: the scene's model is " +
                    std::string(clothModelName(prepared->sim.model)));
    refuseWhatTheModelLacks(*prepared, SolverBackend::Cpu);
    return std::make_unique<ProjectiveSolver>(std::move(prepared), threads, verticesPerThread);
}

}  // namespace cloth
