#include "error_model.h"

#include <algorithm>
#include <cstdio>

#include "cpu/backend.h"

namespace cloth::check {

const char* roundingName(Rounding r) {
    switch (r) {
        case Rounding::Nearest: return "nearest";
        case Rounding::TowardZero: return "toward_zero";
        case Rounding::Upward: return "upward";
        case Rounding::Downward: return "downward";
        case Rounding::Random: return "random";
    }
    return "?";
}

std::string errorModelDescription() {
    char text[256];
    std::snprintf(text, sizeof text,
                  "%g x the spread of %d draws of the CPU reference stepped from the same state, "
                  "each stage rounding upwards or downwards at random (at least %g x 2^-23 of "
                  "the diagonal)",
                  kSpreadMultiple, RoundingDraws::kDraws, kSpreadMultiple);
    return text;
}

void RoundingDraws::start(const PreparedCloth& state, int threads) {
    draws_.clear();
    for (int i = 0; i < kDraws; ++i) draws_.push_back(makeCpuSolver(state, threads));
}

void RoundingDraws::step() {
    for (std::size_t i = 0; i < draws_.size(); ++i) {
        const ScopedReferenceRounding rounding(Rounding::Random, i + 1);
        draws_[i]->stepFrame();
    }
}

double RoundingDraws::spread(const PreparedCloth& prepared, const std::vector<double>& diagonals,
                             const std::vector<glm::vec4>& reference) {
    double most = 0.0;
    for (const auto& draw : draws_) {
        draw->readPositions(positions_);
        const double d = compare(prepared, diagonals, reference, positions_).maxRel;
        if (!(d <= most)) most = d;  // a draw that is not finite makes the spread NaN: no verdict passes
    }
    return most;
}

}  // namespace cloth::check
