#include "vk/pd_jacobi_gpu.h"

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/stopwatch.h"
#include "prep/model_damping.h"
#include "prep/pd_jacobi.h"
#include "prep/solver_data.h"
#include "prep/projective.h"
#include "prep/springs.h"
#include "sim/schedule.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"
#include "prep/model_checks.h"

namespace cloth::vk {

namespace {

struct Push {
    glm::vec4 gravity;
    std::uint32_t job, count, cur, prev, next;
    float h, omega, gamma, t0, t1, bounceBelow;
    std::uint32_t colliderCount;
    gpu::WindParams wind;
    std::uint32_t rigidRuns;  // the damping table's run count (prep/model_damping.h)
    std::uint32_t pad[3];
};
static_assert(sizeof(Push) == 112 && offsetof(Push, rigidRuns) == 96);
constexpr std::uint32_t kJobPredict = 0, kJobProjectTri = 1, kJobProjectBend = 2, kJobSweep = 3,
                        kJobTethers = 4, kJobFinish = 5, kJobWind = 6, kJobRigidSums = 7,
                        kJobRigidMotions = 8, kJobRigidDamp = 9;
// forEachRigidDampingPass's passes, job after job.
static_assert(kJobRigidMotions == kJobRigidSums + 1 && kJobRigidDamp == kJobRigidSums + 2);
constexpr std::uint32_t kBuffers = 31;

class GpuProjectiveSolver final : public Solver {
  public:
    GpuProjectiveSolver(SharedCloth shared, const GpuSolverOptions& o)
        : shared_(std::move(shared)),
          p_(*shared_),
          h_(substepDt(p_.timing)),
          ctx_(o.context ? o.context : std::make_shared<Context>(o.contextOptions)),
          once_(*ctx_, "pd"),
          workgroup_(o.workgroupSize),
          kernel_(*ctx_, "pd_jacobi.comp", kBuffers, sizeof(Push), o.workgroupSize),
          tables_(modelTables(p_, "the GPU projective dynamics solver")) {
        const std::uint32_t n = p_.originalVertexCount;
        const PdJacobiLayout& l = pdLayout(p_, "the GPU projective dynamics solver");
        const std::vector<glm::vec4> x(p_.positions.begin(), p_.positions.begin() + n);
        const std::vector<glm::vec4> v(p_.velocities.begin(), p_.velocities.begin() + n);
        positions_ = filledBuffer(*ctx_, once_, x, "pd.positions");
        velocities_ = filledBuffer(*ctx_, once_, v, "pd.velocities");
        predicted_ = filledBuffer(*ctx_, once_, std::vector<glm::vec4>(n), "pd.predicted");
        iterates_ = filledBuffer(*ctx_, once_, std::vector<glm::vec4>(3 * std::size_t(n)), "pd.iterates");
        vertices_ = filledBuffer(*ctx_, once_, l.vertices, "pd.vertices");
        triangles_ = filledBuffer(*ctx_, once_, p_.pdTerms.triangles, "pd.triangles");
        bends_ = filledBuffer(*ctx_, once_, p_.pdTerms.bends, "pd.bends");
        triProjections_ =
            filledBuffer(*ctx_, once_, std::vector<glm::vec4>(2 * p_.pdTerms.triangles.size()),
                         "pd.triProjections");
        bendProjections_ = filledBuffer(
            *ctx_, once_, std::vector<glm::vec4>(p_.pdTerms.bends.size()), "pd.bendProjections");
        triOffsets_ = filledBuffer(*ctx_, once_, l.triOffsets, "pd.triOffsets");
        triCorners_ = filledBuffer(*ctx_, once_, l.triCorners, "pd.triCorners");
        bendOffsets_ = filledBuffer(*ctx_, once_, l.bendOffsets, "pd.bendOffsets");
        bendCorners_ = filledBuffer(*ctx_, once_, l.bendCorners, "pd.bendCorners");
        tethers_ = filledBuffer(*ctx_, once_, p_.tethers, "pd.tethers");
        colliders_ = filledBuffer(*ctx_, once_, p_.colliders, "pd.colliders");
        thickness_ = filledBuffer(*ctx_, once_, tables_.thickness, "pd.thickness");
        damping_ = filledBuffer(*ctx_, once_, tables_.damping, "pd.damping");
        contact_ = filledBuffer(*ctx_, once_, std::vector<std::uint32_t>(n, 0u), "pd.contact");
        targets_ = filledBuffer(*ctx_, once_, std::vector<glm::vec4>(n), "pd.targets");
        attachmentOf_ = filledBuffer(*ctx_, once_, tables_.attachmentOf, "pd.attachmentOf");
        attachments_ = filledBuffer(*ctx_, once_, p_.attachments, "pd.attachments");
        motions_ = filledBuffer(*ctx_, once_, p_.motions, "pd.motions");
        meshTriangles_ = filledBuffer(*ctx_, once_, p_.triangles, "pd.meshTriangles");
        vertexTriOffsets_ =
            filledBuffer(*ctx_, once_, p_.vertexTriangleOffsets, "pd.vertexTriOffsets");
        vertexTriangles_ = filledBuffer(*ctx_, once_, p_.vertexTriangles, "pd.vertexTriangles");
        wind_ = filledBuffer(*ctx_, once_, p_.windVertices, "pd.wind");
        colliderNodes_ = filledBuffer(*ctx_, once_, p_.meshNodes, "pd.colliderNodes");
        colliderTriangles_ = filledBuffer(*ctx_, once_, p_.meshTriangles, "pd.colliderTriangles");
        meshHints_ = filledBuffer(*ctx_, once_, std::vector<std::uint32_t>(n, gpu::MESH_NO_HINT),
                                  "pd.meshHints");
        rigidTable_ = filledBuffer(*ctx_, once_, rigid().entries, "pd.rigidTable");
        rigidSlots_ = filledBuffer(
            *ctx_, once_, std::vector<gpu::RigidSums>(rigid().runCount + rigid().segmentCount),
            "pd.rigidSlots");
        kernel_.bind({&positions_, &velocities_, &predicted_, &iterates_, &vertices_, &triangles_,
                      &bends_, &triProjections_, &bendProjections_, &triOffsets_, &triCorners_,
                      &bendOffsets_, &bendCorners_, &tethers_, &colliders_, &thickness_, &damping_,
                      &contact_, &targets_, &attachmentOf_, &attachments_, &motions_,
                      &meshTriangles_, &vertexTriOffsets_, &vertexTriangles_, &wind_,
                      &colliderNodes_, &colliderTriangles_, &meshHints_, &rigidTable_,
                      &rigidSlots_});
        x_ = x;
        vertexNormals(p_, x_, normals_, 0, n);
    }
    ~GpuProjectiveSolver() override { vkDeviceWaitIdle(ctx_->device()); }

