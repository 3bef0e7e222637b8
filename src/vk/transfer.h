// Copies between whole device buffers and the barrier around them, for the solver's snapshots.
#pragma once

#include "vk/buffer.h"

namespace cloth::vk::detail {

// `from` copied over the start of `to` (its size).
inline void copyWholeBuffer(VkCommandBuffer cb, const Buffer& from, const Buffer& to) {
    const VkBufferCopy copy{0, 0, from.size()};
    vkCmdCopyBuffer(cb, from.get(), to.get(), 1, &copy);
}

// Between shader work and copies, both ways.
inline void transferBarrier(VkCommandBuffer cb) {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                       VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    const VkPipelineStageFlags stages =
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    vkCmdPipelineBarrier(cb, stages, stages, 0, 1, &mb, 0, nullptr, 0, nullptr);
}

}  // namespace cloth::vk::detail
