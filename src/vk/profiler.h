// Profiling of the GPU solver: a timestamp after every dispatch of a timed frame, turned into
// milliseconds per stage (kStageNames; a dispatch serving several stages splits its time
// evenly) and per group of dispatches that serve the same stages.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/solver.h"
#include "vk/context.h"
#include "vk/handle.h"

namespace cloth::vk::detail {

// "distance+bending" for a mask of stage bits (bit i = kStageNames[i]), in kStageNames order.
std::string stageLabel(std::uint32_t bits);

class DispatchProfiler {
  public:
    DispatchProfiler() = default;
    // Room for `capacity` timestamps per frame: the dispatches of a frame plus one.
    DispatchProfiler(const Context& ctx, std::uint32_t capacity);
    bool enabled() const { return static_cast<bool>(pool_); }

    // Starts a frame's list of dispatches; a timed frame also resets the queries and writes
    // the starting timestamp.
    void beginFrame(VkCommandBuffer cb, bool timed);
    // After each dispatch: the stages it served, and its end timestamp in a timed frame.
    void afterDispatch(VkCommandBuffer cb, std::uint32_t stages);
    void submitted() { pending_ = timed_; }
    // After the frame's fence: reads the timestamps of a timed frame (otherwise keeps the last).
    void collect();

    const std::vector<double>& stageMs() const { return stageMs_; }  // by kStageNames
    const std::vector<StageTime>& groups() const { return groups_; }

  private:
    const Context* ctx_ = nullptr;
    Unique<VkQueryPool> pool_;
    std::uint32_t capacity_ = 0;
    std::vector<std::uint32_t> dispatchStages_;  // stage bits of each dispatch of the frame
    std::vector<StageTime> groups_;
    std::vector<double> stageMs_ = std::vector<double>(kStageCount, 0.0);
    bool timed_ = false;
    bool pending_ = false;
};

}  // namespace cloth::vk::detail
