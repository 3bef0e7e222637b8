// Scene files: strict JSON reading (unknown keys, wrong types and impossible values are errors
// naming the file and the JSON path).
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/input_file.h"
#include "core/json_node.h"
#include "core/limits.h"
#include "core/material_presets.h"
#include "core/scene.h"
#include "core/scene_read_parts.h"

namespace cloth {

namespace fs = std::filesystem;

namespace detail {

// ---- shared with other files of the reader (scene_read_parts.h) ----

float positiveInRange(const JsonNode& n, float lo, float hi, const char* why) {
    n.positive();
    return n.inRange(lo, hi, why);
}

Transform readTransform(const JsonNode& n, const char* scaleWhy) {
    n.allowOnly({"translate", "rotate", "scale"});
    Transform t;
    if (n.has("translate")) t.translate = n["translate"].vec3();
    if (n.has("rotate")) t.rotateDegrees = n["rotate"].vec3();
    if (n.has("scale"))
        t.scale = positiveInRange(n["scale"], limits::kMinScale, limits::kMaxScale, scaleWhy);
    return t;
}

glm::vec3 readDirection(const JsonNode& n) {
    const glm::vec3 v = n.vec3();
    const float squared = glm::dot(v, v);
    if (!(squared > 0.0f)) n.fail("must not be a zero vector");
    if (!std::isfinite(squared))
        n.fail("length " + shortNumber(glm::length(glm::dvec3(v))) + " is too long to normalise");
    return v;
}

MotionDesc readMotion(const JsonNode& n) {
    MotionDesc m;
    if (n.has("type")) {
        JsonNode t = n["type"];
        try {
            m.type = parseMotionType(t.string());
        } catch (const Error& e) {
            t.fail(e.what());
        }
    }
    switch (m.type) {
        case MotionType::Static:
            n.allowOnly({"type"});
            break;
        case MotionType::Circle:
            n.allowOnly({"type", "radius", "period", "axis"});
            break;
        case MotionType::Linear:
            n.allowOnly({"type", "velocity"});
            break;
        case MotionType::Oscillate:
            n.allowOnly({"type", "amplitude", "period", "phase"});
            break;
        case MotionType::Rotate:
            n.allowOnly({"type", "axis", "centre", "period"});
            break;
    }
    if (n.has("period"))
        m.period = positiveInRange(n["period"], limits::kMinPeriod, 1e9f,
                                   m.type == MotionType::Oscillate
                                       ? "is beyond the sane range of an oscillation's period "
                                         "(seconds)"
                                       : "is too short for a turn (seconds)");
    if (n.has("radius"))
        m.radius = n["radius"].inRange(0.0f, limits::kMaxCoordinate, "is beyond the scene's size");
    if (n.has("axis")) m.axis = readDirection(n["axis"]);
    if (n.has("velocity")) {
        m.velocity = n["velocity"].vec3();
        if (!(glm::length(glm::dvec3(m.velocity)) <= limits::kMaxSpeed))
            n["velocity"].fail("speed " + shortNumber(glm::length(glm::dvec3(m.velocity))) +
                               " m/s is beyond the sane range (at most 10000 m/s)");
    }
    if (n.has("amplitude")) {
        m.amplitude = n["amplitude"].vec3();
        const double a = glm::length(glm::dvec3(m.amplitude));
        if (!(a <= limits::kMaxCoordinate))
            n["amplitude"].fail("length " + shortNumber(a) +
                                " m is beyond the scene's size (at most 10000 m)");
    }
    if (n.has("phase")) m.phaseDegrees = n["phase"].number();
    if (n.has("centre")) {
        m.centre = n["centre"].vec3();
        for (int k = 0; k < 3; ++k)
            if (!(std::fabs(m.centre[k]) <= limits::kMaxCoordinate))
                n["centre"].fail("is beyond the scene's size (at most 10000 m on each axis)");
    }
    return m;
}

std::string resolvePath(const std::string& p, const std::string& baseDir) {
    fs::path path(p);
    if (path.is_absolute() || baseDir.empty()) return path.lexically_normal().string();
    return (fs::path(baseDir) / path).lexically_normal().string();
}

void checkWorldPositions(const Mesh& mesh, const Transform& t, const JsonNode& blame) {
    const glm::mat4 m = t.matrix();
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        const glm::dvec3 p = glm::dmat4(m) * glm::dvec4(glm::dvec3(mesh.positions[v]), 1.0);
        for (int k = 0; k < 3; ++k)
            if (!(std::fabs(p[k]) <= limits::kMaxCoordinate))
                blame.fail(
                    "vertex " + std::to_string(v) + " lies at " + shortNumber(p[k]) +
                    " m after the transform, beyond the sane range of positions (at most 10000 "
                    "m from the origin on each axis)");
    }
}

}  // namespace detail

