// The emulated device that rounds differently (vk/rounding_emulation.h): the rewritten modules
// validate and perturb every division and square root; on a device, each perturbed result is
// within 2 ULP of the plain one, all five offsets occur, and a seed gives the same bits on every
// run; a solver run under it moves off the plain run's bits, but not far.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include <glm/glm.hpp>
#include <spirv-tools/libspirv.hpp>

#include "gpu_test.h"
#include "hand_scenes.h"
#include "prep/prepare.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"
#include "vk/gpu_solver.h"
#include "vk/rounding_emulation.h"
#include "vk/spirv.h"

using namespace cloth;

namespace {

constexpr std::uint32_t kOpExtInstImport = 11, kOpExtInst = 12, kOpFDiv = 136, kOpUMod = 137;
// GLSL.std.450: Sqrt, InverseSqrt, Length, Distance, Normalize.
constexpr std::array<std::uint32_t, 5> kPerturbed = {31, 32, 66, 67, 69};

// What a module has: OpFDiv, each perturbed GLSL.std.450 instruction, OpUMod.
struct Census {
    std::size_t divisions = 0, umods = 0;
    std::array<std::size_t, kPerturbed.size()> ext{};
    std::size_t sites() const {
        std::size_t n = divisions;
        for (std::size_t e : ext) n += e;
        return n;
    }
};

Census census(std::span<const std::uint32_t> w) {
    Census c;
    std::uint32_t glsl = 0;
    for (std::size_t i = 5; i < w.size(); i += w[i] >> 16) {
        const std::uint32_t op = w[i] & 0xffffu;
        if (op == kOpExtInstImport &&
            std::string(reinterpret_cast<const char*>(&w[i + 2])) == "GLSL.std.450")
            glsl = w[i + 1];
        if (op == kOpFDiv) ++c.divisions;
        if (op == kOpUMod) ++c.umods;
        if (op == kOpExtInst && w[i + 3] == glsl)
            for (std::size_t k = 0; k < kPerturbed.size(); ++k)
                if (w[i + 4] == kPerturbed[k]) ++c.ext[k];
    }
    return c;
}

// spirv-val's verdict under the Vulkan 1.2 rules the shaders are compiled for; its messages.
std::string validate(std::span<const std::uint32_t> words) {
    spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
    std::string messages;
    tools.SetMessageConsumer(
        [&](spv_message_level_t, const char*, const spv_position_t& at, const char* text) {
            messages += "word " + std::to_string(at.index) + ": " + text + "\n";
        });
    return tools.Validate(words.data(), words.size()) ? "" : messages + "(invalid)";
}

// Bit for bit (NaN included).
bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Signed distance in ULP of two floats of one sign.
std::int64_t ulps(float a, float b) {
    return static_cast<std::int64_t>(std::bit_cast<std::uint32_t>(a)) -
           static_cast<std::int64_t>(std::bit_cast<std::uint32_t>(b));
}

}  // namespace

// Every shader of the program (and the test kernel that has all five instructions) still
// validates, has its instructions, and one perturbation (one OpUMod) per division and square root.
TEST(RoundingEmulation, EveryModuleValidatesWithOnePerturbationPerSite) {
    std::vector<shaders::Embedded> modules(shaders::detail::builtIn().begin(),
                                           shaders::detail::builtIn().end());
    modules.push_back({"test_rounding.comp", shaders::spirv("test_rounding.comp")});
    Census total;
    for (const shaders::Embedded& m : modules) {
        const std::string name(m.name);
        const std::vector<std::uint32_t> out = vk::withEmulatedRounding(m.words, 0x5eedu);
        EXPECT_EQ(validate(out), "") << name;
        const Census before = census(m.words), after = census(out);
        EXPECT_EQ(after.divisions, before.divisions) << name;
        EXPECT_EQ(after.ext, before.ext) << name;
        EXPECT_EQ(after.umods, before.umods + before.sites()) << name;
        EXPECT_GE(out[3], m.words[3]) << name << ": the id bound";
        EXPECT_EQ(vk::withEmulatedRounding(m.words, 0x5eedu), out) << name << ": deterministic";
        if (before.sites()) {
            EXPECT_NE(vk::withEmulatedRounding(m.words, 0x5eedu + 1), out) << name;
        } else {
            EXPECT_EQ(out, std::vector<std::uint32_t>(m.words.begin(), m.words.end())) << name;
        }
        total.divisions += before.divisions;
        for (std::size_t k = 0; k < kPerturbed.size(); ++k) total.ext[k] += before.ext[k];
    }
    std::printf(
        "%zu modules: %zu OpFDiv, Sqrt %zu, InverseSqrt %zu, Length %zu, Distance %zu, "
        "Normalize %zu\n",
        modules.size(), total.divisions, total.ext[0], total.ext[1], total.ext[2], total.ext[3],
        total.ext[4]);
    EXPECT_EQ(census(shaders::spirv("test_rounding.comp")).sites(), 8u);
    const std::uint32_t garbage[6] = {1, 2, 3, 4, 5, 6};
    EXPECT_THROW(vk::withEmulatedRounding(garbage, 1), Error);
}

