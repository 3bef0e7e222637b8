#include "vk/context.h"

#include <algorithm>
#include <cstdio>
#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <link.h>
#endif
#include <cstring>
#include <ostream>

namespace cloth::vk {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

// Under AddressSanitizer: keeps every library the loader opened (driver, layers, LLVM) mapped
// after the instance is destroyed, so that leak reports at exit can name them and the
// suppressions in tools/lsan.supp can match (their leaks are not ours to fix).
void pinLoadedLibraries() {
#if defined(__SANITIZE_ADDRESS__)
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void*) {
            if (info->dlpi_name && info->dlpi_name[0])
                dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
            return 0;
        },
        nullptr);
#endif
}

void loadVulkan() {
    if (volkInitialize() != VK_SUCCESS)
        throw Error(
            "no Vulkan loader found (libvulkan.so.1): install a Vulkan driver (Debian: libvulkan1 "
            "mesa-vulkan-drivers) or use --backend cpu");
}

// Only the validation layer's findings about the application (validation and performance
// messages) are counted. General messages, such as the loader's notice that VK_INSTANCE_LAYERS
// added a layer, are about the environment: printed as a notice (unless quiet), never counted.
VKAPI_ATTR VkBool32 VKAPI_CALL onDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                              VkDebugUtilsMessageTypeFlagsEXT type,
                                              const VkDebugUtilsMessengerCallbackDataEXT* data,
                                              void* user) {
    auto* log = static_cast<MessageLog*>(user);
    const bool aboutTheApp = (type & (VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT)) != 0;
    if (aboutTheApp) log->count.fetch_add(1);
    if (!log->quiet) {
        const char* level =
            (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error" : "warning";
        const char* text = data && data->pMessage ? data->pMessage : "(no message)";
        if (aboutTheApp)
            std::fprintf(stderr, "vulkan validation %s: %s\n", level, text);
        else
            std::fprintf(stderr, "vulkan notice (%s): %s\n",
                         data && data->pMessageIdName ? data->pMessageIdName : "general", text);
    }
    return VK_FALSE;
}

VkDebugUtilsMessengerCreateInfoEXT messengerInfo(MessageLog* log) {
    VkDebugUtilsMessengerCreateInfoEXT info{
        VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info.pfnUserCallback = onDebugMessage;
    info.pUserData = log;
    return info;
}

bool hasExtension(const std::vector<VkExtensionProperties>& list, const std::string& name) {
    return std::any_of(list.begin(), list.end(),
                       [&](const VkExtensionProperties& e) { return name == e.extensionName; });
}

std::vector<VkExtensionProperties> instanceExtensions(const char* layer) {
    std::uint32_t n = 0;
    VK_CHECK(vkEnumerateInstanceExtensionProperties(layer, &n, nullptr));
    std::vector<VkExtensionProperties> list(n);
    VK_CHECK(vkEnumerateInstanceExtensionProperties(layer, &n, list.data()));
    list.resize(n);
    return list;
}

std::vector<VkExtensionProperties> deviceExtensions(VkPhysicalDevice pd) {
    std::uint32_t n = 0;
    VK_CHECK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr));
    std::vector<VkExtensionProperties> list(n);
    VK_CHECK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, list.data()));
    list.resize(n);
    return list;
}

bool layerAvailable(const char* name) {
    std::uint32_t n = 0;
    VK_CHECK(vkEnumerateInstanceLayerProperties(&n, nullptr));
    std::vector<VkLayerProperties> layers(n);
    VK_CHECK(vkEnumerateInstanceLayerProperties(&n, layers.data()));
    layers.resize(n);
    return std::any_of(layers.begin(), layers.end(), [&](const VkLayerProperties& l) {
        return std::strcmp(l.layerName, name) == 0;
    });
}

std::string decodeDriverVersion(std::uint32_t vendorId, std::uint32_t v) {
    char buf[64];
    if (vendorId == 0x10DE) {  // NVIDIA: 10.8.8.6 bits
        std::snprintf(buf, sizeof buf, "%u.%u.%u.%u", v >> 22, (v >> 14) & 0xFF, (v >> 6) & 0xFF,
                      v & 0x3F);
    } else {
        std::snprintf(buf, sizeof buf, "%u.%u.%u", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v),
                      VK_API_VERSION_PATCH(v));
    }
    return buf;
}

