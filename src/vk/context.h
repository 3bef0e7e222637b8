// Vulkan context: loader (volk), instance, optional Khronos validation with a counting debug
// messenger, device listing and selection, one logical device with one queue.
//
// The compute solver creates one with default options. The renderer (issue 5) creates its own
// with surface/swapchain extensions, a graphics-capable queue that can present, and the features
// it draws with, then hands it to the solver (GpuSolverOptions::context) so that both share one
// device and one queue: the solver's buffers are then readable by the graphics pipeline directly
// (see GpuSolver::sharedBuffers()).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <volk.h>

#include "vk/check.h"
#include "vk/handle.h"

namespace cloth::vk {

// One physical device, as listed by --list-devices.
struct DeviceInfo {
    std::uint32_t index = 0;  // position in vkEnumeratePhysicalDevices, what --device takes
    std::string name;
    VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
    std::uint32_t vendorId = 0;
    std::uint32_t deviceId = 0;
    std::uint32_t apiVersion = 0;
    std::string driverName;     // e.g. "llvmpipe" (VkPhysicalDeviceDriverProperties)
    std::string driverInfo;     // e.g. "Mesa 22.3.6 (LLVM 15.0.6)"
    std::string driverVersion;  // decoded per vendor convention
    // VkPhysicalDeviceFloatControlsProperties::shaderDenormFlushToZeroFloat32: compute pipelines
    // then flush subnormal floats as the CPU reference does (vk/denorm_flush.h).
    bool denormFlushToZero32 = false;
    bool suitable = false;      // Vulkan 1.2 and a compute queue (and what the options ask)
    std::string unsuitableReason;
};

const char* deviceTypeName(VkPhysicalDeviceType type);  // "discrete GPU", "CPU", ...
const char* vendorName(std::uint32_t vendorId);         // "NVIDIA", "AMD", ... or "unknown"
std::string versionString(std::uint32_t apiVersion);    // "1.3.230"

// Validation messages seen by the debug messenger (printed to stderr unless quiet).
struct MessageLog {
    std::atomic<std::uint64_t> count{0};
    bool quiet = false;
};

struct ContextOptions {
    bool validation = false;  // Khronos validation layer + synchronisation validation
    std::optional<std::uint32_t> deviceIndex;  // default: discrete > integrated > virtual > CPU
    std::string appName = "clothsim";
    bool quietValidation = false;  // count validation messages without printing them
    // Where validation messages are counted; a caller that keeps it can check the count after
    // the context is gone (messages about leaked objects arrive at destruction).
    std::shared_ptr<MessageLog> messageLog;
    // A device that rounds differently, emulated (vk/rounding_emulation.h): every compute
    // pipeline's float divisions and square roots are perturbed by up to 2 ULP, pseudo-randomly
    // and deterministically from this seed. 0: off, the shaders as compiled.
    std::uint32_t emulatedRoundingSeed = 0;

    // ---- for the renderer ----
    std::vector<std::string> instanceExtensions;  // e.g. from SDL_Vulkan_GetInstanceExtensions
    std::vector<std::string> deviceExtensions;    // e.g. VK_KHR_swapchain
    bool graphicsQueue = false;                   // the queue must also support graphics
    // Called once the instance exists; the context owns (and destroys) the surface, and picks a
    // queue family that can present to it.
    std::function<VkSurfaceKHR(VkInstance)> createSurface;
    // Features to enable; a device lacking any of them is not suitable. sType/pNext are set by
    // the context.
    VkPhysicalDeviceFeatures features{};
    VkPhysicalDeviceVulkan12Features features12{};
    VkPhysicalDeviceVulkan13Features features13{};  // needs a Vulkan 1.3 device when used
};

// Instance, debug messenger and (optionally) surface. Also used alone to list devices.
class Instance {
  public:
    explicit Instance(const ContextOptions& options);
    Instance(Instance&&) = default;
    Instance& operator=(Instance&&) = default;
    ~Instance();

    VkInstance get() const { return instance_.get(); }
    std::uint32_t apiVersion() const { return apiVersion_; }
    bool debugUtils() const { return debugUtils_; }
    bool validation() const { return validation_; }
    std::uint64_t validationMessages() const { return log_->count.load(); }