class RoundingEmulationTest : public test::GpuTest {
  protected:
    // The test kernel's 4 x 4 results per input pair, on a context with this seed (0: plain).
    std::vector<float> run(const std::vector<glm::vec4>& inputs, std::uint32_t seed) {
        vk::ContextOptions o = options();
        o.emulatedRoundingSeed = seed;
        const vk::Context ctx(o);
        const VkMemoryPropertyFlags host =
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        const VkDeviceSize inBytes = inputs.size() * sizeof(glm::vec4);
        vk::Buffer in(ctx, inBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, host, 0, "inputs");
        vk::Buffer out(ctx, 2 * inBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, host, 0, "outputs");
        std::memcpy(in.mapped(), inputs.data(), inBytes);
        {
            vk::ComputeKernel k(ctx, "test_rounding.comp", 2, 0);
            k.bind({&in, &out});
            vk::OneShot once(ctx, "rounding");
            once.run([&](VkCommandBuffer cb) {
                k.dispatch(cb, nullptr, static_cast<std::uint32_t>(inputs.size() / 2 / 64));
                VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
                mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
                mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
                vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                     VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
            });
        }
        std::vector<float> results(inputs.size() * 8);
        std::memcpy(results.data(), out.mapped(), results.size() * sizeof(float));
        return results;
    }
};

// Each perturbed result is the plain one moved by -2..2 ULP (InverseSqrt's by -1..1), never across
// zero, with each of the five offsets about as often; zero, infinity and NaN stay; the same seed
// gives the same bits.
TEST_F(RoundingEmulationTest, ResultsMoveByAtMostTwoUlpAndRepeat) {
    std::vector<glm::vec4> inputs(2 * 64 * 16);
    std::uint32_t x = 12345u;
    auto next = [&] {  // positive floats over many binades
        x = x * 1664525u + 1013904223u;
        return std::ldexp(1.0f + static_cast<float>(x >> 8) / 16777216.0f,
                          static_cast<int>(x % 40) - 20);
    };
    for (glm::vec4& v : inputs) v = {next(), next(), next(), next()};
    inputs[0] = {0.0f, 1.0f, 1.0f, 1.0f};                                     // 0 / b = 0
    inputs[1] = {1.0f, 0.0f, 0.0f, std::numeric_limits<float>::quiet_NaN()};  // a / 0 = inf
    const std::vector<float> plain = run(inputs, 0);
    const std::vector<float> emulated = run(inputs, 7);
    std::array<std::size_t, 5> histogram{};
    for (std::size_t i = 0; i < plain.size(); ++i) {
        const float p = plain[i], e = emulated[i];
        if (std::isnan(p)) {
            EXPECT_TRUE(std::isnan(e)) << "result " << i;
            continue;
        }
        if (p == 0.0f || std::isinf(p)) {
            EXPECT_EQ(std::bit_cast<std::uint32_t>(e), std::bit_cast<std::uint32_t>(p))
                << "result " << i;
            continue;
        }
        ASSERT_EQ(std::signbit(e), std::signbit(p)) << "result " << i;
        const std::int64_t d = ulps(std::fabs(e), std::fabs(p));
        // InverseSqrt (the second result of each pair's second vec4) moves by 1 ULP at most.
        ASSERT_LE(std::abs(d), i % 16 == 5 ? 1 : 2)
            << "result " << i << ": " << p << " became " << e;
        ++histogram[static_cast<std::size_t>(d + 2)];
    }
    // The first pair's specials: 0 / 1, 1 / 0, NaN, sqrt(0).
    EXPECT_EQ(plain[0], 0.0f);
    EXPECT_TRUE(std::isinf(plain[1]));
    EXPECT_TRUE(std::isnan(plain[3]));
    EXPECT_EQ(plain[4], 0.0f);
    for (std::size_t k = 0; k < histogram.size(); ++k)
        EXPECT_GT(histogram[k], plain.size() / 10) << "offset " << static_cast<int>(k) - 2;
    std::printf("offsets -2..2: %zu %zu %zu %zu %zu of %zu results\n", histogram[0], histogram[1],
                histogram[2], histogram[3], histogram[4], plain.size());
    EXPECT_TRUE(sameBits(run(inputs, 7), emulated)) << "the same seed, again";
    EXPECT_FALSE(sameBits(run(inputs, 8), emulated)) << "another seed";
}

// The solver on the emulated device: a hanging cloth with pins and bending moves off the plain
// run's bits but stays within a small distance of it; the same seed repeats its bits, another
// seed does not.
TEST_F(RoundingEmulationTest, SolverRunsRepeatPerSeedAndStayClose) {
    test::HandScene s;
    s.cloths.push_back(test::HandGrid{});
    const PreparedCloth p = test::buildHandScene(s);
    auto positions = [&](std::uint32_t seed) {
        vk::GpuSolverOptions o;
        o.contextOptions = options();
        o.contextOptions.emulatedRoundingSeed = seed;
        vk::GpuSolver gpu(p, o);
        for (int f = 0; f < 10; ++f) gpu.stepFrame();
        std::vector<glm::vec4> x;
        gpu.readPositions(x);
        return x;
    };
    const std::vector<glm::vec4> plain = positions(0), a = positions(1), again = positions(1),
                                 b = positions(2);
    ASSERT_EQ(a.size(), plain.size());
    float most = 0.0f;
    std::size_t moved = 0;
    for (std::size_t i = 0; i < plain.size(); ++i) {
        most = std::max(most, glm::length(glm::vec3(a[i]) - glm::vec3(plain[i])));
        moved += glm::vec3(a[i]) != glm::vec3(plain[i]);
    }
    std::printf("after 10 frames: %zu of %zu vertices off the plain bits, at most %g m\n", moved,
                plain.size(), most);
    EXPECT_GT(moved, 0u);
    EXPECT_LT(most, 1e-5f) << "a 1 m cloth (measured: 5.9e-7 m)";
    EXPECT_TRUE(std::equal(a.begin(), a.end(), again.begin())) << "the same seed, again";
    EXPECT_FALSE(std::equal(a.begin(), a.end(), b.begin())) << "another seed";
}
