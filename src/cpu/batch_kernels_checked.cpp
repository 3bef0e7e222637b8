// The batch kernels compiled with the sanitizers, for test_cpu_checked in sanitizer builds
// (src/cpu/CMakeLists.txt says why cloth_cpu's own copy is not).
#include "cpu/batch_kernels.cpp"
