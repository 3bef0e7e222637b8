// Pinned state hashes: every built-in scene after 100 frames (and a scene with every feature),
// and each other model's variants on two of them (kPinnedModelStates), positions then velocities
// of all vertices, FNV-1a over their bytes. The CPU reference must
// reproduce them for any thread count, and the GPU solver on any device must too (it is bit for
// bit equal to the CPU). A change that alters results on purpose re-pins them in its own commit
// and says by how much the state moved.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/scene.h"
#include "prep/prepare.h"

namespace cloth::test {

inline std::uint64_t fnv1aState(const std::vector<glm::vec4>& pos,
                                const std::vector<glm::vec4>& vel) {
    std::uint64_t h = 1469598103934665603ull;
    for (const auto* v : {&pos, &vel}) {
        const auto* bytes = reinterpret_cast<const unsigned char*>(v->data());
        for (std::size_t i = 0; i < v->size() * sizeof(glm::vec4); ++i) {
            h ^= bytes[i];
            h *= 1099511628211ull;
        }
    }
    return h;
}

struct PinnedState {
    const char* scene;        // a built-in scene name
    std::uint32_t phantoms;   // 0 = off, else the colour target
    std::uint32_t substeps;   // 0 = the scene's own, else these substeps per frame
    std::uint64_t hash;       // after kPinnedFrames frames
};

inline constexpr int kPinnedFrames = 100;

// The built-in scene a pin steps: hanging and swirl at 10 substeps rather than their own 50, so
// that the lavapipe test steps them in a fifth of the time (the hash pins the solver's arithmetic,
// which is the same at any substep count).
inline Scene pinnedScene(const PinnedState& pin) {
    Scene s = builtinScene(pin.scene);
    if (pin.substeps > 0) s.sim.substeps = pin.substeps;
    return s;
}

inline PrepareOptions pinnedOptions(std::uint32_t phantoms) {
    PrepareOptions o;
    PhantomSetting s;
    if (phantoms > 0) {
        s.mode = PhantomMode::Target;
        s.targetColors = phantoms;
    }
    o.phantoms = s;
    return o;
}

// A failing test prints the hash it got, to re-pin with.
inline const std::vector<PinnedState> kPinnedStates = {
    {"hanging", 0, 10, 0xb4f0743c56955343ull}, {"curtain", 0, 0, 0x25ddeb5803d368a1ull},
    {"swirl", 0, 10, 0x2d86ac2e4d015179ull},   {"drop", 0, 0, 0xe9858a61362b976eull},
    {"hanging", 6, 10, 0x7883247a4693c4b0ull}, {"swirl", 8, 10, 0x3eacc383aaad2662ull},
};

// The other models (mass_spring, pd, fem) on a 12 x 12 grid of two built-in scenes: `drop` (the
// ground: contacts) and `swirl` with a gusting wind (attachments on circles, the wind step), after
// kPinnedModelFrames frames. Their steps run through the one driver (sim/schedule.h); a
// restructuring of a model is held to these bits, on both backends where the model has both.
struct PinnedModelState {
    const char* scene;    // "drop" or "swirl"
    const char* variant;  // "mass_spring symplectic" | "mass_spring verlet" | "pd gs" |
                          // "pd jacobi" | "pd chebyshev" | "fem"
    std::uint64_t hash;
};

inline constexpr int kPinnedModelFrames = 20;

inline Scene pinnedModelScene(const PinnedModelState& pin) {
    Scene s = builtinScene(pin.scene);
    for (ClothDesc& c : s.cloths) c.grid->resX = c.grid->resY = 12;
    if (std::string(pin.scene) == "swirl") {
        WindSettings w;
        w.velocity = glm::vec3(3.0f, 0.0f, 1.0f);
        w.gusts.amplitude = 0.3f;
        w.gusts.direction = 20.0f;
        s.sim.wind = w;
    }
    const std::string v = pin.variant;
    if (v.starts_with("mass_spring")) {
        s.sim.model = ClothModel::MassSpring;
        s.sim.massSpring.integrator =
            v.ends_with("verlet") ? Integrator::Verlet : Integrator::Symplectic;
        // Soft springs, so that a substep takes few steps.
        s.sim.massSpring.structural = s.sim.massSpring.shear = s.sim.massSpring.flexion = 200.0f;
    } else if (v.starts_with("pd")) {
        s.sim.model = ClothModel::Projective;
        s.sim.iterations = 8;  // past Chebyshev's warm-up of 2
        if (v != "pd gs") {
            s.sim.iteration.scheme =
                v == "pd jacobi" ? IterationScheme::Jacobi : IterationScheme::Chebyshev;
            s.sim.iteration.relaxation = 0.5f;
        }
    } else {
        s.sim.model = ClothModel::Fem;
    }
    return s;
}

// A failing test prints the hash it got, to re-pin with.
inline const std::vector<PinnedModelState> kPinnedModelStates = {
    {"drop", "mass_spring symplectic", 0x5de88b307a898c36ull},
    {"swirl", "mass_spring symplectic", 0x550ca05748c1648bull},
    {"drop", "mass_spring verlet", 0x5a0841c7f811ed43ull},
    {"swirl", "mass_spring verlet", 0x21d4dcb95d31996aull},
    {"drop", "pd gs", 0x64095704d1e8593eull},
    {"swirl", "pd gs", 0x1c46d3b9bcd3fcd7ull},
    {"drop", "pd jacobi", 0x86f4e127438abb8bull},
    {"swirl", "pd jacobi", 0xa48afadf037fabe7ull},
    {"drop", "pd chebyshev", 0x227bfb0f7acbcfd3ull},
    {"swirl", "pd chebyshev", 0xd353130f8ab719aeull},
    {"drop", "fem", 0x9b705d6d724b5da6ull},
    {"swirl", "fem", 0xc1f69523b53cf3dcull},
};

}  // namespace cloth::test