    const char* backendName() const override { return "gpu"; }
    std::string deviceName() const override { return ctx_->info().name; }
    int threadCount() const override { return 1; }

    void stepFrame() override {
        const auto start = std::chrono::steady_clock::now();
        const std::uint32_t n = p_.originalVertexCount;
        const auto tris = std::uint32_t(p_.pdTerms.triangles.size());
        const auto bends = std::uint32_t(p_.pdTerms.bends.size());
        const auto tethers = std::uint32_t(p_.tethers.size());
        const IterationSettings& it = p_.sim.iteration;
        Push push{glm::vec4(p_.sim.gravity, 0.0f),
                  0,
                  0,
                  0,
                  0,
                  0,
                  h_,
                  1.0f,
                  it.relaxation,
                  0.0f,
                  0.0f,
                  restitutionThreshold(p_.sim, p_.timing),
                  std::uint32_t(p_.colliders.size()),
                  {},
                  rigid().runCount,
                  {}};
        auto run = [&](VkCommandBuffer cb, std::uint32_t job, std::uint32_t count) {
            if (count == 0) return;
            push.job = job;
            push.count = count;
            kernel_.dispatch(cb, &push, (count + workgroup_ - 1) / workgroup_);
            computeBarrier(cb);
        };
        auto base = [&](int k) { return std::uint32_t(((k % 3) + 3) % 3) * n; };
        // One step of kProjectiveSchedule recorded (three iterates rotate: x^(k+1) overwrites
        // x^(k-1)). The normals are computed on the host after the read-back.
        auto record = [&](VkCommandBuffer cb, const ScheduleEntry& e, const StepContext& c) {
            const int k = c.iteration;
            switch (e.step) {
                case Step::Wind:
                    if (!p_.sim.wind) return;
                    push.wind = c.wind;
                    run(cb, kJobWind, n);
                    return;
                case Step::Predict:
                    push.t0 = c.start;
                    push.t1 = push.t0 + h_;
                    push.cur = base(0), push.prev = base(2);
                    run(cb, kJobPredict, n);
                    return;
                case Step::PdLocal:
                    push.cur = base(k), push.prev = base(k - 1), push.next = base(k + 1);
                    run(cb, kJobProjectTri, tris);
                    run(cb, kJobProjectBend, bends);
                    return;
                case Step::PdGlobal:
                    push.omega = c.omega;
                    run(cb, kJobSweep, n);
                    return;
                case Step::PdResult: push.cur = base(p_.sim.iterations); return;
                case Step::Tethers: run(cb, kJobTethers, tethers); return;
                case Step::Velocities: run(cb, kJobFinish, n); return;
                case Step::Damping:  // at the substep's end (cpu/model_damping.h)
                    if (!rigid().any()) return;
                    forEachRigidDampingPass(rigid(), [&](std::uint32_t pass, std::uint32_t count) {
                        run(cb, kJobRigidSums + pass, count);
                    });
                    return;
                case Step::Normals: return;
                default:
                    throw Error("model pd on the GPU: step " + std::to_string(int(e.step)) +
                                " is not in its schedule");
            }
        };
        once_.run([&](VkCommandBuffer cb) {
            forEachStep(kProjectiveSchedule, p_.sim, p_.timing, time_, p_.sim.iterations,
                        [&](const ScheduleEntry& e, const StepContext& c) { record(cb, e, c); });
        });
        readPositions(x_);
        std::vector<std::uint32_t> contact(n);
        download(*ctx_, once_, contact_, contact.data(), contact.size() * sizeof(std::uint32_t));
        contacts_ = 0;
        for (std::uint32_t c : contact) contacts_ += c;
        vertexNormals(p_, x_, normals_, 0, n);
        time_ += double(p_.timing.frameDt);
        frameMs_ = msSince(start);
    }
    double simTime() const override { return time_; }

