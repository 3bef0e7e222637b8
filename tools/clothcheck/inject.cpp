#include "inject.h"

#include "core/error.h"
#include "kernels/constraint_types.h"

namespace cloth::check {

Injection parseInjection(const std::string& text) {
    if (text == "compliance") return Injection::Compliance;
    if (text == "skip-colour") return Injection::SkipColour;
    if (text == "gradient-sign") return Injection::GradientSign;
    if (text == "drop-contact") return Injection::DropContact;
    if (text == "missing-barrier") return Injection::MissingBarrier;
    throw Error("expected compliance, skip-colour, gradient-sign, missing-barrier or drop-contact, "
                "got '" + text + "'");
}

const char* injectionName(Injection kind) {
    switch (kind) {
        case Injection::Compliance: return "compliance";
        case Injection::SkipColour: return "skip-colour";
        case Injection::GradientSign: return "gradient-sign";
        case Injection::DropContact: return "drop-contact";
        case Injection::MissingBarrier: return "missing-barrier";
    }
    return "?";
}

vk::GpuSolverOptions::Fault gpuFault(Injection kind) {
    using Fault = vk::GpuSolverOptions::Fault;
    switch (kind) {
        case Injection::Compliance: return Fault::None;
        case Injection::SkipColour: return Fault::SkipColour;
        case Injection::GradientSign: return Fault::GradientSign;
        case Injection::DropContact: return Fault::DropContact;
        case Injection::MissingBarrier: return Fault::MissingBarrier;
    }
    return Fault::None;
}

PreparedCloth injected(PreparedCloth p, const Inject& inject) {
    if (p.sim.model != ClothModel::Xpbd)
        throw Error(std::string("--inject ") + injectionName(inject.kind) +
                    " puts its bug into the XPBD solver; the scene's model is " +
                    clothModelName(p.sim.model));
    switch (inject.kind) {
        case Injection::DropContact:
            if (p.colliders.empty())
                throw Error("--inject drop-contact drops collider contacts; the scene has no "
                            "collider");
            break;
        case Injection::SkipColour:
        case Injection::GradientSign:
        case Injection::MissingBarrier:
            if (p.sim.iteration.scheme != IterationScheme::GaussSeidel)
                throw Error(std::string("--inject ") + injectionName(inject.kind) +
                            " is a bug of the Gauss-Seidel colour passes; the scene iterates by "
                            "Jacobi or Chebyshev");
            if (inject.kind == Injection::MissingBarrier && p.colorCount < 2)
                throw Error("--inject missing-barrier leaves out the barrier between colours 0 "
                            "and 1; the cloth has one colour");
            if (inject.kind == Injection::GradientSign && p.items<gpu::DistanceConstraint>().empty())
                throw Error("--inject gradient-sign flips a distance constraint's gradient; the "
                            "scene has none");
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
