#include "vk/mass_spring_gpu.h"

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/stopwatch.h"
#include "prep/model_damping.h"
#include "prep/solver_data.h"
#include "prep/springs.h"
#include "sim/schedule.h"
#include "sim/mass_spring_solver.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"
#include "prep/model_checks.h"

namespace cloth::vk {

namespace {

struct Push {
    glm::vec4 gravity;
    std::uint32_t job, count, integrator;
    float h, t0, t1, bounceBelow;
    std::uint32_t colliderCount;
    float hMean, ratio;  // adaptive_verlet's (prep/springs.h springStepSize)
    std::uint32_t rigidRuns;  // the damping table's run count (prep/model_damping.h)
    float pad;
    gpu::WindParams wind;
};
static_assert(sizeof(Push) == 96 && offsetof(Push, wind) == 64);
constexpr std::uint32_t kJobForces = 0, kJobStep = 1, kJobTethers = 2, kJobContacts = 3,
                        kJobWind = 4, kJobRigidSums = 5, kJobRigidMotions = 6, kJobRigidDamp = 7;
// forEachRigidDampingPass's passes, job after job.
static_assert(kJobRigidMotions == kJobRigidSums + 1 && kJobRigidDamp == kJobRigidSums + 2);

std::uint32_t integratorCode(Integrator i) {
    switch (i) {
        case Integrator::Explicit:
            return 0;
        case Integrator::Symplectic:
            return 1;
        case Integrator::Verlet:
            return 2;
        case Integrator::AdaptiveVerlet:
            return 3;
    }
    return 1;
}

class GpuMassSpringSolver final : public MassSpringSolverBase {
public:
    GpuMassSpringSolver(SharedCloth shared, const GpuSolverOptions& o)
        : MassSpringSolverBase(std::move(shared)),
          ctx_(o.context ? o.context : std::make_shared<Context>(o.contextOptions)),
          once_(*ctx_, "mass_spring"),
          workgroup_(o.workgroupSize),
          kernel_(*ctx_, "mass_spring.comp", 27, sizeof(Push), o.workgroupSize),
          tables_(modelTables(p_, "the GPU mass-spring solver")) {
        const std::uint32_t n = p_.originalVertexCount;
        const std::vector<glm::vec4> previous =
            springPrevious(p_.positions, p_.velocities, springLastStep(plan_));  // Verlet's
        const SpringIncidence& in = tables_.springs;
        positions_ = filledBuffer(*ctx_, once_, p_.positions, "ms.positions");
        velocities_ = filledBuffer(*ctx_, once_, p_.velocities, "ms.velocities");
        previous_ = filledBuffer(*ctx_, once_, previous, "ms.previous");
        forces_ = filledBuffer(*ctx_, once_, std::vector<glm::vec4>(n), "ms.forces");
        springs_ = filledBuffer(*ctx_, once_, p_.springTerms.springs, "ms.springs");
        offsets_ = filledBuffer(*ctx_, once_, in.offsets, "ms.offsets");
        incident_ = filledBuffer(*ctx_, once_, in.springs, "ms.incident");
        damping_ = filledBuffer(*ctx_, once_, tables_.damping, "ms.damping");
        tethers_ = filledBuffer(*ctx_, once_, p_.tethers, "ms.tethers");
        colliders_ = filledBuffer(*ctx_, once_, p_.colliders, "ms.colliders");
        thickness_ = filledBuffer(*ctx_, once_, tables_.thickness, "ms.thickness");
        std::vector<glm::vec4> start =
            p_.colliders.empty() ? std::vector<glm::vec4>{} : p_.positions;
        for (glm::vec4& x : start) x.w = 0.0f;
        start_ = filledBuffer(*ctx_, once_, start, "ms.start");
        triangles_ = filledBuffer(*ctx_, once_, p_.triangles, "ms.triangles");
        vertexTriOffsets_ =
            filledBuffer(*ctx_, once_, p_.vertexTriangleOffsets, "ms.vertexTriOffsets");
        vertexTriangles_ = filledBuffer(*ctx_, once_, p_.vertexTriangles, "ms.vertexTriangles");
        wind_ = filledBuffer(*ctx_, once_, p_.windVertices, "ms.wind");
        attachmentOf_ = filledBuffer(*ctx_, once_, tables_.attachmentOf, "ms.attachmentOf");
        attachments_ = filledBuffer(*ctx_, once_, p_.attachments, "ms.attachments");
        motions_ = filledBuffer(*ctx_, once_, p_.motions, "ms.motions");
        meshNodes_ = filledBuffer(*ctx_, once_, p_.meshNodes, "ms.meshNodes");
        meshTriangles_ = filledBuffer(*ctx_, once_, p_.meshTriangles, "ms.meshTriangles");
        meshHints_ = filledBuffer(*ctx_, once_, std::vector<std::uint32_t>(n, gpu::MESH_NO_HINT),
                                  "ms.meshHints");
        rigidTable_ = filledBuffer(*ctx_, once_, rigid().entries, "ms.rigidTable");
        rigidSlots_ = filledBuffer(
            *ctx_, once_, std::vector<gpu::RigidSums>(rigid().runCount + rigid().segmentCount),
            "ms.rigidSlots");
        const SpringIncidence& angles = tables_.angles;
        angles_ = filledBuffer(*ctx_, once_, p_.springTerms.angles, "ms.angles");
        angleOffsets_ = filledBuffer(*ctx_, once_, angles.offsets, "ms.angleOffsets");
        angleCorners_ = filledBuffer(*ctx_, once_, angles.springs, "ms.angleCorners");
        kernel_.bind({&positions_, &velocities_, &previous_, &forces_, &springs_, &offsets_,
                      &incident_, &damping_, &tethers_, &colliders_, &thickness_, &start_,
                      &triangles_, &vertexTriOffsets_, &vertexTriangles_, &wind_, &attachmentOf_,
                      &attachments_, &motions_, &meshNodes_, &meshTriangles_, &meshHints_,
                      &rigidTable_, &rigidSlots_, &angles_, &angleOffsets_, &angleCorners_});
        readPositions(x_);
        vertexNormals(p_, x_, normals_, 0, n);
    }
    ~GpuMassSpringSolver() override { vkDeviceWaitIdle(ctx_->device()); }