    void readPositions(std::vector<glm::vec4>& out) override {
        out.resize(p_.originalVertexCount);
        download(*ctx_, once_, positions_, out.data(), out.size() * sizeof(glm::vec4));
    }
    void readVelocities(std::vector<glm::vec4>& out) override {
        out.resize(p_.originalVertexCount);
        download(*ctx_, once_, velocities_, out.data(), out.size() * sizeof(glm::vec4));
    }
    void readNormals(std::vector<glm::vec4>& out) override { out = normals_; }
    void keepMultipliers(bool) override {}
    void readMultipliers(std::size_t, std::vector<glm::vec4>&) override {
        throw Error("model pd has no XPBD multipliers (the residual metrics are XPBD's)");
    }
    void setGrab(std::optional<Grab> grab) override {
        checkGrabVertex(grab, p_.originalVertexCount);
        if (grab) throw Error("model pd: the grab is not built for this model yet");
    }
    // Free vertices in contact with a collider at the frame's last step.
    std::uint32_t contactCount() const override { return contacts_; }
    // The frame's wall time as the local/global iterations' stage (no timestamps yet).
    std::vector<StageTime> stageTimes() const override {
        std::vector<StageTime> out;
        for (int i = 0; i < kStageCount; ++i)
            out.push_back({kStageNames[i], i == kStageJacobiSums ? frameMs_ : 0.0});
        return out;
    }
    std::vector<ModelFigure> modelFigures() const override {
        return {{"iterations", double(p_.sim.iterations)}, {"factorizations", 0.0}};
    }

  private:
    SharedCloth shared_;      // the prepared scene: read, never copied (sim/solver.h)
    const PreparedCloth& p_;  // *shared_
    float h_;
    std::shared_ptr<Context> ctx_;
    OneShot once_;
    std::uint32_t workgroup_;
    ComputeKernel kernel_;
    Buffer positions_, velocities_, predicted_, iterates_, vertices_, triangles_, bends_,
        triProjections_, bendProjections_, triOffsets_, triCorners_, bendOffsets_, bendCorners_,
        tethers_, colliders_, thickness_, damping_, contact_, targets_, attachmentOf_, attachments_,
        motions_, meshTriangles_, vertexTriOffsets_, vertexTriangles_, wind_, colliderNodes_,
        colliderTriangles_, meshHints_, rigidTable_, rigidSlots_;
    // p_'s solver data's per-vertex tables and Mueller's runs (prep/solver_data.h).
    const ModelTables& tables_;
    const ModelRigidTable& rigid() const { return tables_.rigid; }
    std::uint32_t contacts_ = 0;
    std::vector<glm::vec4> x_, normals_;
    double time_ = p_.run.time, frameMs_ = 0.0;
};

}  // namespace

std::unique_ptr<Solver> makeGpuProjectiveSolver(SharedCloth prepared,
                                                const GpuSolverOptions& options) {
    if (prepared->sim.model != ClothModel::Projective)
        throw Error("makeGpuProjectiveSolver: the scene's model is " +
                    std::string(clothModelName(prepared->sim.model)));
    refuseWhatTheModelLacks(*prepared, SolverBackend::Gpu);
    if (prepared->sim.iteration.scheme == IterationScheme::GaussSeidel)
        throw Error(
            "model pd on the GPU runs the Jacobi global step only: give --iteration "
            "jacobi or chebyshev (the direct LDLT step, iteration gs, runs on the CPU: "
            "--backend cpu)");
    return std::make_unique<GpuProjectiveSolver>(std::move(prepared), options);
}

}  // namespace cloth::vk
