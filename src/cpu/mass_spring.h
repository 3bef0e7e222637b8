// The mass-spring model on the CPU (docs/models.md): Provot's springs (prep/springs.h) advanced by
// forward Euler, symplectic Euler or position Verlet in equal steps (adaptive_verlet: time-corrected
// Verlet, the substep's remainder last), each substep split into as
// many as stability needs (prep/springs.h planSpringSteps); gravity, air damping, pins (inverse
// mass 0), attachments (hard ones carry their vertex, compliant ones are springs of rest length
// 0), the materials' linear damping (as air damping), tethers and the colliders, meshes included,
// with friction (both projected after each step).
// Threads share the vertices; each vertex's force is summed over its springs in a fixed order, so
// the result does not depend on the thread count.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <glm/glm.hpp>

#include "core/scene.h"
#include "cpu/vertex_drivers.h"
#include "kernels/constraints.h"
#include "kernels/spring.h"
#include "prep/prepared.h"
#include "prep/springs.h"
#include "sim/solver.h"

namespace cloth {

// Positions (w = inverse mass; 0 = pinned), velocities and, for Verlet, the positions one step
// back (set from the velocities at the first step). With colliders, `start` keeps each free
// vertex's position at the start of the step (its w: after the step's contacts, the normal
// correction they made, > 0 for a vertex in contact).
struct SpringState {
    std::vector<glm::vec4> x, v, previous, start;
};

// One integrator step of the springs over a state; the same code the solver runs (the tests
// bisect its stable step).
class SpringStepper {
public:
    // The springs and each vertex's springs (prep/springs.h springIncidence; the prepared
    // scene's in its solver data, prep/solver_data.h).
    SpringStepper(const std::vector<gpu::Spring>& springs, const SpringIncidence& incidence);
    // Advances by h seconds under gravity g and damping c[v] per vertex (force -m c v).
    void step(Integrator integrator, SpringState& s, float h, glm::vec3 g,
              const std::vector<float>& c);
    // The two halves of a step over the vertices [begin, end), for a team: every vertex's force
    // from the positions at the step's start (all of them computed before any moves), then each
    // vertex's move from its own force. Verlet's previous positions must be set already.
    // t0 and t1: the step's start and end (s), where the attachments' targets are.
    void forces(const std::vector<glm::vec4>& x, std::uint32_t begin, std::uint32_t end,
                float t0 = 0.0f);
    void integrate(Integrator integrator, SpringState& s, SpringStepSize size, glm::vec3 g,
                   const std::vector<float>& c, std::uint32_t begin, std::uint32_t end,
                   float t0 = 0.0f, float t1 = 0.0f) const;
    // Attachments (kernels/spring.h): a compliant one adds its spring to its vertex's force (after
    // the springs), a hard one carries its vertex in place of the integrator. None unless set.
    void setAttachments(const PreparedCloth& p);
    // Fixed angles (p.springTerms.angles, prep/springs.h): each stencil vertex adds the angle
    // spring's force (kernels/spring.h angleSpringForce) after its springs. None unless set. p
    // (its angles and its solver data's incidence) outlives the stepper.
    void setAngles(const PreparedCloth& p);
    // Vertex v is carried by a hard attachment.
    bool carried(std::uint32_t v) const { return attachments_.carried(v); }
    std::uint32_t vertexCount() const { return std::uint32_t(force_.size()); }
    // The same damping c on every vertex.
    void step(Integrator integrator, SpringState& s, float h, glm::vec3 g, float c) {
        uniform_.assign(force_.size(), c);
        step(integrator, s, h, g, uniform_);
    }
    // Springs updated per step (each spring's force is evaluated once per end).
    std::uint64_t springCount() const { return springCount_; }

private:
    std::uint64_t springCount_ = 0;
    // Per vertex, its springs in incidence order (CSR over offsets_), each as its other end,
    // rest length and stiffness: one contiguous read per spring.
    struct Neighbour {
        std::uint32_t other;
        float rest, stiffness;
    };
    std::vector<std::uint32_t> offsets_;
    std::vector<Neighbour> neighbours_;
    // The angle springs, and per vertex their corners (spring * 4 + corner) in spring order
    // (CSR); null until setAngles.
    const std::vector<gpu::FixedAngleConstraint>* angles_ = nullptr;
    const SpringIncidence* angleIncidence_ = nullptr;
    std::vector<glm::vec3> force_;
    AttachmentTargets attachments_;
    std::vector<float> uniform_;
};

// Throws cloth::Error naming what the model does not run (yet): self-collision, phantom vertices,
// fixed angles, or steps past stability.
// threads >= 1: the most threads a frame runs on, one per `verticesPerThread` vertices at most (a
// small cloth runs on one; 0: all of them, for the tests). Any number gives the same bits.
inline constexpr std::uint32_t kVerticesPerSpringThread = 2048;
std::unique_ptr<Solver> makeMassSpringSolver(SharedCloth prepared, int threads = 1,
                                             std::uint32_t verticesPerThread = kVerticesPerSpringThread);
// The same from a copy of `prepared` (a caller that keeps and changes its own: tests).
inline std::unique_ptr<Solver> makeMassSpringSolver(
    const PreparedCloth& prepared, int threads = 1,
    std::uint32_t verticesPerThread = kVerticesPerSpringThread) {
    return makeMassSpringSolver(shareCopy(prepared), threads, verticesPerThread);
}

}  // namespace cloth
