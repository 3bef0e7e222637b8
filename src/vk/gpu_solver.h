// The Vulkan compute solver: the CPU reference's stages (sim/solver.h) over the same
// PreparedCloth arrays, as GLSL compute shaders. All substeps of a frame are recorded into one
// command buffer, submitted again for later frames while the commands stay the same (the times
// are in a clock buffer); only positions are read back, and only when asked.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "prep/prepared.h"
#include "sim/solver.h"
#include "vk/context.h"
#include "vk/gpu_solver_options.h"

namespace cloth::vk {

class GpuSolver : public Solver {
  public:
    GpuSolver(const PreparedCloth& prepared, const GpuSolverOptions& options);
    ~GpuSolver() override;

    const char* backendName() const override { return "gpu"; }
    std::string deviceName() const override;
    int threadCount() const override { return 1; }

    void stepFrame() override;
    double simTime() const override;

    void readPositions(std::vector<glm::vec4>& out) override;
    void readVelocities(std::vector<glm::vec4>& out) override;
    void readNormals(std::vector<glm::vec4>& out) override;
    void keepMultipliers(bool keep) override;
    void readMultipliers(std::size_t type, std::vector<glm::vec4>& out) override;
    void readState(std::vector<glm::vec4>& positions, std::vector<glm::vec4>& velocities,
                   std::vector<glm::vec4>* multipliers) override;

    bool restart(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities,
                 double time) override;

    // GPU milliseconds per stage of the last timed frame, in kStageNames order. A dispatch that
    // runs several stages (see dispatchGroupTimes) is shared evenly between them: for exact
    // per-stage figures use ColorBatching::PerType and fuseStages = false. All zero when the queue
    // has no timestamps or they are off.
    std::vector<StageTime> stageTimes() const override;
    // The same frame by dispatch group, as run: fused groups under joined names
    // ("distance+bending", "predict+velocities"), single stages by their own name.
    std::vector<StageTime> dispatchGroupTimes() const;

    void setGrab(std::optional<Grab> grab) override;
    std::uint32_t contactCount() const override;
    SelfCounts selfCounts() const override;
    // Self-collision: the candidates the buffers hold now, and how often they grew (each time
    // the frame was redone).
    std::uint32_t selfContactCapacity() const;
    std::uint64_t selfGrowths() const;
    // Frames whose command buffer was recorded, since the solver began (the others submitted an
    // earlier frame's commands again; FrameCounters::recordings is the last frame's).
    std::uint64_t recordedFrames() const;
    // frames_recorded (recordedFrames) and frames_redone (selfGrowths).
    std::vector<ModelFigure> backendFigures() const override;

    // ---- Vulkan specifics ----
    const std::shared_ptr<Context>& context() const;
    SharedBuffers sharedBuffers() const;
    FrameCounters counters() const;
    std::uint32_t workgroupSize() const;
    std::uint32_t itemsPerInvocation() const;
    bool colorTypesTogether() const;
    std::uint32_t colorRunItems() const;  // the resolved GpuSolverOptions::colorRunItems
    std::uint32_t colorRunWorkgroupSize() const;  // ... and colorRunWorkgroupSize
    bool wideMemoryAccess() const;
    // Waits for the last submitted frame (no-op when none is in flight).
    void sync();
    // For a reader on the same queue: makes this solver's compute writes visible to `dstStage`.
    static void recordReadBarrier(VkCommandBuffer cmd, VkPipelineStageFlags dstStage,
                                  VkAccessFlags dstAccess);

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace cloth::vk
