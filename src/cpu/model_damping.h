// Mueller's rigid-motion-preserving damping for the mass-spring, PD and FEM models on the CPU
// (prep/model_damping.h): the sums of the damped runs, the rigid motion of each damped segment,
// then each vertex's velocity v + k (v_rigid - v) (kernels/constraints.h). Any thread count gives
// the same bits, and the Vulkan solvers the same again (shaders/lib/model_rigid.glsl).
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "cpu/thread_pool.h"
#include "kernels/constraints.h"
#include "prep/model_damping.h"
#include "prep/prepared.h"

namespace cloth {

class ModelRigidDamping {
public:
    explicit ModelRigidDamping(const PreparedCloth& p);
    bool any() const { return table_.any(); }
    // Called by every member of a team run (`size` members): the member's share of the runs'
    // sums, a barrier, the motions (member 0), a barrier, then the velocities v of the vertices
    // [begin, end) damped. With `previous` (Verlet's positions one step back), each damped vertex's
    // previous position moves back by h dv so that the integrator sees the damped velocity.
    // Positions x: w = inverse mass; pinned vertices (w 0) neither count nor change.
    void apply(ThreadPool& pool, int member, int size, const std::vector<glm::vec4>& x,
               std::vector<glm::vec4>& v, std::uint32_t begin, std::uint32_t end,
               std::vector<glm::vec4>* previous = nullptr, float h = 0.0f);

private:
  const ModelRigidTable& table_;           // the prepared scene's solver data's
  std::vector<std::uint32_t> dampedOf_;    // per vertex: its damped segment, or ~0u
  std::vector<gpu::RigidSums> partials_;   // per run
  std::vector<gpu::RigidMotion> motions_;  // per damped segment
};

}  // namespace cloth
