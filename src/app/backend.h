// Chooses and creates the solver backend for clothsim, clothbench and clothcheck.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "core/scene.h"
#include "prep/prepared.h"
#include "sim/solver.h"
#include "vk/context.h"

namespace cloth {

struct BackendRequest {
    std::string backend = "auto";         // cpu | gpu | auto
    std::optional<int> threads;           // CPU threads (default: all hardware threads)
    bool fixedTeam = false;               // --team fixed: every frame on all the threads
    std::optional<int> device;            // Vulkan device index
    bool validate = false;                // Vulkan validation layer
    std::uint32_t workgroupSize = 64;     // GPU compute workgroup size
    std::uint32_t timestampInterval = 0;  // GPU stage timestamps every N-th frame (0: none)
};

// What a request resolves to: the CPU, or the GPU on an opened Vulkan device.
struct Backend {
    std::string name = "cpu";                    // "cpu" | "gpu"
    bool automatic = false;                      // chosen by "auto": may still fall back
    std::shared_ptr<vk::Context> context;        // gpu: the device (a renderer can share it)
    std::shared_ptr<vk::MessageLog> validation;  // gpu with --validate: messages seen
};

// "cpu" -> CPU. "gpu" -> opens the Vulkan device (cloth::Error when there is none, or --device
// names none). "auto" -> the GPU when a GPU-type device exists or --device names one; otherwise
// the CPU, with a one-line notice on `notices` (a CPU-type Vulkan device such as lavapipe is
// slower than the CPU reference, so auto does not pick it unless asked).
Backend chooseBackend(const BackendRequest& request, std::ostream& notices);

// The one wording of the notice "auto" gives when the Vulkan device is a CPU implementation
// (`window`: the viewer, whose B key switches to it): "clothsim: <device> is a CPU implementation
// of Vulkan, slower than the CPU reference: using the CPU reference solver (--backend gpu uses it
// anyway)".
std::string cpuDeviceNotice(const std::string& device, bool window);

// From the scene description alone: cloth::Error naming the scene when its grids exceed the
// device's buffer or dispatch limits at this workgroup size.
void checkSceneFitsDevice(const vk::Context& ctx, const Scene& scene, std::uint32_t workgroupSize);

// Before building meshes: refuses a scene too large for the GPU's buffer and dispatch limits
// (cloth::Error for "gpu"; "auto" falls back to the CPU with a notice). No-op on the CPU.
void checkSceneFits(Backend& backend, const Scene& scene, const BackendRequest& request,
                    std::ostream& notices);

// Before building meshes, a scene too large for the machine's memory: app/memory_estimate.h.

// The device a Backend runs on, as Solver::deviceName() reports it: the CPU model or the Vulkan
// device's name.
std::string deviceName(const Backend& backend);
// Before preparing `scene`: whether `backend` runs what the scene asks of its model
// (core/model_support.h's table). Where it does not, a GPU chosen automatically falls back to the
// CPU reference (a notice); otherwise cloth::Error with the table's message.
void checkModelSupport(Backend& backend, const Scene& scene, std::ostream& notices);

// The solver shares `prepared` (sim/solver.h).
std::unique_ptr<Solver> createSolver(Backend& backend, const BackendRequest& request,
                                     SharedCloth prepared, std::ostream& notices);

// The --list-devices text (or why there is no device).
void listDevices(std::ostream& out);

}  // namespace cloth