    const char* backendName() const override { return "gpu"; }
    std::string deviceName() const override { return ctx_->info().name; }
    int threadCount() const override { return 1; }

    void stepFrame() override {
        const auto t0 = std::chrono::steady_clock::now();
        const std::uint32_t n = p_.originalVertexCount;
        const auto tethers = static_cast<std::uint32_t>(p_.tethers.size());
        const auto colliders = static_cast<std::uint32_t>(p_.colliders.size());
        Push push{glm::vec4(p_.sim.gravity, 0.0f), 0, 0,
                  integratorCode(p_.sim.massSpring.integrator), float(plan_.step), 0.0f, 0.0f,
                  springBounceBelow(p_.sim, plan_), colliders, 0.0f, 1.0f, rigid().runCount,
                  0.0f, {}};
        auto run = [&](VkCommandBuffer cb, std::uint32_t job, std::uint32_t count) {
            push.job = job;
            push.count = count;
            kernel_.dispatch(cb, &push, (count + workgroup_ - 1) / workgroup_);
            computeBarrier(cb);
        };
        // One step of kMassSpringSchedule recorded; the Iteration loop's index is the step k of
        // the substep's plan. The normals are computed on the host after the read-back.
        auto record = [&](VkCommandBuffer cb, const ScheduleEntry& e, const StepContext& c) {
            const auto k = std::uint32_t(c.iteration);
            switch (e.step) {
                case Step::Wind:
                    if (!p_.sim.wind) return;
                    push.wind = c.wind;
                    push.h = springLastStep(plan_);  // Verlet's previous positions move by it
                    run(cb, kJobWind, n);
                    return;
                case Step::SpringForces: {
                    push.t0 = springStepTime(time_, plan_, c.substep, k);
                    push.t1 = springStepTime(time_, plan_, c.substep, k + 1);
                    const SpringStepSize size = springStepSize(plan_, k);
                    push.h = size.h;
                    push.hMean = size.hMean;
                    push.ratio = size.ratio;
                    run(cb, kJobForces, n);
                    return;
                }
                case Step::SpringMove: run(cb, kJobStep, n); return;
                case Step::Tethers:
                    if (tethers) run(cb, kJobTethers, tethers);
                    return;
                case Step::Contacts:
                    if (colliders) run(cb, kJobContacts, n);
                    return;
                case Step::Damping:  // at the substep's end (cpu/model_damping.h)
                    if (!rigid().any()) return;
                    push.h = springLastStep(plan_);
                    forEachRigidDampingPass(rigid(), [&](std::uint32_t pass, std::uint32_t count) {
                        run(cb, kJobRigidSums + pass, count);
                    });
                    return;
                case Step::Normals: return;
                default:
                    throw Error("mass_spring on the GPU: step " + std::to_string(int(e.step)) +
                                " is not in its schedule");
            }
        };
        once_.run([&](VkCommandBuffer cb) {
            forEachStep(kMassSpringSchedule, p_.sim, p_.timing, time_, int(plan_.steps),
                        [&](const ScheduleEntry& e, const StepContext& c) { record(cb, e, c); });
        });
        readPositions(x_);
        if (colliders) {
            std::vector<glm::vec4> start(n);
            download(*ctx_, once_, start_, start.data(), start.size() * sizeof(glm::vec4));
            contacts_ = 0;
            for (const glm::vec4& s : start) contacts_ += s.w > 0.0f ? 1u : 0u;
        }
        vertexNormals(p_, x_, normals_, 0, n);
        time_ += double(p_.timing.frameDt);
        frameMs_ = msSince(t0);
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
    // Free vertices in contact with a collider at the frame's last step.
    std::uint32_t contactCount() const override { return contacts_; }
    // The frame's wall time as the moves' stage (no timestamps yet).
    std::vector<StageTime> stageTimes() const override {
        std::vector<StageTime> out;
        for (int i = 0; i < kStageCount; ++i)
            out.push_back({kStageNames[i], i == kStagePredict ? frameMs_ : 0.0});
        return out;
    }

private:
    std::shared_ptr<Context> ctx_;
    OneShot once_;
    std::uint32_t workgroup_;
    ComputeKernel kernel_;
    Buffer positions_, velocities_, previous_, forces_, springs_, offsets_, incident_, damping_,
        tethers_, colliders_, thickness_, start_, triangles_, vertexTriOffsets_, vertexTriangles_,
        wind_, attachmentOf_, attachments_, motions_, meshNodes_, meshTriangles_, meshHints_,
        rigidTable_, rigidSlots_, angles_, angleOffsets_, angleCorners_;
    // p_'s solver data's per-vertex tables and Mueller's runs (prep/solver_data.h).
    const ModelTables& tables_;
    const ModelRigidTable& rigid() const { return tables_.rigid; }
    std::uint32_t contacts_ = 0;
    std::vector<glm::vec4> x_, normals_;
    double time_ = p_.run.time, frameMs_ = 0.0;
};

}  // namespace

std::unique_ptr<Solver> makeGpuMassSpringSolver(SharedCloth prepared,
                                                const GpuSolverOptions& options) {
    if (prepared->sim.model != ClothModel::MassSpring)
        throw Error("makeGpuMassSpringSolver: the scene's model is " +
                    std::string(clothModelName(prepared->sim.model)));
    refuseWhatTheModelLacks(*prepared, SolverBackend::Gpu);
    return std::make_unique<GpuMassSpringSolver>(std::move(prepared), options);
}

}  // namespace cloth::vk
