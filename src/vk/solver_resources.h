// Device buffers and pipelines of the compute solver (internal to GpuSolver).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include <glm/glm.hpp>

#include "prep/prepared.h"
#include "solver_io.h"
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
SolverBuffers createBuffers(const Context& ctx, const PreparedCloth& prepared,
                            const ChunkTable& chunks, OneShot& once);

enum class Kernel {
    Colors, ColorRun, Attach, Tethers, Phantoms, RigidSums, Rigid, Normals, Vertices, Wind
};

// Specialization constants of a pipeline besides the workgroup size (see solver_io.h).
struct Spec {
    std::uint32_t variant = 0;  // VERTEX_* stages or COLOR_* types
    std::uint32_t lambda = 0;   // LAMBDA_* flags
    bool strided = false;       // several items per invocation
    auto operator<=>(const Spec&) const = default;
};

// Descriptor set, layout and compute pipelines; pipelines are compiled on first use.
class SolverPipelines {
  public:
    // `wide`: the *_wide.comp variants (64-bit memory accesses; needs shaderInt64).
    // `runWorkgroupSize`: the workgroup size of Kernel::ColorRun (every other kernel:
    // `workgroupSize`).
    SolverPipelines(const Context& ctx, const SolverBuffers& buffers, std::uint32_t workgroupSize,
                    std::uint32_t runWorkgroupSize, bool wide);

    VkDescriptorSet set() const { return set_.set(); }
    VkPipelineLayout layout() const { return set_.layout(); }
    VkPipeline get(Kernel kernel, Spec spec = {});

  private:
    const Context* ctx_;
    std::uint32_t workgroupSize_;
    std::uint32_t runWorkgroupSize_;
    bool wide_;
    StorageSet set_;
    std::map<std::pair<Kernel, Spec>, Unique<VkPipeline>> pipelines_;
};

}  // namespace cloth::vk::detail
