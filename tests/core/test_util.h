// Helpers shared by the core tests.
#pragma once

#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <string>

#include <gtest/gtest.h>

#include <glm/glm.hpp>

#include "core/error.h"
#include "core/mesh.h"
#include "core/scene.h"

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

// A scene from JSON text, named inline.json, with no folder for relative paths.
inline Scene parse(const std::string& text) {
    return parseSceneJson(text, "inline.json", "");
}

// The closed and open collider meshes of the tests' data.
inline std::string collidersDir() {
    return sourceDir() + "/tests/data/colliders";
}

// A triangle's area projected on the XY plane: positive when its winding is counter-clockwise.
inline double signedAreaZ(const Mesh& m, const glm::uvec3& t) {
    const glm::dvec3 a(m.positions[t.x]), b(m.positions[t.y]), c(m.positions[t.z]);
    return 0.5 * glm::cross(b - a, c - a).z;
}

// A scratch directory for files a test writes (under the build tree when known).
std::string scratchDir();

}  // namespace cloth::test
