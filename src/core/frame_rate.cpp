// The frame rate and the start frame (core/frame_rate.h), and the scene keys "fps" and
// "start_frame" (scene_read_parts.h).
#include "core/frame_rate.h"

#include <cmath>

#include "core/error.h"
#include "core/json_node.h"
#include "core/limits.h"
#include "core/scene_read_parts.h"

namespace cloth {

std::optional<std::string> fpsProblem(double fps) {
    if (fps >= kMinFps && fps <= kMaxFps) return {};
    return "must be between 1 and 1000 frames per second, got " + detail::shortNumber(fps);
}

int substepsPerFrame(const SimSettings& sim) {
    // In double, less a hair, so that 10 * 60 / 24 = 25 exactly gives 25, not 26.
    const double n = std::ceil(double(sim.substeps) * 60.0 / double(sim.fps) - 1e-9);
    return n < 1.0 ? 1 : n > 1e9 ? 1'000'000'000 : int(n);
}

double substepsPerSixtieth(const SimSettings& sim) {
    return double(substepsPerFrame(sim)) * double(sim.fps) / 60.0;
}

FrameTiming frameTiming(const SimSettings& sim, const std::string& scene) {
    const std::string where = "scene '" + scene + "': ";
    if (auto problem = fpsProblem(sim.fps)) throw Error(where + "fps " + *problem);
    if (sim.startFrame < 0 || sim.startFrame > kMaxStartFrame)
        throw Error(where + "start_frame must be between 0 and " + std::to_string(kMaxStartFrame) +
                    ", got " + std::to_string(sim.startFrame));
    FrameTiming out;
    out.frameDt = 1.0f / sim.fps;  // 1.0f / 60.0f at the default, as always
    out.substeps = substepsPerFrame(sim);
    if (out.substeps > limits::kMaxSubsteps)
        throw Error(where + std::to_string(sim.substeps) + " substeps per 1/60 s at " +
                    detail::shortNumber(sim.fps) + " fps make " + std::to_string(out.substeps) +
                    " substeps per frame, more than " + std::to_string(limits::kMaxSubsteps) +
                    ": lower substeps or raise fps");
    return out;
}

namespace detail {

void readFrameRate(const JsonNode& root, SimSettings& sim) {
    if (root.has("fps")) {
        const JsonNode n = root["fps"];
        const double fps = n.number();
        if (auto problem = fpsProblem(fps)) n.fail(*problem);
        sim.fps = float(fps);
    }
    if (root.has("start_frame"))
        sim.startFrame = int(root["start_frame"].intAtLeast(0, kMaxStartFrame));
}

}  // namespace detail

}  // namespace cloth
