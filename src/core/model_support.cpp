#include "core/model_support.h"

#include <array>

#include "core/error.h"

namespace cloth {

namespace {

// What a row is about; `asked` says whether a run asks for it.
enum class Feature { Model, SelfCollision, SequentialSelfOrder, Phantoms, PbdMode, Iteration, DirectStep };

bool asked(Feature feature, const ModelFeatures& f) {
    switch (feature) {
        case Feature::Model: return true;
        case Feature::SelfCollision: return f.selfCollision;
        case Feature::SequentialSelfOrder: return f.selfCollision && f.sequentialSelfOrder;
        case Feature::Phantoms: return f.phantoms;
        case Feature::PbdMode: return f.mode == SolverMode::Pbd;
        case Feature::Iteration: return f.scheme != IterationScheme::GaussSeidel;
        case Feature::DirectStep: return f.scheme == IterationScheme::GaussSeidel;
    }
    return false;
}

std::string featureName(Feature feature, const ModelFeatures& f) {
    switch (feature) {
        case Feature::Model: return "the model";
        case Feature::SelfCollision: return "self-collision";
        case Feature::SequentialSelfOrder: return "self_collision.order \"sequential\"";
        case Feature::Phantoms: return "phantom vertices";
        case Feature::PbdMode: return "solver mode pbd";
        case Feature::Iteration: return std::string("iteration ") + iterationSchemeName(f.scheme);
        case Feature::DirectStep: return "iteration gs (the direct LDLT global step)";
    }
    return "";
}

// The table: per model, what a backend does not run, and what runs it instead. What is not
// listed runs on both backends.
struct Row {
    ClothModel model;
    Feature feature;
    bool cpu, gpu;
    const char* remedy;
};

constexpr ClothModel kMassSpring = ClothModel::MassSpring, kPd = ClothModel::Projective,
                     kFem = ClothModel::Fem, kXpbd = ClothModel::Xpbd;

constexpr std::array kRows{
    Row{kFem, Feature::Model, true, false, "the CPU reference runs it (--backend cpu)"},
    Row{kXpbd, Feature::SequentialSelfOrder, true, false,
        "the GPU solves \"vertex\" (Gauss-Seidel by vertex colours) or \"jacobi\" passes; the CPU "
        "reference runs \"sequential\""},
    Row{kMassSpring, Feature::SelfCollision, false, false, "model xpbd runs it"},
    Row{kPd, Feature::SelfCollision, false, false, "model xpbd runs it"},
    Row{kFem, Feature::SelfCollision, false, false, "model xpbd runs it"},
    Row{kMassSpring, Feature::Phantoms, false, false, "model xpbd runs them"},
    Row{kPd, Feature::Phantoms, false, false, "model xpbd runs them"},
    Row{kFem, Feature::Phantoms, false, false, "model xpbd runs them"},
    Row{kMassSpring, Feature::PbdMode, false, false,
        "pbd is XPBD's mode (its stiffnesses are per iteration): leave the mode at xpbd"},
    Row{kPd, Feature::PbdMode, false, false, "pbd is XPBD's mode: leave the mode at xpbd"},
    Row{kFem, Feature::PbdMode, false, false, "pbd is XPBD's mode: leave the mode at xpbd"},
    Row{kFem, Feature::Iteration, false, false,
        "FEM solves each step by conjugate gradients: leave the iteration at gs"},
    Row{kPd, Feature::DirectStep, true, false,
        "the GPU runs the Jacobi global step: switch the iteration to jacobi or chebyshev (the "
        "direct step runs on the CPU reference)"},
};

}  // namespace

const char* solverBackendName(SolverBackend b) {
    return b == SolverBackend::Gpu ? "GPU" : "CPU reference";
}

ModelFeatures modelFeatures(const SimSettings& sim, bool phantoms) {
    ModelFeatures f;
    f.model = sim.model;
    f.mode = sim.mode;
    f.scheme = sim.iteration.scheme;
    f.selfCollision = sim.selfCollision.has_value();
    f.sequentialSelfOrder =
        f.selfCollision && sim.selfCollision->order == SelfCollisionSettings::Order::Sequential;
    f.phantoms = phantoms;
    return f;
}

std::optional<std::string> unsupported(const ModelFeatures& f, SolverBackend backend) {
    for (const Row& row : kRows) {
        if (row.model != f.model || !asked(row.feature, f)) continue;
        if (backend == SolverBackend::Cpu ? row.cpu : row.gpu) continue;
        return std::string("model ") + clothModelName(f.model) + " on the " +
               solverBackendName(backend) + ": " + featureName(row.feature, f) +
               " is not built for it; " + row.remedy;
    }
    return std::nullopt;
}

void requireSupported(const ModelFeatures& f, SolverBackend backend) {
    if (auto why = unsupported(f, backend)) throw Error(*why);
}

}  // namespace cloth
