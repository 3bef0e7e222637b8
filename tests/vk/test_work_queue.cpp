// Work whose size the GPU decides (src/vk/work_queue.h): a kernel appends a data-dependent
// number of items, a second one is dispatched indirectly over them. With a queue far too small
// the overflow is counted, the buffer grows and the redone work matches a brute-force count on
// the CPU exactly; nothing is stored past the capacity before that.
#include <bit>
#include <cstring>
#include <numeric>

#include "gpu_test.h"
#include "vk/compute_kernel.h"
#include "vk/work_queue.h"

using namespace cloth;

namespace {

// What test_work_emit.comp appends for input i: (i, k) for k < itemsOf(i).
std::uint32_t itemsOf(std::uint32_t i, std::uint32_t seed) {
    return (i * 7u + seed) % 5u;
}

struct QueuePush {
    std::uint32_t inputs;
    std::uint32_t seed;
};

class WorkQueueTest : public test::GpuTest {
  protected:
    // One pass: reset, append, arguments, indirect consume, read the per-input (hits, sum).
    std::vector<glm::uvec2> runOnce(vk::WorkQueue& q, QueuePush push) {
        const std::uint32_t n = std::max(1u, push.inputs);
        vk::Buffer hits = vk::deviceBuffer(*ctx_, 8 * n, "hits");
        vk::Buffer readback = vk::stagingBuffer(*ctx_, 8 * n, "hits read-back");
        vk::ComputeKernel emit(*ctx_, "test_work_emit.comp", 2, sizeof(QueuePush));
        vk::ComputeKernel consume(*ctx_, "test_work_consume.comp", 3, 0, 64);
        emit.bind({&q.counter(), &q.items()});
        consume.bind({&q.counter(), &q.items(), &hits});
        vk::OneShot once(*ctx_, "work queue test");
        once.run([&](VkCommandBuffer cb) {
            q.recordReset(cb);
            vkCmdFillBuffer(cb, hits.get(), 0, VK_WHOLE_SIZE, 0);
            vk::computeBarrier(cb);
            emit.dispatch(cb, &push, (push.inputs + 63) / 64);
            vk::computeBarrier(cb);
            q.recordArgs(cb);
            vk::computeBarrier(cb);
            q.dispatchIndirect(cb, consume, nullptr);
            vk::computeBarrier(cb);
            VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
            mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
            vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                 VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
            VkBufferCopy copy{0, 0, 8 * n};
            vkCmdCopyBuffer(cb, hits.get(), readback.get(), 1, &copy);
            VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
            host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
            vkCmdPipelineBarrier(
                cb, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
        });
        std::vector<glm::uvec2> out(push.inputs);
        if (push.inputs) std::memcpy(out.data(), readback.mapped(), 8 * push.inputs);
        return out;
    }
};

}  // namespace

TEST_F(WorkQueueTest, OverflowIsCountedGrownAndRedoneToTheBruteForceResult) {
    const QueuePush push{1000u, 3u};
    std::uint32_t total = 0;
    for (std::uint32_t i = 0; i < push.inputs; ++i) total += itemsOf(i, push.seed);
    ASSERT_GT(total, 1000u);

    vk::WorkQueue q(*ctx_, "test queue", 8, 16, 64);
    std::vector<glm::uvec2> hits = runOnce(q, push);
    // Too small: every append counted, only `capacity` items stored and consumed.
    EXPECT_EQ(q.appended(), total);
    std::uint32_t consumed = 0;
    for (const auto& h : hits) consumed += h.x;
    EXPECT_EQ(consumed, 16u);

    int redone = 0;
    while (q.growIfOverflowed()) {
        ASSERT_LT(++redone, 3) << "growth must fit every append at once";
        hits = runOnce(q, push);
    }
    EXPECT_EQ(redone, 1);
    EXPECT_EQ(q.overflows(), 1u);
    EXPECT_GE(q.capacity(), total);
    EXPECT_EQ(q.capacity(), std::bit_ceil(total));
    EXPECT_EQ(q.appended(), total);
    for (std::uint32_t i = 0; i < push.inputs; ++i) {
        const std::uint32_t n = itemsOf(i, push.seed);
        ASSERT_EQ(hits[i].x, n) << "input " << i;
        ASSERT_EQ(hits[i].y, n * (n - (n > 0 ? 1 : 0)) / 2) << "input " << i;
    }
}

TEST_F(WorkQueueTest, NoItemsMeansAnEmptyIndirectDispatch) {
    vk::WorkQueue q(*ctx_, "empty queue", 8, 4, 64);
    runOnce(q, QueuePush{0u, 0u});
    EXPECT_EQ(q.appended(), 0u);
    EXPECT_FALSE(q.growIfOverflowed());
    EXPECT_EQ(q.overflows(), 0u);
}

TEST_F(WorkQueueTest, ExactFitDoesNotGrow) {
    const QueuePush push{10u, 1u};
    std::uint32_t total = 0;
    for (std::uint32_t i = 0; i < push.inputs; ++i) total += itemsOf(i, push.seed);
    vk::WorkQueue q(*ctx_, "exact queue", 8, total, 64);
    const auto hits = runOnce(q, push);
    EXPECT_EQ(q.appended(), total);
    EXPECT_FALSE(q.growIfOverflowed());
    for (std::uint32_t i = 0; i < push.inputs; ++i) EXPECT_EQ(hits[i].x, itemsOf(i, push.seed));
}
