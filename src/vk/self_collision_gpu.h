// Self-collision on the GPU (issue 13): the same steps as the CPU reference
// (src/cpu/self_collision.h) in one kernel with a job per step (shaders/self_collide.comp),
// recorded into the solver's command buffer. So far: the linear BVH over the cloth's triangles,
// built every substep from the positions at its start and predicted, node for node the CPU's.
#pragma once

#include <cstdint>
#include <vector>

#include "lbvh.h"  // shaders/shared
#include "prep/prepared.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"
#include "vk/context.h"

namespace cloth::vk {

class GpuSelfCollision {
  public:
    // positions, predicted, triangles: the solver's buffers (every vertex; 3 uint per
    // triangle). p.sim.selfCollision must be set; p's triangles non-empty.
    GpuSelfCollision(const Context& ctx, const PreparedCloth& p, const Buffer& positions,
                     const Buffer& predicted, const Buffer& triangles);

    // The positions at the substep's start (every vertex), which the solver copies in.
    const Buffer& start() const { return start_; }

    // Records the hierarchy's build from start() and the predicted positions (barriers
    // included; ends with one).
    void recordBuild(VkCommandBuffer cb) const;

    // The tree after a build (tests): as cpu/lbvh.h's Lbvh.
    struct Tree {
        std::vector<std::uint32_t> codes, order, parent, rangeEnd;
        std::vector<gpu::LbvhNode> nodes;
    };
    Tree readTree(OneShot& once) const;

  private:
    void dispatch(VkCommandBuffer cb, std::uint32_t job, std::uint32_t groups,
                  std::uint32_t shift = 0, std::uint32_t flip = 0) const;

    const Context* ctx_;
    std::uint32_t triangles_ = 0;
    std::uint32_t groups_ = 0;      // workgroups over the triangles (partial boxes)
    std::uint32_t sortBlocks_ = 0;  // radix sort blocks
    float margin_ = 0.0f;
    Buffer start_, triInfo_, triThickness_, tight_, boxes_, partials_, scene_;
    Buffer codes_, order_, codes2_, order2_, histograms_;
    Buffer nodes_, parent_, rangeEnd_, arrival_;
    ComputeKernel kernel_;
    ComputeKernel fitKernel_;  // workgroups of one invocation (FIT)
};

}  // namespace cloth::vk