// The VkBool32 members of a features struct, after its sType/pNext header when it has one.
template <typename T>
std::pair<const VkBool32*, std::size_t> featureBools(const T& f, std::size_t headerBytes) {
    auto* p = reinterpret_cast<const unsigned char*>(&f) + headerBytes;
    return {reinterpret_cast<const VkBool32*>(p), (sizeof(T) - headerBytes) / sizeof(VkBool32)};
}

template <typename T>
bool anyMissing(const T& want, const T& have, std::size_t headerBytes) {
    auto [w, n] = featureBools(want, headerBytes);
    auto [h, m] = featureBools(have, headerBytes);
    for (std::size_t i = 0; i < n && i < m; ++i)
        if (w[i] && !h[i]) return true;
    return false;
}

template <typename T>
bool anyRequested(const T& want, std::size_t headerBytes) {
    auto [w, n] = featureBools(want, headerBytes);
    return std::any_of(w, w + n, [](VkBool32 b) { return b != VK_FALSE; });
}

constexpr std::size_t kFeatureHeader =
    offsetof(VkPhysicalDeviceVulkan12Features, samplerMirrorClampToEdge);
static_assert(offsetof(VkPhysicalDeviceVulkan13Features, robustImageAccess) == kFeatureHeader);

int typeRank(VkPhysicalDeviceType type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
            return 0;
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
            return 1;
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
            return 2;
        case VK_PHYSICAL_DEVICE_TYPE_CPU:
            return 3;
        default:
            return 4;
    }
}

struct Candidate {
    VkPhysicalDevice device = VK_NULL_HANDLE;
    DeviceInfo info;
    std::uint32_t queueFamily = 0;
    std::uint32_t timestampBits = 0;
};

// Fills info.suitable / unsuitableReason and the queue family for `options`.
void checkSuitable(const Instance& inst, const ContextOptions& options, VkSurfaceKHR surface,
                   Candidate& c) {
    auto reject = [&](std::string why) {
        c.info.suitable = false;
        c.info.unsuitableReason = std::move(why);
    };
    if (c.info.apiVersion < VK_API_VERSION_1_2)
        return reject("supports Vulkan " + versionString(c.info.apiVersion) + ", needs 1.2");
    auto exts = deviceExtensions(c.device);
    for (const auto& e : options.deviceExtensions)
        if (!hasExtension(exts, e)) return reject("lacks device extension " + e);

    VkPhysicalDeviceVulkan13Features have13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features have12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    bool want13 = anyRequested(options.features13, kFeatureHeader);
    if (want13 &&
        (c.info.apiVersion < VK_API_VERSION_1_3 || inst.apiVersion() < VK_API_VERSION_1_3))
        return reject("needs Vulkan 1.3 for the requested features");
    have.pNext = &have12;
    if (want13) have12.pNext = &have13;
    vkGetPhysicalDeviceFeatures2(c.device, &have);
    if (anyMissing(options.features, have.features, 0) ||
        anyMissing(options.features12, have12, kFeatureHeader) ||
        (want13 && anyMissing(options.features13, have13, kFeatureHeader)))
        return reject("lacks a requested feature");

    std::uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(c.device, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(c.device, &n, families.data());
    VkQueueFlags need = VK_QUEUE_COMPUTE_BIT | (options.graphicsQueue ? VK_QUEUE_GRAPHICS_BIT : 0);
    for (std::uint32_t i = 0; i < n; ++i) {
        if ((families[i].queueFlags & need) != need) continue;
        if (surface) {
            VkBool32 present = VK_FALSE;
            VK_CHECK(vkGetPhysicalDeviceSurfaceSupportKHR(c.device, i, surface, &present));
            if (!present) continue;
        }
        c.queueFamily = i;
        c.timestampBits = families[i].timestampValidBits;
        c.info.suitable = true;
        c.info.unsuitableReason.clear();
        return;
    }
    reject(std::string("has no queue with compute") +
           (options.graphicsQueue ? " and graphics" : "") +
           (surface ? " that can present to the window" : ""));
}

std::vector<Candidate> candidates(const Instance& inst, const ContextOptions& options,
                                  VkSurfaceKHR surface) {
    std::vector<Candidate> list;
    auto devices = inst.physicalDevices();
    for (std::uint32_t i = 0; i < devices.size(); ++i) {
        Candidate c;
        c.device = devices[i];
        c.info = inst.describe(devices[i], i);
        checkSuitable(inst, options, surface, c);
        list.push_back(std::move(c));
    }
    return list;
}

// The preferred suitable device (discrete > integrated > virtual > CPU, then lowest index).
const Candidate* preferred(const std::vector<Candidate>& list) {
    const Candidate* best = nullptr;
    for (const auto& c : list)
        if (c.info.suitable && (!best || typeRank(c.info.type) < typeRank(best->info.type)))
            best = &c;
    return best;
}

const Candidate& select(const std::vector<Candidate>& list, const ContextOptions& options) {
    if (list.empty())
        throw Error(
            "no Vulkan device found (the loader lists none: is a Vulkan driver installed?)");
    if (options.deviceIndex) {
        std::uint32_t i = *options.deviceIndex;
        if (i >= list.size())
            throw Error("--device " + std::to_string(i) + ": no such Vulkan device (" +
                        std::to_string(list.size()) +
                        " found, numbered from 0; see --list-devices)");
        if (!list[i].info.suitable)
            throw Error("--device " + std::to_string(i) + " (" + list[i].info.name +
                        ") cannot be used: it " + list[i].info.unsuitableReason);
        return list[i];
    }
    if (const Candidate* best = preferred(list)) return *best;
    std::string why;
    for (const auto& c : list) why += "; " + c.info.name + " " + c.info.unsuitableReason;
    throw Error("no suitable Vulkan device" + why);
}

}  // namespace

