// The compute kernels of GpuSelfCollision (one per shader of shaders/self_*.comp; FIT in
// workgroups of one invocation), all over the same buffers (shaders/self/buffers.glsl).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "vk/compute_kernel.h"

namespace cloth::vk {

inline constexpr std::uint32_t kSelfBindings = 32;

enum SelfKernel : std::size_t {
    kSelfMotion,
    kSelfTree,
    kSelfFit,
    kSelfSort,
    kSelfGather,
    kSelfLists,
    kSelfEvaluate,
    kSelfSolve,
    kSelfScan,
    kSelfListsLong,  // self_lists.comp in workgroups of SELF_LIST_LONG_WORKGROUP
};

std::vector<ComputeKernel> makeSelfKernels(const Context& ctx, std::uint32_t workgroup);

// A union or scan of n items by levels (shaders/self/buffers.glsl): every level's items, the top
// and one more; and the blocks of each level above the first.
std::uint64_t selfLevelsTotal(std::uint64_t n, std::uint64_t stride);
std::vector<std::uint32_t> selfLevelBlocks(std::uint64_t n);

}  // namespace cloth::vk
