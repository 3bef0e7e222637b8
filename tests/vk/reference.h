// A plain serial implementation of the solver steps of sim/schedule.h (the shared schedule),
// each written out here over the shared maths. The GPU tests compare against it and
// (once it exists on main) against the multithreaded CPU reference as well.
#pragma once

#include <optional>
#include <vector>

#include "prep/prepared.h"
#include "sim/schedule.h"
#include "sim/solver.h"

namespace cloth::test {

class SerialReference {
  public:
    explicit SerialReference(const PreparedCloth& prepared);
    void stepFrame();
    void setGrab(std::optional<Grab> grab) { grab_ = grab; }
    const std::vector<glm::vec4>& positions() const { return pos_; }
    const std::vector<glm::vec4>& velocities() const { return vel_; }
    std::vector<glm::vec4> normals() const;

  private:
    void step(const ScheduleEntry& e, const StepContext& c);
    void wind(const gpu::WindParams& w);
    void collisions(const StepContext& c);
    void contacts(const StepContext& c);
    void sharpFeatures(const StepContext& c);  // the contacts of mesh colliders' sharp features
    void colors(const gpu::SolveParams& sp);
    void grab(const gpu::SolveParams& sp);
    void velocities(float dt);
    void averagePhantoms();
    void damping();

    PreparedCloth p_;
    std::vector<glm::vec4> pos_, pred_, vel_;
    template <class Item>
    using LambdaVector = std::vector<typename gpu::ConstraintType<gpu::constraintTypeIndex<Item>>::Lambda>;
    gpu::PerConstraintType<LambdaVector> lambdas_;
    std::vector<float> lambdaAttach_;
    std::vector<gpu::ContactState> contacts_;
    std::vector<gpu::MeshMemory> memory_;
    std::optional<Grab> grab_;
    double time_ = 0.0;
};

}  // namespace cloth::test
