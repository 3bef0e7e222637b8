// Vulkan context: listing, selection, validation plumbing, VK_CHECK and ownership.
#include <cstdlib>
#include <sstream>
#include <string>

#include "gpu_test.h"
#include "vk/buffer.h"
#include "vk/check.h"

using namespace cloth;
using cloth::test::GpuTest;

TEST_F(GpuTest, ListsEveryDeviceWithItsDetails) {
    auto devices = vk::listDevices();
    ASSERT_FALSE(devices.empty());
    std::ostringstream out;
    vk::printDevices(out);
    std::string text = out.str();
    for (const auto& d : devices) {
        EXPECT_NE(text.find(std::to_string(d.index) + ": " + d.name), std::string::npos) << text;
        EXPECT_NE(text.find(vk::deviceTypeName(d.type)), std::string::npos) << text;
        EXPECT_NE(text.find("Vulkan " + vk::versionString(d.apiVersion)), std::string::npos);
    }
    EXPECT_NE(text.find("* "), std::string::npos) << "the default device is marked";
}

TEST_F(GpuTest, PicksTheOnlyOrPreferredDeviceAndItsQueue) {
    EXPECT_GE(ctx_->apiVersion(), VK_API_VERSION_1_2);
    EXPECT_TRUE(ctx_->info().suitable);
    EXPECT_NE(ctx_->queue(), VK_NULL_HANDLE);
    EXPECT_TRUE(ctx_->validation());
    auto devices = vk::listDevices();
    // Nothing suitable ranks above the chosen device's type.
    auto rank = [](VkPhysicalDeviceType t) {
        return t == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU     ? 0
               : t == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? 1
               : t == VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU    ? 2
               : t == VK_PHYSICAL_DEVICE_TYPE_CPU            ? 3
                                                             : 4;
    };
    for (const auto& d : devices)
        if (d.suitable) {
            EXPECT_LE(rank(ctx_->info().type), rank(d.type)) << d.name;
        }
}

TEST_F(GpuTest, SelectsByIndexAndRefusesUnknownIndex) {
    auto o = options();
    o.deviceIndex = 0;
    vk::Context first(o);
    EXPECT_EQ(first.info().index, 0u);
    o.deviceIndex = 99;
    try {
        vk::Context bad(o);
        FAIL() << "device 99 accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("--device 99"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("--list-devices"), std::string::npos) << e.what();
    }
}

TEST_F(GpuTest, MissingDeviceExtensionMakesTheDeviceUnsuitable) {
    auto o = options();
    o.deviceExtensions = {"VK_CLOTH_no_such_extension"};
    EXPECT_THROW(vk::Context bad(o), Error);
}

TEST_F(GpuTest, ValidationMessagesAreCounted) {
    // A deliberate misuse (a buffer of size 0) must reach the counter; then reset it.
    auto quiet = std::make_shared<vk::MessageLog>();
    quiet->quiet = true;
    auto o = options();
    o.messageLog = quiet;
    {
        vk::Context c(o);
        VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        info.size = 0;  // invalid
        info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        VkBuffer b = VK_NULL_HANDLE;
        VkResult r = vkCreateBuffer(c.device(), &info, nullptr, &b);
        if (r == VK_SUCCESS) vkDestroyBuffer(c.device(), b, nullptr);
    }
    EXPECT_GT(quiet->count.load(), 0u);
}

// The loader's notice that VK_INSTANCE_LAYERS added the validation layer (a general message,
// not one about the application) is not counted; a real misuse in the same setting still is.
TEST_F(GpuTest, LoaderNoticeUnderVkInstanceLayersIsNotCounted) {
    const char* before = std::getenv("VK_INSTANCE_LAYERS");
    const std::string saved = before ? before : "";
    ::setenv("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation", 1);
    auto log = std::make_shared<vk::MessageLog>();
    log->quiet = true;
    auto o = options();
    o.messageLog = log;
    {
        vk::Context c(o);
        EXPECT_EQ(log->count.load(), 0u) << "the loader's notice was counted";
        VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        info.size = 0;  // invalid
        info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        VkBuffer b = VK_NULL_HANDLE;
        VkResult r = vkCreateBuffer(c.device(), &info, nullptr, &b);
        if (r == VK_SUCCESS) vkDestroyBuffer(c.device(), b, nullptr);
    }
    if (before)
        ::setenv("VK_INSTANCE_LAYERS", saved.c_str(), 1);
    else
        ::unsetenv("VK_INSTANCE_LAYERS");
    EXPECT_GT(log->count.load(), 0u) << "a real validation error was not counted";
}

TEST(VkCheck, NamesCallFileLineAndResult) {
    try {
        VK_CHECK(VK_ERROR_DEVICE_LOST);
        FAIL();
    } catch (const vk::Failure& e) {
        std::string m = e.what();
        EXPECT_NE(m.find("test_context.cpp:"), std::string::npos) << m;
        EXPECT_NE(m.find("VK_ERROR_DEVICE_LOST"), std::string::npos) << m;
        EXPECT_EQ(e.result(), VK_ERROR_DEVICE_LOST);
    }
    EXPECT_STREQ(vk::resultName(VK_ERROR_OUT_OF_DEVICE_MEMORY), "VK_ERROR_OUT_OF_DEVICE_MEMORY");
    EXPECT_STREQ(vk::resultName(static_cast<VkResult>(-12345)), "VkResult(-12345)");
}

TEST_F(GpuTest, BuffersAreMoveOnlyOwners) {
    static_assert(!std::is_copy_constructible_v<vk::Buffer>);
    static_assert(!std::is_copy_constructible_v<vk::Unique<VkBuffer>>);
    vk::Buffer a = vk::deviceBuffer(*ctx_, 256, "test a");
    VkBuffer handle = a.get();
    vk::Buffer b = std::move(a);
    EXPECT_EQ(b.get(), handle);
    EXPECT_FALSE(a);
    // Upload and read back through staging.
    vk::OneShot once(*ctx_, "test");
    std::vector<float> data(64);
    for (int i = 0; i < 64; ++i) data[i] = 0.5f * i;
    vk::upload(*ctx_, once, b, data.data(), 256);
    vk::Buffer staging = vk::stagingBuffer(*ctx_, 256, "test read");
    once.run([&](VkCommandBuffer cb) {
        VkBufferCopy copy{0, 0, 256};
        vkCmdCopyBuffer(cb, b.get(), staging.get(), 1, &copy);
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                             &mb, 0, nullptr, 0, nullptr);
    });
    const float* back = static_cast<const float*>(staging.mapped());
    for (int i = 0; i < 64; ++i) EXPECT_EQ(back[i], data[i]);
}
