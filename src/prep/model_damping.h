// Mueller's rigid-motion-preserving damping (docs/model.md, material.rigid_damping) for the models
// other than XPBD (docs/models.md): at the end of each substep every damped cloth segment's
// velocities move a share k (the segment's per-substep factor) towards the segment's rigid motion.
// The sums behind the rigid motion run over runs of gpu::RIGID_SUM_CHUNK vertices, each added
// vertex by vertex, and each segment adds its runs in order: one order for every thread count and
// for the Vulkan solvers (shaders/lib/model_rigid.glsl), so every backend gives the same bits.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "prep/prepared.h"

namespace cloth {

// The damped segments' runs, then the damped segments, in one table of uvec4 (the GPU's one
// buffer):
// - run r < runCount: (vertex begin, vertex count, damped segment d, 0);
// - entry runCount + d: (first run, run count, the segment's first vertex (the sums' reference
//   point), the segment's per-substep factor k as float bits).
// Only segments with k > 0 are damped; the vertices are the original ones (the models have no
// phantom vertices).
struct ModelRigidTable {
    std::vector<glm::uvec4> entries;
    std::uint32_t runCount = 0, segmentCount = 0;
    bool any() const { return segmentCount > 0; }
};
ModelRigidTable modelRigidTable(const PreparedCloth& p);

// The damping's three passes in order, each as run(pass, invocations): 0 the runs' sums, 1 each
// segment's rigid motion, 2 the velocities' move (a run's vertices, chunk by chunk).
template <class Run>
void forEachRigidDampingPass(const ModelRigidTable& t, Run&& run) {
    run(0u, t.runCount);
    run(1u, t.segmentCount);
    run(2u, t.runCount * gpu::RIGID_SUM_CHUNK);
}

}  // namespace cloth
