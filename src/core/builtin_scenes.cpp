// The built-in scenes (clothsim --list-scenes). Each is also written out as a file in
// assets/scenes/<name>.json; a test checks that the two agree.
#include <filesystem>

#include "core/error.h"
#include "core/scene.h"

namespace cloth {

namespace {

struct Builtin {
    const char* name;
    const char* description;
    Scene (*make)();
};

// A vertical cloth in the XY plane whose top edge is at y = 2.
ClothDesc verticalCloth(const char* name, float width, float height, std::uint32_t resX,
                        std::uint32_t resY) {
    ClothDesc c;
    c.name = name;
    GridDesc g;
    g.width = width;
    g.height = height;
    g.resX = resX;
    g.resY = resY;
    g.pattern = GridPattern::Alternating;  // symmetric: no sideways drift from the diagonals
    c.grid = g;
    c.transform.translate = {0.0f, 2.0f - 0.5f * height, 0.0f};
    return c;
}

// The default fabric (cotton's bending rigidity, stretch as the default) and a little damping so
// swings settle.
Material demoMaterial() {
    Material m;
    m.linearDamping = 0.1f;
    return m;
}

Scene sceneWith(const char* name, ClothDesc cloth) {
    cloth.material = demoMaterial();
    Scene s;
    s.name = name;
    s.sim.substeps = 10;
    s.sim.iterations = 1;
    s.sim.mode = SolverMode::Xpbd;
    s.cloths.push_back(std::move(cloth));
    return s;
}

// Starts horizontal at y = 2 and swings down from its two (mesh-space) top corners.
Scene hanging() {
    ClothDesc c = verticalCloth("hanging", 1.0f, 1.0f, 32, 32);
    c.transform.translate = {0.0f, 2.0f, 0.0f};
    c.transform.rotateDegrees = {-90.0f, 0.0f, 0.0f};
    c.pins.regions = {"top_corners"};
    Scene s = sceneWith("hanging", c);
    // The two corners carry the whole cloth: at 10 substeps its edges stretch by 42%, at 60 by
    // 4.0% (assets/scenes/README.md, Stretch).
    s.sim.substeps = 60;
    return s;
}

Scene curtain() {
    ClothDesc c = verticalCloth("curtain", 2.0f, 1.5f, 48, 36);
    // Tilted 45 degrees about its centre line, top edge at y = 2: it swings down and settles.
    c.transform.rotateDegrees = {-45.0f, 0.0f, 0.0f};
    c.transform.translate = {0.0f, 1.4696699f, 0.0f};  // 2 - 0.75 cos 45 degrees
    c.pins.regions = {"top_edge"};
    return sceneWith("curtain", c);
}

Scene swirl() {
    ClothDesc c = verticalCloth("swirl", 1.0f, 1.0f, 32, 32);
    AttachmentDesc a;
    a.vertices.regions = {"top_corners"};
    a.motion.type = MotionType::Circle;
    a.motion.radius = 0.25f;
    a.motion.period = 2.0f;
    a.motion.axis = {0.0f, 1.0f, 0.0f};
    a.compliance = 0.0f;
    c.attachments.push_back(a);
    Scene s = sceneWith("swirl", c);
    s.sim.substeps = 50;  // 2.6% stretch at most, 33% at 10 (at bend_compliance 1)
    return s;
}

// A view of a cloth falling from y = 2 to the ground, from above and to the side.
CameraDesc fallCamera() {
    CameraDesc c;
    c.position = glm::vec3(1.1f, 2.9f, 1.6f);
    c.target = glm::vec3(0.0f, 1.0f, 0.0f);
    c.fovDegrees = 58.0f;
    return c;
}

Scene drop() {
    ClothDesc c = verticalCloth("drop", 1.0f, 1.0f, 32, 32);
    c.transform.translate = {0.0f, 2.0f, 0.0f};
    c.transform.rotateDegrees = {-90.0f, 0.0f, 0.0f};  // horizontal, front face up
    Scene s = sceneWith("drop", c);
    ColliderDesc ground;  // the ground the renderer draws, at y = 0
    ground.name = "ground";
    ground.shape = ColliderShape::Plane;
    s.colliders = {ground};
    s.camera = fallCamera();
    return s;
}

// A 1.6 m cloth falls flat from y = 1.3 onto a sphere of radius 0.4 m resting on the ground,
// and drapes over it in folds (the default demo).
Scene sphere() {
    ClothDesc c = verticalCloth("sphere", 1.6f, 1.6f, 48, 48);
    c.transform.translate = {0.0f, 1.3f, 0.0f};
    c.transform.rotateDegrees = {-90.0f, 0.0f, 0.0f};
    Scene s = sceneWith("sphere", c);
    // The default fabric's bending; 120 substeps keep its largest edge stretch within 5% (4.6%,
    // the sides' swing after landing; 15% at 20 x 2 iterations, 6.2% at 80 x 1: assets/scenes/
    // README.md, Stretch).
    s.sim.substeps = 120;
    ColliderDesc ball;
    ball.name = "ball";
    ball.shape = ColliderShape::Sphere;
    ball.radius = 0.4f;
    ball.transform.translate = {0.0f, 0.4f, 0.0f};
    ColliderDesc ground;
    ground.name = "ground";
    ground.shape = ColliderShape::Plane;
    s.colliders = {ball, ground};
    s.camera.position = glm::vec3(1.45f, 2.1f, 1.95f);  // from about 30 degrees above the cloth
    s.camera.target = glm::vec3(-0.1f, 0.7f, 0.1f);
    s.camera.fovDegrees = 40.0f;
    return s;
}

const Builtin kBuiltins[] = {
    {"hanging", "1 m square cloth released flat, swinging down from two pinned corners", hanging},
    {"curtain", "2 m x 1.5 m curtain pinned along its top edge, released at 45 degrees", curtain},
    {"swirl", "1 m square cloth whose top corners swing on horizontal circles", swirl},
    {"drop", "1 m square cloth falling flat onto the ground, no pins", drop},
    {"sphere", "1.6 m square cloth dropped onto a sphere, draping over it in folds", sphere},
};

}  // namespace

std::vector<std::string> builtinSceneNames() {
    std::vector<std::string> names;
    for (const Builtin& b : kBuiltins) names.push_back(b.name);
    return names;
}

static const Builtin& findBuiltin(const std::string& name) {
    for (const Builtin& b : kBuiltins)
        if (name == b.name) return b;
    std::string list;
    for (const Builtin& b : kBuiltins) list += (list.empty() ? "" : ", ") + std::string(b.name);
    throw Error("unknown scene '" + name + "' (built-in scenes: " + list +
                "; or give a .json scene file)");
}

std::string builtinSceneDescription(const std::string& name) {
    return findBuiltin(name).description;
}

Scene builtinScene(const std::string& name) {
    return findBuiltin(name).make();
}

Scene resolveScene(const std::string& nameOrPath) {
    namespace fs = std::filesystem;
    std::error_code ec;
    bool isFile = fs::is_regular_file(nameOrPath, ec);
    bool looksLikePath = nameOrPath.ends_with(".json") || nameOrPath.find('/') != std::string::npos;
    if (isFile || looksLikePath) return loadSceneFile(nameOrPath);
    return builtinScene(nameOrPath);
}

}  // namespace cloth
