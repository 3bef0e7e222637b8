#include "vk/compute_kernel.h"

#include "vk/denorm_flush.h"
#include "vk/rounding_emulation.h"

#include <algorithm>
#include <vector>

#include "core/error.h"
#include "vk/check.h"
#include "vk/spirv.h"

namespace cloth::vk {

Unique<VkPipeline> computePipeline(const Context& ctx, VkPipelineLayout layout,
                                   const std::string& shader,
                                   std::span<const std::uint32_t> specValues,
                                   const std::string& name) {
    VkDevice dev = ctx.device();
    std::span<const std::uint32_t> code = shaders::spirv(shader);
    // Subnormals flushed as on the CPU, where the device can (vk/denorm_flush.h).
    std::vector<std::uint32_t> flushing;
    if (ctx.info().denormFlushToZero32) {
        flushing = withDenormFlushToZero(code);
        code = flushing;
    }
    // A device that rounds divisions and square roots differently, where asked for
    // (vk/rounding_emulation.h); independent of the flushing.
    std::vector<std::uint32_t> rounding;
    if (ctx.emulatedRoundingSeed()) {
        rounding = withEmulatedRounding(code, ctx.emulatedRoundingSeed());
        code = rounding;
    }
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = code.size() * sizeof(std::uint32_t);
    moduleInfo.pCode = code.data();
    VkShaderModule module = VK_NULL_HANDLE;
    VK_CHECK(vkCreateShaderModule(dev, &moduleInfo, nullptr, &module));
    Unique<VkShaderModule> ownedModule(dev, module);
    std::vector<VkSpecializationMapEntry> entries(specValues.size());
    for (std::uint32_t i = 0; i < entries.size(); ++i) entries[i] = {i, 4 * i, 4};
    VkSpecializationInfo spec{static_cast<std::uint32_t>(entries.size()), entries.data(),
                              specValues.size_bytes(), specValues.data()};
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = &spec;
    info.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VK_CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
    ctx.name(pipeline, name);
    return Unique<VkPipeline>(dev, pipeline);
}

Unique<VkDescriptorSetLayout> storageSetLayout(const Context& ctx,
                                               std::span<const std::uint32_t> bindings,
                                               const std::string& name) {
    // A set of more storage buffers than one stage may bind is invalid usage: refuse it by name.
    const std::uint32_t most = ctx.limits().maxPerStageDescriptorStorageBuffers;
    if (bindings.size() > most)
        throw Error("the compute kernel " + name + " binds " + std::to_string(bindings.size()) +
                    " storage buffers, more than this device allows one stage (" +
                    std::to_string(most) + ", maxPerStageDescriptorStorageBuffers)");
    std::vector<VkDescriptorSetLayoutBinding> b(bindings.size());
    for (std::size_t i = 0; i < bindings.size(); ++i)
        b[i] = {bindings[i], VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                nullptr};
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = static_cast<std::uint32_t>(b.size());
    info.pBindings = b.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    VK_CHECK(vkCreateDescriptorSetLayout(ctx.device(), &info, nullptr, &layout));
    ctx.name(layout, name);
    return Unique<VkDescriptorSetLayout>(ctx.device(), layout);
}

Unique<VkDescriptorPool> storagePool(const Context& ctx, std::uint32_t sets,
                                     std::uint32_t buffers) {
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::max(buffers, 1u)};
    VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    info.maxSets = sets;
    info.poolSizeCount = 1;
    info.pPoolSizes = &size;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateDescriptorPool(ctx.device(), &info, nullptr, &pool));
    return Unique<VkDescriptorPool>(ctx.device(), pool);
}

void allocateSets(const Context& ctx, VkDescriptorPool pool,
                  std::span<const VkDescriptorSetLayout> layouts, VkDescriptorSet* out) {
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = pool;
    alloc.descriptorSetCount = static_cast<std::uint32_t>(layouts.size());
    alloc.pSetLayouts = layouts.data();
    VK_CHECK(vkAllocateDescriptorSets(ctx.device(), &alloc, out));
}

