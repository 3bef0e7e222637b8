// Rigid colliders and cloth thickness in scene files (issue 12): every shape and key read,
// written and read back equal, every bad value refused naming the file and the key.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "core/scene.h"
#include "test_util.h"

using namespace cloth;
using cloth::test::throwsError;

namespace {

using test::collidersDir;

// A scene of one small cloth and the given colliders (JSON array elements), read with
// relative mesh paths resolving against tests/data/colliders.
Scene withColliders(const std::string& colliders) {
    return parseSceneJson(
        R"({"cloths": [{"grid": {"resolution": [2, 2]}}], "colliders": [)" + colliders + "]}",
        "inline.json", collidersDir());
}

Scene roundTrip(const Scene& s) {
    return parseSceneJson(sceneToJson(s, collidersDir()), "back.json", collidersDir());
}

}  // namespace

TEST(SceneColliders, EveryShapeAndKeyIsRead) {
    const Scene s = withColliders(R"(
        {"name": "ground", "shape": "plane", "transform": {"translate": [0, -1, 0]},
         "friction": 0.8, "restitution": 0.25},
        {"shape": "sphere", "radius": 0.3, "transform": {"translate": [1, 2, 3], "scale": 2},
         "motion": {"type": "linear", "velocity": [0, 0, 1]}, "start": 1.5},
        {"shape": "capsule", "radius": 0.1, "half_height": 0.4,
         "transform": {"rotate": [0, 0, 90]},
         "motion": {"type": "circle", "radius": 0.5, "period": 4, "axis": [0, 1, 0]},
         "static_friction": 0.7, "kinetic_friction": 0.3},
        {"shape": "box", "half_extents": [0.5, 0.1, 0.25], "radius": 0.05,
         "motion": {"type": "oscillate", "amplitude": [0, 0.2, 0], "period": 2, "phase": 90},
         "spin": {"axis": [0, 0, 2], "degrees_per_second": -45, "reverse_every": 3}},
        {"name": "rock", "shape": "mesh", "mesh": "tetrahedron.obj", "kinetic_friction": 0.1})");
    ASSERT_EQ(s.colliders.size(), 5u);

    const ColliderDesc& plane = s.colliders[0];
    EXPECT_EQ(plane.name, "ground");
    EXPECT_EQ(plane.shape, ColliderShape::Plane);
    EXPECT_EQ(plane.transform.translate, glm::vec3(0, -1, 0));
    EXPECT_EQ(plane.staticFriction, 0.8f);
    EXPECT_EQ(plane.kineticFriction, 0.8f);
    EXPECT_EQ(plane.restitution, 0.25f);
    EXPECT_EQ(plane.motion, MotionDesc{});
    EXPECT_EQ(plane.spin, SpinDesc{});
    EXPECT_EQ(plane.start, 0.0f);

    const ColliderDesc& sphere = s.colliders[1];
    EXPECT_EQ(sphere.name, "collider1");
    EXPECT_EQ(sphere.shape, ColliderShape::Sphere);
    EXPECT_EQ(sphere.radius, 0.3f);
    EXPECT_EQ(sphere.transform.scale, 2.0f);
    EXPECT_EQ(sphere.motion.type, MotionType::Linear);
    EXPECT_EQ(sphere.motion.velocity, glm::vec3(0, 0, 1));
    EXPECT_EQ(sphere.start, 1.5f);
    EXPECT_EQ(sphere.staticFriction, kDefaultStaticFriction);
    EXPECT_EQ(sphere.kineticFriction, kDefaultKineticFriction);
    EXPECT_EQ(sphere.restitution, 0.0f);

    const ColliderDesc& capsule = s.colliders[2];
    EXPECT_EQ(capsule.shape, ColliderShape::Capsule);
    EXPECT_EQ(capsule.radius, 0.1f);
    EXPECT_EQ(capsule.halfHeight, 0.4f);
    EXPECT_EQ(capsule.transform.rotateDegrees, glm::vec3(0, 0, 90));
    EXPECT_EQ(capsule.motion.type, MotionType::Circle);
    EXPECT_EQ(capsule.motion.radius, 0.5f);
    EXPECT_EQ(capsule.motion.period, 4.0f);
    EXPECT_EQ(capsule.staticFriction, 0.7f);
    EXPECT_EQ(capsule.kineticFriction, 0.3f);

    const ColliderDesc& box = s.colliders[3];
    EXPECT_EQ(box.shape, ColliderShape::Box);
    EXPECT_EQ(box.halfExtents, glm::vec3(0.5f, 0.1f, 0.25f));
    EXPECT_EQ(box.radius, 0.05f);
    EXPECT_EQ(box.motion.type, MotionType::Oscillate);
    EXPECT_EQ(box.motion.amplitude, glm::vec3(0, 0.2f, 0));
    EXPECT_EQ(box.motion.period, 2.0f);
    EXPECT_EQ(box.motion.phaseDegrees, 90.0f);
    EXPECT_EQ(box.spin, (SpinDesc{glm::vec3(0, 0, 2), -45.0f, 3.0f}));

    const ColliderDesc& rock = s.colliders[4];
    EXPECT_EQ(rock.shape, ColliderShape::Mesh);
    EXPECT_TRUE(std::filesystem::equivalent(rock.objPath, collidersDir() + "/tetrahedron.obj"));
    EXPECT_EQ(rock.staticFriction, kDefaultStaticFriction);
    EXPECT_EQ(rock.kineticFriction, 0.1f);

    EXPECT_EQ(roundTrip(s), s);
}

