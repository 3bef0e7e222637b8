// The frame rate and the start frame (docs/usage.md#frame-rate-and-start-frame): scene keys "fps"
// and "start_frame", flags --fps and --start-frame. A scene's `substeps` count per 1/60 s, so that
// the substep length, and so the physics, does not change with the frame rate: a frame of 1/fps s
// takes ceil(substeps * 60 / fps) substeps. At 60 fps that is `substeps`, bit for bit as before.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/scene.h"

namespace cloth {

inline constexpr float kDefaultFps = 60.0f;
inline constexpr double kMinFps = 1.0, kMaxFps = 1000.0;    // frames per second, both included
inline constexpr std::int64_t kMaxStartFrame = 10'000'000;  // start frames 0 to 10^7

// "must be between 1 and 1000 frames per second, got X" (NaN and infinities too), else nothing.
std::optional<std::string> fpsProblem(double fps);

// Substeps in one frame of 1/fps s: ceil(substeps * 60 / fps), at least 1. `sim` as a scene gives
// it (substeps per 1/60 s).
int substepsPerFrame(const SimSettings& sim);
// The same substeps counted per 1/60 s of simulated time: substepsPerFrame * fps / 60. It equals
// `substeps` whenever fps divides 60 * substeps (24, 25, 30 or 60 fps at 10 substeps); otherwise
// it is a little more (the substep a little shorter).
double substepsPerSixtieth(const SimSettings& sim);

// How a prepared cloth steps (PreparedCloth::timing): frames of frameDt = 1/fps s, each of
// `substeps` substeps. The scene's settings stay as given (substeps per 1/60 s).
struct FrameTiming {
    float frameDt = 1.0f / 60.0f;  // s
    int substeps = 10;             // per frame (SimSettings' default at 60 fps)
};

// The substep length of a frame, as every backend computes it.
inline float substepDt(const FrameTiming& t) {
    return t.frameDt / static_cast<float>(t.substeps);
}

// `sim`'s frame timing. Throws cloth::Error (naming `scene`) for a frame rate out of range, a
// start frame out of range, or more than limits::kMaxSubsteps substeps per frame.
FrameTiming frameTiming(const SimSettings& sim, const std::string& scene);

}  // namespace cloth
