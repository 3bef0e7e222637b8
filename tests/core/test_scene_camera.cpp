// The scene key "camera": every key read, written and read back equal; each bad value refused with
// a message naming the key.
#include <limits>

#include <gtest/gtest.h>

#include "core/scene.h"
#include "test_util.h"

using namespace cloth;
using cloth::test::throwsError;

namespace {

using test::parse;

std::string withCamera(const std::string& camera) {
    return R"({"cloths": [{"grid": {}}], "camera": )" + camera + "}";
}

}  // namespace

TEST(SceneFiles, CameraKeysReadAndRoundTrip) {
    const Scene none = parse(R"({"cloths": [{"grid": {}}]})");
    EXPECT_TRUE(none.camera.empty());
    EXPECT_EQ(sceneToJson(none, "").find("camera"), std::string::npos);  // older files unchanged
    const Scene s = parse(withCamera(
        R"({"position": [1.5, 2, -3], "target": [0, 0.5, 0.25], "fov": 30, "turntable": -20})"));
    ASSERT_TRUE(s.camera.position && s.camera.target && s.camera.fovDegrees);
    EXPECT_EQ(*s.camera.position, glm::vec3(1.5f, 2.0f, -3.0f));
    EXPECT_EQ(*s.camera.target, glm::vec3(0.0f, 0.5f, 0.25f));
    EXPECT_EQ(*s.camera.fovDegrees, 30.0f);
    EXPECT_EQ(s.camera.turntableDegreesPerSecond, -20.0f);
    EXPECT_EQ(parse(sceneToJson(s, "")), s);
    // Each key alone: the others stay unset (framed automatically) and survive the round trip.
    for (const char* one : {R"({"position": [0, 1, 5]})", R"({"target": [0, 1, 0]})",
                            R"({"fov": 60})", R"({"turntable": 12.5})", R"({})"}) {
        const Scene p = parse(withCamera(one));
        EXPECT_EQ(parse(sceneToJson(p, "")), p) << one;
    }
    EXPECT_TRUE(parse(withCamera(R"({"target": [0, 1, 0]})")).camera.position == std::nullopt);
    EXPECT_EQ(parse(withCamera(R"({"turntable": 12.5})")).camera.turntableDegreesPerSecond, 12.5f);
}

TEST(SceneFiles, CameraKeysRefuseBadValues) {
    struct Case {
        const char* camera;
        const char* fragment;
    } cases[] = {
        {R"({"fovy": 40})", "inline.json: camera.fovy: unknown key"},
        {R"([0, 1, 2])", "camera: expected an object"},
        {R"({"position": [0, 1]})", "camera.position: expected an array of 3 numbers"},
        {R"({"position": [0, "1", 2]})", "camera.position[1]: expected a number"},
        {R"({"position": [0, 1e39, 2]})", "camera.position[1]: not a finite number"},
        {R"({"target": [20000, 0, 0]})",
         "camera.target: 20000 m is beyond the scene's size (allowed: -10000 to 10000)"},
        {R"({"position": [1, 2, 3], "target": [1, 2, 3]})",
         "inline.json: camera: position equals target"},
        {R"({"position": [0, 5, 0], "target": [0, 0, 0]})",
         "camera: position is straight above or below the target"},
        {R"({"position": [0.01, -5, 0], "target": [0, 0, 0]})", "straight above or below"},
        {R"({"fov": 1})", "camera.fov: must be between 1 and 179 degrees (both excluded), got 1"},
        {R"({"fov": 179})", "camera.fov: must be between 1 and 179 degrees"},
        {R"({"fov": -30})", "camera.fov: must be between 1 and 179 degrees"},
        {R"({"fov": "wide"})", "camera.fov: expected a number"},
        {R"({"turntable": 3601})",
         "camera.turntable: 3601 degrees/s is beyond the sane range (allowed: -3600 to 3600)"},
        {R"({"turntable": true})", "camera.turntable: expected a number"},
    };
    for (const Case& c : cases)
        EXPECT_TRUE(throwsError([&] { parse(withCamera(c.camera)); }, {c.fragment})) << c.camera;
    // The limits themselves are allowed.
    EXPECT_NO_THROW(parse(withCamera(R"({"fov": 1.01, "turntable": -3600})")));
    EXPECT_NO_THROW(parse(withCamera(R"({"fov": 178.9, "turntable": 3600})")));
    EXPECT_NO_THROW(parse(withCamera(R"({"position": [0.2, 5, 0], "target": [0, 0, 0]})")));
}

TEST(SceneFiles, CameraProblemNamesTheKey) {
    CameraDesc c;
    EXPECT_EQ(cameraProblem(c), std::nullopt);
    c.fovDegrees = 200.0f;
    EXPECT_EQ(cameraProblem(c).value_or("").rfind("fov: must be between 1 and 179", 0), 0u);
    c.fovDegrees.reset();
    c.position = glm::vec3(0.0f, 0.0f, std::numeric_limits<float>::infinity());
    EXPECT_EQ(cameraProblem(c).value_or(""), "position: must be finite numbers");
    c.position = glm::vec3(0.0f);
    c.target = glm::vec3(0.0f);
    EXPECT_NE(cameraProblem(c).value_or("").find("position equals target"), std::string::npos);
    // The pitch of a view, in radians: 45 degrees down, and straight along the horizon.
    EXPECT_NEAR(cameraPitch({0, 1, 1}, {0, 0, 0}), 0.25f * 3.14159265f, 1e-6f);
    EXPECT_NEAR(cameraPitch({3, 0, -1}, {0, 0, 0}), 0.0f, 1e-7f);
    EXPECT_NEAR(cameraPitch({0, -2, 2}, {0, 0, 0}), -0.25f * 3.14159265f, 1e-6f);
}
