// Fixture for the renderer's GPU tests: a Vulkan context with a graphics queue and the Khronos
// validation layer (synchronisation validation included); any validation message fails the
// test, those at teardown too. Skips only when no Vulkan device exists at all, and fails instead
// when the CI environment variable is set.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "render/image_file.h"
#include "vk/context.h"

namespace cloth::test {

class RenderGpuTest : public ::testing::Test {
  protected:
    void SetUp() override {
        if (auto why = vk::noVulkanReason()) {
            if (std::getenv("CI")) {
                FAIL() << "no Vulkan device and CI is set: " << *why;
            }
            GTEST_SKIP() << "no Vulkan device: " << *why;
        }
        log_ = std::make_shared<vk::MessageLog>();
        vk::ContextOptions o;
        o.validation = true;
        o.messageLog = log_;
        o.graphicsQueue = true;
        ctx_ = std::make_shared<vk::Context>(o);
    }
    void TearDown() override {
        ctx_.reset();  // every holder must be gone by now: destruction messages count too
        if (log_) {
            EXPECT_EQ(log_->count.load(), 0u) << "Vulkan validation messages (printed above)";
        }
    }
    std::shared_ptr<vk::MessageLog> log_;
    std::shared_ptr<vk::Context> ctx_;
};

// Keeps an image for a human to look at: <build>/test_output/<name>.png, when ctest names the
// build folder.
inline void keep(const render::ImageRgba8& img, const std::string& name) {
    if (const char* dir = std::getenv("CLOTH_BUILD_DIR"))
        render::writePng(std::string(dir) + "/test_output/" + name + ".png", img);
}

}  // namespace cloth::test