const char* deviceTypeName(VkPhysicalDeviceType type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
            return "discrete GPU";
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
            return "integrated GPU";
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
            return "virtual GPU";
        case VK_PHYSICAL_DEVICE_TYPE_CPU:
            return "CPU";
        default:
            return "other";
    }
}

const char* vendorName(std::uint32_t id) {
    switch (id) {
        case 0x1002:
            return "AMD";
        case 0x1010:
            return "ImgTec";
        case 0x10DE:
            return "NVIDIA";
        case 0x13B5:
            return "ARM";
        case 0x5143:
            return "Qualcomm";
        case 0x8086:
            return "Intel";
        case 0x106B:
            return "Apple";
        case 0x10005:
            return "Mesa";
        default:
            return "unknown";
    }
}

std::string versionString(std::uint32_t v) {
    return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) +
           "." + std::to_string(VK_API_VERSION_PATCH(v));
}

// ---- Instance -----------------------------------------------------------------------------------

Instance::Instance(const ContextOptions& options)
    : log_(options.messageLog ? options.messageLog : std::make_shared<MessageLog>()) {
    loadVulkan();
    log_->quiet = log_->quiet || options.quietValidation;
    std::uint32_t loaderVersion = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion) VK_CHECK(vkEnumerateInstanceVersion(&loaderVersion));
    if (loaderVersion < VK_API_VERSION_1_2)
        throw Error("the Vulkan loader supports only Vulkan " + versionString(loaderVersion) +
                    "; clothsim needs 1.2");
    apiVersion_ = loaderVersion >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;

    auto available = instanceExtensions(nullptr);
    std::vector<const char*> layers;
    bool validationFeatures = false;
    if (options.validation) {
        if (!layerAvailable(kValidationLayer))
            throw Error(std::string("validation requested but ") + kValidationLayer +
                        " is not installed (Debian: vulkan-validationlayers)");
        layers.push_back(kValidationLayer);
        validationFeatures = hasExtension(instanceExtensions(kValidationLayer),
                                          VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
        validation_ = true;
    }
    std::vector<const char*> exts;
    debugUtils_ = hasExtension(available, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (debugUtils_) exts.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (validation_ && !debugUtils_)
        throw Error("validation requested but VK_EXT_debug_utils is not available");
    if (validationFeatures) exts.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    VkInstanceCreateFlags flags = 0;
    if (hasExtension(available, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
        exts.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
        flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }
    for (const auto& e : options.instanceExtensions) {
        if (!hasExtension(available, e))
            throw Error("the Vulkan driver lacks the instance extension " + e);
        exts.push_back(e.c_str());
    }

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = options.appName.c_str();
    app.pEngineName = "clothsim";
    app.apiVersion = apiVersion_;

    // Synchronisation validation checks the barriers between dispatches too.
    VkValidationFeatureEnableEXT enables[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;
    VkDebugUtilsMessengerCreateInfoEXT messenger = messengerInfo(log_.get());
    if (validationFeatures) messenger.pNext = &features;

    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pNext = validation_ ? &messenger : nullptr;  // also covers create/destroy instance
    info.flags = flags;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = static_cast<std::uint32_t>(exts.size());
    info.ppEnabledExtensionNames = exts.data();
    VkInstance instance = VK_NULL_HANDLE;
    VkResult r = vkCreateInstance(&info, nullptr, &instance);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        throw Error("no Vulkan driver found (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER)");
    VK_CHECK(r);
    instance_ = Unique<VkInstance>(instance);
    volkLoadInstance(instance);
    pinLoadedLibraries();  // device functions go through the loader's dispatch

    if (validation_) {
        VkDebugUtilsMessengerCreateInfoEXT m = messengerInfo(log_.get());
        VkDebugUtilsMessengerEXT handle = VK_NULL_HANDLE;
        VK_CHECK(vkCreateDebugUtilsMessengerEXT(instance, &m, nullptr, &handle));
        messenger_ = Unique<VkDebugUtilsMessengerEXT>(instance, handle);
    }
}

Instance::~Instance() = default;

std::vector<VkPhysicalDevice> Instance::physicalDevices() const {
    std::uint32_t n = 0;
    VK_CHECK(vkEnumeratePhysicalDevices(get(), &n, nullptr));
    std::vector<VkPhysicalDevice> list(n);
    VK_CHECK(vkEnumeratePhysicalDevices(get(), &n, list.data()));
    list.resize(n);
    return list;
}

DeviceInfo Instance::describe(VkPhysicalDevice device, std::uint32_t index) const {
    VkPhysicalDeviceProperties props{};
    vkGetPhysicalDeviceProperties(device, &props);
    DeviceInfo info;
    info.index = index;
    info.name = props.deviceName;
    info.type = props.deviceType;
    info.vendorId = props.vendorID;
    info.deviceId = props.deviceID;
    info.apiVersion = props.apiVersion;
    info.driverVersion = decodeDriverVersion(props.vendorID, props.driverVersion);
    if (props.apiVersion >= VK_API_VERSION_1_2) {
        VkPhysicalDeviceDriverProperties driver{
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
        VkPhysicalDeviceFloatControlsProperties floats{
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
        driver.pNext = &floats;
        VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        props2.pNext = &driver;
        vkGetPhysicalDeviceProperties2(device, &props2);
        info.denormFlushToZero32 = floats.shaderDenormFlushToZeroFloat32 == VK_TRUE;
        info.driverName = driver.driverName;
        info.driverInfo = driver.driverInfo;
    }
    return info;
}

// ---- Context ------------------------------------------------------------------------------------

Context::Context(const ContextOptions& options)
    : instance_(options), emulatedRoundingSeed_(options.emulatedRoundingSeed) {
    if (options.createSurface) {
        VkSurfaceKHR s = options.createSurface(instance_.get());
        if (!s) throw Error("could not create a Vulkan surface for the window");
        surface_ = Unique<VkSurfaceKHR>(instance_.get(), s);
    }
    auto list = candidates(instance_, options, surface_.get());
    const Candidate& chosen = select(list, options);
    physical_ = chosen.device;
    info_ = chosen.info;
    queueFamily_ = chosen.queueFamily;
    timestampBits_ = chosen.timestampBits;
    vkGetPhysicalDeviceProperties(physical_, &properties_);
    vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
    apiVersion_ = std::min(instance_.apiVersion(), properties_.apiVersion);

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = queueFamily_;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;

    VkPhysicalDeviceVulkan13Features f13 = options.features13;
    f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    f13.pNext = nullptr;
    VkPhysicalDeviceVulkan12Features f12 = options.features12;
    f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    f12.pNext = anyRequested(f13, kFeatureHeader) ? &f13 : nullptr;
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    features.features = options.features;
    VkPhysicalDeviceFeatures supported{};
    vkGetPhysicalDeviceFeatures(physical_, &supported);
    features.features.shaderInt64 |= supported.shaderInt64;
    features_ = features.features;
    features.pNext = &f12;

    std::vector<const char*> exts;
    for (const auto& e : options.deviceExtensions) exts.push_back(e.c_str());
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.pNext = &features;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = static_cast<std::uint32_t>(exts.size());
    info.ppEnabledExtensionNames = exts.data();
    VkDevice device = VK_NULL_HANDLE;
    VK_CHECK(vkCreateDevice(physical_, &info, nullptr, &device));
    device_ = Unique<VkDevice>(device);
    pinLoadedLibraries();
    vkGetDeviceQueue(device, queueFamily_, 0, &queue_);
    name(device, "clothsim device");
    name(queue_, "clothsim queue");
}

Context::~Context() {
    if (device_) vkDeviceWaitIdle(device_.get());
}

void Context::waitIdle() const {
    VK_CHECK(vkDeviceWaitIdle(device_.get()));
}

std::uint32_t Context::memoryType(std::uint32_t typeBits, VkMemoryPropertyFlags required,
                                  VkMemoryPropertyFlags preferred) const {
    int fallback = -1;
    for (std::uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
        if (!(typeBits & (1u << i))) continue;
        VkMemoryPropertyFlags f = memory_.memoryTypes[i].propertyFlags;
        if ((f & required) != required) continue;
        if ((f & preferred) == preferred) return i;
        if (fallback < 0) fallback = static_cast<int>(i);
    }
    if (fallback < 0)
        throw Error("the Vulkan device " + info_.name + " has no suitable memory type");
    return static_cast<std::uint32_t>(fallback);
}

void Context::setName(VkObjectType type, std::uint64_t handle, std::string_view name) const {
    if (!instance_.debugUtils() || !device_) return;
    std::string text(name);
    VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = handle;
    info.pObjectName = text.c_str();
    VK_CHECK(vkSetDebugUtilsObjectNameEXT(device_.get(), &info));
}

// ---- listing ------------------------------------------------------------------------------------

std::optional<std::string> noVulkanReason() {
    try {
        if (listDevices().empty()) return "the Vulkan loader lists no device";
    } catch (const Error& e) {
        return std::string(e.what());
    }
    return std::nullopt;
}

std::optional<DeviceInfo> preferredDevice() {
    Instance inst{ContextOptions{}};
    auto list = candidates(inst, ContextOptions{}, VK_NULL_HANDLE);
    const Candidate* best = preferred(list);
    if (!best) return std::nullopt;
    return best->info;
}

std::vector<DeviceInfo> listDevices() {
    Instance inst{ContextOptions{}};
    std::vector<DeviceInfo> out;
    for (auto& c : candidates(inst, ContextOptions{}, VK_NULL_HANDLE)) out.push_back(c.info);
    return out;
}

void printDevices(std::ostream& out) {
    Instance inst{ContextOptions{}};
    auto list = candidates(inst, ContextOptions{}, VK_NULL_HANDLE);
    const Candidate* best = preferred(list);
    if (list.empty()) out << "no Vulkan devices\n";
    for (const auto& c : list) {
        const DeviceInfo& d = c.info;
        out << (&c == best ? "* " : "  ") << d.index << ": " << d.name << " | "
            << deviceTypeName(d.type) << " | driver " << (d.driverName.empty() ? "?" : d.driverName)
            << " " << d.driverVersion << (d.driverInfo.empty() ? "" : " (" + d.driverInfo + ")")
            << " | Vulkan " << versionString(d.apiVersion);
        if (!d.suitable) out << " | unusable: " << d.unsuitableReason;
        out << "\n";
    }
}

}  // namespace cloth::vk
