// Scene files: writing every field, so that loading what was written gives an equal Scene.
#include <charconv>
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/output_file.h"
#include "core/scene.h"

namespace cloth {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// The shortest decimal that reads back as the same float ("0.2", not "0.20000000298...").
double num(float v) {
    char buf[32];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    double d = 0.0;
    std::from_chars(buf, ptr, d);
    return d;
}

Json vec(const glm::vec3& v) {
    return Json::array({num(v.x), num(v.y), num(v.z)});
}

Json selection(const VertexSelection& s) {
    Json j = Json::object();
    j["indices"] = s.indices;
    j["regions"] = s.regions;
    Json boxes = Json::array();
    for (const Box& b : s.boxes) boxes.push_back({{"min", vec(b.min)}, {"max", vec(b.max)}});
    j["boxes"] = boxes;
    return j;
}

Json motion(const MotionDesc& m) {
    Json j = {{"type", motionTypeName(m.type)}};
    if (m.type == MotionType::Circle) {
        j["radius"] = num(m.radius);
        j["period"] = num(m.period);
        j["axis"] = vec(m.axis);
    } else if (m.type == MotionType::Linear) {
        j["velocity"] = vec(m.velocity);
    } else if (m.type == MotionType::Oscillate) {
        j["amplitude"] = vec(m.amplitude);
        j["period"] = num(m.period);
        j["phase"] = num(m.phaseDegrees);
    } else if (m.type == MotionType::Rotate) {
        j["axis"] = vec(m.axis);
        j["centre"] = vec(m.centre);
        j["period"] = num(m.period);
    }
    return j;
}

Json material(const Material& m) {
    Json j = {{"density", num(m.density)},
              {"stretch_compliance", num(m.stretchCompliance)},
              {"stretch_stiffness", num(m.stretchStiffness)},
              {"bend_stiffness", num(m.bendStiffness)},
              {"damping", num(m.linearDamping)},
              {"rigid_damping", num(m.rigidDamping)},
              {"thickness", num(m.thickness)}};
    // The continuum models only when used (older files stay as they were).
    if (!m.preset.empty()) j["preset"] = m.preset;
    const bool continuum = m.stretchModel != StretchModel::Distance || !m.preset.empty();
    if (continuum) j["stretch"] = stretchModelName(m.stretchModel);
    // The membrane and the weft angle also when set without StVK stretch: they are read, so they
    // must survive the round trip (fuzz_scene_roundtrip found a lost weft angle).
    if (continuum || !(m.membrane == Material{}.membrane))
        j["membrane"] = {{"ex", num(m.membrane.ex)},
                         {"ey", num(m.membrane.ey)},
                         {"nu_xy", num(m.membrane.nuXY)},
                         {"nu_yx", num(m.membrane.nuYX)},
                         {"g", num(m.membrane.g)}};
    if (continuum || m.weftAngleDegrees != 0.0f) j["weft_angle"] = num(m.weftAngleDegrees);
    if (m.bendModel != BendModel::Dihedral) j["bending"] = bendModelName(m.bendModel);
    if (m.bendRigidityWarp)
        j["bend_rigidity"] = {{"weft", num(m.bendRigidity)}, {"warp", num(*m.bendRigidityWarp)}};
    else
        j["bend_rigidity"] = num(m.bendRigidity);
    // The expert override only when given: without it each hinge's compliance is derived.
    if (m.bendCompliance) j["bend_compliance"] = num(*m.bendCompliance);
    if (m.color) j["color"] = vec(*m.color);
    return j;
}

std::string relativeTo(const std::string& path, const std::string& baseDir) {
    if (baseDir.empty()) return path;
    std::error_code ec;
    fs::path rel = fs::absolute(path, ec).lexically_relative(fs::absolute(baseDir, ec));
    return ec || rel.empty() ? path : rel.generic_string();
}

Json transform(const Transform& t) {
    return {
        {"translate", vec(t.translate)}, {"rotate", vec(t.rotateDegrees)}, {"scale", num(t.scale)}};
}

Json cloth(const ClothDesc& c, const std::string& baseDir) {
    Json j = {{"name", c.name}};
    if (c.grid) {
        const GridDesc& g = *c.grid;
        j["grid"] = {{"width", num(g.width)},
                     {"height", num(g.height)},
                     {"resolution", {g.resX, g.resY}},
                     {"pattern", gridPatternName(g.pattern)},
                     {"seed", g.seed}};
    } else {
        j["mesh"] = relativeTo(c.objPath, baseDir);
    }
    j["transform"] = transform(c.transform);
    j["material"] = material(c.material);
    j["pins"] = selection(c.pins);
    Json attachments = Json::array();
    for (const AttachmentDesc& a : c.attachments) {
        Json aj = selection(a.vertices);
        aj["compliance"] = num(a.compliance);
        aj["motion"] = motion(a.motion);
        attachments.push_back(aj);
    }
    j["attachments"] = attachments;
    j["tethers"] = c.tethers;
    j["tether_slack"] = num(c.tetherSlack);
    if (c.restShape == RestShape::Uv) {  // the default (positions) is left unwritten
        j["rest_shape"] = "uv";
        j["uv_scale"] = num(c.uvScale);
    }
    if (!c.fixedAngles.empty()) {
        Json fixed = Json::array();
        for (const FixedAngleDesc& f : c.fixedAngles) {
            Json edges = Json::array(), lines = Json::array(), boxes = Json::array();
            for (const glm::uvec2& e : f.edges.edges) edges.push_back({e.x, e.y});
            for (const Segment& s : f.edges.lines)
                lines.push_back({{"from", vec(s.from)}, {"to", vec(s.to)}});
            for (const Box& b : f.edges.boxes)
                boxes.push_back({{"min", vec(b.min)}, {"max", vec(b.max)}});
            fixed.push_back({{"angle", num(f.angleDegrees)},
                             {"edges", edges},
                             {"lines", lines},
                             {"boxes", boxes},
                             {"compliance", num(f.compliance)},
                             {"stiffness", num(f.stiffness)}});
        }
        j["fixed_angles"] = fixed;
    }
    return j;
}

Json phantoms(const PhantomSetting& p) {
    if (p.mode == PhantomMode::Target) return p.targetColors;
    return p.mode == PhantomMode::Auto ? "auto" : "off";
}

Json wind(const WindSettings& w) {
    Json j = {{"velocity", vec(w.velocity)},
              {"drag", num(w.drag)},
              {"lift", num(w.lift)},
              {"air_density", num(w.airDensity)},
              {"gusts",
               {{"amplitude", num(w.gusts.amplitude)},
                {"period", num(w.gusts.period)},
                {"seed", w.gusts.seed}}}};
    if (w.gusts.direction != 0.0f) j["gusts"]["direction"] = num(w.gusts.direction);
    return j;
}

Json seam(const SeamDesc& s) {
    auto side = [](const SeamSide& x) {
        Json j = {{"cloth", x.cloth}};
        j["vertices"] = selection(x.vertices);
        return j;
    };
    return {{"a", side(s.a)},
            {"b", side(s.b)},
            {"reverse", s.reverse},
            {"compliance", num(s.compliance)},
            {"merge_distance", num(s.mergeDistance)}};
}

// The shape's own keys only (scene_read.cpp refuses the others).
Json collider(const ColliderDesc& c, const std::string& baseDir) {
    Json j = {{"name", c.name}, {"shape", colliderShapeName(c.shape)}};
    j["transform"] = transform(c.transform);
    switch (c.shape) {
        case ColliderShape::Plane:
            break;
        case ColliderShape::Sphere:
            j["radius"] = num(c.radius);
            break;
        case ColliderShape::Capsule:
            j["radius"] = num(c.radius);
            j["half_height"] = num(c.halfHeight);
            break;
        case ColliderShape::Box:
            j["half_extents"] = vec(c.halfExtents);
            j["radius"] = num(c.radius);
            break;
        case ColliderShape::Mesh:
            j["mesh"] = relativeTo(c.objPath, baseDir);
            break;
    }
    j["motion"] = motion(c.motion);
    j["spin"] = {{"axis", vec(c.spin.axis)},
                 {"degrees_per_second", num(c.spin.degreesPerSecond)},
                 {"reverse_every", num(c.spin.reversePeriod)}};
    j["start"] = num(c.start);
    j["static_friction"] = num(c.staticFriction);
    j["kinetic_friction"] = num(c.kineticFriction);
    j["restitution"] = num(c.restitution);
    return j;
}

}  // namespace