namespace {

using detail::checkWorldPositions;
using detail::JsonNode;
using detail::positiveInRange;
using detail::readMotion;
using detail::readName;
using detail::readTransform;
using detail::resolvePath;
using detail::shortNumber;

constexpr std::int64_t kMaxCount = limits::kMaxSubsteps;  // also iterations, target colours
constexpr std::int64_t kMaxResolution = 100000;           // per grid side (makeGrid caps the total)

std::uint32_t vertexIndex(const JsonNode& n) {
    return static_cast<std::uint32_t>(n.intAtLeast(0, UINT32_MAX));
}

Box readBox(const JsonNode& n) {
    n.allowOnly({"min", "max"});
    Box b{n["min"].vec3(), n["max"].vec3()};
    if (!glm::all(glm::lessThanEqual(b.min, b.max))) n.fail("min must not exceed max");
    return b;
}

// The selection keys of an object that may hold others too (an attachment).
VertexSelection readSelection(const JsonNode& n) {
    VertexSelection s;
    if (n.has("indices"))
        for (std::size_t i = 0; i < n["indices"].size(); ++i)
            s.indices.push_back(vertexIndex(n["indices"][i]));
    if (n.has("regions")) {
        for (std::size_t i = 0; i < n["regions"].size(); ++i) {
            JsonNode r = n["regions"][i];
            std::string name = r.string();
            const auto& known = regionNames();
            if (std::find(known.begin(), known.end(), name) == known.end())
                r.fail("unknown region '" + name + "' (expected one of: " + regionNameList() + ")");
            s.regions.push_back(name);
        }
    }
    if (n.has("boxes"))
        for (std::size_t i = 0; i < n["boxes"].size(); ++i)
            s.boxes.push_back(readBox(n["boxes"][i]));
    return s;
}

GridDesc readGrid(const JsonNode& n) {
    n.allowOnly({"width", "height", "resolution", "pattern", "seed"});
    GridDesc g;
    if (n.has("width")) g.width = n["width"].positive();
    if (n.has("height")) g.height = n["height"].positive();
    if (n.has("resolution")) {
        JsonNode r = n["resolution"];
        if (r.size() != 2) r.fail("expected an array of 2 integers [x, y]");
        g.resX = static_cast<std::uint32_t>(r[std::size_t(0)].intAtLeast(1, kMaxResolution));
        g.resY = static_cast<std::uint32_t>(r[1].intAtLeast(1, kMaxResolution));
    }
    if (n.has("pattern")) {
        JsonNode p = n["pattern"];
        try {
            g.pattern = parseGridPattern(p.string());
        } catch (const Error& e) {
            p.fail(e.what());
        }
    }
    if (n.has("seed")) g.seed = static_cast<std::uint32_t>(n["seed"].intAtLeast(0, UINT32_MAX));
    return g;
}

OrthotropicMaterial readMembrane(const JsonNode& n, OrthotropicMaterial m) {
    n.allowOnly({"ex", "ey", "nu_xy", "nu_yx", "g"});
    if (n.has("ex")) m.ex = n["ex"].positive();
    if (n.has("ey")) m.ey = n["ey"].positive();
    if (n.has("nu_xy")) m.nuXY = n["nu_xy"].atLeast(0);
    if (n.has("nu_yx")) m.nuYX = n["nu_yx"].atLeast(0);
    if (n.has("g")) m.g = n["g"].positive();
    if (auto problem = orthotropicProblem(m)) n.fail(*problem);
    return m;
}

// A number (N m, the same along weft and warp) or {"weft": B, "warp": B}, each positive and
// within the sane range (core/limits.h).
void readBendRigidity(const JsonNode& n, Material& m) {
    auto one = [](const JsonNode& v) {
        v.positive();
        return v.inRange(limits::kMinBendRigidity, limits::kMaxBendRigidity,
                         "N m is beyond the sane range of a bending rigidity");
    };
    if (n.isNumber()) {
        m.bendRigidity = one(n);
        m.bendRigidityWarp.reset();
        return;
    }
    n.allowOnly({"weft", "warp"});
    if (!n.has("weft") || !n.has("warp"))
        n.fail("needs a number (N m) or both \"weft\" and \"warp\" (N m)");
    m.bendRigidity = one(n["weft"]);
    m.bendRigidityWarp = one(n["warp"]);
}

float compliance(const JsonNode& n) {
    n.atLeast(0);
    return n.inRange(0.0f, limits::kMaxCompliance, "is softer than any material");
}

Material readMaterial(const JsonNode& n) {
    n.allowOnly({"preset", "density", "stretch", "membrane", "weft_angle", "stretch_compliance",
                 "bending", "bend_rigidity", "bend_compliance", "stretch_stiffness",
                 "bend_stiffness", "damping", "rigid_damping", "thickness", "color"});
    Material m;
    // A preset first (density, membrane moduli, StVK stretch, bending rigidity); the keys below
    // override it.
    if (n.has("preset")) {
        const JsonNode p = n["preset"];
        const std::string name = p.string();
        const auto preset = findMaterialPreset(name);
        if (!preset) {
            std::string names;
            for (std::string_view k : materialPresetNames())
                names += (names.empty() ? "" : ", ") + std::string(k);
            p.fail("unknown material preset '" + name + "' (known: " + names + ")");
        }
        applyMaterialPreset(*preset, m);
    }
    if (n.has("stretch")) m.stretchModel = readName(n["stretch"], parseStretchModel);
    if (n.has("membrane")) m.membrane = readMembrane(n["membrane"], m.membrane);
    if (n.has("weft_angle")) m.weftAngleDegrees = n["weft_angle"].number();
    if (m.stretchModel == StretchModel::Stvk && !n.has("membrane") && m.preset.empty())
        n.fail("\"stretch\": \"stvk\" needs \"membrane\" moduli or a \"preset\"");
    if (n.has("bending")) m.bendModel = readName(n["bending"], parseBendModel);
    if (n.has("bend_rigidity")) readBendRigidity(n["bend_rigidity"], m);
    if (n.has("density"))
        m.density = positiveInRange(n["density"], limits::kMinDensity, limits::kMaxDensity,
                                    "is beyond the sane range of an areal density (kg/m^2)");
    if (n.has("stretch_compliance")) m.stretchCompliance = compliance(n["stretch_compliance"]);
    if (n.has("bend_compliance")) {
        if (m.bendModel == BendModel::Isometric)
            n["bend_compliance"].fail("applies to dihedral bending only (isometric bending takes "
                                      "bend_rigidity)");
        m.bendCompliance = compliance(n["bend_compliance"]);
    }
    if (n.has("stretch_stiffness")) m.stretchStiffness = n["stretch_stiffness"].inUnitRange();
    if (n.has("bend_stiffness")) m.bendStiffness = n["bend_stiffness"].inUnitRange();
    if (n.has("damping")) m.linearDamping = n["damping"].atLeast(0);
    if (n.has("rigid_damping")) m.rigidDamping = n["rigid_damping"].inUnitRange();
    if (n.has("thickness"))
        m.thickness = positiveInRange(n["thickness"], 0.0f, limits::kMaxThickness,
                                      "m is beyond the sane range of a cloth's thickness");
    if (n.has("color")) m.color = readColor(n["color"]);
    return m;
}

AttachmentDesc readAttachment(const JsonNode& n) {
    n.allowOnly({"indices", "regions", "boxes", "compliance", "motion"});
    AttachmentDesc a;
    a.vertices = readSelection(n);
    if (a.vertices.empty()) n.fail("selects no vertices (give indices, regions or boxes)");
    if (n.has("compliance")) a.compliance = compliance(n["compliance"]);
    if (n.has("motion")) a.motion = readMotion(n["motion"]);
    return a;
}

Segment readSegment(const JsonNode& n) {
    n.allowOnly({"from", "to"});
    Segment seg{n["from"].vec3(), n["to"].vec3()};
    if (!(glm::length(seg.to - seg.from) > 0.0f)) n.fail("\"from\" and \"to\" must differ");
    return seg;
}

FixedAngleDesc readFixedAngle(const JsonNode& n) {
    n.allowOnly({"angle", "edges", "lines", "boxes", "compliance", "stiffness"});
    FixedAngleDesc f;
    f.angleDegrees = n["angle"].number();
    if (!(f.angleDegrees > -180.0f && f.angleDegrees < 180.0f))
        n["angle"].fail("must lie strictly between -180 and 180 degrees");
    if (n.has("edges"))
        for (std::size_t i = 0; i < n["edges"].size(); ++i) {
            JsonNode e = n["edges"][i];
            if (e.size() != 2) e.fail("expected a pair of vertex indices [a, b]");
            const std::uint32_t a = vertexIndex(e[std::size_t(0)]), b = vertexIndex(e[1]);
            if (a == b) e.fail("an edge needs two different vertices");
            f.edges.edges.emplace_back(a, b);
        }
    if (n.has("lines"))
        for (std::size_t i = 0; i < n["lines"].size(); ++i)
            f.edges.lines.push_back(readSegment(n["lines"][i]));
    if (n.has("boxes"))
        for (std::size_t i = 0; i < n["boxes"].size(); ++i)
            f.edges.boxes.push_back(readBox(n["boxes"][i]));
    if (f.edges.empty()) n.fail("selects no edges (give edges, lines or boxes)");
    if (n.has("compliance")) f.compliance = compliance(n["compliance"]);
    if (n.has("stiffness")) f.stiffness = n["stiffness"].inUnitRange();
    return f;
}

ClothDesc readCloth(const JsonNode& n, std::size_t index, const std::string& baseDir) {
    n.allowOnly({"name", "grid", "mesh", "transform", "material", "pins", "attachments", "tethers",
                 "tether_slack", "fixed_angles", "rest_shape", "uv_scale"});
    ClothDesc c;
    c.name = n.has("name") ? n["name"].string() : "cloth" + std::to_string(index);
    if (n.has("grid") == n.has("mesh")) n.fail("needs exactly one of \"grid\" or \"mesh\"");
    if (n.has("grid")) c.grid = readGrid(n["grid"]);
    if (n.has("mesh")) {
        std::string mesh = n["mesh"].string();
        if (mesh.empty()) n["mesh"].fail("empty path");
        c.objPath = resolvePath(mesh, baseDir);
    }
    if (n.has("transform")) c.transform = readTransform(n["transform"]);
    if (n.has("material")) c.material = readMaterial(n["material"]);
    if (n.has("pins")) {
        n["pins"].allowOnly({"indices", "regions", "boxes"});
        c.pins = readSelection(n["pins"]);
    }
    if (n.has("attachments"))
        for (std::size_t i = 0; i < n["attachments"].size(); ++i)
            c.attachments.push_back(readAttachment(n["attachments"][i]));
    if (n.has("tethers")) c.tethers = n["tethers"].boolean();
    if (n.has("tether_slack")) c.tetherSlack = n["tether_slack"].atLeast(0);
    if (n.has("fixed_angles"))
        for (std::size_t i = 0; i < n["fixed_angles"].size(); ++i)
            c.fixedAngles.push_back(readFixedAngle(n["fixed_angles"][i]));
    detail::readRestShape(n, c);
    return c;
}

void checkSelection(const Mesh& mesh, const VertexSelection& sel, const JsonNode& n) {
    if (sel.empty()) return;
    std::vector<std::uint32_t> picked = selectVertices(mesh, sel, n.where());
    if (picked.empty()) n.fail("selects no vertices of the mesh");
}

// Grids with more vertices than this are not built while reading (a 20000 x 20000 grid would
// take gigabytes and most of a minute just to check its pins): their description is checked
// here, their selections when the cloth is built (prep/cloth_builder.cpp), after a GPU run has
// checked the scene's size against the device.
constexpr std::uint64_t kMaxGridVerticesCheckedOnRead = std::uint64_t(1) << 22;

// Builds the cloth's mesh once, so that a missing OBJ or a pin outside the mesh is reported
// now, with its place in the file.
void checkMeshAndSelections(const ClothDesc& c, const JsonNode& n) {
    if (c.grid && std::uint64_t(c.grid->resX + 1ull) * (c.grid->resY + 1ull) >
                      kMaxGridVerticesCheckedOnRead) {
        try {
            checkGridDesc(*c.grid);
        } catch (const Error& e) {
            n["grid"].fail(e.what());
        }
        return;
    }
    Mesh mesh;
    try {
        mesh = buildClothMesh(c);
    } catch (const Error& e) {
        n[c.grid ? "grid" : "mesh"].fail(e.what());
    }
    checkWorldPositions(mesh, c.transform,
                        n[n.has("transform") ? "transform" : (c.grid ? "grid" : "mesh")]);
    if (n.has("pins")) checkSelection(mesh, c.pins, n["pins"]);
    for (std::size_t i = 0; i < c.attachments.size(); ++i)
        checkSelection(mesh, c.attachments[i].vertices, n["attachments"][i]);
    if (!c.fixedAngles.empty()) {
        const Topology topo = buildTopology(mesh, n.where());
        for (std::size_t i = 0; i < c.fixedAngles.size(); ++i) {
            const JsonNode f = n["fixed_angles"][i];
            if (selectInteriorEdges(mesh, topo, c.fixedAngles[i].edges, f.where()).empty())
                f.fail("selects no interior edge of the mesh");
        }
    }
}

SelfCollisionSettings readSelfCollision(const JsonNode& n) {
    n.allowOnly({"friction", "static_friction", "kinetic_friction", "margin", "passes", "order",
                 "detection", "bound"});
    SelfCollisionSettings c;
    readFriction(n, c.staticFriction, c.kineticFriction);
    if (n.has("margin")) {
        n["margin"].atLeast(0);
        c.margin = n["margin"].inRange(0.0f, limits::kMaxThickness,
                                       "m is beyond the sane range of a contact margin");
    }
    if (n.has("passes")) c.passes = int(n["passes"].intAtLeast(1, kMaxCount));
    if (n.has("order")) c.order = detail::readName(n["order"], parseSelfContactOrder);
    if (n.has("detection")) c.detection = detail::readName(n["detection"], parseSelfDetection);
    if (n.has("bound")) {
        n["bound"].atLeast(0);
        c.bound = n["bound"].inRange(0.0f, limits::kMaxThickness,
                                     "m is beyond the sane range of a motion bound");
    }
    return c;
}

// "iteration": "gs" | "jacobi" | "chebyshev", or an object with the scheme and its parameters.
IterationSettings readIteration(const JsonNode& n) {
    IterationSettings it;
    auto scheme = [&](const JsonNode& v) {
        try {
            it.scheme = parseIterationScheme(v.string());
        } catch (const Error& e) {
            v.fail(e.what());
        }
    };
    if (n.isString()) {
        scheme(n);
        return it;
    }
    n.allowOnly({"scheme", "relaxation", "rho", "warmup"});
    if (n.has("scheme")) scheme(n["scheme"]);
    if (n.has("relaxation"))
        it.relaxation = n["relaxation"].inRange(0.0f, 2.0f, "is outside (0, 2)");
    if (n.has("rho")) it.rho = n["rho"].inRange(0.0f, 1.0f, "is outside [0, 1)");
    if (n.has("warmup")) it.warmup = int(n["warmup"].intAtLeast(1, kMaxCount));
    try {
        checkIterationSettings(it, "");
    } catch (const Error& e) {
        n.fail(e.what());
    }
    return it;
}

void readSettings(const JsonNode& root, Scene& s) {
    if (root.has("iteration")) s.sim.iteration = readIteration(root["iteration"]);
    if (root.has("wind")) s.sim.wind = detail::readWind(root["wind"]);
    if (root.has("self_collision")) s.sim.selfCollision = readSelfCollision(root["self_collision"]);
    detail::readModel(root, s.sim);
    detail::readFrameRate(root, s.sim);
    if (root.has("gravity")) {
        s.sim.gravity = root["gravity"].vec3();
        const double g = glm::length(glm::dvec3(s.sim.gravity));
        if (!(g <= limits::kMaxGravity))
            root["gravity"].fail("magnitude " + shortNumber(g) +
                                 " m/s^2 is beyond the sane range (at most 1000 m/s^2, about "
                                 "100 g)");
    }
    if (root.has("substeps")) s.sim.substeps = int(root["substeps"].intAtLeast(1, kMaxCount));
    if (root.has("iterations")) s.sim.iterations = int(root["iterations"].intAtLeast(1, kMaxCount));
    if (root.has("solver")) {
        JsonNode m = root["solver"];
        try {
            s.sim.mode = parseSolverMode(m.string());
        } catch (const Error& e) {
            m.fail(e.what());
        }
    }
    if (root.has("phantoms")) {
        JsonNode p = root["phantoms"];
        if (p.isString()) {
            try {
                s.phantoms = parsePhantomSetting(p.string());
            } catch (const Error& e) {
                p.fail(e.what());
            }
        } else {
            s.phantoms = {PhantomMode::Target, std::uint32_t(p.intAtLeast(1, kMaxCount))};
        }
    }
}

SeamSide readSeamSide(const JsonNode& n) {
    n.allowOnly({"cloth", "vertices"});
    SeamSide side;
    side.cloth = static_cast<std::uint32_t>(n["cloth"].intAtLeast(0, UINT32_MAX));
    JsonNode v = n["vertices"];
    v.allowOnly({"indices", "regions", "boxes"});
    side.vertices = readSelection(v);
    if (side.vertices.empty()) v.fail("selects no vertices (give indices, regions or boxes)");
    return side;
}

SeamDesc readSeam(const JsonNode& n) {
    n.allowOnly({"a", "b", "reverse", "compliance", "merge_distance"});
    SeamDesc seam;
    seam.a = readSeamSide(n["a"]);
    seam.b = readSeamSide(n["b"]);
    if (n.has("reverse")) seam.reverse = n["reverse"].boolean();
    if (n.has("compliance")) seam.compliance = compliance(n["compliance"]);
    if (n.has("merge_distance")) {
        n["merge_distance"].atLeast(0);
        seam.mergeDistance = n["merge_distance"].inRange(0.0f, limits::kMaxCoordinate,
                                                         "m is beyond the scene's size");
    }
    return seam;
}

// A seam's cloths exist and its chains pair up (built meshes; grids too large to build while
// reading are checked when the scene is prepared, as their selections are).
void checkSeam(const Scene& s, const SeamDesc& seam, const JsonNode& n) {
    for (const char* side : {"a", "b"}) {
        const std::uint32_t c = (side[0] == 'a' ? seam.a : seam.b).cloth;
        if (c >= s.cloths.size())
            n[side]["cloth"].fail("no cloth " + std::to_string(c) + " (the scene has " +
                                  std::to_string(s.cloths.size()) + ")");
    }
    auto tooLarge = [](const ClothDesc& c) {
        return c.grid && std::uint64_t(c.grid->resX + 1ull) * (c.grid->resY + 1ull) >
                             kMaxGridVerticesCheckedOnRead;
    };
    const ClothDesc& ca = s.cloths[seam.a.cloth];
    const ClothDesc& cb = s.cloths[seam.b.cloth];
    if (tooLarge(ca) || tooLarge(cb)) return;
    const Mesh ma = buildClothMesh(ca);
    const Mesh mb = seam.b.cloth == seam.a.cloth ? ma : buildClothMesh(cb);
    seamChainPairs(seam, ma, mb, n.where());
}

}  // namespace

