// Error tiers (docs/design.md, 'Errors in tiers'):
//  - cloth::Error: anything a user can cause (bad file, bad flag, no device). Thrown with a
//    message that names the input and the problem; main() prints it and exits non-zero.
//  - CLOTH_ASSERT: cheap internal invariants, on in every build; aborts with file and line.
//  - CLOTH_VALIDATE: expensive checks, compiled in only with -DCLOTH_VALIDATE=1.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace cloth {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

[[noreturn]] inline void assertFailed(const char* expr, const char* file, int line) {
    std::fprintf(stderr, "%s:%d: internal error: assertion failed: %s\n", file, line, expr);
    std::abort();
}

}  // namespace cloth

#define CLOTH_ASSERT(cond) \
    ((cond) ? static_cast<void>(0) : ::cloth::assertFailed(#cond, __FILE__, __LINE__))

#ifndef CLOTH_VALIDATE
#define CLOTH_VALIDATE 0
#endif
