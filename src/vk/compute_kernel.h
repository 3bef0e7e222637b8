// One compute shader with its own descriptor set of storage buffers: for kernels outside the
// solver's shared layout (work-queue arguments, tests, and later collision passes).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "vk/buffer.h"
#include "vk/context.h"

namespace cloth::vk {

// The pieces StorageSet and the solver's grouped sets (solver_resources.h) are built from:
// a set layout of storage buffers at the given binding numbers (compute stage); a pool with
// `sets` sets and `buffers` storage-buffer descriptors in all, and sets allocated from it (freed
// with the pool); a pipeline layout of set layouts and a push-constant range (0 bytes: none);
// and pointing bindings at whole buffers.
Unique<VkDescriptorSetLayout> storageSetLayout(const Context& ctx,
                                               std::span<const std::uint32_t> bindings,
                                               const std::string& name);
Unique<VkDescriptorPool> storagePool(const Context& ctx, std::uint32_t sets,
                                     std::uint32_t buffers);
void allocateSets(const Context& ctx, VkDescriptorPool pool,
                  std::span<const VkDescriptorSetLayout> layouts, VkDescriptorSet* out);
Unique<VkPipelineLayout> computePipelineLayout(const Context& ctx,
                                               std::span<const VkDescriptorSetLayout> sets,
                                               std::uint32_t pushBytes, const std::string& name);
struct StorageWrite {
    VkDescriptorSet set;
    std::uint32_t binding;
    VkBuffer buffer;
};
void writeStorage(const Context& ctx, std::span<const StorageWrite> writes);

// A descriptor set of `count` storage buffers (bindings 0..count-1, compute stage) with its
// layout and pool, and the pipeline layout of that one set and a push-constant range.
class StorageSet {
  public:
    StorageSet(const Context& ctx, std::uint32_t count, std::uint32_t pushBytes,
               const std::string& name);
    // Points binding i at buffers[i] (whole size). Only while no submitted work uses the set.
    void bind(std::span<const VkBuffer> buffers) const;
    VkDescriptorSet set() const { return set_; }
    VkPipelineLayout layout() const { return layout_.get(); }
    std::uint32_t count() const { return count_; }

  private:
    const Context* ctx_;
    std::uint32_t count_;
    Unique<VkDescriptorSetLayout> setLayout_;
    Unique<VkDescriptorPool> pool_;
    VkDescriptorSet set_ = VK_NULL_HANDLE;  // freed with the pool
    Unique<VkPipelineLayout> layout_;
};

class ComputeKernel {
  public:
    // `shader`: an embedded SPIR-V name (src/vk/spirv.h). `buffers`: storage buffers at
    // set 0, bindings 0..n-1. `pushBytes`: push-constant size (0: none). Specialization
    // constant 0 is set to `spec0` (e.g. a workgroup size).
    ComputeKernel(const Context& ctx, const std::string& shader, std::uint32_t buffers,
                  std::uint32_t pushBytes, std::uint32_t spec0 = 64);

    // Points binding i at buffers[i] (whole size). Only while no submitted work uses the set.
    void bind(const std::vector<const Buffer*>& buffers);
    void dispatch(VkCommandBuffer cb, const void* push, std::uint32_t groups,
                  std::uint32_t groupsY = 1) const;
    // Workgroup counts from a VkDispatchIndirectCommand at `offset` in `args`.
    void dispatchIndirect(VkCommandBuffer cb, const void* push, const Buffer& args,
                          VkDeviceSize offset) const;

  private:
    void bindAndPush(VkCommandBuffer cb, const void* push) const;

    std::uint32_t pushBytes_;
    StorageSet set_;
    Unique<VkPipeline> pipeline_;
};

// A compute pipeline from an embedded shader, with specialization constant i = specValues[i].
Unique<VkPipeline> computePipeline(const Context& ctx, VkPipelineLayout layout,
                                   const std::string& shader,
                                   std::span<const std::uint32_t> specValues,
                                   const std::string& name);

// A compute-to-compute (and indirect-argument) barrier for everything written so far.
void computeBarrier(VkCommandBuffer cb);

}  // namespace cloth::vk
