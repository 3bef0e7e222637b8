#include "vk/check.h"

#include <string>

namespace cloth::vk {

const char* resultName(VkResult result) {
    switch (result) {
#define CLOTH_VK_RESULT(name) \
    case name:                \
        return #name;
        CLOTH_VK_RESULT(VK_SUCCESS)
        CLOTH_VK_RESULT(VK_NOT_READY)
        CLOTH_VK_RESULT(VK_TIMEOUT)
        CLOTH_VK_RESULT(VK_EVENT_SET)
        CLOTH_VK_RESULT(VK_EVENT_RESET)
        CLOTH_VK_RESULT(VK_INCOMPLETE)
        CLOTH_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
        CLOTH_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        CLOTH_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
        CLOTH_VK_RESULT(VK_ERROR_DEVICE_LOST)
        CLOTH_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
        CLOTH_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
        CLOTH_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
        CLOTH_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
        CLOTH_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
        CLOTH_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
        CLOTH_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
        CLOTH_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
        CLOTH_VK_RESULT(VK_ERROR_UNKNOWN)
        CLOTH_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
        CLOTH_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
        CLOTH_VK_RESULT(VK_ERROR_FRAGMENTATION)
        CLOTH_VK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
        CLOTH_VK_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
        CLOTH_VK_RESULT(VK_ERROR_SURFACE_LOST_KHR)
        CLOTH_VK_RESULT(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
        CLOTH_VK_RESULT(VK_SUBOPTIMAL_KHR)
        CLOTH_VK_RESULT(VK_ERROR_OUT_OF_DATE_KHR)
        CLOTH_VK_RESULT(VK_ERROR_INCOMPATIBLE_DISPLAY_KHR)
        CLOTH_VK_RESULT(VK_ERROR_VALIDATION_FAILED_EXT)
#undef CLOTH_VK_RESULT
        default:
            break;
    }
    thread_local std::string unknown;
    unknown = "VkResult(" + std::to_string(static_cast<int>(result)) + ")";
    return unknown.c_str();
}

void checkFailed(VkResult result, const char* call, const char* file, int line) {
    throw Failure(result, std::string(file) + ":" + std::to_string(line) + ": " + call +
                              " failed: " + resultName(result));
}

}  // namespace cloth::vk
