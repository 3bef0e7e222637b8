// A coarse cloth dropped across a sharp blade (a thin triangular prism mesh collider), and the
// brute-force checks the sharp-feature contacts are judged by: does a mesh edge pass through a
// cloth triangle, and how close does it come to the cloth. Shared by the CPU and GPU tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/mesh.h"
#include "core/scene.h"
#include "prep/prepared.h"

namespace cloth::test {

// A prism along z (half length `halfLength`) whose cross-section is the triangle
// (-w, 0), (w, 0), (0, height): its ridge at y = height is a sharp edge, its ends sharp corners.
inline std::string bladeObj(float w, float height, float halfLength) {
    const float L = halfLength;
    const std::vector<glm::vec3> v = {{-w, 0, -L}, {w, 0, -L}, {0, height, -L},
                                      {-w, 0, L},  {w, 0, L},  {0, height, L}};
    const std::vector<glm::uvec3> t = {{0, 2, 1}, {3, 4, 5}, {0, 1, 4}, {0, 4, 3},
                                       {0, 3, 5}, {0, 5, 2}, {1, 2, 5}, {1, 5, 4}};
    const std::string path = ::testing::TempDir() + "/blade_collider.obj";
    saveObj(path, v, t);
    return path;
}

// A horizontal 1 m cloth of 5 x 5 quads (20 cm between vertices, far more than the thickness),
// no pins, tethers or damping, dropped across a blade 0.3 m tall that runs diagonally under it
// (ends inside the cloth's outline), onto a frictionless ground.
inline Scene bladeScene() {
    Scene s;
    s.name = "test-blade";
    ClothDesc c;
    c.name = "cloth";
    GridDesc g;
    g.width = g.height = 1.0f;
    g.resX = g.resY = 5;
    c.grid = g;
    c.transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, 0.0f);
    c.transform.translate = glm::vec3(0.03f, 0.34f, -0.02f);
    c.tethers = false;
    c.material.thickness = 0.01f;
    s.cloths.push_back(c);
    ColliderDesc blade;
    blade.name = "blade";
    blade.shape = ColliderShape::Mesh;
    blade.objPath = bladeObj(0.04f, 0.3f, 0.35f);
    blade.transform.rotateDegrees = glm::vec3(0.0f, 37.0f, 0.0f);
    s.colliders.push_back(blade);
    ColliderDesc ground;
    ground.name = "ground";
    ground.shape = ColliderShape::Plane;
    ground.staticFriction = ground.kineticFriction = 0.0f;
    s.colliders.push_back(ground);
    return s;
}

// The sharp features of the prepared scene's mesh colliders, in world space at time t.
struct WorldFeature {
    glm::vec3 a, b;  // a == b for a corner
};
inline std::vector<WorldFeature> worldFeatures(const PreparedCloth& p, float t) {
    std::vector<WorldFeature> out;
    // Every collider's features are a contiguous run, in collider order; find each run by
    // walking its hierarchy's leaves.
    for (const gpu::Collider& c : p.colliders) {
        if (c.shape != gpu::SHAPE_MESH || c.featureNode == gpu::MESH_NO_HINT) continue;
        const gpu::ColliderPose pose = gpu::colliderPose(c, t);
        std::vector<std::uint32_t> stack = {c.featureNode};
        while (!stack.empty()) {
            const gpu::MeshNode n = p.meshNodes[stack.back()];
            stack.pop_back();
            if (n.second & gpu::MESH_LEAF) {
                for (std::uint32_t f = n.first; f < n.first + (n.second & ~gpu::MESH_LEAF); ++f)
                    out.push_back({gpu::poseToWorld(pose, glm::vec3(p.meshFeatures[f].a)),
                                   gpu::poseToWorld(pose, glm::vec3(p.meshFeatures[f].b))});
            } else {
                stack.push_back(n.first);
                stack.push_back(n.second);
            }
        }
    }
    return out;
}

// Does segment ab pass through triangle (p, q, r)? Moeller-Trumbore in double: the line's
// parameter and barycentric coordinates, all strictly inside.
inline bool segmentCrossesTriangle(glm::dvec3 a, glm::dvec3 b, glm::dvec3 p, glm::dvec3 q,
                                   glm::dvec3 r) {
    const glm::dvec3 d = b - a, e1 = q - p, e2 = r - p;
    const glm::dvec3 h = glm::cross(d, e2);
    const double det = glm::dot(e1, h);
    if (std::abs(det) < 1e-18) return false;
    const glm::dvec3 s = a - p;
    const double u = glm::dot(s, h) / det;
    const glm::dvec3 qv = glm::cross(s, e1);
    const double v = glm::dot(d, qv) / det;
    const double t = glm::dot(e2, qv) / det;
    return u > 0.0 && v > 0.0 && u + v < 1.0 && t > 0.0 && t < 1.0;
}

