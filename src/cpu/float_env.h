// The CPU reference's floating-point environment while a guard lives, on the calling thread:
//  - subnormal floats flushed to zero: results that would be subnormal become zero (FTZ) and
//    subnormal inputs read as zero (DAZ). Subnormals cost the CPU reference about 30% at 256x256
//    in the first frames (docs/backends.md, "Subnormal floats"), and the GPU solver asks the
//    devices that offer it to flush them too (vk/denorm_flush.h). lavapipe keeps them
//    (tests/vk/test_subnormal.cpp): what compares the reference with such a device
//    (clothcheck, the GPU tests) keeps them in the reference too (ScopedSubnormals), so that
//    both compute the same bits where a run makes subnormals;
//  - the rounding of every operation: to nearest, always, but while clothcheck's error model
//    steps the reference in another mode (ScopedReferenceRounding) to see how far a frame moves
//    when its operations round differently (docs/backends.md).
// The previous mode is restored on destruction.
#pragma once

#include <atomic>
#include <cfenv>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace cloth {

// How the CPU reference's operations round: one of the four IEEE modes for a whole frame, or
// Random: each stage of a frame (a step of the schedule, a colour) rounds upwards or downwards,
// as a hash of the seed and where the stage is decides (roundAt), so that the errors of
// successive stages do not all lean one way (a whole frame rounded one way drifts by an ulp
// per operation). The same stages round the same way on every thread: the same bits for any
// thread count.
enum class Rounding { Nearest, TowardZero, Upward, Downward, Random };

namespace detail {
inline std::atomic<int> referenceRounding{0};  // a Rounding
inline std::atomic<std::uint64_t> roundingSeed{0};
inline std::atomic<bool> keepSubnormals{false};
}  // namespace detail

// Whether frames of the CPU reference that start now keep subnormal floats (ScopedSubnormals).
inline bool referenceKeepsSubnormals() {
    return detail::keepSubnormals.load(std::memory_order_relaxed);
}

// While it lives, frames of the CPU reference that start (on any thread) keep subnormal floats
// when `keep` is true (no FTZ, no DAZ), as a device that cannot flush them computes (lavapipe),
// and flush them when it is false (the default). One at a time, from the thread that steps the
// solvers; not for solvers stepped concurrently.
class ScopedSubnormals {
  public:
    explicit ScopedSubnormals(bool keep) : saved_(detail::keepSubnormals.exchange(keep)) {}
    ~ScopedSubnormals() { detail::keepSubnormals.store(saved_); }
    ScopedSubnormals(const ScopedSubnormals&) = delete;
    ScopedSubnormals& operator=(const ScopedSubnormals&) = delete;

  private:
    bool saved_;
};

inline Rounding referenceRounding() {
    return static_cast<Rounding>(detail::referenceRounding.load(std::memory_order_relaxed));
}

// While it lives, frames of the CPU reference that start (on any thread) round in `mode` (seed:
// Random's). One at a time, from the thread that steps the solvers; not for solvers stepped
// concurrently.
class ScopedReferenceRounding {
  public:
    explicit ScopedReferenceRounding(Rounding mode, std::uint64_t seed = 0)
        : saved_(detail::referenceRounding.exchange(static_cast<int>(mode))),
          savedSeed_(detail::roundingSeed.exchange(seed)) {}
    ~ScopedReferenceRounding() {
        detail::referenceRounding.store(saved_);
        detail::roundingSeed.store(savedSeed_);
    }
    ScopedReferenceRounding(const ScopedReferenceRounding&) = delete;
    ScopedReferenceRounding& operator=(const ScopedReferenceRounding&) = delete;

  private:
    int saved_;
    std::uint64_t savedSeed_;
};

// Rounding::Random: the stage at `where` (a key the solver makes from the frame's time and the
// stage's place in it) rounds upwards or downwards from here on, on the calling thread (a
// FlushSubnormals guard restores the mode it found). Nothing in the other modes.
inline void roundAt(std::uint64_t where) {
    if (referenceRounding() != Rounding::Random) return;
    std::uint64_t z = where + detail::roundingSeed.load(std::memory_order_relaxed) *
                                  0x9E3779B97F4A7C15ull;  // splitmix64's finaliser
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const bool up = (z >> 7) & 1u;
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr((_mm_getcsr() & ~0x6000u) | (up ? 0x4000u : 0x2000u));
#else
    std::fesetround(up ? FE_UPWARD : FE_DOWNWARD);
#endif
}

// A key for roundAt from the parts of a stage's place (e.g. the frame's time, the substep, the
// iteration, the step, the colour).
inline std::uint64_t roundingKey(std::uint64_t a, std::uint64_t b) {
    return (a ^ (b + 0x9E3779B97F4A7C15ull + (a << 6) + (a >> 2)));
}

// The reference's floating-point environment for a frame, on the calling thread: subnormals
// flushed (kept while a ScopedSubnormals asks) and the reference's rounding; the environment it
// found is restored on destruction.
class FlushSubnormals {
  public:
#if defined(__x86_64__) || defined(__i386__)
    FlushSubnormals() : saved_(_mm_getcsr()) {
        const unsigned flush = referenceKeepsSubnormals() ? 0u : kFtz | kDaz;
        _mm_setcsr((saved_ & ~(kRoundingBits | kFtz | kDaz)) | flush |
                   roundingBits(referenceRounding()));
    }
    ~FlushSubnormals() { _mm_setcsr(saved_); }

  private:
    static constexpr unsigned kFtz = 0x8000;  // MXCSR flush-to-zero
    static constexpr unsigned kDaz = 0x0040;  // MXCSR denormals-are-zero
    static constexpr unsigned kRoundingBits = 0x6000;  // MXCSR RC: 00 nearest, 01 down, 10 up, 11 zero
    static constexpr unsigned roundingBits(Rounding r) {
        switch (r) {
            case Rounding::Nearest: return 0x0000;
            case Rounding::Downward: return 0x2000;
            case Rounding::Upward: return 0x4000;
            case Rounding::TowardZero: return 0x6000;
            case Rounding::Random: return 0x4000;  // until the first roundAt
        }
        return 0;
    }
    unsigned saved_;
#else
    // Other CPUs keep IEEE subnormals (the pinned hashes are x86's); the rounding is set.
    FlushSubnormals() : saved_(std::fegetround()) {
        switch (referenceRounding()) {
            case Rounding::Nearest: std::fesetround(FE_TONEAREST); break;
            case Rounding::Downward: std::fesetround(FE_DOWNWARD); break;
            case Rounding::Upward: std::fesetround(FE_UPWARD); break;
            case Rounding::TowardZero: std::fesetround(FE_TOWARDZERO); break;
            case Rounding::Random: std::fesetround(FE_UPWARD); break;
        }
    }
    ~FlushSubnormals() { std::fesetround(saved_); }

  private:
    int saved_;
#endif
    FlushSubnormals(const FlushSubnormals&) = delete;
    FlushSubnormals& operator=(const FlushSubnormals&) = delete;
};

}  // namespace cloth
