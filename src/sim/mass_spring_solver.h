// What the mass-spring solvers of both backends (cpu/mass_spring.h, vk/mass_spring_gpu.h) share
// besides their steps: the prepared cloth, the step plan (prep/springs.h) and the parts of the
// Solver interface the model answers alike on both.
#pragma once

#include <optional>
#include <vector>

#include "core/error.h"
#include "prep/prepared.h"
#include "prep/solver_data.h"
#include "prep/springs.h"
#include "sim/solver.h"

namespace cloth {

class MassSpringSolverBase : public Solver {
public:
    void keepMultipliers(bool) override {}
    void readMultipliers(std::size_t, std::vector<glm::vec4>&) override {
        throw Error("model mass_spring has no XPBD multipliers (the residual metrics are XPBD's)");
    }
    void setGrab(std::optional<Grab> grab) override {
        checkGrabVertex(grab, p_.originalVertexCount);
        if (grab) throw Error("model mass_spring: the grab is not built for this model yet");
    }
    std::vector<ModelFigure> modelFigures() const override {
        std::vector<ModelFigure> out = {{"omega_max_rad_s", plan_.omegaMax},
                                        {"step_limit_s", plan_.limit},
                                        {"step_s", plan_.step},
                                        {"steps_per_substep", double(plan_.steps)}};
        if (p_.sim.massSpring.integrator == Integrator::AdaptiveVerlet) {
            // The substep's last steps and the pattern's fastest growth (prep/springs.h).
            out.push_back({"tail_steps", double(plan_.tailSteps)});
            out.push_back({"tail_s", plan_.tail});
            out.push_back({"pattern_growth_per_s", plan_.growth});
        }
        return out;
    }

protected:
    explicit MassSpringSolverBase(SharedCloth shared)
        : shared_(std::move(shared)),
          p_(*shared_),
          plan_(springPlan(p_, "the mass-spring solver")) {}

    SharedCloth shared_;      // the prepared scene: read, never copied (sim/solver.h)
    const PreparedCloth& p_;  // *shared_
    const SpringPlan& plan_;  // p_'s solver data's (prep/solver_data.h)
};

}  // namespace cloth