// Defaults: a collider is its struct's defaults with its index as name, except that a box in a
// scene file is sharp (radius 0) unless rounded. No "colliders" key: none, and none written.
TEST(SceneColliders, DefaultsAndAbsence) {
    const Scene none = withColliders("");
    EXPECT_TRUE(none.colliders.empty());
    const Scene bare = parseSceneJson(R"({"cloths": [{"grid": {}}]})", "bare.json", "");
    EXPECT_TRUE(bare.colliders.empty());
    EXPECT_EQ(sceneToJson(bare, "").find("colliders"), std::string::npos);

    const Scene s = withColliders(R"({"shape": "sphere"}, {"shape": "box"}, {"shape": "plane"},
                                     {"shape": "capsule"})");
    ColliderDesc sphere;
    sphere.name = "collider0";
    EXPECT_EQ(s.colliders[0], sphere);
    ColliderDesc box;
    box.name = "collider1";
    box.shape = ColliderShape::Box;
    box.radius = 0.0f;
    EXPECT_EQ(s.colliders[1], box);
    EXPECT_EQ(s.colliders[2].shape, ColliderShape::Plane);
    EXPECT_EQ(s.colliders[3].halfHeight, 0.5f);
    EXPECT_EQ(roundTrip(s), s);
    // Equal values of the two coefficients, and a box rounded by exactly its smallest half
    // extent, are allowed.
    const Scene edge = withColliders(R"({"shape": "box", "half_extents": [1, 0.2, 1],
        "radius": 0.2, "static_friction": 0.3, "kinetic_friction": 0.3},
        {"shape": "capsule", "half_height": 0, "friction": 0})");
    EXPECT_EQ(edge.colliders[0].radius, 0.2f);
    EXPECT_EQ(edge.colliders[1].staticFriction, 0.0f);
    EXPECT_EQ(roundTrip(edge), edge);
}

