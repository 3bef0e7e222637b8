// Collider records built by hand for the renderer's tests (scene files do not describe colliders
// to the renderer's tests; prep fills PreparedCloth::colliders from them).
#pragma once

#include <cmath>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include "kernels/collider.h"

namespace cloth::test {

// A collider standing still at `origin` with the world's axes.
inline gpu::Collider collider(std::uint32_t shape, glm::vec3 origin, glm::vec4 size) {
    gpu::Collider c{};
    c.origin = glm::vec4(origin, 0.0f);
    c.axisX = {1.0f, 0.0f, 0.0f, 0.0f};
    c.axisY = {0.0f, 1.0f, 0.0f, 0.0f};
    c.axisZ = {0.0f, 0.0f, 1.0f, 0.0f};
    c.size = size;
    c.spin = {0.0f, 1.0f, 0.0f, 0.0f};
    c.path.type = gpu::MOTION_STATIC;
    c.shape = shape;
    c.staticFriction = 0.5f;
    c.kineticFriction = 0.4f;
    return c;
}

// The same collider turned by `angle` (radians) about the unit axis `axis` at t = 0.
inline gpu::Collider turned(gpu::Collider c, glm::vec3 axis, float angle) {
    const glm::vec2 sc(std::sin(angle), std::cos(angle));
    c.axisX = glm::vec4(gpu::rotateAbout(glm::vec3(c.axisX), axis, sc), 0.0f);
    c.axisY = glm::vec4(gpu::rotateAbout(glm::vec3(c.axisY), axis, sc), 0.0f);
    c.axisZ = glm::vec4(gpu::rotateAbout(glm::vec3(c.axisZ), axis, sc), 0.0f);
    return c;
}

// A closed triangle mesh as MeshTriangle records: the octahedron with vertices at +-h on each
// axis, counter-clockwise from outside, face normals set.
inline std::vector<gpu::MeshTriangle> octahedron(float h) {
    const glm::vec3 x(h, 0, 0), y(0, h, 0), z(0, 0, h);
    std::vector<gpu::MeshTriangle> out;
    for (float sx : {-1.0f, 1.0f})
        for (float sy : {-1.0f, 1.0f})
            for (float sz : {-1.0f, 1.0f}) {
                glm::vec3 a = sx * x, b = sy * y, c = sz * z;
                if (sx * sy * sz < 0.0f) std::swap(b, c);  // keep it counter-clockwise outside
                gpu::MeshTriangle t{};
                t.a = glm::vec4(a, 0.0f);
                t.b = glm::vec4(b, 0.0f);
                t.c = glm::vec4(c, 0.0f);
                t.faceNormal = glm::vec4(glm::normalize(glm::vec3(sx, sy, sz)), 0.0f);
                out.push_back(t);
            }
    return out;
}

// A torus about the y axis (ring radius R, tube radius r), nu x nv quads split in two,
// counter-clockwise from outside; face normals left unset (the winding orients them).
inline std::vector<gpu::MeshTriangle> torus(float R, float r, int nu, int nv) {
    auto at = [&](int i, int j) {
        const float u = 6.2831853f * float(i % nu) / float(nu);
        const float v = 6.2831853f * float(j % nv) / float(nv);
        const float rho = R + r * std::cos(v);
        return glm::vec4(rho * std::cos(u), r * std::sin(v), rho * std::sin(u), 0.0f);
    };
    std::vector<gpu::MeshTriangle> out;
    for (int i = 0; i < nu; ++i)
        for (int j = 0; j < nv; ++j) {
            const glm::vec4 a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
            gpu::MeshTriangle t{};
            t.a = a, t.b = d, t.c = c;
            out.push_back(t);
            t.a = a, t.b = c, t.c = b;
            out.push_back(t);
        }
    return out;
}

}  // namespace cloth::test
