// A plain serial implementation of the solver stages of sim/solver.h, written from the stage
// list the CPU reference documents, over the shared maths. The GPU tests compare against it and
// (once it exists on main) against the multithreaded CPU reference as well.
#pragma once

#include <optional>
#include <vector>

#include "prep/prepared.h"
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
    void substep(float dt, float tEnd);
    void iteration(const gpu::SolveParams& sp);
    void averagePhantoms();
    void damping();

    PreparedCloth p_;
    std::vector<glm::vec4> pos_, pred_, vel_;
    std::vector<float> lambdaDistance_, lambdaBending_, lambdaAttach_;
    std::optional<Grab> grab_;
    double time_ = 0.0;
};

}  // namespace cloth::test
