#include "cpu/cpu_info.h"

#include <algorithm>
#include <fstream>
#include <thread>

namespace cloth {

std::string cpuModelName() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
        }
    }
    return "unknown CPU";
}

int defaultThreadCount() {
    return std::max(1u, std::thread::hardware_concurrency());
}

bool cpuSolverIsCheckedCopy() {
#ifdef CLOTH_CPU_CHECKED_COPY
    return true;
#else
    return false;
#endif
}

}  // namespace cloth