Scene parseSceneJson(const std::string& text, const std::string& source,
                     const std::string& baseDir) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // parse_error, number overflow
        std::string what = e.what();
        std::size_t bracket = what.find("] ");  // drop "[json.exception.parse_error.101] "
        if (bracket != std::string::npos) what = what.substr(bracket + 2);
        throw Error(source + ": malformed JSON: " + what);
    }
    JsonNode root(doc, source);
    root.allowOnly({"name", "gravity", "substeps", "iterations", "iteration", "solver", "phantoms",
                    "wind", "self_collision", "model", "mass_spring", "fem", "cloths", "seams",
                    "colliders", "camera", "fps", "start_frame"});
    Scene s;
    s.name = root.has("name") ? root["name"].string() : fs::path(source).stem().string();
    readSettings(root, s);
    JsonNode cloths = root["cloths"];
    if (cloths.size() == 0) cloths.fail("needs at least one cloth");
    for (std::size_t i = 0; i < cloths.size(); ++i) {
        s.cloths.push_back(readCloth(cloths[i], i, baseDir));
        checkMeshAndSelections(s.cloths.back(), cloths[i]);
    }
    if (root.has("seams")) {
        JsonNode seams = root["seams"];
        for (std::size_t i = 0; i < seams.size(); ++i) {
            s.seams.push_back(readSeam(seams[i]));
            checkSeam(s, s.seams.back(), seams[i]);
        }
    }
    if (root.has("colliders")) {
        JsonNode colliders = root["colliders"];
        for (std::size_t i = 0; i < colliders.size(); ++i) {
            s.colliders.push_back(detail::readCollider(colliders[i], i, baseDir));
            detail::checkColliderMesh(s.colliders.back(), colliders[i]);
        }
    }
    if (root.has("camera")) s.camera = detail::readCamera(root["camera"]);
    return s;
}

Scene loadSceneFile(const std::string& path) {
    return parseSceneJson(readInputFile(path, kMaxSceneFileBytes, "scene"), path,
                          fs::path(path).parent_path().string());
}

}  // namespace cloth
