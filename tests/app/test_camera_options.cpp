// clothsim's camera flags (app/options.h): read, refused with a message naming the flag, and laid
// over the scene's "camera" key key by key.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/options.h"
#include "core/error.h"

namespace cloth {
namespace {

std::string errorOf(const std::vector<std::string>& args) {
    try {
        parseOptions(args);
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

Scene sceneWithCamera() {
    return parseSceneJson(R"({"cloths": [{"grid": {}}], "camera": {"position": [0, 1, 4],
        "target": [0, 1, 0], "fov": 30, "turntable": 10}})",
                          "inline.json", "");
}

TEST(CameraFlags, ReadEveryFlag) {
    const Options o = parseOptions({"--camera-position", "1.5,-2,3e1", "--camera-target", "0,0.5,0",
                                    "--fov", "60", "--turntable", "-12.5"});
    EXPECT_EQ(o.cameraPosition, glm::vec3(1.5f, -2.0f, 30.0f));
    EXPECT_EQ(o.cameraTarget, glm::vec3(0.0f, 0.5f, 0.0f));
    EXPECT_EQ(o.fov, 60.0f);
    EXPECT_EQ(o.turntable, -12.5f);
    const Options none = parseOptions({});
    EXPECT_FALSE(none.cameraPosition || none.cameraTarget || none.fov || none.turntable);
}

TEST(CameraFlags, RefuseBadValuesNamingTheFlag) {
    struct Case {
        std::vector<std::string> args;
        std::string message;
    } cases[] = {
        {{"--camera-position", "1,2"},
         "--camera-position: expected X,Y,Z (three numbers separated by commas, e.g. 0,1.5,4), "
         "got '1,2'"},
        {{"--camera-target", "1,2,3,4"}, "--camera-target: expected X,Y,Z"},
        {{"--camera-position", "1,x,3"},
         "--camera-position: expected a finite number, got 'x' in '1,x,3'"},
        {{"--camera-position", "1,,3"}, "--camera-position: expected a finite number, got ''"},
        {{"--camera-target", "nan,0,0"}, "--camera-target: expected a finite number, got 'nan'"},
        {{"--camera-position", "0,2e4,0"},
         "--camera-position: 2e4 m is beyond the scene's size (allowed: -10000 to 10000)"},
        {{"--fov", "1"}, "--fov: must be between 1 and 179 degrees (both excluded), got 1"},
        {{"--fov", "180"}, "--fov: must be between 1 and 179 degrees (both excluded), got 180"},
        {{"--fov", "wide"}, "--fov: expected a finite number, got 'wide'"},
        {{"--turntable", "-3600.5"},
         "--turntable: must be between -3600 and 3600 degrees/s, got -3600.5"},
        {{"--turntable", "inf"}, "--turntable: expected a finite number, got 'inf'"},
    };
    for (const Case& c : cases) {
        const std::string e = errorOf(c.args);
        EXPECT_NE(e.find(c.message), std::string::npos) << e;
    }
}

TEST(CameraFlags, OverrideTheScenesCameraKeyByKey) {
    Scene s = sceneWithCamera();
    applyOverrides(parseOptions({}), s);
    EXPECT_EQ(s.camera, sceneWithCamera().camera);  // no flag: the scene's camera as it was

    s = sceneWithCamera();
    applyOverrides(parseOptions({"--camera-position", "3,2,1"}), s);
    EXPECT_EQ(s.camera.position, glm::vec3(3, 2, 1));
    EXPECT_EQ(s.camera.target, glm::vec3(0, 1, 0));  // the scene's
    EXPECT_EQ(s.camera.fovDegrees, 30.0f);
    EXPECT_EQ(s.camera.turntableDegreesPerSecond, 10.0f);

    s = sceneWithCamera();
    applyOverrides(parseOptions({"--camera-target", "1,1,1", "--fov", "75", "--turntable", "0"}), s);
    EXPECT_EQ(s.camera.position, glm::vec3(0, 1, 4));
    EXPECT_EQ(s.camera.target, glm::vec3(1, 1, 1));
    EXPECT_EQ(s.camera.fovDegrees, 75.0f);
    EXPECT_EQ(s.camera.turntableDegreesPerSecond, 0.0f);

    // On a scene without a camera the flags make one.
    Scene plain = builtinScene("hanging");
    applyOverrides(parseOptions({"--fov", "20"}), plain);
    EXPECT_EQ(plain.camera.fovDegrees, 20.0f);
    EXPECT_FALSE(plain.camera.position || plain.camera.target);
}

TEST(CameraFlags, APositionOnTheTargetIsRefusedNamingWhereEachCameFrom) {
    const auto refusal = [](const std::vector<std::string>& args) -> std::string {
        Scene s = sceneWithCamera();
        try {
            applyOverrides(parseOptions(args), s);
        } catch (const Error& e) {
            return e.what();
        }
        return "(no error)";
    };
    EXPECT_EQ(refusal({"--camera-position", "0,1,0"}),
              "--camera-position and the scene's camera target: position equals target: the "
              "camera needs a direction to look in");
    EXPECT_NE(refusal({"--camera-target", "0,-3,4"})
                  .find("the scene's camera position and --camera-target: position is straight "
                        "above or below the target"),
              std::string::npos);
    EXPECT_NE(refusal({"--camera-position", "2,2,2", "--camera-target", "2,2,2"})
                  .find("--camera-position and --camera-target: position equals target"),
              std::string::npos);
}

}  // namespace
}  // namespace cloth
