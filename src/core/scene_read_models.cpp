// The scene's cloth model (scene.h ClothModel) and the mass-spring model's settings: names and the
// reader of the keys "model" and "mass_spring".
#include <string>

#include "core/scene_read_parts.h"

namespace cloth {

const char* clothModelName(ClothModel m) {
    switch (m) {
        case ClothModel::Xpbd:
            return "xpbd";
        case ClothModel::MassSpring:
            return "mass_spring";
        case ClothModel::Projective:
            return "pd";
        case ClothModel::Fem:
            return "fem";
    }
    return "?";
}

ClothModel parseClothModel(const std::string& name) {
    for (ClothModel m :
         {ClothModel::Xpbd, ClothModel::MassSpring, ClothModel::Projective, ClothModel::Fem})
        if (name == clothModelName(m)) return m;
    throw Error("unknown cloth model '" + name + "' (expected xpbd, mass_spring, pd or fem)");
}

const char* integratorName(Integrator i) {
    switch (i) {
        case Integrator::Explicit:
            return "explicit";
        case Integrator::Symplectic:
            return "symplectic";
        case Integrator::Verlet:
            return "verlet";
        case Integrator::AdaptiveVerlet:
            return "adaptive_verlet";
    }
    return "?";
}

Integrator parseIntegrator(const std::string& name) {
    for (Integrator i : {Integrator::Explicit, Integrator::Symplectic, Integrator::Verlet,
                         Integrator::AdaptiveVerlet})
        if (name == integratorName(i)) return i;
    throw Error("unknown integrator '" + name +
                "' (expected explicit, symplectic, verlet or adaptive_verlet)");
}

namespace detail {

namespace {

constexpr float kMaxSpringStiffness = 1e12f;  // N/m
const char* const kStiffnessWhy = "is beyond the sane range of a spring's stiffness (1e12 N/m)";

}  // namespace

void readFem(const JsonNode& n, FemSettings& f) {
    n.allowOnly({"rayleigh_alpha", "rayleigh_beta", "tolerance", "max_iterations"});
    if (n.has("rayleigh_alpha"))
        f.rayleighAlpha = n["rayleigh_alpha"].inRange(0.0f, 1e4f, "is outside [0, 10000] 1/s");
    if (n.has("rayleigh_beta"))
        f.rayleighBeta = n["rayleigh_beta"].inRange(0.0f, 10.0f, "is outside [0, 10] s");
    if (n.has("tolerance"))
        f.tolerance = positiveInRange(n["tolerance"], 0.0f, 1.0f, "is outside (0, 1]");
    if (n.has("max_iterations"))
        f.maxIterations = int(n["max_iterations"].inRange(1.0f, 1e6f, "is outside [1, 1000000]"));
}

void readModel(const JsonNode& root, SimSettings& sim) {
    if (root.has("model")) sim.model = readName(root["model"], parseClothModel);
    if (root.has("fem")) readFem(root["fem"], sim.fem);
    if (!root.has("mass_spring")) return;
    const JsonNode n = root["mass_spring"];
    n.allowOnly({"integrator", "stiffness", "air_damping", "step"});
    MassSpringSettings& m = sim.massSpring;
    if (n.has("integrator")) m.integrator = readName(n["integrator"], parseIntegrator);
    if (n.has("stiffness")) {
        const JsonNode k = n["stiffness"];
        if (k.isNumber()) {
            m.structural = m.shear = m.flexion =
                positiveInRange(k, 0.0f, kMaxSpringStiffness, kStiffnessWhy);
        } else {
            k.allowOnly({"structural", "shear", "flexion"});
            for (auto [key, value] : {std::pair{"structural", &m.structural},
                                      std::pair{"shear", &m.shear}, std::pair{"flexion", &m.flexion}})
                if (k.has(key))
                    *value = positiveInRange(k[key], 0.0f, kMaxSpringStiffness, kStiffnessWhy);
        }
    }
    if (n.has("air_damping"))
        m.airDamping = n["air_damping"].inRange(0.0f, 1e4f, "is outside [0, 10000] 1/s");
    if (n.has("step"))
        m.step = positiveInRange(n["step"], 0.0f, 1.0f, "is beyond the sane range of a step (1 s)");
}

}  // namespace detail

}  // namespace cloth
