// The Vulkan solver's options, the buffers it shares with the renderer and its frame's counts
// (vk/gpu_solver.h): apart from the solver, so that its own parts (device_policy.h, recorder.h)
// read them without including the solver back.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "vk/context.h"

namespace cloth::vk {

// How a colour's constraints are dispatched: both types in one dispatch (fewer dispatches), or
// one dispatch per type (cheaper per constraint on CPU devices such as lavapipe, whose shader
// with both types costs about 50% more per constraint). Auto: both types on GPUs; on CPU
// devices one dispatch per type, except for colours small enough that the dispatch costs more
// than the constraints (fewer than smallColorItems).
enum class ColorBatching { Auto, BothTypes, PerType };

// Automatic GpuSolverOptions::colorRunItems and colorRunWorkgroupSize on CPU devices (see
// README, "Colour runs").
inline constexpr std::uint32_t kCpuDeviceColorRunItems = 2048;
inline constexpr std::uint32_t kCpuDeviceColorRunWorkgroupSize = 64;

// How shaders move vertex state and constraints: as vec4/structs, or as 64-bit words, which
// halves the cost of memory access on CPU devices (see shaders/solver/buffers.glsl). Auto: wide
// on CPU devices that have shaderInt64, plain elsewhere.
enum class MemoryAccess { Auto, Plain, Wide };

struct GpuSolverOptions {
    // Device and queue to run on; when null the solver creates its own from contextOptions.
    // The renderer passes its context here so that both share the device, queue and buffers.
    std::shared_ptr<Context> context;
    ContextOptions contextOptions;
    std::uint32_t workgroupSize = 64;  // a power of two, up to the device's limit
    // Most items (constraints, vertices) one invocation handles in a dispatch, looping with the
    // dispatch size as stride; 0 = automatic (1). Enough workgroups to keep every core of a CPU
    // device busy are launched either way.
    std::uint32_t itemsPerInvocation = 0;
    bool fuseStages = true;  // velocity + damping + next prediction in one per-vertex pass
    ColorBatching colorBatching = ColorBatching::Auto;
    std::uint32_t smallColorItems = 4096;
    // Consecutive colours of at most this many constraints each are solved as one run: a single
    // workgroup solves them in order with a workgroup barrier between colours, in one dispatch,
    // instead of one dispatch and one pipeline barrier per colour (same order, same results).
    // 0 = never. Unset = automatic: kCpuDeviceColorRunItems on CPU devices (measured on
    // lavapipe), the workgroup size on GPUs (each colour of a run is then one pass of the
    // workgroup). Runs are not used when phantoms are averaged after every colour.
    std::optional<std::uint32_t> colorRunItems;
    // Workgroup size of a run's dispatch (a power of two up to the device's limit); 0 = automatic:
    // 64 on CPU devices, workgroupSize on GPUs.
    std::uint32_t colorRunWorkgroupSize = 0;
    MemoryAccess memoryAccess = MemoryAccess::Auto;
    // Per-stage GPU times from timestamp queries (when the queue supports them), taken every
    // timestampInterval-th frame (0 = never, 1 = every frame). Off by default: on lavapipe each
    // timestamp costs about 0.1 ms, as much as a small dispatch.
    std::uint32_t timestampInterval = 0;
    // Wait for the GPU at the end of stepFrame(). When false, stepFrame() returns after the
    // submission and the next stepFrame() or read waits (lets the CPU run ahead, e.g. to render).
    bool synchronous = true;
    // Self-collision: candidate pairs the buffers hold at first (0: automatic, 32 per
    // triangle). More are counted, the buffers grow and the frame is redone (selfGrowths()).
    std::uint32_t selfContactCapacity = 0;
    // A bug put in on purpose, for clothcheck --inject (a verdict must catch it): SkipColour
    // leaves the first colour out of the first iteration of each frame's first substep;
    // GradientSign flips the sign of one vertex's gradient in distance constraint 0
    // (shaders/solver/colors.glsl, FAULT_GRADIENT_SIGN); DropContact leaves the collider
    // contacts of one vertex in 97 unprojected (shaders/solver/contacts.glsl); MissingBarrier
    // solves colours 0 and 1 of the same iteration as one colour run without the workgroup
    // barrier between them (FAULT_MISSING_BARRIER): a deterministic order on llvmpipe, which
    // runs a workgroup's invocations 8 at a time up to each barrier, and a race on GPUs.
    enum class Fault { None, SkipColour, GradientSign, DropContact, MissingBarrier };
    Fault fault = Fault::None;
};

// A buffer range another pipeline may read (vertex, index or storage buffer).
struct BufferRange {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;
};

// The simulation's output buffers, for the renderer (issue 5): draw straight from them.
// They are written by compute shaders on context().queue(). To read them on the same queue,
// submit after stepFrame() and record recordReadBarrier() first. Each frame's command buffer starts
// with a barrier that waits for all earlier work on the queue, so reads submitted before the
// next stepFrame() finish before the solver writes again.
struct SharedBuffers {
    BufferRange positions;  // vec4 per vertex: xyz, w = inverse mass; originals first, in
                            // PreparedCloth order (VERTEX_BUFFER usage too)
    BufferRange normals;    // vec4 per original vertex, unit xyz (VERTEX_BUFFER usage too)
    BufferRange triangles;  // uint32 x 3 per triangle, original vertex indices (INDEX_BUFFER)
    std::uint32_t originalVertexCount = 0;
    std::uint32_t triangleCount = 0;
};

// Counts of the most recent frame (clothbench): the dispatches and barriers of its commands (all
// of them, self-collision's among them), and in stepFrame() the queue submissions, the host's
// waits for the device, the frames redone after self-collision's buffers grew, and the command
// buffers recorded. A synchronous frame that needs no redo: one submission, one wait.
struct FrameCounters {
    std::uint32_t dispatches = 0;
    std::uint32_t barriers = 0;
    std::uint32_t selfDispatches = 0;  // of which self-collision's
    std::uint32_t submissions = 0;
    std::uint32_t hostWaits = 0;
    std::uint32_t redoneFrames = 0;
    // Command buffers recorded (0: the frame submitted the commands recorded for an earlier one).
    std::uint32_t recordings = 0;
};

}  // namespace cloth::vk
