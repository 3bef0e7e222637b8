// Shared by the fuzz targets: the code under test may refuse an input with cloth::Error (the
// message a user would see); anything else (another exception, a crash, a sanitizer report,
// a broken round trip) is a finding.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/error.h"

namespace cloth::fuzz {

inline std::string text(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

// Runs f(); a cloth::Error is an accepted refusal (returns false), success returns true.
template <class F>
bool refusesOrSucceeds(F&& f) {
    try {
        f();
        return true;
    } catch (const Error&) {
        return false;
    }
}

[[noreturn]] inline void finding(const char* what) {
    std::fprintf(stderr, "fuzz finding: %s\n", what);
    std::abort();
}

}  // namespace cloth::fuzz
