// Wall-clock milliseconds for the statistics the solvers, preparation and the programs report.
#pragma once

#include <chrono>

namespace cloth {

using Clock = std::chrono::steady_clock;

// Milliseconds from t to now.
inline double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

}  // namespace cloth