std::string sceneToJson(const Scene& scene, const std::string& baseDir) {
    Json j = {{"name", scene.name},
              {"gravity", vec(scene.sim.gravity)},
              {"substeps", scene.sim.substeps},
              {"iterations", scene.sim.iterations},
              {"solver", solverModeName(scene.sim.mode)},
              {"phantoms", phantoms(scene.phantoms)}};
    // Only when not the default (older files stay as they were).
    if (scene.sim.fps != 60.0f) j["fps"] = num(scene.sim.fps);
    if (scene.sim.startFrame != 0) j["start_frame"] = scene.sim.startFrame;
    if (const IterationSettings& it = scene.sim.iteration; it != IterationSettings{})
        j["iteration"] = {{"scheme", iterationSchemeName(it.scheme)},
                          {"relaxation", num(it.relaxation)},
                          {"rho", num(it.rho)},
                          {"warmup", it.warmup}};
    // Only when there is wind (older files stay as they were).
    if (scene.sim.wind) j["wind"] = wind(*scene.sim.wind);
    if (const auto& c = scene.sim.selfCollision)  // only when on (older files stay as they were)
        j["self_collision"] = {{"static_friction", num(c->staticFriction)},
                               {"kinetic_friction", num(c->kineticFriction)},
                               {"margin", num(c->margin)},
                               {"passes", c->passes},
                               {"order", selfContactOrderName(c->order)},
                               {"detection", selfDetectionName(c->detection)},
                               {"bound", num(c->bound)}};
    // Only when not XPBD (older files stay as they were).
    if (scene.sim.model != ClothModel::Xpbd) j["model"] = clothModelName(scene.sim.model);
    if (const MassSpringSettings& m = scene.sim.massSpring; m != MassSpringSettings{}) {
        Json k = Json::object();
        for (auto [key, value] : {std::pair{"structural", m.structural},
                                  std::pair{"shear", m.shear}, std::pair{"flexion", m.flexion}})
            if (value > 0.0f) k[key] = num(value);
        Json ms = {{"integrator", integratorName(m.integrator)}, {"air_damping", num(m.airDamping)}};
        if (!k.empty()) ms["stiffness"] = k;
        if (m.step > 0.0f) ms["step"] = num(m.step);
        j["mass_spring"] = ms;
    }
    if (const FemSettings& f = scene.sim.fem; f != FemSettings{})
        j["fem"] = {{"rayleigh_alpha", num(f.rayleighAlpha)}, {"rayleigh_beta", num(f.rayleighBeta)},
                    {"tolerance", num(f.tolerance)}, {"max_iterations", f.maxIterations}};
    Json cloths = Json::array();
    for (const ClothDesc& c : scene.cloths) cloths.push_back(cloth(c, baseDir));
    j["cloths"] = cloths;
    // Only when there are seams (older files stay as they were).
    if (!scene.seams.empty()) {
        Json seams = Json::array();
        for (const SeamDesc& s : scene.seams) seams.push_back(seam(s));
        j["seams"] = seams;
    }
    // Only when there are colliders (older files stay as they were).
    if (!scene.colliders.empty()) {
        Json colliders = Json::array();
        for (const ColliderDesc& c : scene.colliders) colliders.push_back(collider(c, baseDir));
        j["colliders"] = colliders;
    }
    // Only when given (older files stay as they were); each key only when set.
    if (const CameraDesc& c = scene.camera; !c.empty()) {
        Json cam = Json::object();
        if (c.position) cam["position"] = vec(*c.position);
        if (c.target) cam["target"] = vec(*c.target);
        if (c.fovDegrees) cam["fov"] = num(*c.fovDegrees);
        if (c.turntableDegreesPerSecond != 0.0f)
            cam["turntable"] = num(c.turntableDegreesPerSecond);
        j["camera"] = cam;
    }
    return j.dump(2) + "\n";
}

void saveSceneFile(const std::string& path, const Scene& scene) {
    std::string text = sceneToJson(scene, fs::path(path).parent_path().string());
    writeOutputFile(path, text);
}

}  // namespace cloth