// Through files: the mesh path is written relative to the scene file's folder and reads back
// to the same file.
TEST(SceneColliders, FileRoundTripKeepsTheMeshPath) {
    const Scene s = withColliders(R"({"shape": "mesh", "mesh": "tetrahedron.obj",
        "transform": {"translate": [0, 0.5, 0], "rotate": [10, 20, 30], "scale": 0.5},
        "spin": {"degrees_per_second": 30}, "restitution": 1})");
    const std::string dir = test::scratchDir() + "/nested";
    std::filesystem::create_directories(dir);
    saveSceneFile(dir + "/scene.json", s);
    const Scene back = loadSceneFile(dir + "/scene.json");
    EXPECT_EQ(back, s);
    const std::string text = sceneToJson(s, dir);
    const std::string key = "\"mesh\": \"";
    const std::size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos);
    const std::string written =
        text.substr(at + key.size(), text.find('"', at + key.size()) - (at + key.size()));
    EXPECT_FALSE(std::filesystem::path(written).is_absolute()) << written;
    EXPECT_TRUE(written.ends_with("tests/data/colliders/tetrahedron.obj")) << written;
    EXPECT_TRUE(std::filesystem::equivalent(std::filesystem::path(dir) / written,
                                            collidersDir() + "/tetrahedron.obj"));
}

TEST(SceneColliders, ThicknessIsReadAndWritten) {
    const Scene s = parseSceneJson(R"({"cloths": [{"grid": {}},
        {"grid": {}, "material": {"thickness": 0.002}},
        {"grid": {}, "material": {"preset": "wool", "thickness": 0.1}}]})",
                                   "t.json", "");
    EXPECT_EQ(s.cloths[0].material.thickness, kDefaultThickness);
    EXPECT_EQ(s.cloths[1].material.thickness, 0.002f);
    EXPECT_EQ(s.cloths[2].material.thickness, 0.1f);
    EXPECT_EQ(parseSceneJson(sceneToJson(s, ""), "back.json", ""), s);
}

// Attachments take the oscillating motion too; its keys only.
TEST(SceneColliders, AttachmentsOscillate) {
    const Scene s = parseSceneJson(R"({"cloths": [{"grid": {}, "attachments": [
        {"regions": ["top_corners"], "motion": {"type": "oscillate", "amplitude": [0.1, 0, 0],
                                                "period": 0.5, "phase": -30}}]}]})",
                                   "a.json", "");
    const MotionDesc& m = s.cloths[0].attachments.at(0).motion;
    EXPECT_EQ(m.type, MotionType::Oscillate);
    EXPECT_EQ(m.amplitude, glm::vec3(0.1f, 0, 0));
    EXPECT_EQ(m.period, 0.5f);
    EXPECT_EQ(m.phaseDegrees, -30.0f);
    EXPECT_EQ(parseSceneJson(sceneToJson(s, ""), "back.json", ""), s);
    EXPECT_TRUE(throwsError(
        [] {
            parseSceneJson(R"({"cloths": [{"grid": {}, "attachments": [{"indices": [0],
                "motion": {"type": "oscillate", "radius": 1}}]}]})",
                           "a.json", "");
        },
        {"a.json: cloths[0].attachments[0].motion.radius: unknown key"}));
}

