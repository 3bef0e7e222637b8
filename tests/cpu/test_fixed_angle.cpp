// Fixed angles (Anon. 2023 §4.8) in the whole solver (prepareScene + CPU reference): a flat strip with a
// crease line across its middle folds to the crease's target angle and settles within 1 degree,
// measured from the positions alone (the angle between the two halves' face normals). No
// gravity, pins or tethers, so nothing but the crease and the bending of the flat halves acts.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "../common/state_hashes.h"
#include "core/error.h"
#include "cpu/cpu_solver.h"
#include "prep/prepare.h"

using namespace cloth;

namespace {

constexpr std::uint32_t kCols = 10, kRows = 4;  // cells; the crease is the column x = 0

Scene creasedStrip(float angleDegrees, BendModel bend = BendModel::Dihedral) {
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
    FixedAngleDesc f;
    f.angleDegrees = angleDegrees;
    f.edges.lines.push_back({{0.0f, -1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}});
    c.fixedAngles.push_back(f);
    s.cloths.push_back(c);
    return s;
}

glm::vec3 faceNormal(const std::vector<glm::vec4>& x, const glm::uvec3& t) {
    return glm::normalize(glm::cross(glm::vec3(x[t.y] - x[t.x]), glm::vec3(x[t.z] - x[t.x])));
}

struct Fold {
    float degrees = 0.0f;  // angle between the halves' mean normals
    bool valley = false;   // each half's normal points towards the other half
    float flatness = 0.0f; // largest angle (degrees) between a face and its half's mean normal
};

// The rest-state x of each triangle's centroid tells its half.
Fold measureFold(const PreparedCloth& p, const std::vector<glm::vec4>& x) {
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

Fold settle(const Scene& scene, int frames, int threads = 2) {
    const PreparedCloth p = prepareScene(scene);
    auto solver = makeCpuSolver(p, threads, std::nullopt, 0);
    for (int f = 0; f < frames; ++f) solver->stepFrame();
    std::vector<glm::vec4> x;
    solver->readPositions(x);
    return measureFold(p, x);
}

}  // namespace

TEST(FixedAngleTest, CreaseLineSelectsTheMiddleColumnOnly) {
    const PreparedCloth p = prepareScene(creasedStrip(60.0f));
    // The column x = 0 has kRows interior edges; every other interior edge keeps its bending.
    EXPECT_EQ(p.items<gpu::FixedAngleConstraint>().size(), kRows);
    const std::size_t interior =
        kCols * (kRows + 1) + kRows * (kCols + 1) + kCols * kRows - 2 * (kCols + kRows);
    EXPECT_EQ(p.items<gpu::BendingConstraint>().size() + kRows, interior);
    for (const auto& c : p.items<gpu::FixedAngleConstraint>()) {
        EXPECT_NEAR(p.positions[c.v0].x, 0.0f, 1e-6f);
        EXPECT_NEAR(p.positions[c.v1].x, 0.0f, 1e-6f);
        EXPECT_FLOAT_EQ(c.targetAngle, -glm::radians(60.0f));
    }
}

TEST(FixedAngleTest, FlatStripFoldsToSixtyDegreesWithinOneDegree) {
    for (float angle : {60.0f, -60.0f}) {
        const Fold f = settle(creasedStrip(angle), 120);
        std::printf("crease %+.0f deg: fold %.3f deg, valley towards normals %d, halves flat within "
                    "%.3f deg\n",
                    angle, f.degrees, f.valley, f.flatness);
        EXPECT_NEAR(f.degrees, 60.0f, 1.0f) << angle;
        EXPECT_EQ(f.valley, angle > 0.0f) << angle;  // positive folds towards the normals
        EXPECT_LT(f.flatness, 1.0f) << angle;        // the halves stay flat: only the crease folds
    }
}

TEST(FixedAngleTest, FoldsWithIsometricBendingToo) {
    // Isometric bending is far softer than the default dihedral compliance: the halves flex
    // while folding (12 degrees after 60 frames) and take longer to settle.
    const Fold f = settle(creasedStrip(90.0f, BendModel::Isometric), 400);
    std::printf("crease 90 deg, isometric bending: fold %.3f deg, halves flat within %.3f deg\n",
                f.degrees, f.flatness);
    EXPECT_NEAR(f.degrees, 90.0f, 1.0f);
    EXPECT_LT(f.flatness, 1.0f);
}

TEST(FixedAngleTest, DeterministicForAnyThreadCountWithPhantoms) {
    Scene s = creasedStrip(60.0f);
    s.phantoms = {PhantomMode::Target, 4};
    const PreparedCloth p = prepareScene(s);
    std::uint64_t first = 0;
    for (int threads : {1, 2, 3}) {
        auto solver = makeCpuSolver(p, threads, std::nullopt, 0);
        for (int f = 0; f < 30; ++f) solver->stepFrame();
        std::vector<glm::vec4> x, v;
        solver->readPositions(x);
        solver->readVelocities(v);
        const std::uint64_t h = test::fnv1aState(x, v);
        if (threads == 1) first = h;
        EXPECT_EQ(h, first) << threads << " threads";
    }
}

TEST(FixedAngleTest, BadSelectionsAreErrors) {
    Scene s = creasedStrip(60.0f);
    s.cloths[0].fixedAngles[0].edges.lines.clear();
    s.cloths[0].fixedAngles[0].edges.edges.push_back({0, 1});  // a boundary edge
    EXPECT_THROW(prepareScene(s), Error);
    s.cloths[0].fixedAngles[0].edges.edges = {{0, 99999}};
    EXPECT_THROW(prepareScene(s), Error);
    s = creasedStrip(60.0f);
    s.cloths[0].fixedAngles.push_back(s.cloths[0].fixedAngles[0]);  // the same edges twice
    EXPECT_THROW(prepareScene(s), Error);
    s = creasedStrip(180.0f);
    EXPECT_THROW(prepareScene(s), Error);
}
