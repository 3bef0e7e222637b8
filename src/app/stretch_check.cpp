#include "app/stretch_check.h"

#include <cstdint>
#include <cstdio>

namespace cloth {

void StretchCheck::add(int frame, double largestStretch) {
    latest_ = largestStretch;
    if (!checked() || largestStretch > largest_) {
        largest_ = largestStretch;
        frame_ = frame;
    }
}

std::string stretchWarning(const std::string& program, double largest, const std::string& where,
                           const std::string& cure) {
    if (!(largest > kStretchWarningLimit)) return "";
    char text[96];
    std::snprintf(text, sizeof text,
                  ": warning: edges stretched by up to %.3g%% of their rest length (",
                  100.0 * largest);
    char limit[32];
    std::snprintf(limit, sizeof limit, "), past %.0f%%: ", 100.0 * kStretchWarningLimit);
    return program + text + where + limit + cure + "\n";
}

std::string stretchWarning(const StretchCheck& check, bool massSpring, bool tethered) {
    if (!check.exceeded()) return "";
    const char* cure = massSpring ? (tethered ? kMassSpringTetheredStretchCure
                                              : kMassSpringStretchCure)
                                  : (tethered ? kClothsimTetheredStretchCure : kClothsimStretchCure);
    return stretchWarning("clothsim", check.largest(),
                          "frame " + std::to_string(check.largestFrame()), cure);
}

std::string modelWarnings(const Solver& solver) {
    for (const Solver::ModelFigure& f : solver.modelFigures())
        if (f.name == "cg_unconverged_steps" && f.value > 0.0)
            return "clothsim: warning: model fem: the conjugate gradients stopped at "
                   "fem.max_iterations short of fem.tolerance in " +
                   std::to_string(std::uint64_t(f.value)) +
                   " steps (the velocities of those steps are approximate): raise "
                   "fem.max_iterations, soften the material or take more substeps\n";
    return "";
}

}  // namespace cloth
