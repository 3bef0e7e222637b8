// clothcheck's resync mode and its error model (docs/backends.md, "Checking a GPU that rounds
// differently"). At a resync the CPU reference takes the GPU's state and both step from it, so a
// frame's discrepancy is free of the chaotic growth of earlier differences. How far a frame may
// move when its operations round differently is measured, not chosen: the reference is stepped
// from the same state by draws whose every stage (a step of the schedule, a colour) rounds
// upwards or downwards as a seeded hash decides (cpu/float_env.h, Rounding::Random: every
// operation off by up to an ulp, the stages' errors leaning both ways), and the largest distance
// of the draws from the reference is the frame's spread. The verdict allows kSpreadMultiple
// times the spread, and never less than kSpreadMultiple float ulps of the cloth's size (a frame
// that no rounding moves).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "cpu/float_env.h"
#include "deviation.h"
#include "prep/prepared.h"
#include "sim/solver.h"

namespace cloth::check {

enum class Mode { Exact, Resync };

// The multiple of the spread a discrepancy may reach, and the least spread (relative to the
// cloth's diagonal: 2^-23, one ulp of a coordinate the size of the cloth).
inline constexpr double kSpreadMultiple = 4.0;
inline constexpr double kLeastSpread = 1.0 / 8388608.0;

// The tolerance of a frame whose draws spread by `spread` (relative).
inline double resyncTolerance(double spread) {
    return kSpreadMultiple * (spread > kLeastSpread ? spread : kLeastSpread);
}

// What the verdict's description says about the model (clothcheck's output and JSON).
std::string errorModelDescription();

// The error model's draws: CPU references of the same state, each stepping in its rounding mode.
class RoundingDraws {
  public:
    static constexpr int kDraws = 3;  // seeds 1, 2, 3

    // New draws from `state` (the positions, velocities and time a resync copied).
    void start(const PreparedCloth& state, int threads);
    // Each draw one frame, in its mode.
    void step();
    // The largest relative distance of a draw from `reference` (positions of every vertex).
    double spread(const PreparedCloth& prepared, const std::vector<double>& diagonals,
                  const std::vector<glm::vec4>& reference);

  private:
    std::vector<std::unique_ptr<Solver>> draws_;
    std::vector<glm::vec4> positions_;
};

const char* roundingName(Rounding r);

}  // namespace cloth::check
