// The shared maths (src/kernels/constraints.h) gives the same bits on the Vulkan device as
// on the CPU: float operations are not contracted or re-associated (cmake/spirv_exact.py) and
// transcendental functions are the shared polynomials. This is what lets clothcheck expect the
// GPU solver to follow the CPU reference closely over many frames.
#include <cstring>
#include <random>

#include "kernels/constraint/iso_bending.h"
#include "kernels/constraint/stvk.h"
#include "kernels/constraints.h"
#include "gpu_test.h"
#include "vk/buffer.h"
#include "vk/spirv.h"
#include "kernels/wind.h"

using namespace cloth;
using namespace cloth::gpu;
using cloth::test::GpuTest;

namespace {

glm::vec4 evaluate(std::uint32_t fn, const std::vector<glm::vec4>& in, std::uint32_t i) {
    const auto n = static_cast<std::uint32_t>(in.size());
    glm::vec4 x = in[i], y = in[(i + 1) % n];
    SolveParams sp{3600.0f, MODE_XPBD, 0u, 0.0f};
    if (fn == 0) return {clothSinCos(x.x), clothSinCos(x.y)};
    if (fn == 1) return {clothAtan2(x.x, x.y), clothAtan2(x.z, x.w), 0.0f, 0.0f};
    if (fn == 2) {
        DistanceConstraint c{0u, 1u, std::abs(x.w), 1e-6f};
        glm::vec4 p0(glm::vec3(x), 2.0f), p1(glm::vec3(y), 0.5f);
        float lambda = 0.01f;
        projectDistance(p0, p1, c, lambda, sp);
        return {glm::vec3(p0), lambda};
    }
    glm::vec4 z = in[(i + 2) % n], u = in[(i + 3) % n];
    if (fn == 3) {
        BendingConstraint c{};
        c.restAngle = 0.1f;
        c.param = 1e-3f;
        glm::vec4 p0(glm::vec3(x), 1.0f), p1(glm::vec3(y), 1.0f), p2(glm::vec3(z), 2.0f),
            p3(glm::vec3(u), 0.5f);
        float lambda = 0.0f;
        projectBending(p0, p1, p2, p3, c, lambda, sp);
        return {glm::vec3(p2), lambda};
    }
    if (fn == 4 || fn == 5) {
        StvkConstraint c{};
        c.pbdStiffness = 1.0f;
        c.invRest = glm::vec4(9.0f, -1.5f, 2.0f, 11.0f) + 0.05f * u;
        c.complianceDiag = glm::vec4(0.3f, 0.2f, 40.0f, 0.0f);
        c.complianceOff = glm::vec4(-0.05f, 0.0f, 0.0f, 0.0f);
        glm::vec4 p0(0.1f * glm::vec3(x), 1.5f), p1(0.1f * glm::vec3(y), 0.7f),
            p2(0.1f * glm::vec3(z), 2.0f);
        glm::vec4 lambda(1e-3f * glm::vec3(u), 0.0f);
        projectStvk(p0, p1, p2, c, lambda, sp);
        return fn == 4 ? glm::vec4(glm::vec3(p0), lambda.x) : glm::vec4(glm::vec3(p2), lambda.z);
    }
    if (fn == 6) {
        IsoBendingConstraint c{};
        c.k = glm::vec4(-1.2f, -0.9f, 1.0f, 1.1f) + 0.01f * glm::vec4(u.x, u.y, -u.x, -u.y);
        c.compliance = 2e-4f;
        c.pbdStiffness = 1.0f;
        glm::vec4 p0(glm::vec3(x), 1.0f), p1(glm::vec3(y), 0.0f), p2(glm::vec3(z), 2.0f),
            p3(glm::vec3(u), 0.5f);
        glm::vec4 lambda(0.01f, -0.02f, 0.03f, 0.0f);
        projectIsoBending(p0, p1, p2, p3, c, lambda, sp);
        return {glm::vec3(p3), lambda.y};
    }
    glm::vec3 normal = glm::vec3(y) / std::sqrt(glm::dot(glm::vec3(y), glm::vec3(y)));
    return {windForce(glm::vec3(x), normal, 0.01f * std::abs(z.x), 1.2f, 0.5f, 0.3f), 0.0f};
}

}  // namespace

