// Garments from patterns (prep/rest_shape.h): a cloth's rest state from its texture coordinates.
// Checked against the pattern's own geometry, computed here (grid spacings, areas), against the
// same pattern given as flat positions, and by what the rest state does: a pattern rolled into a
// cylinder unrolls flat with no gravity when its rest comes from the pattern, and keeps its
// cylinder when its rest comes from its positions.
#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "core/scene.h"
#include "cpu/backend.h"
#include "kernels/constraint/bending.h"
#include "prep/prepare.h"
#include "prep_test_util.h"

using namespace cloth;
using cloth::test::throwsError;

namespace {

constexpr double kPi = 3.14159265358979323846;

// A W x H pattern of nx x ny quads whose vt are its coordinates in metres; its positions are the
// pattern rolled about the vertical axis through `turn` radians (0: the flat pattern itself).
struct Pattern {
    double width = 0.6, height = 0.2;
    int nx = 24, ny = 8;
    double turn = 1.5 * kPi;

    double radius() const { return width / turn; }
    glm::dvec3 position(double x, double y) const {
        if (turn == 0.0) return {x, y, 0.0};
        const double a = x / radius();
        return {radius() * std::sin(a), y, radius() * (1.0 - std::cos(a))};
    }
    // The OBJ; `panelGap` moves the right half's texture coordinates by that much in u (a second
    // panel sewn to the first along the middle column: its vertices there get two UVs).
    std::string write(const std::string& name, double panelGap = 0.0, bool withVt = true) const {
        const std::string path = ::testing::TempDir() + name;
        std::ofstream f(path);
        f.precision(9);
        for (int j = 0; j <= ny; ++j)
            for (int i = 0; i <= nx; ++i) {
                const glm::dvec3 p = position(width * i / nx, height * j / ny);
                f << "v " << p.x << ' ' << p.y << ' ' << p.z << '\n';
            }
        // vt: one per vertex and, for the second panel, one more per vertex of its columns.
        auto vt = [&](int i, int j, bool second) {
            f << "vt " << width * i / nx + (second ? panelGap : 0.0) << ' ' << height * j / ny
              << '\n';
        };
        for (int j = 0; j <= ny; ++j)
            for (int i = 0; i <= nx; ++i) vt(i, j, false);
        for (int j = 0; j <= ny; ++j)
            for (int i = 0; i <= nx; ++i) vt(i, j, true);
        const int perSet = (nx + 1) * (ny + 1);
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                const bool second = 2 * i >= nx;
                auto corner = [&](int ci, int cj) {
                    const int v = cj * (nx + 1) + ci + 1;
                    std::string s = std::to_string(v);
                    if (withVt) {
                        s += '/';
                        s += std::to_string(v + (second ? perSet : 0));
                    }
                    return s;
                };
                f << "f " << corner(i, j) << ' ' << corner(i + 1, j) << ' ' << corner(i + 1, j + 1)
                  << '\n';
                f << "f " << corner(i, j) << ' ' << corner(i + 1, j + 1) << ' ' << corner(i, j + 1)
                  << '\n';
            }
        return path;
    }
};

std::string sceneJson(const std::string& obj, const std::string& clothExtra,
                      const std::string& material = "{}", const std::string& sceneExtra = "") {
    return R"({"gravity": [0, 0, 0], "substeps": 10, "iterations": 4)" + sceneExtra +
           R"(, "cloths": [{"mesh": ")" + obj + R"(", "material": )" + material + clothExtra +
           "}]}";
}

PreparedCloth prepare(const std::string& json) {
    return prepareScene(parseSceneJson(json, "inline.json", ""));
}

double patternEdge(const Pattern& pat, const PreparedCloth& p, const gpu::DistanceConstraint& c) {
    // Vertex v = j (nx + 1) + i sits at (W i / nx, H j / ny) in the pattern.
    auto at = [&](std::uint32_t v) {
        return glm::dvec2(pat.width * (v % (pat.nx + 1)) / pat.nx,
                          pat.height * (v / (pat.nx + 1)) / pat.ny);
    };
    (void)p;
    return glm::length(at(c.v0) - at(c.v1));
}

