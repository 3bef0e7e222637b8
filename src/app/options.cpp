#include "app/options.h"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>

#include "app/cli.h"
#include "app/export_gltf.h"
#include "app/export_video.h"
#include "core/error.h"
#include "core/frame_rate.h"
#include "core/limits.h"
#include "core/limits.h"
#include "render/image_file.h"

namespace cloth {
namespace {

constexpr int kMaxSteps = int(limits::kMaxSubsteps);  // as in scene files

// "WxH" with both at least 16 and at most 16384.
std::pair<int, int> parseSize(const std::string& text) {
    const auto x = text.find('x');
    if (x == std::string::npos) throw Error("expected WxH (e.g. 1280x720), got '" + text + "'");
    const auto side = [](std::string part) {
        const std::string problem = cli::integer(16)(part);
        if (!problem.empty()) throw Error(problem);
        return std::stoi(part);
    };
    const int w = side(text.substr(0, x));
    const int h = side(text.substr(x + 1));
    if (w > 16384 || h > 16384) throw Error("at most 16384x16384, got " + text);
    return {w, h};
}

// "X,Y,Z": three finite numbers within the scene's size (limits::kMaxCoordinate).
glm::vec3 parsePoint(const std::string& text) {
    std::vector<std::string> parts(1);
    for (char c : text) {
        if (c == ',')
            parts.emplace_back();
        else
            parts.back() += c;
    }
    if (parts.size() != 3)
        throw Error("expected X,Y,Z (three numbers separated by commas, e.g. 0,1.5,4), got '" +
                    text + "'");
    glm::vec3 p(0.0f);
    for (int i = 0; i < 3; ++i) {
        const std::string problem = cli::finite()(parts[i]);
        if (!problem.empty()) throw Error(problem + " in '" + text + "'");
        const double v = std::strtod(parts[i].c_str(), nullptr);
        if (std::abs(v) > limits::kMaxCoordinate)
            throw Error(parts[i] + " m is beyond the scene's size (allowed: -10000 to 10000)");
        p[i] = float(v);
    }
    return p;
}

// A finite number in the open interval (lo, hi) or, with `closed`, in [lo, hi].
std::function<float(const std::string&)> numberIn(double lo, double hi, bool closed,
                                                   std::string unit) {
    return [=](const std::string& text) {
        std::string copy = text;
        const std::string problem = cli::finite()(copy);
        if (!problem.empty()) throw Error(problem);
        const double v = std::strtod(text.c_str(), nullptr);
        if (closed ? !(v >= lo && v <= hi) : !(v > lo && v < hi))
            throw Error("must be between " + std::to_string(int(lo)) + " and " +
                        std::to_string(int(hi)) + " " + unit +
                        (closed ? "" : " (both excluded)") + ", got " + text);
        return float(v);
    };
}

// --screenshot: a PNG or a JPEG, by the file's extension.
CLI::Validator imageFile() {
    return CLI::Validator(
        [](std::string& path) -> std::string {
            if (render::imageFormatOf(path)) return "";
            return std::string("expected a file ending in ") + render::kImageExtensions +
                   " (any case), got '" + path + "'";
        },
        "");
}

// --export-gltf: binary or JSON glTF, by the file's extension.
CLI::Validator gltfFile() {
    return CLI::Validator(
        [](std::string& path) -> std::string {
            if (gltfFormatOf(path)) return "";
            return "expected a file ending in .glb (binary glTF) or .gltf (JSON glTF), any case, "
                   "got '" + path + "'";
        },
        "");
}

// --video: H.264 in an MP4 file, by the file's extension.
CLI::Validator videoFile() {
    return CLI::Validator(
        [](std::string& path) -> std::string {
            if (isMp4Path(path)) return "";
            return "expected a file ending in .mp4 (any case; the video is H.264 in an MP4 "
                   "file), got '" + path + "'";
        },
        "");
}

// clothsim's flags, their help and their checks, bound to `o`.
void defineOptions(CLI::App& app, Options& o) {
    using cli::addInt;
    app.name("clothsim");
    app.description("clothsim: real-time XPBD cloth simulation (CPU reference and Vulkan compute)");
    cli::configure(app);
    app.footer(
        "window: left drag on the cloth grabs it, elsewhere orbits; right/middle drag pans;\n"
        "  wheel zooms; space pause, N step, R reset scene, B switch backend, C reset view,\n"
        "  H hide HUD, Esc quit. --frames N closes the window after N simulated frames.\n"
        "  Without --headless and without a display, clothsim runs headless; with no\n"
        "  arguments at all it then writes a screenshot of the default scene to clothsim.png.\n\n"
        "Exit status: 0 on success, 1 on bad input or any error (with a message on stderr).");
    app.add_flag("--list-scenes", o.listScenes,
                 "list the built-in scenes and the scene files in assets/scenes/, and exit");
    app.add_flag("--list-devices", o.listDevices, "list the Vulkan devices and exit");

    app.option_defaults()->group("Scene");
    app.add_option("--scene", o.scene, "built-in scene or scene file (default: sphere)")
        ->type_name("NAME|FILE.json");
    app.add_option("--mesh", o.mesh,
                   "use this OBJ as each cloth of the scene (named pin regions still apply)")
        ->type_name("FILE.obj");
    addInt(app, "--frames", o.frames, 0, cli::kIntMax,
           "frames to simulate, 1/fps s each (headless default: 300)");
    cli::addFps(app, o.sim.fps);
    addInt(app, "--start-frame", o.startFrame, 0, kMaxStartFrame,
           "the number of the first frame (the initial state) in exported file names, --record "
           "and glTF times (default: the scene's, else 0)");

    app.option_defaults()->group("Solver");
    cli::addChoice(app, "--backend", o.backend, {"cpu", "gpu", "auto"},
                   "solver backend (default: auto = GPU if available, else CPU)");
    cli::addDevice(app, o.device, "Vulkan device index (see --list-devices)");
    cli::addValidate(app, o.validate);
    cli::addSolver(app, o.solver, "constraint solver (default: the scene's, normally xpbd)");
    cli::addModel(app, o.sim.model, "cloth model (default: the scene's, normally xpbd; docs/models.md)");
    cli::addIntegrator(app, o.sim.integrator,
                       "model mass_spring: the integrator (default: the scene's, normally "
                       "symplectic)");
    cli::addSpringStiffness(app, o.sim.springStiffness);
    addInt(app, "--substeps", o.sim.substeps, 1, kMaxSteps,
           "substeps per 1/60 s, whatever the frame rate (at most 10000)");
    addInt(app, "--iterations", o.sim.iterations, 1, kMaxSteps,
           "constraint iterations per substep (at most 10000)");
    cli::addThreads(app, o.threads);
    cli::addTeam(app, o.team);
    app.add_option("--memory-limit", o.memoryLimit,
                   "refuse a scene whose estimated peak memory passes this many GiB, before "
                   "building it (default: the memory this machine has available)")
        ->check(cli::number(0.001, 1e6))
        ->type_name("GIB");
    app.add_option("--stretch-compliance", o.stretchCompliance,
                   "override every cloth's stretch compliance (m/N, 0 to 1e6)")
        ->check(cli::compliance())
        ->type_name("X");
    app.add_option("--bend-rigidity", o.bendRigidity,
                   "override every cloth's bending rigidity (N m, 1e-12 to 1000; the same along "
                   "weft and warp; drops a bend_compliance override)")
        ->check(cli::number(double(limits::kMinBendRigidity), double(limits::kMaxBendRigidity)))
        ->type_name("B");
    app.add_option("--bend-compliance", o.bendCompliance,
                   "expert: every dihedral hinge's compliance (1/(N m), 0 to 1e6), the same on "
                   "each hinge whatever its size (so it bends differently on another mesh)")
        ->check(cli::compliance())
        ->type_name("X");

    app.option_defaults()->group("Iteration scheme");
    cli::addIteration(app, o.sim.iterationScheme,
                      std::string(cli::kIterationHelp) + " (default: the scene's, normally gs)");
    cli::addRelaxation(app, o.sim.relaxation,
                       "Jacobi and Chebyshev: relaxation gamma in (0, 2) (default 1)");
    cli::addRho(app, o.sim.rho, "Chebyshev: spectral radius estimate in [0, 1) (default 0.9)");
    addInt(app, "--warmup", o.sim.warmup, 1, kMaxSteps,
           "Chebyshev: plain Jacobi iterations before acceleration (default 2)");

    app.option_defaults()->group(cli::kPhantomGroup);
    cli::addPhantoms(app, o.phantoms);
    cli::addPhantomMethod(app, o.phantomMethod,
                          "how vertices are split: repair (default) or cliques (Bron-Kerbosch)");
    cli::addPhantomAveraging(app, o.phantomsEachColor,
                             "average phantom copies after every iteration (default) or color");
    cli::addTuning(app, o.tuningFile);

    app.option_defaults()->group("Output");
    app.add_flag("--headless", o.headless, "no window (default without a display)");
    app.add_option("--screenshot", o.screenshot,
                   "render the last frame to a PNG or JPEG, by the extension: .png, .jpg or "
                   ".jpeg (window or headless)")
        ->check(imageFile())
        ->type_name("FILE.png|FILE.jpg");
    app.add_option("--record", o.recordDir,
                   "render DIR/frame_NNNN.png (frame 0 = initial state, every K-th frame with "
                   "--export-every); in a window every frame is rendered")
        ->type_name("DIR");
    app.add_option("--video", o.video,
                   "render frame 0 and every K-th frame (--export-every) into an H.264 video at "
                   "fps / K frames per second (window or headless; docs/export.md)")
        ->check(videoFile())
        ->type_name("FILE.mp4");
    cli::addParsed(app, "--size", o.size, parseSize,
                   "window or image size in pixels, 16 to 16384 each (default 1280x720)")
        ->type_name("WxH");
    app.add_flag("--no-vsync", o.noVsync, "present without waiting for the display's refresh");
    cli::addParsed(app, "--texture", o.checkPattern,
                   [](const std::string& text) { return text == "check"; },
                   "check: a woven check on every cloth, so that folds read (default); plain: "
                   "each cloth in its flat colour")
        ->check(cli::oneOf({"check", "plain"}))
        ->type_name("check|plain");
    cli::addParsed(app, "--camera-position", o.cameraPosition, parsePoint,
                   "where the camera is, in metres (default: the scene's camera, or framed "
                   "automatically); images and the window's first view")
        ->type_name("X,Y,Z");
    cli::addParsed(app, "--camera-target", o.cameraTarget, parsePoint,
                   "the point the camera looks at (default: the scene's, or the framed scene's "
                   "centre)")
        ->type_name("X,Y,Z");
    cli::addParsed(app, "--fov", o.fov, numberIn(kMinFovDegrees, kMaxFovDegrees, false, "degrees"),
                   "vertical field of view in degrees, between 1 and 179 (default: the scene's, "
                   "else 45)")
        ->type_name("DEG");
    cli::addParsed(app, "--turntable", o.turntable,
                   numberIn(-kMaxTurntableDegreesPerSecond, kMaxTurntableDegreesPerSecond, true,
                            "degrees/s"),
                   "turn the camera about the vertical line through its target, in degrees per "
                   "simulated second, counter-clockwise seen from above (default: the scene's, "
                   "else 0)")
        ->type_name("DEG_PER_S");
    app.add_option("--export-obj", o.exportObjDir,
                   "write DIR/frame_NNNN.obj (frame 0 = initial state; every mode)")
        ->type_name("DIR");
    app.add_option("--export-gltf", o.exportGltf,
                   "write the run as one glTF 2.0 file when it ends: binary (.glb) or JSON "
                   "(.gltf), cloths animated by morph targets (every mode; docs/export.md)")
        ->check(gltfFile())
        ->type_name("FILE.glb|FILE.gltf");
    app.add_flag("--export-colliders", o.exportColliders,
                 "add the colliders to --export-obj and --export-gltf");
    addInt(app, "--export-every", o.exportEvery, 1, cli::kIntMax,
           "export (OBJ, glTF, --record and --video) every K-th frame (default 1)")
        ->type_name("K");
    app.add_flag("--quiet", o.quiet,
                 "no progress line (on a terminal: one line rewritten in place; in a log: a "
                 "line every 5 s)");
    app.add_option("--stats", o.statsFile, "write statistics (counts, timings per stage) as JSON")
        ->type_name("FILE.json");
    app.add_option("--metrics", o.metricsFile,
                   "per frame: XPBD residual (2-norm, max), residual strain, elastic and kinetic "
                   "energy, largest and mean edge stretch; FILE.csv or FILE.json (every mode)")
        ->type_name("FILE");
}

}  // namespace

Options parseOptions(const std::vector<std::string>& args) {
    Options o;
    CLI::App app;
    defineOptions(app, o);
    o.help = cli::parse(app, args);
    if (o.exportColliders && o.exportObjDir.empty() && o.exportGltf.empty())
        throw Error("--export-colliders needs --export-obj or --export-gltf (it adds the "
                    "colliders to them)");
    return o;
}

namespace {

// The camera flags over the scene's camera; a position and target that cannot go together (the
// same point, or one straight above the other) are refused, naming where each came from.
void applyCameraFlags(const Options& o, CameraDesc& camera) {
    const bool position = camera.position.has_value(), target = camera.target.has_value();
    if (o.cameraPosition) camera.position = o.cameraPosition;
    if (o.cameraTarget) camera.target = o.cameraTarget;
    if (o.fov) camera.fovDegrees = o.fov;
    if (o.turntable) camera.turntableDegreesPerSecond = *o.turntable;
    if (!o.cameraPosition && !o.cameraTarget) return;
    if (const std::optional<std::string> problem = cameraProblem(camera)) {
        const auto from = [](bool flag, bool scene, const char* name) {
            return std::string(flag ? "--camera-" : scene ? "the scene's camera " : "") + name;
        };
        throw Error(from(bool(o.cameraPosition), position, "position") + " and " +
                    from(bool(o.cameraTarget), target, "target") + ": " + *problem);
    }
}

}  // namespace

void applyOverrides(const Options& o, Scene& scene) {
    cli::applySimFlags(o.sim, scene.sim);
    if (o.startFrame) scene.sim.startFrame = *o.startFrame;
    if (o.solver) scene.sim.mode = *o.solver;
    if (o.phantoms) scene.phantoms = *o.phantoms;
    if (o.phantomsEachColor) scene.sim.averagePhantomsEachColor = *o.phantomsEachColor;
    applyCameraFlags(o, scene.camera);
    for (ClothDesc& cloth : scene.cloths) {
        if (!o.mesh.empty()) {
            cloth.grid.reset();
            cloth.objPath = o.mesh;
        }
        if (o.stretchCompliance) cloth.material.stretchCompliance = *o.stretchCompliance;
        if (o.bendRigidity) {
            cloth.material.bendRigidity = *o.bendRigidity;
            cloth.material.bendRigidityWarp.reset();
            cloth.material.bendCompliance.reset();
        }
        if (o.bendCompliance) cloth.material.bendCompliance = *o.bendCompliance;
    }
}

std::string usageText() {
    Options o;
    CLI::App app;
    defineOptions(app, o);
    return app.help();
}

}  // namespace cloth
