// What the CPU reference's solvers report about the machine (Solver::deviceName, the default
// thread count): apart from cpu_solver.h, so that the models' solvers (fem.cpp, mass_spring.cpp,
// projective.cpp), which cpu_solver.cpp makes, need not include it back.
#pragma once

#include <string>

namespace cloth {

// "model name" of the first processor in /proc/cpuinfo, or "unknown CPU".
std::string cpuModelName();

// Threads used when the user asks for none in particular: the hardware concurrency (>= 1).
int defaultThreadCount();

}  // namespace cloth