// Distance from point x to segment ab, in double.
inline double pointSegmentDistance(glm::dvec3 x, glm::dvec3 a, glm::dvec3 b) {
    const glm::dvec3 d = b - a;
    const double len2 = glm::dot(d, d);
    const double t = len2 > 0.0 ? std::clamp(glm::dot(x - a, d) / len2, 0.0, 1.0) : 0.0;
    return glm::length(x - (a + d * t));
}

// Distance between segment ab and triangle pqr, by brute force: the least over a fine sampling
// of the segment of the distance to the triangle (its plane inside, else its edges), zero when
// the segment crosses it.
inline double segmentTriangleDistance(glm::dvec3 a, glm::dvec3 b, glm::dvec3 p, glm::dvec3 q,
                                      glm::dvec3 r) {
    if (segmentCrossesTriangle(a, b, p, q, r)) return 0.0;
    const glm::dvec3 n = glm::normalize(glm::cross(q - p, r - p));
    double best = 1e30;
    const int samples = a == b ? 1 : 400;
    for (int i = 0; i < samples; ++i) {
        const glm::dvec3 x = samples == 1 ? a : a + (b - a) * (double(i) / (samples - 1));
        const glm::dvec3 y = x - n * glm::dot(x - p, n);  // projection on the plane
        const double u = glm::dot(glm::cross(y - p, r - p), n) / glm::dot(glm::cross(q - p, r - p), n);
        const double v = glm::dot(glm::cross(q - p, y - p), n) / glm::dot(glm::cross(q - p, r - p), n);
        double d;
        if (u >= 0.0 && v >= 0.0 && u + v <= 1.0)
            d = std::abs(glm::dot(x - p, n));
        else
            d = std::min({pointSegmentDistance(x, p, q), pointSegmentDistance(x, q, r),
                          pointSegmentDistance(x, r, p)});
        best = std::min(best, d);
    }
    return best;
}

struct FeatureClearance {
    int crossings = 0;         // (feature, cloth triangle) pairs where the feature passes through
    double closest = 1e30;     // the least feature-to-cloth distance (m)
};

// How many (sharp edge, cloth triangle) pairs cross: the edge passes through the triangle.
inline int featureCrossings(const PreparedCloth& p, const std::vector<glm::vec4>& x, float t) {
    int n = 0;
    for (const WorldFeature& f : worldFeatures(p, t)) {
        if (f.a == f.b) continue;
        for (const glm::uvec3& tri : p.triangles)
            n += segmentCrossesTriangle(glm::dvec3(f.a), glm::dvec3(f.b),
                                        glm::dvec3(glm::vec3(x[tri.x])),
                                        glm::dvec3(glm::vec3(x[tri.y])),
                                        glm::dvec3(glm::vec3(x[tri.z])));
    }
    return n;
}

// Every sharp feature against every cloth triangle (positions x, original vertices).
inline FeatureClearance featureClearance(const PreparedCloth& p, const std::vector<glm::vec4>& x,
                                         float t) {
    FeatureClearance out;
    for (const WorldFeature& f : worldFeatures(p, t)) {
        const glm::dvec3 a(f.a), b(f.b);
        for (const glm::uvec3& tri : p.triangles) {
            const glm::dvec3 P{glm::vec3(x[tri.x])}, Q{glm::vec3(x[tri.y])}, R{glm::vec3(x[tri.z])};
            if (a != b && segmentCrossesTriangle(a, b, P, Q, R)) ++out.crossings;
            out.closest = std::min(out.closest, segmentTriangleDistance(a, b, P, Q, R));
        }
    }
    return out;
}

// The same scene with the sharp features switched off (the per-vertex contacts alone).
inline PreparedCloth withoutFeatures(PreparedCloth p) {
    for (gpu::Collider& c : p.colliders) c.featureNode = gpu::MESH_NO_HINT;
    p.meshFeatures.clear();
    return p;
}

}  // namespace cloth::test
