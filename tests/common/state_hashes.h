// Pinned state hashes: every built-in scene after 100 frames (and a scene with every feature),
// positions then velocities of all vertices, FNV-1a over their bytes. The CPU reference must
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
    {"hanging", 0, 10, 0xff50bd313766b951ull}, {"curtain", 0, 0, 0x8de473cbac39d074ull},
    {"swirl", 0, 10, 0x29b71e9ec15ba6c7ull},   {"drop", 0, 0, 0xe9858a61362b976eull},
    {"hanging", 6, 10, 0x70429feef38de752ull}, {"swirl", 8, 10, 0xf0cdeee35e363ec9ull},
};

}  // namespace cloth::test
