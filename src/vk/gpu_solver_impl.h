// GpuSolver's state (internal to src/vk/gpu_solver*.cpp), made of parts that each do one job:
// the dispatch policy (vk/device_policy.h), the frame plan (vk/frame_plan.h), the buffers and
// pipelines (vk/solver_resources.h), the recording (vk/recorder.h), submission and read-back
// (vk/frame_sync.h), and the rooms of rigid contacts (vk/rigid_contacts_gpu.h) and
// self-collision (vk/self/self_collision_gpu.h).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "prep/solver_data.h"
#include "sim/schedule.h"
#include "vk/buffer.h"
#include "vk/device_policy.h"
#include "vk/frame_plan.h"
#include "vk/frame_sync.h"
#include "vk/gpu_solver.h"
#include "vk/recorder.h"
#include "vk/rigid_contacts_gpu.h"
#include "vk/self/self_collision_gpu.h"
#include "vk/solver_resources.h"

namespace cloth::vk {

struct GpuSolver::Impl {
    std::shared_ptr<Context> ctx;
    GpuSolverOptions options;
    SimSettings sim;
    FrameTiming timing;
    detail::DispatchPolicy policy;
    // The prepared scene's solver data (prep/solver_data.h), kept for its Jacobi layout: the
    // solver keeps nothing else of the scene.
    std::shared_ptr<const SolverData> data;
    // Jacobi and Chebyshev iterations (null with Gauss-Seidel): where each type's deltas and
    // previous multipliers start (data's layout).
    const JacobiLayout* jacobi = nullptr;
    detail::ChunkTable chunks;
    OneShot once;
    detail::SolverBuffers buffers;
    detail::SolverPipelines pipelines;
    detail::FramePlan plan;
    detail::Recorder rec;
    detail::FrameSync sync;
    detail::ReadBack readback;

    // Colliders (null without): their passes; they unfuse the prediction from the velocities.
    std::unique_ptr<detail::GpuRigidContacts> rigid;
    // Self-collision (null without): its passes, and the state at each frame's start
    // (positions, velocities; contact states in `rigid`) for a redo after its buffers overflowed.
    std::unique_ptr<GpuSelfCollision> self;
    Buffer snapPositions, snapVelocities;
    double frameStartTime = 0.0;

    std::optional<Grab> grab;
    std::optional<std::uint32_t> grabGroup;  // phantom group whose original is grabbed
    double time = 0.0;
    std::uint64_t frameIndex = 0;
    // This stepFrame()'s submissions, host waits, redone frames and recordings (FrameCounters).
    std::uint32_t submissions = 0, hostWaits = 0, redone = 0, recordings = 0;
    std::uint64_t recordedFrames = 0;  // recordings since the solver began
    // What the frame's recorded commands depend on besides the scene and the options: a frame
    // with the same key submits the command buffer again (a grab records every frame: its
    // target is a push constant).
    struct RecordingKey {
        bool timed = false;  // timestamps written (options.timestampInterval)
        bool keepMultipliers = false;
        GpuSelfCollision::RecordingKey self{};
        bool operator==(const RecordingKey&) const = default;
    };
    std::optional<RecordingKey> recorded;  // what the command buffer holds (none: nothing yet)
    bool keepMultipliers = false;  // GpuSolver::keepMultipliers

    Impl(const PreparedCloth& p, const GpuSolverOptions& o);
    bool timestamps() const { return options.timestampInterval > 0 && ctx->timestamps(); }
    detail::DispatchProfiler& profiler() { return rec.profiler(); }

    // Recording (gpu_solver.cpp).
    void writeClock();
    void recordFrame();
    void recordStep(const ScheduleEntry& e, const StepContext& c);
    void recordColors(const gpu::SolveParams& sp, std::uint32_t lambda, const StepContext& c);
    void recordColor(const gpu::SolveParams& sp, std::uint32_t lambda, std::uint32_t c);
    // fault: FAULT_MISSING_BARRIER for clothcheck --inject missing-barrier, else the policy's.
    void recordColorRun(const gpu::SolveParams& sp, std::uint32_t lambda, std::uint32_t begin,
                        std::uint32_t end, std::uint32_t fault = 0);
    void recordJacobi(const StepContext& c);
    void recordAttachments(const gpu::SolveParams& sp, std::uint32_t lambda, int substep);
    void recordPhantomsAndGrab(const gpu::SolveParams& sp);
    void recordDamping(std::uint32_t stage, std::uint32_t predictNext, float dt);
    void vertexPass(std::uint32_t stages, float dt);
    void recordSnapshot();
    void redoFrame();
    void submit();
    void wait();

    // Reading back (gpu_solver_reads.cpp): several buffers' first bytes, one submission.
    void readMany(const std::vector<detail::BufferRead>& reads);
    void readBuffer(int binding, std::size_t bytes, std::vector<glm::vec4>& out);
};

}  // namespace cloth::vk