TEST_F(GpuTest, SharedMathsGivesTheSameBitsOnTheDevice) {
    const std::uint32_t n = 2048;
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> d(-30.0f, 30.0f);
    std::vector<glm::vec4> in(n), out(n);
    for (auto& v : in) v = {d(rng), d(rng), d(rng), d(rng)};
    VkDevice dev = ctx_->device();

    vk::Buffer input = vk::deviceBuffer(*ctx_, n * 16, "maths in");
    vk::Buffer output = vk::deviceBuffer(*ctx_, n * 16, "maths out");
    vk::Buffer readback = vk::stagingBuffer(*ctx_, n * 16, "maths read-back");
    vk::OneShot once(*ctx_, "maths");
    vk::upload(*ctx_, once, input, in.data(), n * 16);

    VkDescriptorSetLayoutBinding b[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.bindingCount = 2;
    setInfo.pBindings = b;
    VkDescriptorSetLayout setLayout;
    VK_CHECK(vkCreateDescriptorSetLayout(dev, &setInfo, nullptr, &setLayout));
    vk::Unique<VkDescriptorSetLayout> ownedSetLayout(dev, setLayout);
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &setLayout;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &range;
    VkPipelineLayout layout;
    VK_CHECK(vkCreatePipelineLayout(dev, &layoutInfo, nullptr, &layout));
    vk::Unique<VkPipelineLayout> ownedLayout(dev, layout);
    auto code = shaders::spirv("test_maths.comp");
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = code.size() * 4;
    moduleInfo.pCode = code.data();
    VkShaderModule module;
    VK_CHECK(vkCreateShaderModule(dev, &moduleInfo, nullptr, &module));
    vk::Unique<VkShaderModule> ownedModule(dev, module);
    VkComputePipelineCreateInfo pipeInfo{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pipeInfo.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pipeInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipeInfo.stage.module = module;
    pipeInfo.stage.pName = "main";
    pipeInfo.layout = layout;
    VkPipeline pipeline;
    VK_CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &pipeInfo, nullptr, &pipeline));
    vk::Unique<VkPipeline> ownedPipeline(dev, pipeline);
    VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.maxSets = 1;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &poolSize;
    VkDescriptorPool pool;
    VK_CHECK(vkCreateDescriptorPool(dev, &poolInfo, nullptr, &pool));
    vk::Unique<VkDescriptorPool> ownedPool(dev, pool);
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = pool;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &setLayout;
    VkDescriptorSet set;
    VK_CHECK(vkAllocateDescriptorSets(dev, &alloc, &set));
    VkDescriptorBufferInfo infos[2] = {{input.get(), 0, VK_WHOLE_SIZE},
                                       {output.get(), 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[2] = {};
    for (int i = 0; i < 2; ++i) {
        writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        writes[i].dstSet = set;
        writes[i].dstBinding = static_cast<std::uint32_t>(i);
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(dev, 2, writes, 0, nullptr);

    const char* names[] = {"clothSinCos",       "clothAtan2",       "projectDistance",
                           "projectBending",    "projectStvk (p0)", "projectStvk (p2)",
                           "projectIsoBending", "windForce"};
    for (std::uint32_t fn = 0; fn < 8; ++fn) {
        once.run([&](VkCommandBuffer cb) {
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
            vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0,
                                    nullptr);
            std::uint32_t push[2] = {fn, n};
            vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, push);
            vkCmdDispatch(cb, n / 64, 1, 1);
            VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT;
            mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
            vkCmdPipelineBarrier(
                cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0,
                nullptr, 0, nullptr);
            VkBufferCopy copy{0, 0, n * 16};
            vkCmdCopyBuffer(cb, output.get(), readback.get(), 1, &copy);
            VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
            vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                                 1, &host, 0, nullptr, 0, nullptr);
        });
        std::memcpy(out.data(), readback.mapped(), n * 16);
        int differing = 0, projected = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            glm::vec4 want = evaluate(fn, in, i);
            // The multiplier moved from its start value: the case is not a skipped one.
            glm::vec4 u = in[(i + 3) % n];
            float start = fn == 4 ? 1e-3f * u.x : fn == 5 ? 1e-3f * u.z : -0.02f;
            projected += want.w != start ? 1 : 0;
            if (std::memcmp(&want, &out[i], 16) != 0 && differing++ < 3)
                ADD_FAILURE() << names[fn] << " input " << i << ": cpu (" << want.x << ", "
                              << want.y << ", " << want.z << ", " << want.w << ") gpu (" << out[i].x
                              << ", " << out[i].y << ", " << out[i].z << ", " << out[i].w << ")";
        }
        EXPECT_EQ(differing, 0) << names[fn];
        if (fn >= 4 && fn <= 6) {
            EXPECT_GT(projected, int(n) * 9 / 10) << names[fn];
        }
    }
}
