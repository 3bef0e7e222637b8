// Pieces of the scene reader (scene_read.cpp) that further files of it share. Internal to
// cloth_core, like json_node.h.
#pragma once

#include <cstddef>
#include <string>

#include <glm/glm.hpp>

#include "core/error.h"
#include "core/json_node.h"
#include "core/mesh.h"
#include "core/scene.h"

namespace cloth::detail {

// "must be positive" for zero and below, then the sane range [lo, hi] with its reason.
float positiveInRange(const JsonNode& n, float lo, float hi, const char* why);

// A name that parse() turns into an enum, with the key's path in the error.
template <class Parse>
auto readName(const JsonNode& n, Parse parse) {
    try {
        return parse(n.string());
    } catch (const Error& e) {
        n.fail(e.what());
    }
}

// {"translate", "rotate", "scale"}; `scaleWhy` ends the message for a scale out of range.
Transform readTransform(const JsonNode& n,
                        const char* scaleWhy = "is beyond the sane range of a cloth's scale");

// A motion of any type; keys of another type are errors.
MotionDesc readMotion(const JsonNode& n);

// A path from a scene file, resolved against the scene file's folder unless absolute.
std::string resolvePath(const std::string& p, const std::string& baseDir);

// Every vertex of `mesh` after the transform within the sane range (core/limits.h): 1e38
// coordinates or a huge translation would overflow the solvers' float arithmetic. `blame` is
// the key the message names (the transform, or the grid or mesh without one).
void checkWorldPositions(const Mesh& mesh, const Transform& t, const JsonNode& blame);

}  // namespace cloth::detail