double totalMass(const PreparedCloth& p) {
    double m = 0.0;
    for (const glm::vec4& x : p.positions) m += x.w > 0.0f ? 1.0 / x.w : 0.0;
    return m;
}

}  // namespace

TEST(RestShape, FromThePatternEveryEdgeAndAreaIsThePatterns) {
    const Pattern pat;
    const std::string obj = pat.write("rest_rolled.obj");
    const PreparedCloth uv = prepare(sceneJson(obj, R"(, "rest_shape": "uv")"));
    const PreparedCloth pos = prepare(sceneJson(obj, ""));
    ASSERT_TRUE(uv.cloths[0].restFromPattern);
    ASSERT_FALSE(pos.cloths[0].restFromPattern);

    double worstUv = 0.0, shortestRatio = 1.0;
    for (const auto& c : uv.items<gpu::DistanceConstraint>())
        worstUv = std::max(worstUv, std::abs(c.restLength / patternEdge(pat, uv, c) - 1.0));
    for (const auto& c : pos.items<gpu::DistanceConstraint>())
        shortestRatio = std::min(shortestRatio, c.restLength / patternEdge(pat, pos, c));
    EXPECT_LT(worstUv, 1e-5);  // the float rounding of coordinates near 1
    // From the positions a horizontal edge is a chord, 2R sin(d/2R) for an arc of d.
    const double d = pat.width / pat.nx;
    EXPECT_NEAR(shortestRatio, 2.0 * pat.radius() * std::sin(d / (2.0 * pat.radius())) / d, 1e-6);

    // Masses: density x the pattern's area, against the chords' (smaller) area.
    const double density = 0.2, area = pat.width * pat.height;
    EXPECT_NEAR(totalMass(uv), density * area, 1e-6 * density * area);
    EXPECT_LT(totalMass(pos), density * area * (1.0 - 1e-4));

    // The pattern is flat: every dihedral rest angle 0; from the roll, the vertical edges bend.
    double largest = 0.0;
    for (const auto& c : uv.items<gpu::BendingConstraint>())
        EXPECT_EQ(c.restAngle, 0.0f);
    for (const auto& c : pos.items<gpu::BendingConstraint>())
        largest = std::max(largest, double(std::abs(c.restAngle)));
    EXPECT_GT(largest, 0.5 * d / pat.radius());
}

