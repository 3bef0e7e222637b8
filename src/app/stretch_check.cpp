#include "app/stretch_check.h"

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

std::string stretchWarning(const StretchCheck& check, bool massSpring) {
    if (!check.exceeded()) return "";
    return stretchWarning("clothsim", check.largest(),
                          "frame " + std::to_string(check.largestFrame()),
                          massSpring ? kMassSpringStretchCure : kClothsimStretchCure);
}

}  // namespace cloth
