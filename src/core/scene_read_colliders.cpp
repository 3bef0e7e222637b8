// Scene files: rigid colliders (the `colliders` array), read as strictly as the rest of the
// scene (scene_read.cpp): an unknown key, a wrong type or an impossible value is an error
// naming the file and the JSON path.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/collider_mesh.h"
#include "core/limits.h"
#include "core/scene_read_parts.h"

namespace cloth::detail {

namespace {

// The keys that size a shape; each shape takes some of them, and the others are unknown keys
// for it (a sphere has no half extents).
const char* const kShapeKeys[] = {"radius", "half_height", "half_extents", "mesh"};

std::vector<std::string> shapeKeysOf(ColliderShape shape) {
    switch (shape) {
        case ColliderShape::Plane:
            return {};
        case ColliderShape::Sphere:
            return {"radius"};
        case ColliderShape::Capsule:
            return {"radius", "half_height"};
        case ColliderShape::Box:
            return {"half_extents", "radius"};
        case ColliderShape::Mesh:
            return {"mesh"};
    }
    return {};
}

void refuseOtherShapesKeys(const JsonNode& n, ColliderShape shape) {
    const std::vector<std::string> own = shapeKeysOf(shape);
    for (const char* key : kShapeKeys) {
        if (!n.has(key) || std::find(own.begin(), own.end(), key) != own.end()) continue;
        std::string list;
        for (const std::string& k : own) list += (list.empty() ? "" : ", ") + k;
        n[key].fail(std::string("unknown key for a ") + colliderShapeName(shape) +
                    " collider (its shape keys: " + (list.empty() ? "none" : list) + ")");
    }
}

// A length of a shape in its own frame (m): at least 0, or above 0 when `positive`, and within
// the scene's size once the transform's scale multiplies it.
float shapeLength(const JsonNode& n, float scale, bool positive) {
    const float v = positive ? n.positive() : n.atLeast(0.0f);
    if (!(double(v) * scale <= limits::kMaxCoordinate))
        n.fail(shortNumber(v) + " m" + (scale != 1.0f ? " at scale " + shortNumber(scale) : "") +
               " is beyond the scene's size (at most 10000 m)");
    return v;
}

// Radius, half height and half extents, as the shape takes them (the others keep their
// defaults). A box is sharp (radius 0) unless its `radius` rounds it.
void readShapeSizes(const JsonNode& n, ColliderDesc& c) {
    const float scale = c.transform.scale;
    if (c.shape == ColliderShape::Box) c.radius = 0.0f;
    if (n.has("radius")) c.radius = shapeLength(n["radius"], scale, c.shape != ColliderShape::Box);
    if (n.has("half_height")) c.halfHeight = shapeLength(n["half_height"], scale, false);
    if (n.has("half_extents")) {
        const JsonNode e = n["half_extents"];
        e.vec3();  // an array of 3 numbers, else that error first
        for (int k = 0; k < 3; ++k) c.halfExtents[k] = shapeLength(e[std::size_t(k)], scale, false);
    }
    if (c.shape == ColliderShape::Box) {
        const float smallest = std::min({c.halfExtents.x, c.halfExtents.y, c.halfExtents.z});
        if (c.radius > smallest)
            n["radius"].fail("rounding radius " + shortNumber(c.radius) +
                             " m exceeds the smallest half extent " + shortNumber(smallest) +
                             " m (the rounding lies inside the box)");
    }
}

SpinDesc readSpin(const JsonNode& n) {
    n.allowOnly({"axis", "degrees_per_second", "reverse_every"});
    SpinDesc s;
    if (n.has("axis")) s.axis = readDirection(n["axis"]);
    if (n.has("degrees_per_second"))
        s.degreesPerSecond =
            n["degrees_per_second"].inRange(-limits::kMaxSpinSpeed, limits::kMaxSpinSpeed,
                                            "degrees per second is beyond the sane range of a "
                                            "spin");
    if (n.has("reverse_every")) {
        const JsonNode r = n["reverse_every"];
        s.reversePeriod = r.atLeast(0.0f);
        if (s.reversePeriod != 0.0f)
            s.reversePeriod = r.inRange(limits::kMinPeriod, 1e9f,
                                        "s is beyond the sane range of a reversal period (0 "
                                        "never reverses)");
    }
    return s;
}

float frictionCoefficient(const JsonNode& n) {
    n.atLeast(0.0f);
    return n.inRange(0.0f, limits::kMaxFriction,
                     "is beyond the sane range of a friction coefficient");
}

}  // namespace

void readFriction(const JsonNode& n, float& staticFriction, float& kineticFriction) {
    const bool either = n.has("static_friction") || n.has("kinetic_friction");
    if (n.has("friction")) {
        if (either)
            n["friction"].fail(
                "give either \"friction\" (both coefficients) or \"static_friction\" and "
                "\"kinetic_friction\", not both");
        staticFriction = kineticFriction = frictionCoefficient(n["friction"]);
    }
    if (n.has("static_friction")) staticFriction = frictionCoefficient(n["static_friction"]);
    if (n.has("kinetic_friction")) kineticFriction = frictionCoefficient(n["kinetic_friction"]);
    if (kineticFriction > staticFriction) {
        const bool kineticGiven = n.has("kinetic_friction");
        n[kineticGiven ? "kinetic_friction" : "static_friction"].fail(
            "kinetic friction " + shortNumber(kineticFriction) +
            (kineticGiven ? "" : " (the default)") + " exceeds static friction " +
            shortNumber(staticFriction) + (n.has("static_friction") ? "" : " (the default)") +
            " (a sliding contact cannot hold more than a resting one)");
    }
}

ColliderDesc readCollider(const JsonNode& n, std::size_t index, const std::string& baseDir) {
    ColliderDesc c;
    c.shape = readName(n["shape"], parseColliderShape);
    refuseOtherShapesKeys(n, c.shape);
    n.allowOnly({"name", "shape", "transform", "radius", "half_height", "half_extents", "mesh",
                 "motion", "spin", "start", "friction", "static_friction", "kinetic_friction",
                 "restitution"});
    c.name = n.has("name") ? n["name"].string() : "collider" + std::to_string(index);
    if (n.has("transform")) {
        const JsonNode t = n["transform"];
        c.transform = readTransform(t, "is beyond the sane range of a collider's scale");
        for (int k = 0; k < 3; ++k)
            if (!(std::fabs(c.transform.translate[k]) <= limits::kMaxCoordinate))
                t["translate"][std::size_t(k)].fail(
                    shortNumber(c.transform.translate[k]) +
                    " m is beyond the sane range of positions (at most 10000 m from the "
                    "origin on each axis)");
    }
    readShapeSizes(n, c);
    if (c.shape == ColliderShape::Mesh) {
        if (!n.has("mesh")) n.fail("a mesh collider needs \"mesh\" (the path of a closed OBJ)");
        const std::string mesh = n["mesh"].string();
        if (mesh.empty()) n["mesh"].fail("empty path");
        c.objPath = resolvePath(mesh, baseDir);
    }
    if (n.has("motion")) {
        c.motion = readMotion(n["motion"]);
        if (c.motion.type == MotionType::Rotate)
            n["motion"]["type"].fail("a collider cannot rotate about an axis: give its origin a "
                                     "path and turn it with \"spin\"");
    }
    if (n.has("spin")) c.spin = readSpin(n["spin"]);
    if (n.has("start")) c.start = n["start"].atLeast(0.0f);
    readFriction(n, c.staticFriction, c.kineticFriction);
    if (n.has("restitution")) c.restitution = n["restitution"].inUnitRange();
    return c;
}

void checkColliderMesh(const ColliderDesc& c, const JsonNode& n) {
    if (c.shape != ColliderShape::Mesh) return;
    Mesh mesh;
    try {
        mesh = loadColliderMesh(c.objPath);
    } catch (const Error& e) {
        n["mesh"].fail(e.what());
    }
    checkWorldPositions(mesh, c.transform, n[n.has("transform") ? "transform" : "mesh"]);
}

}  // namespace cloth::detail
