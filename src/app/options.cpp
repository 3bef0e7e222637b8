#include "app/options.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>

#include "core/error.h"
#include "core/limits.h"

namespace cloth {
namespace {

constexpr int kMaxSteps = int(limits::kMaxSubsteps);  // as in scene files
constexpr int kMaxThreads = 1024;

int parseInt(const std::string& flag, const std::string& text, int min,
             int max = std::numeric_limits<int>::max()) {
    long long value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ptr != end || (ec != std::errc() && ec != std::errc::result_out_of_range) || text.empty())
        throw Error(flag + ": expected an integer, got '" + text + "'");
    const bool negative = text[0] == '-';
    if ((ec == std::errc() && value < min) || (ec != std::errc() && negative))
        throw Error(flag + ": must be at least " + std::to_string(min) + ", got " + text);
    if (ec != std::errc() || value > max)
        throw Error(flag + ": must be at most " + std::to_string(max) + ", got " + text);
    return static_cast<int>(value);
}

// A compliance: finite and non-negative as a double, and at most limits::kMaxCompliance (so
// also finite as the float the solver holds).
float parseCompliance(const std::string& flag, const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value))
        throw Error(flag + ": expected a finite number, got '" + text + "'");
    if (value < 0.0) throw Error(flag + ": must not be negative, got " + text);
    if (value > limits::kMaxCompliance)
        throw Error(flag + ": " + text + " is softer than any material (at most 1e6)");
    return static_cast<float>(value);
}

// A finite number (the iteration scheme's parameters; applyOverrides checks their ranges).
float parseFinite(const std::string& flag, const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value))
        throw Error(flag + ": expected a finite number, got '" + text + "'");
    return static_cast<float>(value);
}

// "WxH" with both at least 16 and at most 16384.
std::pair<int, int> parseSize(const std::string& text) {
    const auto x = text.find('x');
    if (x == std::string::npos) throw Error("--size: expected WxH (e.g. 1280x720), got '" + text + "'");
    const int w = parseInt("--size", text.substr(0, x), 16);
    const int h = parseInt("--size", text.substr(x + 1), 16);
    if (w > 16384 || h > 16384) throw Error("--size: at most 16384x16384, got " + text);
    return {w, h};
}

}  // namespace

Options parseOptions(const std::vector<std::string>& args) {
    Options o;
    using Setter = std::function<void(const std::string&)>;
    const std::map<std::string, Setter> withValue = {
        {"--scene", [&](const std::string& v) { o.scene = v; }},
        {"--frames", [&](const std::string& v) { o.frames = parseInt("--frames", v, 0); }},
        {"--backend",
         [&](const std::string& v) {
             if (v != "cpu" && v != "gpu" && v != "auto")
                 throw Error("--backend: expected cpu, gpu or auto, got '" + v + "'");
             o.backend = v;
         }},
        {"--device", [&](const std::string& v) { o.device = parseInt("--device", v, 0); }},
        {"--mesh", [&](const std::string& v) { o.mesh = v; }},
        {"--substeps",
         [&](const std::string& v) { o.substeps = parseInt("--substeps", v, 1, kMaxSteps); }},
        {"--iterations",
         [&](const std::string& v) { o.iterations = parseInt("--iterations", v, 1, kMaxSteps); }},
        {"--solver", [&](const std::string& v) { o.solver = parseSolverMode(v); }},
        {"--iteration",
         [&](const std::string& v) { o.iterationScheme = parseIterationScheme(v); }},
        {"--relaxation",
         [&](const std::string& v) { o.relaxation = parseFinite("--relaxation", v); }},
        {"--rho", [&](const std::string& v) { o.rho = parseFinite("--rho", v); }},
        {"--warmup",
         [&](const std::string& v) { o.warmup = parseInt("--warmup", v, 1, kMaxSteps); }},
        {"--threads",
         [&](const std::string& v) { o.threads = parseInt("--threads", v, 1, kMaxThreads); }},
        {"--stretch-compliance",
         [&](const std::string& v) {
             o.stretchCompliance = parseCompliance("--stretch-compliance", v);
         }},
        {"--bend-compliance",
         [&](const std::string& v) { o.bendCompliance = parseCompliance("--bend-compliance", v); }},
        {"--phantoms", [&](const std::string& v) { o.phantoms = parsePhantomSetting(v); }},
        {"--phantom-method",
         [&](const std::string& v) { o.phantomMethod = parsePhantomMethod(v); }},
        {"--phantom-averaging",
         [&](const std::string& v) {
             if (v != "iteration" && v != "color")
                 throw Error("--phantom-averaging: expected iteration or color, got '" + v + "'");
             o.phantomsEachColor = v == "color";
         }},
        {"--tuning", [&](const std::string& v) { o.tuningFile = v; }},
        {"--export-obj", [&](const std::string& v) { o.exportObjDir = v; }},
        {"--export-every",
         [&](const std::string& v) { o.exportEvery = parseInt("--export-every", v, 1); }},
        {"--stats", [&](const std::string& v) { o.statsFile = v; }},
        {"--metrics", [&](const std::string& v) { o.metricsFile = v; }},
        // rendering (issue 5)
        {"--screenshot", [&](const std::string& v) { o.screenshot = v; }},
        {"--record", [&](const std::string& v) { o.recordDir = v; }},
        {"--size", [&](const std::string& v) { o.size = parseSize(v); }},
    };
    const std::map<std::string, bool*> switches = {
        {"--help", &o.help},           {"-h", &o.help},
        {"--list-scenes", &o.listScenes}, {"--list-devices", &o.listDevices},
        {"--headless", &o.headless},   {"--validate", &o.validate},
        {"--no-vsync", &o.noVsync},
    };
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (auto s = switches.find(a); s != switches.end()) {
            *s->second = true;
        } else if (auto w = withValue.find(a); w != withValue.end()) {
            if (i + 1 >= args.size()) throw Error(a + ": missing value");
            w->second(args[++i]);
        } else {
            throw Error("unknown option '" + a + "' (see --help)");
        }
    }
    return o;
}

