// Transform::matrix against rotations written out by hand; the name parsers; buildClothMesh.
#include <cmath>

#include <gtest/gtest.h>

#include "core/scene.h"
#include "test_util.h"

using namespace cloth;
using cloth::test::throwsError;

namespace {

glm::dvec3 rotX(glm::dvec3 p, double deg) {
    double a = deg * M_PI / 180.0, c = std::cos(a), s = std::sin(a);
    return {p.x, c * p.y - s * p.z, s * p.y + c * p.z};
}
glm::dvec3 rotY(glm::dvec3 p, double deg) {
    double a = deg * M_PI / 180.0, c = std::cos(a), s = std::sin(a);
    return {c * p.x + s * p.z, p.y, -s * p.x + c * p.z};
}
glm::dvec3 rotZ(glm::dvec3 p, double deg) {
    double a = deg * M_PI / 180.0, c = std::cos(a), s = std::sin(a);
    return {c * p.x - s * p.y, s * p.x + c * p.y, p.z};
}

}  // namespace

TEST(Transform, MatrixIsTranslateRotZYXScale) {
    Transform t;
    t.translate = {0.5f, -1.0f, 2.0f};
    t.rotateDegrees = {30.0f, -70.0f, 110.0f};
    t.scale = 1.7f;
    glm::mat4 m = t.matrix();
    for (glm::dvec3 p : {glm::dvec3(1, 0, 0), glm::dvec3(0.3, -0.2, 0.9), glm::dvec3(-2, 1, 1)}) {
        glm::dvec3 expect =
            rotZ(rotY(rotX(p * 1.7, 30.0), -70.0), 110.0) + glm::dvec3(0.5, -1.0, 2.0);
        glm::vec4 got = m * glm::vec4(glm::vec3(p), 1.0f);
        for (int k = 0; k < 3; ++k) EXPECT_NEAR(got[k], expect[k], 1e-5);
        EXPECT_FLOAT_EQ(got.w, 1.0f);
    }
    EXPECT_EQ(Transform{}.matrix(), glm::mat4(1.0f));
}

TEST(Transform, MinusNinetyAboutXLaysAVerticalClothFlatFaceUp) {
    Transform t;
    t.rotateDegrees = {-90.0f, 0.0f, 0.0f};
    glm::mat4 m = t.matrix();
    glm::vec3 normal = glm::vec3(m * glm::vec4(0, 0, 1, 0));
    EXPECT_NEAR(normal.y, 1.0f, 1e-6f);
    glm::vec3 top = glm::vec3(m * glm::vec4(0, 0.5f, 0, 1));
    EXPECT_NEAR(top.y, 0.0f, 1e-6f);
}

TEST(Names, SolverModesPatternsMotions) {
    for (SolverMode s : {SolverMode::Xpbd, SolverMode::Pbd})
        EXPECT_EQ(parseSolverMode(solverModeName(s)), s);
    for (MotionType t : {MotionType::Static, MotionType::Circle, MotionType::Linear,
                         MotionType::Oscillate, MotionType::Rotate})
        EXPECT_EQ(parseMotionType(motionTypeName(t)), t);
    EXPECT_TRUE(throwsError([] { parseSolverMode("XPBD"); }, {"'XPBD'", "xpbd or pbd"}));
    EXPECT_TRUE(throwsError([] { parseMotionType("spiral"); }, {"spiral"}));
}

TEST(Names, PhantomSettings) {
    EXPECT_EQ(parsePhantomSetting("off"), (PhantomSetting{PhantomMode::Off, 0}));
    EXPECT_EQ(parsePhantomSetting("auto"), (PhantomSetting{PhantomMode::Auto, 0}));
    EXPECT_EQ(parsePhantomSetting("8"), (PhantomSetting{PhantomMode::Target, 8}));
    for (const char* bad : {"0", "-3", "", "8x", "on", " 8"})
        EXPECT_TRUE(throwsError([&] { parsePhantomSetting(bad); }, {"phantom"})) << bad;
}

TEST(BuildClothMesh, GridObjAndMistakes) {
    ClothDesc c;
    c.name = "g";
    c.grid = GridDesc{};
    EXPECT_EQ(buildClothMesh(c).positions.size(), 17u * 17u);
    c.objPath = test::assetPath("meshes/quads.obj");
    EXPECT_TRUE(throwsError([&] { buildClothMesh(c); }, {"cloth 'g'", "both"}));
    c.grid.reset();
    EXPECT_EQ(buildClothMesh(c).positions.size(), 77u);
    c.objPath.clear();
    EXPECT_TRUE(throwsError([&] { buildClothMesh(c); }, {"cloth 'g'", "neither"}));
}