TEST(SceneColliders, ErrorsNameTheFileAndTheKey) {
    struct Case {
        const char* collider;
        const char* fragment;
    } cases[] = {
        // Shapes and their keys.
        {R"({"radius": 1})", "colliders[0]: missing key \"shape\""},
        {R"({"shape": "cone"})", "colliders[0].shape: unknown collider shape 'cone'"},
        {R"({"shape": 3})", "colliders[0].shape: expected a string"},
        {R"([1])", "colliders[0]: expected an object, got an array"},
        {R"({"shape": "sphere", "colour": "red"})", "colliders[0].colour: unknown key"},
        {R"({"shape": "sphere", "motion": {"type": "rotate", "axis": [0, 1, 0]}})",
         "colliders[0].motion.type: a collider cannot rotate about an axis"},
        {R"({"shape": "sphere", "half_extents": [1, 1, 1]})",
         "colliders[0].half_extents: unknown key for a sphere collider (its shape keys: radius)"},
        {R"({"shape": "sphere", "half_height": 1})",
         "colliders[0].half_height: unknown key for a sphere collider"},
        {R"({"shape": "capsule", "half_extents": [1, 1, 1]})",
         "colliders[0].half_extents: unknown key for a capsule collider (its shape keys: radius, "
         "half_height)"},
        {R"({"shape": "box", "mesh": "tetrahedron.obj"})",
         "colliders[0].mesh: unknown key for a box collider (its shape keys: half_extents, "
         "radius)"},
        {R"({"shape": "plane", "radius": 1})",
         "colliders[0].radius: unknown key for a plane collider (its shape keys: none)"},
        {R"({"shape": "mesh", "mesh": "tetrahedron.obj", "radius": 1})",
         "colliders[0].radius: unknown key for a mesh collider (its shape keys: mesh)"},
        // Sizes.
        {R"({"shape": "sphere", "radius": 0})", "colliders[0].radius: must be positive, got 0"},
        {R"({"shape": "sphere", "radius": -0.5})",
         "colliders[0].radius: must be positive, got -0.5"},
        {R"({"shape": "capsule", "radius": 0})", "colliders[0].radius: must be positive"},
        {R"({"shape": "capsule", "half_height": -1})",
         "colliders[0].half_height: must be at least 0, got -1"},
        {R"({"shape": "box", "half_extents": [1, -1, 1]})",
         "colliders[0].half_extents[1]: must be at least 0, got -1"},
        {R"({"shape": "box", "half_extents": [1, 1]})",
         "colliders[0].half_extents: expected an array of 3 numbers"},
        {R"({"shape": "box", "radius": -0.1})", "colliders[0].radius: must be at least 0"},
        {R"({"shape": "box", "half_extents": [1, 0.2, 1], "radius": 0.3})",
         "colliders[0].radius: rounding radius 0.3 m exceeds the smallest half extent 0.2 m"},
        {R"({"shape": "box", "radius": 0.1, "half_extents": [0.05, 1, 1]})",
         "colliders[0].radius: rounding radius 0.1 m exceeds the smallest half extent 0.05 m"},
        {R"({"shape": "sphere", "radius": 2e4})",
         "colliders[0].radius: 20000 m is beyond the scene's size"},
        {R"({"shape": "sphere", "radius": 20, "transform": {"scale": 1000}})",
         "colliders[0].radius: 20 m at scale 1000 is beyond the scene's size"},
        // Not a number, or not a finite float (JSON has no NaN: a NaN is malformed JSON).
        {R"({"shape": "sphere", "radius": NaN})", "malformed JSON"},
        {R"({"shape": "sphere", "radius": 1e39})", "colliders[0].radius: not a finite number"},
        {R"({"shape": "sphere", "radius": "big"})", "colliders[0].radius: expected a number"},
        {R"({"shape": "box", "half_extents": [1, 1e39, 1]})",
         "colliders[0].half_extents[1]: not a finite number"},
        {R"({"shape": "sphere", "transform": {"translate": [0, 1e39, 0]}})",
         "colliders[0].transform.translate[1]: not a finite number"},
        {R"({"shape": "sphere", "transform": {"translate": [0, -2e4, 0]}})",
         "colliders[0].transform.translate[1]: -20000 m is beyond the sane range of positions"},
        {R"({"shape": "sphere", "transform": {"scale": 0}})",
         "colliders[0].transform.scale: must be positive"},
        {R"({"shape": "sphere", "transform": {"scale": 1e-9}})",
         "colliders[0].transform.scale: 1e-09 is beyond the sane range of a collider's scale"},
        {R"({"shape": "sphere", "transform": {"shear": 1}})",
         "colliders[0].transform.shear: unknown key"},
        // Friction and restitution.
        {R"({"shape": "plane", "static_friction": -0.1})",
         "colliders[0].static_friction: must be at least 0, got -0.1"},
        {R"({"shape": "plane", "kinetic_friction": -1})",
         "colliders[0].kinetic_friction: must be at least 0"},
        {R"({"shape": "plane", "friction": -1})", "colliders[0].friction: must be at least 0"},
        {R"({"shape": "plane", "friction": 1e3})",
         "colliders[0].friction: 1000 is beyond the sane range of a friction coefficient"},
        {R"({"shape": "plane", "static_friction": 1e39})",
         "colliders[0].static_friction: not a finite number"},
        {R"({"shape": "plane", "static_friction": 0.3, "kinetic_friction": 0.6})",
         "colliders[0].kinetic_friction: kinetic friction 0.6 exceeds static friction 0.3"},
        {R"({"shape": "plane", "kinetic_friction": 0.6})",
         "colliders[0].kinetic_friction: kinetic friction 0.6 exceeds static friction 0.5 (the "
         "default)"},
        {R"({"shape": "plane", "static_friction": 0.2})",
         "colliders[0].static_friction: kinetic friction 0.4 (the default) exceeds static "
         "friction 0.2"},
        {R"({"shape": "plane", "friction": 0.5, "static_friction": 0.6})",
         "colliders[0].friction: give either \"friction\""},
        {R"({"shape": "plane", "restitution": -0.1})",
         "colliders[0].restitution: must be in [0, 1], got -0.1"},
        {R"({"shape": "plane", "restitution": 1.5})",
         "colliders[0].restitution: must be in [0, 1], got 1.5"},
        // Motion, spin, start.
        {R"({"shape": "sphere", "spin": {"axis": [0, 0, 0]}})",
         "colliders[0].spin.axis: must not be a zero vector"},
        {R"({"shape": "sphere", "spin": {"axis": [1e-30, 0, 0]}})",
         "colliders[0].spin.axis: must not be a zero vector"},
        {R"({"shape": "sphere", "spin": {"axis": [1e20, 0, 0]}})",
         "colliders[0].spin.axis: length 1e+20 is too long to normalise"},
        {R"({"shape": "sphere", "spin": {"degrees_per_second": 1e6}})",
         "colliders[0].spin.degrees_per_second: 1e+06 degrees per second is beyond the sane "
         "range"},
        {R"({"shape": "sphere", "spin": {"reverse_every": -1}})",
         "colliders[0].spin.reverse_every: must be at least 0, got -1"},
        {R"({"shape": "sphere", "spin": {"reverse_every": 1e-6}})",
         "colliders[0].spin.reverse_every: 1e-06 s is beyond the sane range of a reversal"},
        {R"({"shape": "sphere", "spin": {"rate": 1}})", "colliders[0].spin.rate: unknown key"},
        {R"({"shape": "sphere", "spin": 90})", "colliders[0].spin: expected an object"},
        {R"({"shape": "sphere", "start": -1})", "colliders[0].start: must be at least 0, got -1"},
        {R"({"shape": "sphere", "motion": {"type": "oscillate", "period": 0}})",
         "colliders[0].motion.period: must be positive, got 0"},
        {R"({"shape": "sphere", "motion": {"type": "oscillate", "period": 1e-30}})",
         "colliders[0].motion.period: 1e-30 is beyond the sane range of an oscillation's period"},
        {R"({"shape": "sphere", "motion": {"type": "oscillate", "velocity": [1, 0, 0]}})",
         "colliders[0].motion.velocity: unknown key"},
        {R"({"shape": "sphere", "motion": {"type": "oscillate", "amplitude": [2e4, 0, 0]}})",
         "colliders[0].motion.amplitude: length 20000 m is beyond the scene's size"},
        {R"({"shape": "sphere", "motion": {"type": "oscillate", "amplitude": [1e39, 0, 0]}})",
         "colliders[0].motion.amplitude[0]: not a finite number"},
        {R"({"shape": "sphere", "motion": {"type": "oscillate", "phase": 1e39}})",
         "colliders[0].motion.phase: not a finite number"},
        {R"({"shape": "sphere", "motion": {"type": "circle", "axis": [0, 0, 0]}})",
         "colliders[0].motion.axis: must not be a zero vector"},
        {R"({"shape": "sphere", "motion": {"type": "spiral"}})",
         "colliders[0].motion.type: unknown motion type 'spiral'"},
        // Meshes.
        {R"({"shape": "mesh"})", "colliders[0]: a mesh collider needs \"mesh\""},
        {R"({"shape": "mesh", "mesh": ""})", "colliders[0].mesh: empty path"},
        {R"({"shape": "mesh", "mesh": 7})", "colliders[0].mesh: expected a string"},
        {R"({"shape": "mesh", "mesh": "no_such.obj"})", "colliders[0].mesh: "},
        {R"({"shape": "mesh", "mesh": "open_tetrahedron.obj"})", "colliders[0].mesh: "},
        {R"({"shape": "mesh", "mesh": "tetrahedron.obj", "transform": {"translate": [9999.5, 0, 0]}})",
         "colliders[0].transform: vertex 1 lies at 10000.5 m after the transform"},
    };
    for (const Case& c : cases)
        EXPECT_TRUE(throwsError([&] { withColliders(c.collider); }, {"inline.json: ", c.fragment}))
            << c.collider;
    EXPECT_TRUE(throwsError(
        [] { parseSceneJson(R"({"cloths": [{"grid": {}}], "colliders": {}})", "c.json", ""); },
        {"c.json: colliders: expected an array, got an object"}));
}

