// The warning when a run's cloth is not what it seems: an edge stretched past 20% of its rest
// length (app/metrics.h's edge stretch) is rubber, not cloth, whatever the frame rate says.
// clothsim and clothbench print it once, after the run, naming the knobs that cure it.
#pragma once

#include <string>

#include "sim/solver.h"

namespace cloth {

inline constexpr double kStretchWarningLimit = 0.20;

// The largest edge stretch seen over a run's checked frames.
class StretchCheck {
  public:
    // Frames checked when nothing else reads the state: every 10th and the last.
    static constexpr int kEvery = 10;
    static bool due(int frame, int lastFrame) { return frame % kEvery == 0 || frame == lastFrame; }

    void add(int frame, double largestStretch);
    bool checked() const { return frame_ >= 0; }
    double largest() const { return largest_; }
    int largestFrame() const { return frame_; }
    double latest() const { return latest_; }  // of the last frame added
    bool exceeded() const { return checked() && largest_ > kStretchWarningLimit; }

  private:
    double largest_ = 0.0, latest_ = 0.0;
    int frame_ = -1;
};

// One line (with its newline), empty unless `largest` is past the limit:
// "<program>: warning: edges stretched by up to 34% of their rest length (<where>), past 20%:
// <cure>". `where`: "frame 120"; `cure` names the knobs.
std::string stretchWarning(const std::string& program, double largest, const std::string& where,
                           const std::string& cure);
// The same for a clothsim run ("frame N" where the largest stretch was seen); the cure names the
// model's knobs (the mass-spring model's are its springs' stiffness), and tethers only for a cloth
// that has none (`tethered`: the prepared cloth has tethers).
std::string stretchWarning(const StretchCheck& check, bool massSpring = false,
                           bool tethered = false);

// What a model's own figures say went wrong in a run (model fem: steps whose conjugate gradients
// stopped at max_iterations short of the tolerance), as clothsim's warning lines; "" when
// nothing did.
std::string modelWarnings(const Solver& solver);

// clothsim's cure: its flags, and tethers, which are a scene file's key.
inline constexpr const char* kClothsimStretchCure =
    "raise --iterations or --substeps, or give the cloth tethers (a scene file's \"tethers\": "
    "true, the default, ties each free vertex to the pins); a large --stretch-compliance also "
    "stretches it";
inline constexpr const char* kClothsimTetheredStretchCure =
    "raise --iterations or --substeps (the cloth's tethers already tie it to the pins); a large "
    "--stretch-compliance also stretches it";
inline constexpr const char* kMassSpringTetheredStretchCure =
    "stiffen the springs (a scene file's mass_spring.stiffness, or --spring-stiffness); the "
    "cloth's tethers already tie it to the pins";
inline constexpr const char* kMassSpringStretchCure =
    "stiffen the springs (a scene file's mass_spring.stiffness, or --spring-stiffness), or give "
    "the cloth tethers (a scene file's \"tethers\": true, the default, ties each free vertex to the "
    "pins)";

}  // namespace cloth