    std::vector<VkPhysicalDevice> physicalDevices() const;
    DeviceInfo describe(VkPhysicalDevice device, std::uint32_t index) const;

  private:
    std::shared_ptr<MessageLog> log_;  // stable address for the messenger callback
    Unique<VkInstance> instance_;
    Unique<VkDebugUtilsMessengerEXT> messenger_;
    std::uint32_t apiVersion_ = 0;
    bool debugUtils_ = false;
    bool validation_ = false;
};

class Context {
  public:
    explicit Context(const ContextOptions& options = {});
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    ~Context();

    VkInstance instance() const { return instance_.get(); }
    VkPhysicalDevice physicalDevice() const { return physical_; }
    VkDevice device() const { return device_.get(); }
    VkQueue queue() const { return queue_; }  // externally synchronised: one thread submits
    std::uint32_t queueFamily() const { return queueFamily_; }
    VkSurfaceKHR surface() const { return surface_.get(); }
    std::uint32_t apiVersion() const { return apiVersion_; }  // min(instance, device)

    const DeviceInfo& info() const { return info_; }
    // ContextOptions::emulatedRoundingSeed: nonzero when compute pipelines emulate a device that
    // rounds divisions and square roots differently (vk/rounding_emulation.h).
    std::uint32_t emulatedRoundingSeed() const { return emulatedRoundingSeed_; }
    const VkPhysicalDeviceProperties& properties() const { return properties_; }
    const VkPhysicalDeviceLimits& limits() const { return properties_.limits; }
    const VkPhysicalDeviceMemoryProperties& memory() const { return memory_; }
    // Core features enabled on the device: those asked for, plus shaderInt64 wherever the device
    // has it (the solver's memory accesses on CPU devices use it).
    const VkPhysicalDeviceFeatures& features() const { return features_; }
    // Timestamps on this queue (0 valid bits: none) and nanoseconds per tick.
    bool timestamps() const { return timestampBits_ > 0; }
    std::uint32_t timestampValidBits() const { return timestampBits_; }
    double timestampPeriodNs() const { return properties_.limits.timestampPeriod; }

    // Validation messages seen so far (0 when validation is off). Tests require 0.
    std::uint64_t validationMessages() const { return instance_.validationMessages(); }
    bool validation() const { return instance_.validation(); }

    // Memory type with all of `required` (and `preferred` when one has it); throws if none.
    std::uint32_t memoryType(std::uint32_t typeBits, VkMemoryPropertyFlags required,
                             VkMemoryPropertyFlags preferred = 0) const;

    // Debug name for captures and validation messages (no-op without VK_EXT_debug_utils).
    template <typename T>
    void name(T handle, std::string_view name) const {
        setName(ObjectType<T>::value, reinterpret_cast<std::uint64_t>(handle), name);
    }
    void setName(VkObjectType type, std::uint64_t handle, std::string_view name) const;

    void waitIdle() const;

  private:
    Instance instance_;
    Unique<VkSurfaceKHR> surface_;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    Unique<VkDevice> device_;
    VkQueue queue_ = VK_NULL_HANDLE;
    std::uint32_t queueFamily_ = 0;
    std::uint32_t timestampBits_ = 0;
    std::uint32_t apiVersion_ = 0;
    std::uint32_t emulatedRoundingSeed_ = 0;
    DeviceInfo info_;
    VkPhysicalDeviceProperties properties_{};
    VkPhysicalDeviceMemoryProperties memory_{};
    VkPhysicalDeviceFeatures features_{};
};

// Why no Vulkan device can be used at all (no loader, no driver, no device), or nothing when at
// least one device exists. GPU tests skip (or fail when CI is set) on a reason.
std::optional<std::string> noVulkanReason();

// The device a default Context would pick (discrete > integrated > virtual > CPU), if any.
// Throws cloth::Error when there is no Vulkan loader or driver.
std::optional<DeviceInfo> preferredDevice();

// Every physical device (throws cloth::Error when there is no Vulkan loader or driver).
std::vector<DeviceInfo> listDevices();
// The --list-devices text: one line per device, the default marked with '*'.
void printDevices(std::ostream& out);

}  // namespace cloth::vk
