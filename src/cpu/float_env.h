// Subnormal floats flushed to zero while a guard lives, on the calling thread: results that
// would be subnormal become zero (FTZ) and subnormal inputs read as zero (DAZ). Subnormals cost
// the CPU reference about 30% at 256x256 in the first frames (README, "Subnormal floats"), and
// GPUs flush them too (lavapipe's threads run with FTZ and DAZ; see tests/vk), so both
// backends keep computing the same bits. The previous mode is restored on destruction.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace cloth {

class FlushSubnormals {
  public:
#if defined(__x86_64__) || defined(__i386__)
    FlushSubnormals() : saved_(_mm_getcsr()) { _mm_setcsr(saved_ | kFtz | kDaz); }
    ~FlushSubnormals() { _mm_setcsr(saved_); }

  private:
    static constexpr unsigned kFtz = 0x8000;  // MXCSR flush-to-zero
    static constexpr unsigned kDaz = 0x0040;  // MXCSR denormals-are-zero
    unsigned saved_;
#else
    // Other CPUs keep their default (IEEE subnormals); the pinned hashes are x86's.
    FlushSubnormals() = default;
#endif
    FlushSubnormals(const FlushSubnormals&) = delete;
    FlushSubnormals& operator=(const FlushSubnormals&) = delete;
};

}  // namespace cloth
