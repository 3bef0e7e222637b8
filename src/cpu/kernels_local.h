// Force-included (-include) into the sources that the sanitizer build compiles at -O2
// (src/cpu/CMakeLists.txt): their copies of the kernels' functions (CLOTH_FN) get internal
// linkage. As inline functions of external linkage the linker keeps one copy of each for the whole
// program, the first it meets (in a test binary, one compiled at -O0 or -O1), and the -O2 code
// called that copy wherever it had not inlined the function. The same functions, the
// same IEEE operations (-ffp-contract=off at every level): the same bits.
#pragma once

#include "kernels/common.h"

#undef CLOTH_FN
#define CLOTH_FN static inline