TEST(SceneColliders, ThicknessErrors) {
    struct Case {
        const char* material;
        const char* fragment;
    } cases[] = {
        {R"({"thickness": 0})", "cloths[0].material.thickness: must be positive, got 0"},
        {R"({"thickness": -0.001})", "cloths[0].material.thickness: must be positive"},
        {R"({"thickness": 0.2})",
         "cloths[0].material.thickness: 0.2 m is beyond the sane range of a cloth's thickness "
         "(allowed: 0 to 0.1)"},
        {R"({"thickness": 1e39})", "cloths[0].material.thickness: not a finite number"},
        {R"({"thickness": "thin"})", "cloths[0].material.thickness: expected a number"},
    };
    for (const Case& c : cases)
        EXPECT_TRUE(throwsError(
            [&] {
                parseSceneJson(
                    std::string(R"({"cloths": [{"grid": {}, "material": )") + c.material + "}]}",
                    "inline.json", "");
            },
            {"inline.json: ", c.fragment}))
            << c.material;
}

// A mesh collider's OBJ problems name the scene, the key and the OBJ file.
TEST(SceneColliders, MeshErrorsNameBothFiles) {
    struct Case {
        std::string mesh, file, fragment;
    } cases[] = {
        {"no_such.obj", "no_such.obj", "cannot open file"},
        {"open_tetrahedron.obj", "open_tetrahedron.obj",
         "not a closed mesh: edge (2, 1) of triangle 0 (vertices 0, 2, 1) belongs to no other "
         "triangle"},
        {"flipped_face_tetrahedron.obj", "flipped_face_tetrahedron.obj",
         "inconsistently oriented: triangle 0 (vertices 0, 2, 1) and triangle 1 (vertices 0, 3, "
         "1) both run edge (1, 0) from 1 to 0"},
        {"inside_out_tetrahedron.obj", "inside_out_tetrahedron.obj",
         "inside out: the signed volume is -0.166667"},
        {test::badPath("malformed.obj"), "malformed.obj", "malformed face"},
        {test::badPath("nonmanifold.obj"), "nonmanifold.obj", "shared by 3 triangles"},
        {test::badPath("nan.obj"), "nan.obj", "is NaN"},
        {test::badPath("empty.obj"), "empty.obj", "empty mesh"},
    };
    for (const Case& c : cases)
        EXPECT_TRUE(
            throwsError([&] { withColliders(R"({"shape": "mesh", "mesh": ")" + c.mesh + "\"}"); },
                        {"inline.json: colliders[0].mesh: ", c.file + ": ", c.fragment}))
            << c.mesh;
}
