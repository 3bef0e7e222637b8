// The CPU reference flushes subnormal floats to zero (src/cpu/float_env.h), and keeps them
// while it is compared with a device that cannot flush them (ScopedSubnormals, held by the
// GpuTest fixture and clothcheck). lavapipe offers no float-controls choice (neither
// shaderDenormPreserveFloat32 nor ...FlushToZeroFloat32) and keeps them: this pins both
// behaviours down, and a shipped scene that makes subnormals gets the device's bits
// (docs/backends.md, "Subnormal floats").
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <cstring>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/scene.h"
#include "cpu/backend.h"
#include "cpu/float_env.h"
#include "prep/prepare.h"
#include "gpu_test.h"
#include "vk/compute_kernel.h"
#include "vk/gpu_solver.h"
#include "vk/denorm_flush.h"
#include "vk/spirv.h"

using namespace cloth;

class SubnormalTest : public test::GpuTest {};

TEST_F(SubnormalTest, CpuFlushesThemAndLavapipeKeepsThem) {
    const float a = 1e-20f, b = 1e-20f;  // a * b = 1e-40: subnormal
    float s = 1e-40f;                    // a subnormal input
    volatile float vs = s;
    s = vs;
    ASSERT_GT(s, 0.0f);
    ASSERT_LT(s, 1.17549435e-38f);

    // The CPU reference's flushing (its default: the fixture keeps subnormals beside a device
    // that cannot flush them): both results and inputs.
    glm::vec3 cpu;
    {
        const ScopedSubnormals flushing(false);
        const FlushSubnormals flush;
        volatile float va = a, vb = b, vs2 = s, one = 1.0f;
        cpu = {va * vb, vs2 * one, vs2 + 0.0f};
    }
    EXPECT_EQ(cpu, glm::vec3(0.0f));

    vk::Buffer data(*ctx_, 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0,
                    "subnormal data");
    const glm::vec4 in[2] = {{a, b, s, 1.0f}, {-1.0f, -1.0f, -1.0f, -1.0f}};
    std::memcpy(data.mapped(), in, sizeof in);
    vk::ComputeKernel k(*ctx_, "test_subnormal.comp", 1, 0);
    k.bind({&data});
    vk::OneShot once(*ctx_, "subnormal");
    once.run([&](VkCommandBuffer cb) {
        k.dispatch(cb, nullptr, 1);
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                             0, 1, &mb, 0, nullptr, 0, nullptr);
    });
    glm::vec4 out[2];
    std::memcpy(out, data.mapped(), sizeof out);
    const auto& p = ctx_->info();
    std::printf("%s: %g * %g = %g, %g * 1 = %g, %g + 0 = %g\n", p.name.c_str(), a, b, out[1].x, s,
                out[1].y, s, out[1].z);
    const glm::vec3 exact(a * b, s, s);  // what IEEE arithmetic gives without flushing
    if (p.name.find("llvmpipe") != std::string::npos) {
        EXPECT_FALSE(p.denormFlushToZero32) << "lavapipe now offers flushing: pipelines will ask "
                                               "for it, and this test should expect the CPU's";
        EXPECT_EQ(glm::vec3(out[1]), exact) << "lavapipe no longer keeps subnormals: update "
                                               "the README and consider them flushed on both";
    } else {
        // Other devices flush where they offer it (the pipelines ask for it); else either.
        if (p.denormFlushToZero32)
            EXPECT_EQ(glm::vec3(out[1]), cpu);
        else
            EXPECT_TRUE(glm::vec3(out[1]) == cpu || glm::vec3(out[1]) == exact);
    }
}

// A shipped scene that makes subnormals: sdf_collision.json (a sphere swinging through a
// hanging cloth, the default fabric's bending) from about frame 29. Beside a device that keeps
// them (lavapipe) the reference keeps them too (the fixture's ScopedSubnormals), and the two
// give the same bits every frame; the reference flushing them differs from the device, so the
// scene does make them and the test cannot pass by having none. On a device that flushes, the
// reference flushes too, and the bits are equal where the device rounds as the CPU does.
TEST_F(SubnormalTest, AReferenceThatComputesAsTheDeviceGivesItsBitsWhereSubnormalsArise) {
    const char* env = std::getenv("CLOTH_SOURCE_DIR");
    const std::string file =
        std::string(env ? env : CLOTH_TEST_SOURCE_DIR) + "/assets/scenes/sdf_collision.json";
    const PreparedCloth p = prepareScene(loadSceneFile(file));
    vk::GpuSolverOptions o;
    o.context = ctx_;
    vk::GpuSolver gpu(p, o);
    auto same = makeCpuSolver(p, 2);  // in the device's float environment (the fixture's)
    auto flushing = makeCpuSolver(p, 2);
    const bool keeps = !ctx_->info().denormFlushToZero32;
    std::vector<glm::vec4> g, c, f;
    int firstApart = -1;
    for (int frame = 1; frame <= 40; ++frame) {
        gpu.stepFrame();
        same->stepFrame();
        {
            const ScopedSubnormals flush(false);
            flushing->stepFrame();
        }
        gpu.readPositions(g);
        same->readPositions(c);
        flushing->readPositions(f);
        if (ctx_->info().name.find("llvmpipe") != std::string::npos)
            ASSERT_EQ(g, c) << "frame " << frame;
        if (firstApart < 0 && f != c) firstApart = frame;
    }
    if (keeps) {
        EXPECT_GT(firstApart, 0) << "no subnormal arose: the scene no longer tests this";
    } else {
        EXPECT_EQ(firstApart, -1);  // both references flush
    }
    std::printf("the reference flushing subnormals parts from the device's from frame %d\n",
                firstApart);
}

// The module a device that offers flushing gets (no device needed): every compute shader gains
// the DenormFlushToZero capability and execution mode for 32-bit floats and still validates
// (spirv-val, Vulkan 1.2 rules); patching twice changes nothing; garbage is refused.
TEST(DenormFlush, PatchedModulesDeclareFlushingAndValidate) {
    const auto dir = std::filesystem::temp_directory_path() / "cloth_denorm_flush";
    std::filesystem::create_directories(dir);
    for (const char* name : {"colors_run_wide.comp", "vertices.comp", "test_subnormal.comp"}) {
        const std::span<const std::uint32_t> plain = shaders::spirv(name);
        const std::vector<std::uint32_t> flushed = vk::withDenormFlushToZero(plain);
        EXPECT_EQ(flushed.size(), plain.size() + 2 + 4) << name;  // capability, one entry point
        bool capability = false, mode = false;
        for (std::size_t i = 5; i < flushed.size(); i += flushed[i] >> 16) {
            const std::uint32_t op = flushed[i] & 0xffffu;
            if (op == 17 && flushed[i + 1] == 4465) capability = true;
            if (op == 16 && flushed[i + 2] == 4460 && flushed[i + 3] == 32) mode = true;
        }
        EXPECT_TRUE(capability && mode) << name;
        EXPECT_EQ(vk::withDenormFlushToZero(flushed), flushed) << name;
        const auto file = dir / (std::string(name) + ".spv");
        std::ofstream(file, std::ios::binary)
            .write(reinterpret_cast<const char*>(flushed.data()),
                   static_cast<std::streamsize>(flushed.size() * 4));
        const std::string cmd = "spirv-val --target-env vulkan1.2 '" + file.string() + "'";
        EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    }
    const std::uint32_t garbage[6] = {1, 2, 3, 4, 5, 6};
    EXPECT_THROW(vk::withDenormFlushToZero(garbage), Error);
    std::filesystem::remove_all(dir);
}
