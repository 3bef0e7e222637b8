#include "vk/recorder.h"

namespace cloth::vk::detail {

void Recorder::begin(VkCommandBuffer cb) {
    cb_ = cb;
    counters_ = {};
    forgetBindings();
}

void Recorder::barrier() {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
    ++counters_.barriers;
    needBarrier_ = false;
}

void Recorder::dispatchBytes(PipelineRef pipeline, const void* push, std::uint32_t bytes,
                             std::uint32_t groups, std::uint32_t stages) {
    if (groups == 0) return;
    if (needBarrier_) barrier();
    if (pipeline.pipeline != bound_) {
        vkCmdBindPipeline(cb_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
        bound_ = pipeline.pipeline;
    }
    // The two layouts share set 0 only: switching kinds re-binds the sets the new one uses.
    if (boundSets_ != pipeline.kind) {
        pipelines_->bindSets(cb_, pipeline.kind);
        boundSets_ = pipeline.kind;
    }
    vkCmdPushConstants(cb_, pipelines_->layout(pipeline.kind), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       bytes, push);
    vkCmdDispatch(cb_, groups, 1, 1);
    ++counters_.dispatches;
    profiler_.afterDispatch(cb_, stages);
    needBarrier_ = true;
}

}  // namespace cloth::vk::detail
