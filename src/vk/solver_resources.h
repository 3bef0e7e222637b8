// Device buffers and pipelines of the compute solver (internal to GpuSolver).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "prep/jacobi_layout.h"
#include "prep/prepared.h"
#include "kernels/solver_io.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"
#include "vk/context.h"

namespace cloth::vk::detail {

// Workgroups of the per-vertex passes: each covers up to `workgroupSize` consecutive vertices
// of one segment (its original vertices, then separately its phantoms). And the runs of
// RIGID_SUM_CHUNK vertices the damping sums are added over, in the CPU reference's order.
struct ChunkTable {
    std::vector<gpu::VertexChunk> chunks;
    std::vector<gpu::VertexChunk> sumChunks;
    std::vector<glm::uvec2> segmentSumChunks;  // per segment: first sum chunk, their count
};
ChunkTable buildChunks(const PreparedCloth& prepared, std::uint32_t workgroupSize);

struct SolverBuffers {
    std::array<Buffer, BINDING_COUNT> byBinding;  // indexed by BINDING_*
    const Buffer& operator[](int binding) const { return byBinding[binding]; }
};
// `jacobi`: the Jacobi iteration's layout (null with Gauss-Seidel: placeholder buffers).
SolverBuffers createBuffers(const Context& ctx, const PreparedCloth& prepared,
                            const ChunkTable& chunks, const JacobiLayout* jacobi, OneShot& once);
// The state a solver starts from, written by createBuffers and again by GpuSolver::restart:
// the positions (the predictions' too, and the Jacobi iteration's previous positions), the
// velocities, each vertex's contact state where it is (`colliders`), zero multipliers, normals
// and sums.
void writeStartState(const Context& ctx, OneShot& once, const SolverBuffers& buffers,
                     std::span<const glm::vec4> positions, std::span<const glm::vec4> velocities,
                     bool colliders, bool jacobi);

enum class Kernel {
    Colors, ColorRun, Attach, Tethers, Phantoms, RigidSums, Rigid, Normals, Vertices, Wind,
    Contacts, Jacobi
};

// Specialization constants of a pipeline besides the workgroup size (see solver_io.h).
struct Spec {
    std::uint32_t variant = 0;  // VERTEX_* stages or COLOR_* types
    std::uint32_t lambda = 0;   // LAMBDA_* flags
    bool strided = false;       // several items per invocation
    std::uint32_t fault = 0;    // FAULT_* (GpuSolverOptions::Fault), 0 without
    auto operator<=>(const Spec&) const = default;
};

// A kernel's pipeline layout: the colour and Jacobi kernels use SET_STATE and SET_CONSTRAINTS, the contact
// kernel SET_STATE, SET_VERTEX and SET_COLLISIONS, every other kernel SET_STATE and SET_VERTEX
// (solver_io.h). All have the same push-constant range.
enum class LayoutKind { Vertex, Colors, Collisions };

struct PipelineRef {
    VkPipeline pipeline = VK_NULL_HANDLE;
    LayoutKind kind = LayoutKind::Vertex;
};

// The descriptor sets (one per group of buffers), the two pipeline layouts and the compute
// pipelines; pipelines are compiled on first use.
class SolverPipelines {
  public:
    // `wide`: the *_wide.comp variants (64-bit memory accesses; needs shaderInt64).
    // `runWorkgroupSize`: the workgroup size of Kernel::ColorRun (every other kernel:
    // `workgroupSize`).
    SolverPipelines(const Context& ctx, const SolverBuffers& buffers, std::uint32_t workgroupSize,
                    std::uint32_t runWorkgroupSize, bool wide);

    VkPipelineLayout layout(LayoutKind kind) const { return layouts_[static_cast<int>(kind)].get(); }
    // Binds the sets a layout of `kind` uses (after a pipeline of the other kind disturbed them).
    void bindSets(VkCommandBuffer cb, LayoutKind kind) const;
    PipelineRef get(Kernel kernel, Spec spec = {});

  private:
    const Context* ctx_;
    std::uint32_t workgroupSize_;
    std::uint32_t runWorkgroupSize_;
    bool wide_;
    std::array<Unique<VkDescriptorSetLayout>, SET_COUNT> setLayouts_;
    Unique<VkDescriptorSetLayout> emptyLayout_;  // the unused sets in between
    Unique<VkDescriptorPool> pool_;
    std::array<VkDescriptorSet, SET_COUNT> sets_{};  // freed with the pool
    std::array<Unique<VkPipelineLayout>, 3> layouts_;  // by LayoutKind
    std::map<std::pair<Kernel, Spec>, Unique<VkPipeline>> pipelines_;
};

}  // namespace cloth::vk::detail
