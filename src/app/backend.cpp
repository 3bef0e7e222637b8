#include "app/backend.h"

#include <cstdio>
#include <ostream>

#include <unistd.h>

#include "core/error.h"
#include "core/model_support.h"
#include "cpu/backend.h"
#include "vk/backend.h"
#include "vk/gpu_solver.h"
#include "vk/limits.h"

namespace cloth {

namespace {

vk::ContextOptions contextOptions(const BackendRequest& request,
                                  std::shared_ptr<vk::MessageLog> log) {
    vk::ContextOptions o;
    o.validation = request.validate;
    if (request.device) o.deviceIndex = static_cast<std::uint32_t>(*request.device);
    o.messageLog = std::move(log);
    return o;
}

Backend openGpu(const BackendRequest& request) {
    Backend b;
    b.name = "gpu";
    b.validation = std::make_shared<vk::MessageLog>();
    b.context = std::make_shared<vk::Context>(contextOptions(request, b.validation));
    return b;
}

void fallBack(Backend& b, const std::string& why, std::ostream& notices) {
    notices << "clothsim: " << why << "; using the CPU reference solver\n";
    b = Backend{};
}

}  // namespace

std::string cpuDeviceNotice(const std::string& device, bool window) {
    return "clothsim: " + device +
           " is a CPU implementation of Vulkan, slower than the CPU reference: using the CPU "
           "reference solver (--backend gpu" +
           (window ? std::string(", or B in the window,") : std::string()) +
           " uses it anyway)\n";
}

Backend chooseBackend(const BackendRequest& request, std::ostream& notices) {
    if (request.backend == "cpu") return Backend{};
    if (request.backend == "gpu") {
        try {
            return openGpu(request);
        } catch (const vk::Failure&) {
            throw;
        } catch (const Error& e) {
            throw Error(std::string("--backend gpu: ") + e.what());
        }
    }
    Backend cpu;
    if (auto why = vk::noVulkanReason()) {
        fallBack(cpu, "no Vulkan device (" + *why + ")", notices);
        return cpu;
    }
    if (!request.device) {
        auto best = vk::preferredDevice();
        if (!best) {
            fallBack(cpu, "no Vulkan device can run the solver", notices);
            return cpu;
        }
        if (best->type == VK_PHYSICAL_DEVICE_TYPE_CPU) {
            notices << cpuDeviceNotice(best->name, false);
            return cpu;
        }
    }
    try {
        Backend b = openGpu(request);
        b.automatic = true;
        return b;
    } catch (const Error& e) {
        if (request.device) throw;  // an explicit --device must work
        fallBack(cpu, std::string("cannot use the GPU (") + e.what() + ")", notices);
        return cpu;
    }
}

void checkSceneFitsDevice(const vk::Context& ctx, const Scene& scene, std::uint32_t workgroupSize) {
    vk::checkFitsDevice(ctx, vk::estimateCounts(scene), workgroupSize,
                        "scene '" + scene.name + "'");
}

void checkSceneFits(Backend& backend, const Scene& scene, const BackendRequest& request,
                    std::ostream& notices) {
    if (backend.name != "gpu") return;
    try {
        checkSceneFitsDevice(*backend.context, scene, request.workgroupSize);
    } catch (const Error& e) {
        if (!backend.automatic) throw;
        fallBack(backend, e.what(), notices);
    }
}

std::string deviceName(const Backend& backend) {
    return backend.name == "gpu" ? backend.context->info().name : cpuModelName();
}

std::unique_ptr<Solver> createSolver(Backend& backend, const BackendRequest& request,
                                     SharedCloth prepared, std::ostream& notices) {
    if (backend.name == "gpu") {
        vk::GpuSolverOptions o;
        o.context = backend.context;
        o.workgroupSize = request.workgroupSize;
        o.timestampInterval = request.timestampInterval;
        try {
            return vk::makeGpuSolver(prepared, o);
        } catch (const vk::Failure&) {
            throw;
        } catch (const Error& e) {
            if (!backend.automatic) throw;
            fallBack(backend, e.what(), notices);
        }
    }
    return makeCpuSolver(std::move(prepared), request.threads.value_or(defaultThreadCount()),
                         std::nullopt, request.fixedTeam ? 0u : kCpuWorkPerThread);
}

void listDevices(std::ostream& out) {
    if (auto why = vk::noVulkanReason()) {
        out << "no Vulkan device: " << *why << "\n";
        return;
    }
    vk::printDevices(out);
}

void checkModelSupport(Backend& backend, const Scene& scene, std::ostream& notices) {
    const ModelFeatures asked = modelFeatures(scene.sim);
    if (backend.name == "gpu") {
        auto why = unsupported(asked, SolverBackend::Gpu);
        if (!why) return;
        if (!backend.automatic) throw Error(*why);
        fallBack(backend, *why, notices);
    }
    requireSupported(asked, SolverBackend::Cpu);
}

}  // namespace cloth
