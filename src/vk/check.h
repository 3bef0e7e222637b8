// VK_CHECK: checks a VkResult in every build type (release included) and throws vk::Failure, a
// cloth::Error whose message names the call, the file, the line and the VkResult.
#pragma once

#include <volk.h>

#include "core/error.h"

namespace cloth::vk {

class Failure : public Error {
  public:
    Failure(VkResult result, const std::string& message) : Error(message), result_(result) {}
    VkResult result() const { return result_; }

  private:
    VkResult result_;
};

// "VK_ERROR_OUT_OF_DEVICE_MEMORY", ... ("VkResult(<n>)" for values it does not know).
const char* resultName(VkResult result);

[[noreturn]] void checkFailed(VkResult result, const char* call, const char* file, int line);

}  // namespace cloth::vk

#define VK_CHECK(call)                                                             \
    do {                                                                           \
        const VkResult cloth_vk_result_ = (call);                                  \
        if (cloth_vk_result_ != VK_SUCCESS)                                        \
            ::cloth::vk::checkFailed(cloth_vk_result_, #call, __FILE__, __LINE__); \
    } while (0)