// The rolled mesh with its rest from the pattern prepares the same StVK rest triangles and
// isometric bending stencils as the pattern itself laid flat with its rest from its positions.
TEST(RestShape, StvkAndIsometricBendingFromThePatternAreTheFlatPatterns) {
    const std::string material =
        R"({"stretch": "stvk", "membrane": {"ex": 300, "ey": 200, "g": 40, "nu_xy": 0.2,
            "nu_yx": 0.3}, "bending": "isometric", "weft_angle": 20})";
    Pattern flat;
    flat.turn = 0.0;
    const PreparedCloth rolled = prepare(
        sceneJson(Pattern{}.write("rest_rolled_stvk.obj"), R"(, "rest_shape": "uv")", material));
    const PreparedCloth plane = prepare(sceneJson(flat.write("rest_flat_stvk.obj"), "", material));

    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, gpu::StvkConstraint> byTri;
    for (const auto& c : plane.items<gpu::StvkConstraint>()) byTri[{c.v0, c.v1, c.v2}] = c;
    ASSERT_EQ(rolled.items<gpu::StvkConstraint>().size(), byTri.size());
    for (const auto& c : rolled.items<gpu::StvkConstraint>()) {
        const gpu::StvkConstraint& f = byTri.at({c.v0, c.v1, c.v2});
        for (int k = 0; k < 4; ++k) EXPECT_NEAR(c.invRest[k], f.invRest[k], 1e-5 * std::abs(f.invRest[0]) + 1e-5) << k;
        for (int k = 0; k < 3; ++k) {
            EXPECT_NEAR(c.complianceDiag[k], f.complianceDiag[k],
                        1e-4 * std::abs(f.complianceDiag[k]));
            EXPECT_NEAR(c.complianceOff[k], f.complianceOff[k],
                        1e-4 * std::abs(f.complianceDiag[0]));
        }
    }
    std::map<std::tuple<std::uint32_t, std::uint32_t>, gpu::IsoBendingConstraint> byEdge;
    for (const auto& c : plane.items<gpu::IsoBendingConstraint>()) byEdge[{c.v0, c.v1}] = c;
    ASSERT_EQ(rolled.items<gpu::IsoBendingConstraint>().size(), byEdge.size());
    for (const auto& c : rolled.items<gpu::IsoBendingConstraint>()) {
        const gpu::IsoBendingConstraint& f = byEdge.at({c.v0, c.v1});
        ASSERT_EQ(c.v2, f.v2);
        ASSERT_EQ(c.v3, f.v3);
        for (int k = 0; k < 4; ++k) EXPECT_NEAR(c.k[k], f.k[k], 1e-4 * std::abs(f.k[0]) + 1e-6);
        EXPECT_NEAR(c.compliance, f.compliance, 1e-4 * f.compliance);
    }
}

// The right half's texture coordinates are moved 1 m in u: its vertices on the middle column
// have two UVs. Each triangle's rest comes from its own corners, so nothing changes.
TEST(RestShape, ASeamVertexTakesEachPanelsOwnCoordinates) {
    const Pattern pat;
    const PreparedCloth p =
        prepare(sceneJson(pat.write("rest_two_panels.obj", 1.0), R"(, "rest_shape": "uv")"));
    double worst = 0.0;
    for (const auto& c : p.items<gpu::DistanceConstraint>())
        worst = std::max(worst, std::abs(c.restLength / patternEdge(pat, p, c) - 1.0));
    EXPECT_LT(worst, 1e-5);
    EXPECT_NEAR(totalMass(p), 0.2 * pat.width * pat.height, 1e-6);
    for (const auto& c : p.items<gpu::BendingConstraint>()) EXPECT_EQ(c.restAngle, 0.0f);
}

TEST(RestShape, WhatCannotGiveAPatternIsRefusedByName) {
    const Pattern pat;
    const std::string noVt = pat.write("rest_no_vt.obj", 0.0, false);
    EXPECT_TRUE(throwsError([&] { prepare(sceneJson(noVt, R"(, "rest_shape": "uv")")); },
                            {"rest_shape \"uv\" needs a texture coordinate at every corner"}));
    // Every vt on one line (v = 0): no triangle has an area in the pattern.
    const std::string degenerate = ::testing::TempDir() + "rest_degenerate.obj";
    {
        std::ifstream in(pat.write("rest_tmp.obj"));
        std::ofstream out(degenerate);
        std::string s;
        while (std::getline(in, s)) {
            if (s.rfind("vt ", 0) == 0) s = s.substr(0, s.rfind(' ')) + " 0";
            out << s << '\n';
        }
    }
    EXPECT_TRUE(throwsError([&] { prepare(sceneJson(degenerate, R"(, "rest_shape": "uv")")); },
                            {"triangle 0 is degenerate in the pattern"}));
    const std::string obj = pat.write("rest_keys.obj");
    EXPECT_TRUE(throwsError([&] { prepare(sceneJson(obj, R"(, "rest_shape": "pattern")")); },
                            {"rest_shape", "'pattern' is not a rest shape (positions or uv)"}));
    EXPECT_TRUE(throwsError([&] { prepare(sceneJson(obj, R"(, "uv_scale": 2)")); },
                            {"uv_scale", "applies to \"rest_shape\": \"uv\" only"}));
    EXPECT_TRUE(throwsError(
        [&] { prepare(sceneJson(obj, R"(, "rest_shape": "uv", "uv_scale": 0)")); },
        {"uv_scale", "must be positive"}));
    // The other models run a pattern too (tests/cpu/test_models_pattern.cpp).
    for (const char* model : {"mass_spring", "pd", "fem"}) {
        const PreparedCloth p = prepare(sceneJson(
            obj, R"(, "rest_shape": "uv")", "{}", std::string(R"(, "model": ")") + model + "\""));
        EXPECT_NO_THROW(makeCpuSolver(p, 1)) << model;
    }
}

