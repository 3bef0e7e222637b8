#include "render/gpu_timer.h"

namespace cloth::render {

GpuTimer::GpuTimer(const vk::Context& ctx, std::vector<std::string> passes, std::string_view name)
    : device_(ctx.device()), passes_(std::move(passes)), periodNs_(ctx.timestampPeriodNs()) {
    if (!ctx.timestamps()) return;
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = static_cast<std::uint32_t>(2 * passes_.size());
    VkQueryPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateQueryPool(device_, &info, nullptr, &pool));
    pool_ = vk::Unique<VkQueryPool>(device_, pool);
    ctx.name(pool, name);
}

void GpuTimer::reset(VkCommandBuffer cmd) {
    if (!enabled()) return;
    vkCmdResetQueryPool(cmd, pool_.get(), 0, static_cast<std::uint32_t>(2 * passes_.size()));
    recorded_ = true;
}

void GpuTimer::begin(VkCommandBuffer cmd, std::uint32_t pass) {
    if (enabled())
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool_.get(), 2 * pass);
}

void GpuTimer::end(VkCommandBuffer cmd, std::uint32_t pass) {
    if (enabled())
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_.get(), 2 * pass + 1);
}

std::vector<PassTime> GpuTimer::read() {
    std::vector<PassTime> out;
    if (!enabled() || !recorded_) return out;
    std::vector<std::uint64_t> ticks(2 * passes_.size());
    const VkResult r =
        vkGetQueryPoolResults(device_, pool_.get(), 0, static_cast<std::uint32_t>(ticks.size()),
                              ticks.size() * sizeof(std::uint64_t), ticks.data(),
                              sizeof(std::uint64_t), VK_QUERY_RESULT_64_BIT);
    if (r == VK_NOT_READY) return out;
    VK_CHECK(r);
    recorded_ = false;  // each recording is read once
    for (std::size_t i = 0; i < passes_.size(); ++i)
        out.push_back({passes_[i], double(ticks[2 * i + 1] - ticks[2 * i]) * periodNs_ * 1e-6});
    return out;
}

}  // namespace cloth::render
