#include "vk/profiler.h"

#include <algorithm>
#include <bit>

#include "core/error.h"
#include "vk/check.h"

namespace cloth::vk::detail {

static_assert(kStageCount <= 32, "stage masks are 32-bit");

std::string stageLabel(std::uint32_t bits) {
    std::string label;
    for (int i = 0; i < kStageCount; ++i)
        if (bits & (1u << i)) {
            if (!label.empty()) label += '+';
            label += kStageNames[i];
        }
    return label;
}

DispatchProfiler::DispatchProfiler(const Context& ctx, std::uint32_t capacity)
    : ctx_(&ctx), capacity_(capacity) {
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = capacity;
    VkQueryPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateQueryPool(ctx.device(), &info, nullptr, &pool));
    pool_ = Unique<VkQueryPool>(ctx.device(), pool);
    ctx.name(pool, "solver stage timestamps");
}

void DispatchProfiler::beginFrame(VkCommandBuffer cb, bool timed) {
    dispatchStages_.clear();
    timed_ = timed && enabled();
    if (!timed_) return;
    vkCmdResetQueryPool(cb, pool_.get(), 0, capacity_);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, pool_.get(), 0);
}

void DispatchProfiler::afterDispatch(VkCommandBuffer cb, std::uint32_t stages) {
    dispatchStages_.push_back(stages);
    if (!timed_) return;
    CLOTH_ASSERT(dispatchStages_.size() < capacity_);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, pool_.get(),
                        static_cast<std::uint32_t>(dispatchStages_.size()));
}

void DispatchProfiler::collect() {
    if (!pending_) return;
    pending_ = false;
    auto n = static_cast<std::uint32_t>(dispatchStages_.size()) + 1;
    std::vector<std::uint64_t> ticks(n);
    VK_CHECK(vkGetQueryPoolResults(ctx_->device(), pool_.get(), 0, n, n * sizeof(std::uint64_t),
                                   ticks.data(), sizeof(std::uint64_t),
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    const double msPerTick = ctx_->timestampPeriodNs() * 1e-6;
    const std::uint32_t bits = ctx_->timestampValidBits();
    const std::uint64_t valid = bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
    std::vector<std::uint32_t> order;  // distinct stage masks, in first-seen order
    std::vector<double> ms;
    std::fill(stageMs_.begin(), stageMs_.end(), 0.0);
    for (std::uint32_t i = 0; i + 1 < n; ++i) {
        const std::uint32_t mask = dispatchStages_[i];
        const double t = static_cast<double>((ticks[i + 1] - ticks[i]) & valid) * msPerTick;
        auto it = std::find(order.begin(), order.end(), mask);
        if (it == order.end()) {
            order.push_back(mask);
            ms.push_back(0.0);
            it = order.end() - 1;
        }
        ms[static_cast<std::size_t>(it - order.begin())] += t;
        for (int stage = 0; stage < kStageCount; ++stage)
            if (mask & (1u << stage)) stageMs_[stage] += t / std::popcount(mask);
    }
    groups_.clear();
    for (std::size_t k = 0; k < order.size(); ++k) groups_.push_back({stageLabel(order[k]), ms[k]});
}

}  // namespace cloth::vk::detail
