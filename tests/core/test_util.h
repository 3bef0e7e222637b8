// Helpers shared by the core tests.
#pragma once

#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <string>

#include <gtest/gtest.h>

#include "core/error.h"

namespace cloth::test {

// Runs `f`, expects a cloth::Error whose message contains every fragment.
inline ::testing::AssertionResult throwsError(const std::function<void()>& f,
                                              std::initializer_list<std::string> fragments) {
    try {
        f();
    } catch (const Error& e) {
        std::string msg = e.what();
        for (const std::string& frag : fragments)
            if (msg.find(frag) == std::string::npos)
                return ::testing::AssertionFailure()
                       << "message \"" << msg << "\" lacks \"" << frag << "\"";
        return ::testing::AssertionSuccess();
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure() << "threw a non-cloth::Error: " << e.what();
    }
    return ::testing::AssertionFailure() << "did not throw";
}

// The source tree (set by ctest; falls back to the compile-time path).
inline std::string sourceDir() {
    const char* env = std::getenv("CLOTH_SOURCE_DIR");
    return env ? env : CLOTH_TEST_SOURCE_DIR;
}

inline std::string assetPath(const std::string& rel) {
    return sourceDir() + "/assets/" + rel;
}
inline std::string badPath(const std::string& name) {
    return sourceDir() + "/tests/data/bad/" + name;
}

// A scratch directory for files a test writes (under the build tree when known).
std::string scratchDir();

}  // namespace cloth::test
