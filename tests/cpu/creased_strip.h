// The creased strip of the fixed-angle tests (test_fixed_angle.cpp for XPBD,
// test_pd_fixed_angle.cpp for projective dynamics): a flat 0.2 m x 0.08 m strip of 10 x 4 cells
// with a crease line across its middle (the column x = 0), no gravity, pins or tethers; and the
// fold measured from the positions alone (the angle between the two halves' mean face normals).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/glm.hpp>

#include "core/scene.h"
#include "prep/prepared.h"

namespace cloth::test {

constexpr std::uint32_t kCols = 10, kRows = 4;  // cells; the crease is the column x = 0

inline Scene creasedStrip(float angleDegrees, BendModel bend = BendModel::Dihedral) {
    Scene s;
    s.name = "crease";
    s.sim.gravity = glm::vec3(0.0f);
    s.sim.substeps = 10;
    s.sim.iterations = 4;
    ClothDesc c;
    c.name = "strip";
    GridDesc g;
    g.width = 0.2f;
    g.height = 0.08f;
    g.resX = kCols;
    g.resY = kRows;
    c.grid = g;
    c.tethers = false;
    c.material.linearDamping = 2.0f;
    c.material.bendModel = bend;
    // Dihedral: the former default's stiff hinges (1e-3 per N m), so that each half stays flat
    // beside its crease; a fabric's soft hinges let the halves droop and curl.
    if (bend == BendModel::Dihedral) c.material.bendCompliance = 1e-3f;
    FixedAngleDesc f;
    f.angleDegrees = angleDegrees;
    f.edges.lines.push_back({{0.0f, -1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}});
    c.fixedAngles.push_back(f);
    s.cloths.push_back(c);
    return s;
}

inline glm::vec3 faceNormal(const std::vector<glm::vec4>& x, const glm::uvec3& t) {
    return glm::normalize(glm::cross(glm::vec3(x[t.y] - x[t.x]), glm::vec3(x[t.z] - x[t.x])));
}

struct Fold {
    float degrees = 0.0f;  // angle between the halves' mean normals
    bool valley = false;   // each half's normal points towards the other half
    float flatness = 0.0f; // largest angle (degrees) between a face and its half's mean normal
};

// The rest-state x of each triangle's centroid tells its half.
inline Fold measureFold(const PreparedCloth& p, const std::vector<glm::vec4>& x) {
    glm::vec3 n[2] = {glm::vec3(0.0f), glm::vec3(0.0f)}, centre[2] = {glm::vec3(0.0f),
                                                                        glm::vec3(0.0f)};
    auto halfOf = [&](const glm::uvec3& t) {
        return p.positions[t.x].x + p.positions[t.y].x + p.positions[t.z].x > 0.0f ? 1 : 0;
    };
    for (const glm::uvec3& t : p.triangles) {
        const int h = halfOf(t);
        n[h] += faceNormal(x, t);
        centre[h] += glm::vec3(x[t.x] + x[t.y] + x[t.z]);
    }
    Fold f;
    const glm::vec3 a = glm::normalize(n[0]), b = glm::normalize(n[1]);
    f.degrees = glm::degrees(std::acos(std::clamp(glm::dot(a, b), -1.0f, 1.0f)));
    f.valley = glm::dot(a, centre[1] - centre[0]) > 0.0f && glm::dot(b, centre[0] - centre[1]) > 0.0f;
    for (const glm::uvec3& t : p.triangles) {
        const float d = glm::dot(faceNormal(x, t), halfOf(t) ? b : a);
        f.flatness = std::max(f.flatness, glm::degrees(std::acos(std::clamp(d, -1.0f, 1.0f))));
    }
    return f;
}

}  // namespace cloth::test
