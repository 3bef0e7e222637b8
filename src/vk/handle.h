// One ownership model for every Vulkan object (docs/design.md, 'One ownership model for Vulkan objects'): Unique<T> is a move-only
// owner that destroys its handle through its parent (device or instance) when it goes away.
// Owners that the GPU may still be using (buffers, pipelines, ...) belong to objects that wait
// for their own work (GpuSolver waits for the device to be idle) before their members go away.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include <volk.h>

namespace cloth::vk {

// Distinct C++ types per handle (64-bit handle definitions) let the traits below be overloads.
static_assert(sizeof(void*) == 8, "clothsim's Vulkan wrappers need 64-bit handle types");

template <typename T>
struct HandleTraits;

#define CLOTH_VK_DEVICE_CHILD(T, destroyFn, objectType)                    \
    template <>                                                            \
    struct HandleTraits<T> {                                               \
        using Parent = VkDevice;                                           \
        static constexpr VkObjectType kType = objectType;                  \
        static void destroy(VkDevice p, T h) { destroyFn(p, h, nullptr); } \
    };
#define CLOTH_VK_INSTANCE_CHILD(T, destroyFn, objectType)                    \
    template <>                                                              \
    struct HandleTraits<T> {                                                 \
        using Parent = VkInstance;                                           \
        static constexpr VkObjectType kType = objectType;                    \
        static void destroy(VkInstance p, T h) { destroyFn(p, h, nullptr); } \
    };

CLOTH_VK_DEVICE_CHILD(VkBuffer, vkDestroyBuffer, VK_OBJECT_TYPE_BUFFER)
CLOTH_VK_DEVICE_CHILD(VkDeviceMemory, vkFreeMemory, VK_OBJECT_TYPE_DEVICE_MEMORY)
CLOTH_VK_DEVICE_CHILD(VkImage, vkDestroyImage, VK_OBJECT_TYPE_IMAGE)
CLOTH_VK_DEVICE_CHILD(VkImageView, vkDestroyImageView, VK_OBJECT_TYPE_IMAGE_VIEW)
CLOTH_VK_DEVICE_CHILD(VkSampler, vkDestroySampler, VK_OBJECT_TYPE_SAMPLER)
CLOTH_VK_DEVICE_CHILD(VkShaderModule, vkDestroyShaderModule, VK_OBJECT_TYPE_SHADER_MODULE)
CLOTH_VK_DEVICE_CHILD(VkPipeline, vkDestroyPipeline, VK_OBJECT_TYPE_PIPELINE)
CLOTH_VK_DEVICE_CHILD(VkPipelineLayout, vkDestroyPipelineLayout, VK_OBJECT_TYPE_PIPELINE_LAYOUT)
CLOTH_VK_DEVICE_CHILD(VkPipelineCache, vkDestroyPipelineCache, VK_OBJECT_TYPE_PIPELINE_CACHE)
CLOTH_VK_DEVICE_CHILD(VkDescriptorSetLayout, vkDestroyDescriptorSetLayout,
                      VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT)
CLOTH_VK_DEVICE_CHILD(VkDescriptorPool, vkDestroyDescriptorPool, VK_OBJECT_TYPE_DESCRIPTOR_POOL)
CLOTH_VK_DEVICE_CHILD(VkCommandPool, vkDestroyCommandPool, VK_OBJECT_TYPE_COMMAND_POOL)
CLOTH_VK_DEVICE_CHILD(VkFence, vkDestroyFence, VK_OBJECT_TYPE_FENCE)
CLOTH_VK_DEVICE_CHILD(VkSemaphore, vkDestroySemaphore, VK_OBJECT_TYPE_SEMAPHORE)
CLOTH_VK_DEVICE_CHILD(VkQueryPool, vkDestroyQueryPool, VK_OBJECT_TYPE_QUERY_POOL)
CLOTH_VK_DEVICE_CHILD(VkRenderPass, vkDestroyRenderPass, VK_OBJECT_TYPE_RENDER_PASS)
CLOTH_VK_DEVICE_CHILD(VkFramebuffer, vkDestroyFramebuffer, VK_OBJECT_TYPE_FRAMEBUFFER)
CLOTH_VK_DEVICE_CHILD(VkSwapchainKHR, vkDestroySwapchainKHR, VK_OBJECT_TYPE_SWAPCHAIN_KHR)
CLOTH_VK_INSTANCE_CHILD(VkSurfaceKHR, vkDestroySurfaceKHR, VK_OBJECT_TYPE_SURFACE_KHR)
CLOTH_VK_INSTANCE_CHILD(VkDebugUtilsMessengerEXT, vkDestroyDebugUtilsMessengerEXT,
                        VK_OBJECT_TYPE_DEBUG_UTILS_MESSENGER_EXT)

template <>
struct HandleTraits<VkInstance> {
    using Parent = std::nullptr_t;
    static constexpr VkObjectType kType = VK_OBJECT_TYPE_INSTANCE;
    static void destroy(std::nullptr_t, VkInstance h) { vkDestroyInstance(h, nullptr); }
};
template <>
struct HandleTraits<VkDevice> {
    using Parent = std::nullptr_t;
    static constexpr VkObjectType kType = VK_OBJECT_TYPE_DEVICE;
    static void destroy(std::nullptr_t, VkDevice h) { vkDestroyDevice(h, nullptr); }
};

#undef CLOTH_VK_DEVICE_CHILD
#undef CLOTH_VK_INSTANCE_CHILD

// Object type for debug names: owned handles take theirs from HandleTraits, a few others here.
template <typename T>
struct ObjectType {
    static constexpr VkObjectType value = HandleTraits<T>::kType;
};
template <>
struct ObjectType<VkQueue> {
    static constexpr VkObjectType value = VK_OBJECT_TYPE_QUEUE;
};
template <>
struct ObjectType<VkCommandBuffer> {
    static constexpr VkObjectType value = VK_OBJECT_TYPE_COMMAND_BUFFER;
};
template <>
struct ObjectType<VkDescriptorSet> {
    static constexpr VkObjectType value = VK_OBJECT_TYPE_DESCRIPTOR_SET;
};

template <typename T>
class Unique {
  public:
    using Parent = typename HandleTraits<T>::Parent;

    Unique() = default;
    Unique(Parent parent, T handle) : parent_(parent), handle_(handle) {}
    explicit Unique(T handle) requires std::is_same_v<Parent, std::nullptr_t> : handle_(handle) {}
    Unique(Unique&& o) noexcept
        : parent_(std::exchange(o.parent_, Parent{})), handle_(std::exchange(o.handle_, T{})) {}
    Unique& operator=(Unique&& o) noexcept {
        if (this != &o) {
            reset();
            parent_ = std::exchange(o.parent_, Parent{});
            handle_ = std::exchange(o.handle_, T{});
        }
        return *this;
    }
    Unique(const Unique&) = delete;
    Unique& operator=(const Unique&) = delete;
    ~Unique() { reset(); }

    void reset() {
        if (handle_ != T{}) HandleTraits<T>::destroy(parent_, handle_);
        handle_ = T{};
    }
    T get() const { return handle_; }
    explicit operator bool() const { return handle_ != T{}; }

  private:
    Parent parent_{};
    T handle_{};
};

}  // namespace cloth::vk
