// clothsim's command line. Flags are stable: scripts and tests depend on them.
#pragma once

#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "app/sim_flags.h"
#include "core/scene.h"
#include "cpu/team.h"
#include "prep/phantoms.h"

namespace cloth {

struct Options {
    bool help = false;
    bool listScenes = false;
    bool listDevices = false;
    bool headless = false;
    bool quiet = false;  // --quiet: no progress line (app/progress.h)
    bool validate = false;
    std::string scene = "sphere";
    std::optional<int> frames;
    std::optional<int> startFrame;    // --start-frame N
    std::string backend = "auto";  // cpu | gpu | auto
    std::optional<int> device;
    std::string mesh;
    cli::SimFlags sim;  // --substeps, --iterations, --fps, --model, --iteration and theirs
    std::optional<SolverMode> solver;
    std::optional<int> threads;
    std::optional<double> memoryLimit;  // --memory-limit GIB (app/memory_estimate.h)
    TeamMode team = TeamMode::Adaptive;  // --team adaptive|fixed
    std::optional<float> stretchCompliance;
    std::optional<float> bendRigidity;
    std::optional<float> bendCompliance;
    std::optional<PhantomSetting> phantoms;
    std::optional<PhantomMethod> phantomMethod;
    std::optional<bool> phantomsEachColor;  // --phantom-averaging color
    std::optional<std::string> tuningFile;  // --tuning FILE (see app/phantom_tuning.h)
    std::string exportObjDir;
    std::string exportGltf;        // --export-gltf FILE.glb|FILE.gltf (app/export_gltf.h)
    bool exportColliders = false;  // --export-colliders: the colliders too, in both
    int exportEvery = 1;
    std::string statsFile;
    std::string metricsFile;  // --metrics FILE.csv|FILE.json (app/metrics.h)

    // ---- rendering and window (issue 5) ----
    std::string screenshot;  // --screenshot FILE.png: the last frame
    std::string recordDir;   // --record DIR: DIR/frame_NNNN.png, every --export-every frames
    std::string video;       // --video FILE.mp4: H.264 of the rendered frames (app/export_video.h)
    std::optional<std::pair<int, int>> size;  // --size WxH (default 1280x720)
    bool noVsync = false;                     // --no-vsync
    std::optional<bool> checkPattern;         // --texture check|plain (default check)

    // ---- the camera (issue 30): each overrides the scene's "camera" key ----
    std::optional<glm::vec3> cameraPosition;  // --camera-position X,Y,Z
    std::optional<glm::vec3> cameraTarget;    // --camera-target X,Y,Z
    std::optional<float> fov;                 // --fov DEG
    std::optional<float> turntable;           // --turntable DEG_PER_S
};

// Throws cloth::Error for an unknown flag, a missing or malformed value, or an impossible one.
Options parseOptions(const std::vector<std::string>& args);

// --help: generated from the flags' definitions (CLI11).
std::string usageText();

// Applies --mesh, --fps, --start-frame, --substeps, --iterations, --solver, --model, --integrator,
// --spring-stiffness, --stretch-compliance, --bend-compliance, --phantoms and the camera flags to a
// loaded scene.
void applyOverrides(const Options& options, Scene& scene);

}  // namespace cloth