TEST(RestShape, KeysRoundTripThroughTheSceneWriter) {
    const std::string obj = Pattern{}.write("rest_roundtrip.obj");
    const Scene a =
        parseSceneJson(sceneJson(obj, R"(, "rest_shape": "uv", "uv_scale": 0.01)"), "a.json", "");
    const Scene b = parseSceneJson(sceneToJson(a, ""), "b.json", "");
    EXPECT_EQ(b.cloths[0].restShape, RestShape::Uv);
    EXPECT_FLOAT_EQ(b.cloths[0].uvScale, 0.01f);
    EXPECT_TRUE(a == b);
}

namespace {

// Runs the rolled pattern for `frames` with no gravity; returns the distance between the
// middles of its first and last columns and the largest dihedral angle at the end.
std::pair<double, double> unroll(const std::string& clothExtra, const std::string& material,
                                 int frames) {
    const Pattern pat;
    const PreparedCloth p =
        prepare(sceneJson(pat.write("rest_unroll.obj"), clothExtra, material));
    auto solver = makeCpuSolver(p, 1);
    for (int f = 0; f < frames; ++f) solver->stepFrame();
    std::vector<glm::vec4> x;
    solver->readPositions(x);
    const int mid = pat.ny / 2 * (pat.nx + 1);
    const double span = glm::length(glm::vec3(x[mid]) - glm::vec3(x[mid + pat.nx]));
    double angle = 0.0;
    for (const auto& c : p.items<gpu::BendingConstraint>())
        angle = std::max(angle, double(std::abs(gpu::bendingAngle(
                                    glm::vec3(x[c.v0]), glm::vec3(x[c.v1]), glm::vec3(x[c.v2]),
                                    glm::vec3(x[c.v3])))));
    return {span, angle};
}

}  // namespace

// A pattern 0.6 m wide rolled three quarters round (its ends 0.18 m apart), no gravity, no
// pins: with its rest from the pattern it opens out flat, its ends the pattern's width apart;
// with its rest from its positions it is at rest already and stays rolled.
TEST(RestShape, ARolledPatternUnrollsFlatAndARolledRestStaysRolled) {
    const Pattern pat;
    const double chord = 2.0 * pat.radius() * std::sin(pat.turn / 2.0);
    const std::string material = R"({"bend_compliance": 0.02, "damping": 2})";
    const auto [flatSpan, flatAngle] = unroll(R"(, "rest_shape": "uv")", material, 240);
    std::printf("rest from the pattern: ends %.4f m apart (pattern %.4f), largest angle %.3g deg\n",
                flatSpan, pat.width, flatAngle * 180.0 / kPi);
    EXPECT_NEAR(flatSpan, pat.width, 0.01 * pat.width);
    EXPECT_LT(flatAngle, 2.0 * kPi / 180.0);
    const auto [rolledSpan, rolledAngle] = unroll("", material, 240);
    std::printf("rest from the positions: ends %.4f m apart (start %.4f), largest angle %.3g deg\n",
                rolledSpan, chord, rolledAngle * 180.0 / kPi);
    EXPECT_NEAR(rolledSpan, chord, 0.01 * chord);
    const double step = pat.width / pat.nx / pat.radius();  // the roll's angle per column
    EXPECT_NEAR(rolledAngle, step, 0.05 * step);
}
