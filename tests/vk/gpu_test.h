// Fixture for GPU tests: a Vulkan context with the Khronos validation layer (and synchronisation
// validation); any validation message fails the test, including those at teardown. Skips only
// when no Vulkan device exists at all, and fails instead when the CI environment variable is set.
// While it lives, the CPU reference keeps subnormal floats if the device cannot flush them
// (cpu/float_env.h ScopedSubnormals), so the tests compare both in the same float environment.
#pragma once

#include <cstdlib>
#include <memory>
#include <optional>

#include <gtest/gtest.h>

#include "cpu/float_env.h"
#include "vk/context.h"

namespace cloth::test {

class GpuTest : public ::testing::Test {
  protected:
    void SetUp() override {
        auto why = vk::noVulkanReason();
        if (why) {
            if (std::getenv("CI")) {
                FAIL() << "no Vulkan device and CI is set: " << *why;
            }
            GTEST_SKIP() << "no Vulkan device: " << *why;
        }
        log_ = std::make_shared<vk::MessageLog>();
        ctx_ = std::make_shared<vk::Context>(options());
        // The CPU reference computes subnormals as this device does (kept on lavapipe).
        subnormals_.emplace(!ctx_->info().denormFlushToZero32);
    }
    void TearDown() override {
        subnormals_.reset();
        ctx_.reset();  // every holder must be gone by now: destruction messages count too
        if (log_) {
            EXPECT_EQ(log_->count.load(), 0u) << "Vulkan validation messages (printed above)";
        }
    }
    vk::ContextOptions options() const {
        vk::ContextOptions o;
        o.validation = true;
        o.messageLog = log_;
        return o;
    }
    std::shared_ptr<vk::MessageLog> log_;
    std::shared_ptr<vk::Context> ctx_;
    std::optional<ScopedSubnormals> subnormals_;
};

}  // namespace cloth::test