Unique<VkPipelineLayout> computePipelineLayout(const Context& ctx,
                                               std::span<const VkDescriptorSetLayout> sets,
                                               std::uint32_t pushBytes, const std::string& name) {
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes};
    VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    info.setLayoutCount = static_cast<std::uint32_t>(sets.size());
    info.pSetLayouts = sets.data();
    info.pushConstantRangeCount = pushBytes ? 1 : 0;
    info.pPushConstantRanges = pushBytes ? &range : nullptr;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VK_CHECK(vkCreatePipelineLayout(ctx.device(), &info, nullptr, &layout));
    ctx.name(layout, name);
    return Unique<VkPipelineLayout>(ctx.device(), layout);
}

void writeStorage(const Context& ctx, std::span<const StorageWrite> writes) {
    std::vector<VkDescriptorBufferInfo> infos(writes.size());
    std::vector<VkWriteDescriptorSet> w(writes.size());
    for (std::size_t i = 0; i < writes.size(); ++i) {
        infos[i] = {writes[i].buffer, 0, VK_WHOLE_SIZE};
        w[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w[i].dstSet = writes[i].set;
        w[i].dstBinding = writes[i].binding;
        w[i].descriptorCount = 1;
        w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(ctx.device(), static_cast<std::uint32_t>(w.size()), w.data(), 0,
                           nullptr);
}

StorageSet::StorageSet(const Context& ctx, std::uint32_t count, std::uint32_t pushBytes,
                       const std::string& name)
    : ctx_(&ctx), count_(count) {
    std::vector<std::uint32_t> bindings(count);
    for (std::uint32_t i = 0; i < count; ++i) bindings[i] = i;
    setLayout_ = storageSetLayout(ctx, bindings, name + " set layout");
    pool_ = storagePool(ctx, 1, count);
    const VkDescriptorSetLayout layout = setLayout_.get();
    allocateSets(ctx, pool_.get(), {&layout, 1}, &set_);
    ctx.name(set_, name + " buffers");
    layout_ = computePipelineLayout(ctx, {&layout, 1}, pushBytes, name + " pipeline layout");
}

void StorageSet::bind(std::span<const VkBuffer> buffers) const {
    CLOTH_ASSERT(buffers.size() == count_);
    std::vector<StorageWrite> writes;
    for (std::uint32_t i = 0; i < buffers.size(); ++i) writes.push_back({set_, i, buffers[i]});
    writeStorage(*ctx_, writes);
}

ComputeKernel::ComputeKernel(const Context& ctx, const std::string& shader, std::uint32_t buffers,
                             std::uint32_t pushBytes, std::uint32_t spec0)
    : pushBytes_(pushBytes), set_(ctx, buffers, pushBytes, shader) {
    const std::uint32_t spec[1] = {spec0};
    pipeline_ = computePipeline(ctx, set_.layout(), shader, spec, shader);
}

void ComputeKernel::bind(const std::vector<const Buffer*>& buffers) {
    std::vector<VkBuffer> handles;
    for (const Buffer* b : buffers) handles.push_back(b->get());
    set_.bind(handles);
}

void ComputeKernel::bindAndPush(VkCommandBuffer cb, const void* push) const {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_.get());
    VkDescriptorSet set = set_.set();
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, set_.layout(), 0, 1, &set, 0,
                            nullptr);
    if (pushBytes_)
        vkCmdPushConstants(cb, set_.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes_, push);
}

void ComputeKernel::dispatch(VkCommandBuffer cb, const void* push, std::uint32_t groups,
                             std::uint32_t groupsY) const {
    bindAndPush(cb, push);
    if (groups && groupsY) vkCmdDispatch(cb, groups, groupsY, 1);
}

void ComputeKernel::dispatchIndirect(VkCommandBuffer cb, const void* push, const Buffer& args,
                                     VkDeviceSize offset) const {
    bindAndPush(cb, push);
    vkCmdDispatchIndirect(cb, args.get(), offset);
}

void computeBarrier(VkCommandBuffer cb) {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                       VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                         0, 1, &mb, 0, nullptr, 0, nullptr);
}

}  // namespace cloth::vk
