// The recording of the GPU solver's frame (internal to GpuSolver): dispatches with their push
// constants, the pipeline and descriptor sets bound only when they change, a barrier before a
// dispatch whenever the one before it wrote, the frame's counters and per-dispatch timestamps.
#pragma once

#include <cstdint>
#include <optional>

#include "vk/gpu_solver_options.h"
#include "vk/profiler.h"
#include "vk/solver_resources.h"

namespace cloth::vk::detail {

class Recorder {
  public:
    explicit Recorder(SolverPipelines& pipelines) : pipelines_(&pipelines) {}

    // A new command buffer being recorded: nothing bound, the counters at zero.
    void begin(VkCommandBuffer cb);
    void end() { cb_ = VK_NULL_HANDLE; }
    VkCommandBuffer cb() const { return cb_; }

    // `groups` workgroups of `pipeline` (none: nothing recorded); `stages`: the stage bits the
    // profiler files its time under.
    template <typename Push>
    void dispatch(PipelineRef pipeline, const Push& push, std::uint32_t groups,
                  std::uint32_t stages) {
        dispatchBytes(pipeline, &push, sizeof(Push), groups, stages);
    }
    // A compute-to-compute memory barrier now.
    void barrier();
    // Work recorded by another room (self-collision binds its own pipelines and sets, and ends
    // with a barrier): a pending barrier first, then nothing is taken as bound.
    template <typename F>
    void foreign(F&& record) {
        if (needBarrier_) barrier();
        record();
        bound_ = VK_NULL_HANDLE;
        boundSets_.reset();
        needBarrier_ = false;
    }
    // Barriers recorded directly into cb() (transfers), for the counters.
    void countBarriers(std::uint32_t n) { counters_.barriers += n; }
    // After direct recording into cb(): nothing is taken as bound or pending.
    void forgetBindings() {
        bound_ = VK_NULL_HANDLE;
        boundSets_.reset();
        needBarrier_ = false;
    }

    const FrameCounters& counters() const { return counters_; }
    DispatchProfiler& profiler() { return profiler_; }
    const DispatchProfiler& profiler() const { return profiler_; }

  private:
    void dispatchBytes(PipelineRef pipeline, const void* push, std::uint32_t bytes,
                       std::uint32_t groups, std::uint32_t stages);

    SolverPipelines* pipelines_;
    DispatchProfiler profiler_;  // timestamps per dispatch (when the device has them)
    VkCommandBuffer cb_ = VK_NULL_HANDLE;
    VkPipeline bound_ = VK_NULL_HANDLE;
    std::optional<LayoutKind> boundSets_;  // the layout the bound descriptor sets were bound with
    bool needBarrier_ = false;
    FrameCounters counters_;
};

}  // namespace cloth::vk::detail
