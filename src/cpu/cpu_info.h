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

// True in the sanitizer build's checked copy of the solver (cloth_cpu_checked and
// cloth_cpu_checked_solver: ASan and UBSan throughout, src/cpu/CMakeLists.txt), which runs 10 to 20
// times slower than the uninstrumented one: the tests that run on both shorten their runs there.
bool cpuSolverIsCheckedCopy();

}  // namespace cloth
