#include "prep/colliders.h"

#include <algorithm>
#include <cmath>

#include "core/collider_mesh.h"
#include "core/error.h"
#include "prep/mesh_collider.h"
#include "prep/mesh_features.h"
#include "prep/motion.h"

namespace cloth {

namespace {

bool finite(glm::vec3 v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

}  // namespace

gpu::Collider makeCollider(const ColliderDesc& desc, const std::string& source) {
    const Transform& tf = desc.transform;
    if (!(tf.scale > 0.0f) || !std::isfinite(tf.scale) || !finite(tf.translate) ||
        !finite(tf.rotateDegrees))
        throw Error(source + ": the transform needs a finite translate and rotation and a "
                             "positive scale");
    const float s = tf.scale;
    gpu::Collider c{};
    c.featureNode = gpu::MESH_NO_HINT;
    const glm::mat4 m = tf.matrix();
    c.origin = glm::vec4(tf.translate, 0.0f);
    c.axisX = glm::vec4(glm::normalize(glm::vec3(m[0])), 0.0f);
    c.axisY = glm::vec4(glm::normalize(glm::vec3(m[1])), 0.0f);
    c.axisZ = glm::vec4(glm::normalize(glm::vec3(m[2])), 0.0f);
    c.size = glm::vec4(0.0f);
    auto positive = [&](float v, const char* what) {
        if (!(v > 0.0f) || !std::isfinite(v))
            throw Error(source + ": " + what + " must be positive, got " + std::to_string(v));
    };
    switch (desc.shape) {
        case ColliderShape::Plane:
            c.shape = gpu::SHAPE_PLANE;
            break;
        case ColliderShape::Sphere:
            positive(desc.radius, "radius");
            c.shape = gpu::SHAPE_SPHERE;
            c.size.x = desc.radius * s;
            break;
        case ColliderShape::Capsule:
            positive(desc.radius, "radius");
            positive(desc.halfHeight, "half height");
            c.shape = gpu::SHAPE_CAPSULE;
            c.size = glm::vec4(desc.radius * s, desc.halfHeight * s, 0.0f, 0.0f);
            break;
        case ColliderShape::Box: {
            const glm::vec3 b = desc.halfExtents;
            positive(b.x, "half extent x");
            positive(b.y, "half extent y");
            positive(b.z, "half extent z");
            if (!(desc.radius >= 0.0f) || !(desc.radius <= std::min({b.x, b.y, b.z})))
                throw Error(source + ": a box's rounding radius must be in [0, its smallest half "
                                     "extent]");
            c.shape = gpu::SHAPE_BOX;
            c.size = glm::vec4(b * s, desc.radius * s);
            break;
        }
        case ColliderShape::Mesh:
            c.shape = gpu::SHAPE_MESH;
            c.size = glm::vec4(s, 0.0f, 0.0f, 0.0f);
            break;
    }
    const float spinLen = glm::length(desc.spin.axis);
    if (!finite(desc.spin.axis) || !std::isfinite(desc.spin.degreesPerSecond) ||
        !(desc.spin.reversePeriod >= 0.0f) || !std::isfinite(desc.spin.reversePeriod))
        throw Error(source + ": spin needs a finite axis and speed and a reverse period >= 0");
    if (desc.spin.degreesPerSecond != 0.0f && !(spinLen > 0.0f))
        throw Error(source + ": spin needs a non-zero axis");
    c.spin = desc.spin.degreesPerSecond != 0.0f
                 ? glm::vec4(desc.spin.axis / spinLen,
                             desc.spin.degreesPerSecond * (gpu::CLOTH_PI / 180.0f))
                 : glm::vec4(0.0f, 1.0f, 0.0f, 0.0f);
    c.spinReverse = desc.spin.reversePeriod;
    c.path = makeMotion(desc.motion, source + " motion");
    if (!(desc.start >= 0.0f) || !std::isfinite(desc.start))
        throw Error(source + ": start must be a time >= 0 (s)");
    c.start = desc.start;
    if (!(desc.staticFriction >= 0.0f) || !std::isfinite(desc.staticFriction) ||
        !(desc.kineticFriction >= 0.0f) || !std::isfinite(desc.kineticFriction))
        throw Error(source + ": friction coefficients must be finite and >= 0");
    if (!(desc.restitution >= 0.0f && desc.restitution <= 1.0f))
        throw Error(source + ": restitution must be in [0, 1]");
    c.staticFriction = desc.staticFriction;
    c.kineticFriction = desc.kineticFriction;
    c.restitution = desc.restitution;
    return c;
}

void addColliders(const Scene& scene, PreparedCloth& p) {
    for (std::size_t i = 0; i < scene.colliders.size(); ++i) {
        const ColliderDesc& d = scene.colliders[i];
        const std::string source = "collider '" + d.name + "'";
        gpu::Collider c = makeCollider(d, source);
        glm::uvec2 tris{0u, 0u};
        if (d.shape == ColliderShape::Mesh) {
            // In the collider's frame with the scale applied; rotation and translation are the
            // pose's (the hierarchy is queried in the frame).
            Mesh mesh = loadColliderMesh(d.objPath);
            for (glm::vec3& x : mesh.positions) x *= d.transform.scale;
            tris.x = static_cast<std::uint32_t>(p.meshTriangles.size());
            c.meshNode = appendMeshCollider(mesh, p.meshNodes, p.meshTriangles);
            tris.y = static_cast<std::uint32_t>(p.meshTriangles.size());
            c.meshTriangleBegin = tris.x;
            c.meshTriangleEnd = tris.y;
            c.featureNode =
                appendMeshFeatures(p.meshTriangles, tris.x, tris.y, p.meshNodes, p.meshFeatures);
        }
        p.colliders.push_back(c);
        p.colliderNames.push_back(d.name);
        p.colliderTriangles.push_back(tris);
    }
}

}  // namespace cloth