void applyOverrides(const Options& o, Scene& scene) {
    if (o.substeps) scene.sim.substeps = *o.substeps;
    if (o.iterations) scene.sim.iterations = *o.iterations;
    if (o.solver) scene.sim.mode = *o.solver;
    if (o.phantoms) scene.phantoms = *o.phantoms;
    if (o.phantomsEachColor) scene.sim.averagePhantomsEachColor = *o.phantomsEachColor;
    IterationSettings& it = scene.sim.iteration;
    if (o.iterationScheme) it.scheme = *o.iterationScheme;
    if (o.relaxation) it.relaxation = *o.relaxation;
    if (o.rho) it.rho = *o.rho;
    if (o.warmup) it.warmup = *o.warmup;
    if (o.relaxation || o.rho || o.warmup) checkIterationSettings(it, "--relaxation/--rho/--warmup");
    for (ClothDesc& cloth : scene.cloths) {
        if (!o.mesh.empty()) {
            cloth.grid.reset();
            cloth.objPath = o.mesh;
        }
        if (o.stretchCompliance) cloth.material.stretchCompliance = *o.stretchCompliance;
        if (o.bendCompliance) cloth.material.bendCompliance = *o.bendCompliance;
    }
}

std::string usageText() {
    return R"(clothsim: real-time XPBD cloth simulation (CPU reference and Vulkan compute)

usage: clothsim [options]

scene
  --scene NAME|FILE.json   built-in scene or scene file (default: sphere)
  --list-scenes            list the built-in scenes and exit
  --mesh FILE.obj          use this OBJ as each cloth of the scene (named pin regions still apply)
  --frames N               frames to simulate, 1/60 s each (headless default: 300)

solver
  --backend cpu|gpu|auto   solver backend (default: auto = GPU if available, else CPU)
  --device N               Vulkan device index (see --list-devices)
  --list-devices           list the Vulkan devices and exit
  --validate               enable the Vulkan validation layer
  --solver xpbd|pbd        constraint solver (default: the scene's, normally xpbd)
  --substeps N             substeps per frame
  --iterations N           constraint iterations per substep
  --iteration S            how they update positions: gs (Gauss-Seidel by colours, default),
                           jacobi (all constraints from the same positions, mass splitting)
                           or chebyshev (Chebyshev-accelerated Jacobi)
  --relaxation X           Jacobi and Chebyshev: relaxation gamma in (0, 2) (default 1)
  --rho X                  Chebyshev: spectral radius estimate in [0, 1) (default 0.9)
  --warmup N               Chebyshev: plain Jacobi iterations before acceleration (default 2)
  --threads N              CPU worker threads (default: all hardware threads)
  --stretch-compliance X   override every cloth's stretch compliance (m/N)
  --bend-compliance X      override every cloth's bending compliance (1/(N m))
  --phantoms off|auto|N    phantom vertices for fewer colours (N = target colour count)
  --phantom-method M       how vertices are split: repair (default) or cliques (Bron-Kerbosch)
  --phantom-averaging A    average phantom copies after every iteration (default) or color
  --tuning FILE            where --phantoms auto finds the fastest target per device, as
                           measured by clothbench --tune-phantoms (default: $CLOTHSIM_TUNING,
                           else $XDG_CONFIG_HOME/clothsim/tuning.json, else
                           ~/.config/clothsim/tuning.json; without an entry: 8 colours)

output
  --headless               no window (default without a display)
  --screenshot FILE.png    render the last frame to a PNG (window or headless)
  --record DIR             render DIR/frame_NNNN.png (frame 0 = initial state, every K-th
                           frame with --export-every); in a window every frame is rendered
  --size WxH               window or image size in pixels (default 1280x720)
  --no-vsync               present without waiting for the display's refresh
  --export-obj DIR         write DIR/frame_NNNN.obj (frame 0 = initial state)
  --export-every K         export (OBJ and --record) every K-th frame (default 1)
  --stats FILE.json        write statistics (counts, timings per stage) as JSON
  --metrics FILE           per frame: XPBD residual (2-norm, max), residual strain, elastic
                           and kinetic energy, largest and mean edge stretch; FILE.csv or
                           FILE.json (plain headless runs)
  --help                   show this text

window: left drag on the cloth grabs it, elsewhere orbits; right/middle drag pans; wheel zooms;
  space pause, N step, R reset scene, B switch backend, C reset view, H hide HUD, Esc quit.
  --frames N closes the window after N simulated frames.
  Without --headless and without a display, clothsim runs headless; with no arguments at all
  it then writes a screenshot of the default scene to clothsim.png.

Exit status: 0 on success, 1 on bad input or any error (with a message on stderr).
)";
}

}  // namespace cloth
