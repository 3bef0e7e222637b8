#include "inject.h"

#include "core/error.h"
#include "kernels/constraint_types.h"

namespace cloth::check {

Injection parseInjection(const std::string& text) {
    if (text == "compliance") return Injection::Compliance;
    if (text == "skip-colour") return Injection::SkipColour;
    throw Error("expected compliance or skip-colour, got '" + text + "'");
}

const char* injectionName(Injection kind) {
    switch (kind) {
        case Injection::Compliance: return "compliance";
        case Injection::SkipColour: return "skip-colour";
    }
    return "?";
}

PreparedCloth injected(PreparedCloth p, const Inject& inject) {
    if (p.sim.model != ClothModel::Xpbd)
        throw Error(std::string("--inject ") + injectionName(inject.kind) +
                    " puts its bug into the XPBD solver; the scene's model is " +
                    clothModelName(p.sim.model));
    switch (inject.kind) {
        case Injection::SkipColour:
            if (p.sim.iteration.scheme != IterationScheme::GaussSeidel)
                throw Error("--inject skip-colour leaves out a colour of the Gauss-Seidel "
                            "iteration; the scene iterates by Jacobi or Chebyshev");
            break;
        case Injection::Compliance: {
            const float f = static_cast<float>(1.0 + inject.scale);
            for (auto& c : p.items<gpu::DistanceConstraint>()) c.param *= f;
            for (auto& c : p.items<gpu::BendingConstraint>()) c.param *= f;
            for (auto& c : p.items<gpu::FixedAngleConstraint>()) c.param *= f;
            for (auto& c : p.items<gpu::IsoBendingConstraint>()) c.compliance *= f;
            for (auto& c : p.items<gpu::StvkConstraint>()) {
                c.complianceDiag *= f;
                c.complianceOff *= f;
            }
            break;
        }
    }
    return p;
}

}  // namespace cloth::check
