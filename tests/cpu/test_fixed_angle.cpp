// Fixed angles (Anon. 2023 §4.8) in the whole solver (prepareScene + CPU reference): a flat strip with a
// crease line across its middle folds to the crease's target angle and settles within 1 degree,
// measured from the positions alone (the angle between the two halves' face normals). No
// gravity, pins or tethers, so nothing but the crease and the bending of the flat halves acts.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "../common/state_hashes.h"
#include "creased_strip.h"
#include "core/error.h"
#include "cpu/backend.h"
#include "prep/prepare.h"

using namespace cloth;

namespace {

using test::creasedStrip;
using test::Fold;
using test::kCols;
using test::kRows;
using test::measureFold;

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
