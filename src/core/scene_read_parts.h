// Pieces of the scene reader shared by its files (scene_read.cpp: the scene, its settings and
// cloths; scene_read_colliders.cpp: rigid colliders). Internal to cloth_core, like json_node.h.
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

// An axis: not zero, and short enough that normalising it stays finite (in floats, as the
// solvers normalise it).
glm::vec3 readDirection(const JsonNode& n);

// A motion of any type (static, circle, linear, oscillate); keys of another type are errors.
MotionDesc readMotion(const JsonNode& n);

// A path from a scene file, resolved against the scene file's folder unless absolute.
std::string resolvePath(const std::string& p, const std::string& baseDir);

// Every vertex of `mesh` after the transform within the sane range (core/limits.h): 1e38
// coordinates or a huge translation would overflow the solvers' float arithmetic. `blame` is
// the key the message names (the transform, or the grid or mesh without one).
void checkWorldPositions(const Mesh& mesh, const Transform& t, const JsonNode& blame);

// `friction` sets both coefficients; `static_friction` and `kinetic_friction` one each (not
// together with `friction`); kinetic friction may not exceed static friction. The colliders'
// keys and self_collision's (scene_read_colliders.cpp).
void readFriction(const JsonNode& n, float& staticFriction, float& kineticFriction);

// colliders[index] (scene_read_colliders.cpp); a mesh collider's path resolved, not loaded.
ColliderDesc readCollider(const JsonNode& n, std::size_t index, const std::string& baseDir);
// A mesh collider's OBJ loaded now (missing, malformed, open or inside out: an error naming
// the key and the OBJ) and its vertices checked as a cloth's are; other shapes pass.
void checkColliderMesh(const ColliderDesc& c, const JsonNode& n);

// The key "camera" (scene_read_camera.cpp).
CameraDesc readCamera(const JsonNode& n);

// The key "wind" (scene_read_wind.cpp).
WindSettings readWind(const JsonNode& n);

// A cloth's keys "rest_shape" and "uv_scale" into `c` (scene_read_rest.cpp).
void readRestShape(const JsonNode& n, ClothDesc& c);

// A material's key "color" (scene_read_color.cpp): [r, g, b], each a number from 0 to 1.
glm::vec3 readColor(const JsonNode& n);

// The keys "fps" and "start_frame" into `sim` (frame_rate.cpp).
void readFrameRate(const JsonNode& root, SimSettings& sim);

// The keys "model" and "mass_spring" into `sim` (scene_read_models.cpp).
void readModel(const JsonNode& root, SimSettings& sim);

}  // namespace cloth::detail
