// clothbench: solver throughput on square grids (stretch + bending), per backend and thread
// count. Warms up, repeats, reports min and median; prints a table and optionally writes JSON.
// Timing lives here, never in tests.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../tests/common/triangle_intersections.h"  // the brute-force crossing test
#include "app/frame_stats.h"
#include "app/metrics.h"
#include "app/phantom_tuning.h"
#include "bench.h"
#include "core/error.h"
#include "core/limits.h"
#include "cpu/cpu_solver.h"
#include "prep/prepare.h"
#include "vk/gpu_solver.h"

namespace cloth::bench {
namespace {

constexpr int kMaxSteps = int(limits::kMaxSubsteps);  // as in scene files and clothsim
constexpr int kMaxThreads = 1024;                     // as clothsim and clothcheck

// Integers from `min` to `max` (the scene files' limits where they have one: a million
// substeps made one frame run for minutes).
std::vector<int> parseList(const std::string& flag, const std::string& text, int min,
                           int max = std::numeric_limits<int>::max()) {
    std::vector<int> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        long long v = 0;
        const char* end = item.data() + item.size();
        auto [ptr, ec] = std::from_chars(item.data(), end, v);
        const bool tooLarge = ec == std::errc::result_out_of_range && item[0] != '-';
        if (item.empty() || ptr != end || (ec != std::errc() && !tooLarge) || v < min)
            throw Error(flag + ": expected a comma-separated list of integers >= " +
                        std::to_string(min) + ", got '" + text + "'");
        if (tooLarge || v > max)
            throw Error(flag + ": must be at most " + std::to_string(max) + ", got " + item);
        out.push_back(static_cast<int>(v));
    }
    if (out.empty()) throw Error(flag + ": empty list");
    return out;
}

// --cpu-kernels: names of BatchIsa, or "best" for bestBatchIsa(); each must run on this CPU.
std::vector<BatchIsa> parseKernels(const std::string& text) {
    std::vector<BatchIsa> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        BatchIsa isa;
        try {
            isa = item == "best" ? bestBatchIsa() : batchIsaFromName(item);
        } catch (const Error&) {
            throw Error("--cpu-kernels: expected a comma-separated list of best, avx2, sse2, "
                        "portable and scalar, got '" + text + "'");
        }
        if (!batchIsaAvailable(isa))
            throw Error(std::string("--cpu-kernels: ") + batchIsaName(isa) +
                        " is not available on this CPU (" + cpuModelName() + ")");
        if (std::find(out.begin(), out.end(), isa) == out.end()) out.push_back(isa);
    }
    if (out.empty()) throw Error("--cpu-kernels: empty list");
    return out;
}

const char* kUsage = R"(clothbench: solver throughput on square grids with stretch and bending

usage: clothbench [options]
  --backend cpu|gpu|all    backends to measure (default: cpu)
  --grids LIST             grid resolutions in quads per side (default: 32,64,128,256)
  --threads LIST           CPU thread counts (default: 1 and all hardware threads)
  --cpu-kernels LIST       how the CPU solves a colour's batch: best (default: avx2 where the
                           CPU has it, else sse2), avx2, sse2, portable (blocks of 16 in plain
                           C++) or scalar (one constraint at a time); all give the same bits
  --collider C             none (default), sphere, or mesh:PATH (a closed OBJ mesh scaled to
                           the sphere's size): the cloth lies flat just above it and drapes
                           over it (its contact stages are then timed too)
  --collisions             self-collision: each grid starts just above the ground folded into
                           four layers 1.41 edges apart (joined by two-edge folds), which settle
                           on each other (thickness and margin a quarter of an edge each), timed
                           per stage with self-collision and, in the same run, without it;
                           the triangle pairs crossing at the end of the run are counted
  --tethers on|off         tethers from every vertex to the pins (default: on; the tables of
                           earlier sessions were measured without them)
  --substeps N             substeps per frame (default: 10)
  --iterations N           iterations per substep (default: 1)
  --solver xpbd|pbd        constraint solver (default: xpbd; PBD uses the stiffnesses k)
  --iteration S            gs (default), jacobi or chebyshev: the throughput rows' scheme
  --rho X                  ... Chebyshev's rho (default 0.9; --relaxation and
                           --chebyshev-warmup below apply too)
  --warmup N               frames before timing (default: 10)
  --frames N               frames per timed repeat (default: 10)
  --repeats N              timed repeats; min and median are reported (default: 5)
  --phantoms off|auto|N    phantom vertices (default: off)
  --phantom-method M       repair (default) or cliques
  --phantom-averaging A    iteration (default) or color
  --tuning FILE            the tuning file --phantoms auto reads and --tune-phantoms writes
                           (default: $CLOTHSIM_TUNING, else $XDG_CONFIG_HOME/clothsim/tuning.json,
                           else ~/.config/clothsim/tuning.json)
  --json FILE              also write the results as JSON
phantom tuning
  --tune-phantoms          per backend (and device) and grid, measure the frame time with
                           phantoms off and with each target of --tune-targets that needs
                           phantoms (runs interleaved, --warmup/--frames/--repeats as above;
                           CPU with the largest of --threads, GPU with workgroup size 64, as
                           clothsim runs them), and write the fastest into the tuning file
  --tune-targets LIST      colour targets to try (default: 6,8,10,12,16)
  --tune-margin PERCENT    a target wins over phantoms off only when it reaches off's
                           accuracy this much faster than off (default: 5). Accuracy: from one
                           start (off settled for --settle-frames frames), the XPBD residual
                           after one substep at --iterations; a target whose residual is higher
                           is charged the iterations it needs to match off's (its fastest frame
                           time scaled by them), and never wins if 16x the iterations do not
convergence
  --convergence            per grid and backend: residual against iterations (1, 2, 4, ..,
                           --max-iterations) and against time for each of --schemes, from one
                           start (the grid settled by Gauss-Seidel; never tethered: tethers
                           would hide the convergence); one substep of the settle's
                           length per measurement; the iterations and ms each scheme needs to
                           bring the residual to 1e-1, 1e-2 and 1e-3 of the initial one; time
                           per frame from --warmup/--frames/--repeats runs at 1 and
                           --time-iterations iterations (tools/plot_convergence.py plots it)
  --experiment E           substep (the above, default), or Cheng 2023's frame-by-frame ones on a
                           horizontal cloth pinned at its four corners: horizontal (it falls
                           and hangs) or kick (no gravity, its centre starts at 0.2 m/s down):
                           per frame the residual, residual strain and energies of each scheme
                           (--frames frames at --substeps x --iterations)
  --schemes LIST           gs, jacobi, chebyshev:RHO, phantoms:TARGET (Gauss-Seidel with
                           phantoms) (default: gs,jacobi,chebyshev:0.6,chebyshev:0.9,phantoms:8)
  --relaxation X           Jacobi and Chebyshev relaxation gamma (default: 1)
  --chebyshev-warmup S     Chebyshev's plain iterations before acceleration (default: 2)
  --settle-frames N        frames of the start (default: 60)
  --settle-substeps N      ... their substeps (default: 10; also the measured substep's length)
  --settle-iterations N    ... and iterations (default: 20)
  --max-iterations N       the longest measurement (default: 1024)
  --time-iterations N      (default: 32)
  --stretch-compliance X   the grid's stretch compliance in m/N (default: the material's, 1e-8)
  --bend-compliance X      the grid's bending compliance in 1/(N m) (default: 1e-3)
gpu
  --workgroup-sizes LIST   compute workgroup sizes (default: 32,64,128,256,512, those the
                           device allows)
  --device N               Vulkan device index (default: the preferred one)
  --profile-frames N       frames of the per-stage profile run (default: 3)
  --small-color-items N    CPU devices: colours with fewer constraints than this go in one
                           dispatch for both types (default: 4096)
  --items-per-invocation N constraints or vertices per shader invocation (default: 1)
  --color-run-items N      consecutive colours of at most N constraints each are solved by one
                           workgroup in one dispatch; 0 = never (default: 2048 on CPU devices,
                           the workgroup size on GPUs)
  --color-run-workgroup-size N  workgroup size of a colour run (default: 64 on CPU devices,
                           --workgroup-sizes' size on GPUs)
The GPU frame times come from runs without timestamps; stages_ms from a separate profile run of
the same size with timestamps and one dispatch per stage and constraint type.
)";

BenchOptions parseBenchOptions(int argc, char** argv) {
    BenchOptions o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::cout << kUsage;
            std::exit(0);
        }
        if (a == "--tune-phantoms") {
            o.tunePhantoms = true;
            continue;
        }
        if (a == "--collisions") {
            o.collisions = true;
            continue;
        }
        if (a == "--convergence") {
            o.convergence = true;
            continue;
        }
        if (i + 1 >= argc) throw Error(a + ": missing value (or unknown option; see --help)");
        const std::string v = argv[++i];
        if (a == "--backend") {
            if (v != "cpu" && v != "gpu" && v != "all")
                throw Error("--backend: expected cpu, gpu or all, got '" + v + "'");
            o.backend = v;
        } else if (a == "--grids") o.grids = parseList(a, v, 1);
        else if (a == "--threads")
            o.threads = parseList(a, v, 1, kMaxThreads);
        else if (a == "--cpu-kernels") o.cpuKernels = parseKernels(v);
        else if (a == "--substeps")
            o.substeps = parseList(a, v, 1, kMaxSteps).at(0);
        else if (a == "--iterations")
            o.iterations = parseList(a, v, 1, kMaxSteps).at(0);
        else if (a == "--solver") {
            if (v != "xpbd" && v != "pbd")
                throw Error("--solver: expected xpbd or pbd, got '" + v + "'");
            o.mode = v == "pbd" ? SolverMode::Pbd : SolverMode::Xpbd;
        }
        else if (a == "--warmup") o.warmup = parseList(a, v, 0).at(0);
        else if (a == "--frames") o.frames = parseList(a, v, 1).at(0);
        else if (a == "--repeats") o.repeats = parseList(a, v, 1).at(0);
        else if (a == "--phantoms") o.phantoms = parsePhantomSetting(v);
        else if (a == "--phantom-method") o.phantomMethod = parsePhantomMethod(v);
        else if (a == "--phantom-averaging") {
            if (v != "iteration" && v != "color")
                throw Error("--phantom-averaging: expected iteration or color, got '" + v + "'");
            o.phantomsEachColor = v == "color";
        }
        else if (a == "--json") o.json = v;
        else if (a == "--schemes") {
            o.convergenceSchemes.clear();
            for (std::size_t b = 0; b <= v.size();) {
                std::size_t e = v.find(',', b);
                if (e == std::string::npos) e = v.size();
                o.convergenceSchemes.push_back(v.substr(b, e - b));
                b = e + 1;
            }
        }
        else if (a == "--relaxation") {
            o.iteration.relaxation = std::strtof(v.c_str(), nullptr);
            checkIterationSettings(o.iteration, "--relaxation");
        }
        else if (a == "--iteration") o.iteration.scheme = parseIterationScheme(v);
        else if (a == "--rho") {
            o.iteration.rho = std::strtof(v.c_str(), nullptr);
            checkIterationSettings(o.iteration, "--rho");
        }
        else if (a == "--tethers") {
            if (v != "on" && v != "off")
                throw Error("--tethers: expected on or off, got '" + v + "'");
            o.tethers = v == "on";
        }
        else if (a == "--stretch-compliance" || a == "--bend-compliance") {
            char* end = nullptr;
            const double c = std::strtod(v.c_str(), &end);
            if (v.empty() || *end || !(c >= 0.0 && c <= limits::kMaxCompliance))
                throw Error(a + ": expected a compliance in [0, 1e6], got '" + v + "'");
            (a == "--stretch-compliance" ? o.stretchCompliance : o.bendCompliance) = float(c);
        }
        else if (a == "--experiment") o.experiment = v;
        else if (a == "--chebyshev-warmup") {
            o.iteration.warmup = parseList(a, v, 1).at(0);
        }
        else if (a == "--settle-frames") o.settleFrames = parseList(a, v, 0).at(0);
        else if (a == "--settle-substeps") o.settleSubsteps = parseList(a, v, 1, kMaxSteps).at(0);
        else if (a == "--settle-iterations")
            o.settleIterations = parseList(a, v, 1, kMaxSteps).at(0);
        else if (a == "--max-iterations") o.maxIterations = parseList(a, v, 1, kMaxSteps).at(0);
        else if (a == "--time-iterations") o.timeIterations = parseList(a, v, 2, kMaxSteps).at(0);
        else if (a == "--tuning") o.tuning = v;
        else if (a == "--tune-targets") o.tuneTargets = parseList(a, v, 1);
        else if (a == "--tune-margin") o.tuneMarginPercent = parseList(a, v, 0).at(0);
        else if (a == "--workgroup-sizes") o.workgroupSizes = parseList(a, v, 1);
        else if (a == "--device") o.device = parseList(a, v, 0).at(0);
        else if (a == "--profile-frames") o.profileFrames = parseList(a, v, 1).at(0);
        else if (a == "--small-color-items") o.smallColorItems = parseList(a, v, 0).at(0);
        else if (a == "--items-per-invocation") o.items = parseList(a, v, 1).at(0);
        else if (a == "--color-run-items") o.colorRunItems = parseList(a, v, 0).at(0);
        else if (a == "--color-run-workgroup-size") o.colorRunWorkgroup = parseList(a, v, 1).at(0);
        else if (a == "--collider") {
            if (v != "none" && v != "sphere" && v.rfind("mesh:", 0) != 0)
                throw Error("--collider: expected none, sphere or mesh:PATH, got '" + v + "'");
            o.collider = v;
        }
        else throw Error("unknown option '" + a + "' (see --help)");
    }
    if (o.collisions)
        for (int n : o.grids)
            if (n < kFoldMinGrid)
                throw Error("--collisions: grids must be at least " +
                            std::to_string(kFoldMinGrid) +
                            " (four layers and three folds of two edges), got " +
                            std::to_string(n));
    if (o.threads.empty()) o.threads = {1, defaultThreadCount()};
    if (o.cpuKernels.empty()) o.cpuKernels = {bestBatchIsa()};
    std::sort(o.threads.begin(), o.threads.end());
    o.threads.erase(std::unique(o.threads.begin(), o.threads.end()), o.threads.end());
    return o;
}

}  // namespace

Scene gridScene(int n, const BenchOptions& o) {
    Scene s;
    s.name = "grid" + std::to_string(n);
    s.sim.substeps = o.substeps;
    s.sim.iterations = o.iterations;
    s.sim.mode = o.mode;
    s.sim.iteration = o.iteration;
    s.phantoms = o.phantoms;
    s.sim.averagePhantomsEachColor = o.phantomsEachColor;
    ClothDesc c;
    c.name = s.name;
    GridDesc g;
    g.resX = g.resY = static_cast<std::uint32_t>(n);
    c.grid = g;
    c.transform.translate = glm::vec3(0.0f, 1.5f, 0.0f);
    c.pins.regions = {"top_corners"};
    c.tethers = o.tethers;
    if (o.stretchCompliance) c.material.stretchCompliance = *o.stretchCompliance;
    if (o.bendCompliance) c.material.bendCompliance = *o.bendCompliance;
    if (o.collisions) {
        c.pins = {};
        c.transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, 0.0f);
        c.transform.translate = glm::vec3(0.0f, 0.01f, 0.0f);
        ColliderDesc ground;
        ground.name = "ground";
        ground.shape = ColliderShape::Plane;
        s.colliders.push_back(ground);
        // Thickness and margin a quarter of an edge each: two layers keep half an edge apart
        // (5 mm of thickness on a 256^2 metre would reach past the neighbours of neighbours).
        const float edge = 1.0f / float(n);
        c.material.thickness = 0.25f * edge;
        s.sim.selfCollision = SelfCollisionSettings{};
        s.sim.selfCollision->margin = 0.25f * edge;
        // The folds creased where foldGrid folds them: each turns by 45, 90 and 45 degrees at
        // its three columns, folds one and three towards the cloth's normal (up from the first
        // layer), fold two away from it. With bending's flat rest angle instead, the stiff
        // bending threw each fold's middle column about r = 0.71 e in the first substep, far past
        // the margin, and at 256² the folds' own triangles went through each other.
        const int straight = foldStraightEdges(n);
        for (int k = 0; k < 3; ++k) {
            const int first = (k + 1) * straight + 2 * k;  // the fold's first column
            for (int j = 0; j < 3; ++j) {
                FixedAngleDesc crease;
                crease.angleDegrees = (k == 1 ? -1.0f : 1.0f) * (j == 1 ? 90.0f : 45.0f);
                crease.compliance = c.material.bendCompliance;
                const float x = -0.5f + float(first + j) * edge;  // mesh space (x kept)
                crease.edges.lines.push_back({{x, -0.5f, 0.0f}, {x, 0.5f, 0.0f}});
                c.fixedAngles.push_back(crease);
            }
        }
    } else if (o.collider != "none") {
        c.pins = {};
        c.transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, 0.0f);
        c.transform.translate = glm::vec3(0.0f, 0.9f, 0.0f);
        ColliderDesc body;
        body.name = o.collider;
        body.transform.translate = glm::vec3(0.0f, 0.5f, 0.0f);
        if (o.collider == "sphere") {
            body.shape = ColliderShape::Sphere;
            body.radius = 0.35f;
        } else {
            body.shape = ColliderShape::Mesh;
            body.objPath = o.collider.substr(5);
            const Mesh m = loadObj(body.objPath);
            float r = 0.0f;
            for (const glm::vec3& x : m.positions) r = std::max(r, glm::length(x));
            body.transform.scale = 0.35f / r;
        }
        s.colliders.push_back(body);
    }
    s.cloths.push_back(c);
    return s;
}

PreparedCloth prepareGrid(int n, const BenchOptions& o, const std::string& backend,
                          const std::string& device) {
    PrepareOptions popt;
    popt.phantoms = o.phantoms;
    popt.phantomMethod = o.phantomMethod;
    const AutoPhantomContext tuning{"clothbench", tuningPath(o.tuning), backend, device};
    popt.resolveAuto = [&](std::uint32_t vertices) {
        return resolveAutoPhantoms(tuning, vertices, std::cerr);
    };
    PreparedCloth p = prepareScene(gridScene(n, o), popt);
    if (o.collisions) foldGrid(p, n);
    return p;
}

void foldGrid(PreparedCloth& p, int n) {
    glm::vec3 lo(p.positions[0]), hi(lo);
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v) {
        lo = glm::min(lo, glm::vec3(p.positions[v]));
        hi = glm::max(hi, glm::vec3(p.positions[v]));
    }
    // A serpentine of four straight layers joined by folds of two edges each: a fold's middle
    // column stands out by r = e / sqrt(2) and its last column lies 2 r above its first, so
    // every edge (along x, along z and the diagonals) keeps its rest length and the layers
    // start 2 r = 1.41 e apart. The columns of the first three layers are whole numbers, so the
    // folds' vertices are the folds' corners. (Stop 19: half circles through the columns at
    // arbitrary angles shortened the folds' edges by up to 10%; with those and bending's flat
    // rest angle (gridScene now creases the folds), the first substep threw the folds' middle
    // columns about 0.7 e and at 256² the folds' own triangles went through each other.)
    const float e = (hi.x - lo.x) / float(n);
    const float r = e / std::sqrt(2.0f);
    const int straight = foldStraightEdges(n);
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v) {
        const glm::vec3 x(p.positions[v]);
        int col = static_cast<int>(std::lround((x.x - lo.x) / e));
        float px = lo.x, py = x.y, dir = 1.0f;
        for (int k = 0; k < 4; ++k) {
            if (col <= straight || k == 3) {
                px += dir * e * float(col);
                break;
            }
            px += dir * e * float(straight);
            col -= straight;
            if (col == 1) {  // the fold's middle column
                px += dir * r;
                py += r;
                break;
            }
            col -= 2;  // the next layer starts at the fold's last column
            py += 2.0f * r;
            dir = -dir;
        }
        p.positions[v] = glm::vec4(px, py, x.z, p.positions[v].w);
    }
    for (const gpu::PhantomGroup& g : p.phantomGroups)
        for (std::uint32_t k = 1; k < g.count; ++k)
            p.positions[p.phantomMembers[g.first + k]] =
                glm::vec4(glm::vec3(p.positions[p.phantomMembers[g.first]]),
                          p.positions[p.phantomMembers[g.first + k]].w);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Measured measure(Solver& solver, const BenchOptions& o) {
    for (int i = 0; i < o.warmup; ++i) solver.stepFrame();
    Measured m;
    for (int r = 0; r < o.repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int f = 0; f < o.frames; ++f) {
            const auto f0 = std::chrono::steady_clock::now();
            solver.stepFrame();
            const auto f1 = std::chrono::steady_clock::now();
            m.stages.add(std::chrono::duration<double, std::milli>(f1 - f0).count(),
                         solver.stageTimes());
        }
        const auto t1 = std::chrono::steady_clock::now();
        m.frameMs.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count() / o.frames);
    }
    return m;
}

namespace {

nlohmann::json record(const PreparedCloth& p, int grid, const Solver& solver, const Measured& m,
                      const BenchOptions& o) {
    const double minMs = *std::min_element(m.frameMs.begin(), m.frameMs.end());
    const double medMs = median(m.frameMs);
    const double solvesPerFrame =
        double(p.coloredItemCount()) * o.iterations * o.substeps;
    nlohmann::json stages = nlohmann::json::object();
    for (int i = 0; i < kStageCount; ++i) stages[kStageNames[i]] = m.stages.stageMeanMs(i);
    return {{"backend", solver.backendName()},
            {"device", solver.deviceName()},
            {"grid", grid},
            {"vertices", p.originalVertexCount},
            {"constraints", constraintCounts(p)},
            {"threads", solver.threadCount()},
            {"colors", p.colorCount},
            {"colors_before_phantoms", p.stats.colorsBeforePhantoms},
            {"phantom_vertices", p.stats.phantomVertices},
            {"phantom_averaging", p.sim.averagePhantomsEachColor ? "color" : "iteration"},
            {"substeps", o.substeps},
            {"iterations", o.iterations},
            {"solver", p.sim.mode == SolverMode::Pbd ? "pbd" : "xpbd"},
            {"iteration", iterationJson(p.sim.iteration)},
            {"ms_per_frame", {{"min", minMs}, {"median", medMs}}},
            {"ms_per_substep", medMs / o.substeps},
            {"ms_per_substep_min", minMs / o.substeps},
            {"solves_per_second", solvesPerFrame / (medMs / 1000.0)},
            {"solves_per_second_max", solvesPerFrame / (minMs / 1000.0)},
            {"stages_ms", stages},
            {"collider", o.collider},
            {"tethers", o.tethers},
            {"vertices_in_contact", solver.contactCount()},
            {"prepare_ms", p.stats.prepareMs}};
}

// What the timed cloth looks like: one more frame after the timing (so that keeping the
// multipliers costs the timed frames nothing), its convergence metrics (app/metrics.h) and how
// far its lowest vertex has dropped below its rest height. Throughput is only half of a
// solver's worth: a cloth that stretches to many times its size is cheap but not cloth.
nlohmann::json accuracy(const PreparedCloth& p, Solver& solver, const BenchOptions& o) {
    solver.keepMultipliers(true);
    solver.stepFrame();
    std::vector<glm::vec4> x;
    const FrameMetrics m = measureFrame(p, solver, &x);
    float low = 1e30f, rest = 1e30f;
    for (std::uint32_t i = 0; i < p.originalVertexCount; ++i) {
        low = std::min(low, x[i].y);
        rest = std::min(rest, p.positions[i].y);
    }
    return {{"after_frames", o.warmup + o.repeats * o.frames + 1},
            {"residual_l2", m.residualNorm},
            {"residual_max", m.residualMax},
            {"max_stretch", m.maxStretch},
            {"mean_stretch", m.meanStretch},
            {"kinetic_energy", m.kineticEnergy},
            {"lowest_drop_m", double(rest) - double(low)}};
}

// Triangle pairs sharing no vertex that pass through each other where the solver is now.
std::size_t crossingPairs(const PreparedCloth& p, Solver& solver) {
    std::vector<glm::vec4> x;
    solver.readPositions(x);
    return test::intersectingTrianglePairs(p.triangles, x).size();
}

// --collisions: the self-collision run's stages per substep, the hierarchy's build rate, the
// candidates and contacts per vertex, and the same cloth's frame without self-collision.
// crossings: triangle pairs sharing no vertex that pass through each other at the end of the
// timed run (brute force, double precision): what the speed figures' contacts leave undone.
void addCollisionFigures(nlohmann::json& r, const PreparedCloth& p, const Solver::SelfCounts& c,
                         std::size_t crossings, const nlohmann::json& without,
                         const BenchOptions& o) {
    const nlohmann::json& st = r["stages_ms"];
    double build = 0.0, self = 0.0;
    for (const char* k : {"self_codes", "self_sort", "self_hierarchy", "self_bounds"})
        build += st[k].get<double>();
    for (int i = kStageSelfCodes; i <= kStageSelfContacts; ++i)
        self += st[kStageNames[i]].get<double>();
    const double perStep = 1.0 / o.substeps;
    const double vertices = double(p.originalVertexCount);
    nlohmann::json steps = nlohmann::json::object();
    for (int i = kStageSelfCodes; i <= kStageSelfContacts; ++i)
        steps[kStageNames[i]] = st[kStageNames[i]].get<double>() * perStep;
    const double withoutMs = without["ms_per_frame"]["median"].get<double>();
    r["self_collision"] = {
        {"triangles", p.triangles.size()},
        {"stage_ms_per_substep", steps},
        {"ms_per_substep", self * perStep},
        {"build_ms_per_substep", build * perStep},
        {"build_mtriangles_per_second",
         build > 0.0 ? double(p.triangles.size()) / (build * perStep * 1e-3) / 1e6 : 0.0},
        {"candidate_pairs_per_vertex", double(c.candidatePairs) / vertices},
        {"primitive_pairs_per_vertex", double(c.primitivePairs) / vertices},
        {"contacts_per_vertex", double(c.contacts) / vertices},
        {"crossing_triangle_pairs", crossings},
        {"frame_ms_without", withoutMs},
        {"frame_ms_other_stages", r["ms_per_frame"]["median"].get<double>() - self},
        {"self_over_solver_without", self / withoutMs}};
}

nlohmann::json runCpu(const PreparedCloth& p, int grid, int threads, BatchIsa kernels,
                      const BenchOptions& o) {
    nlohmann::json without;
    if (p.sim.selfCollision) {  // the same folded cloth without self-collision first
        PreparedCloth plain = p;
        plain.sim.selfCollision.reset();
        auto solver = makeCpuSolver(plain, threads, kernels);
        without = record(plain, grid, *solver, measure(*solver, o), o);
    }
    auto solver = makeCpuSolver(p, threads, kernels);
    nlohmann::json r = record(p, grid, *solver, measure(*solver, o), o);
    r["cpu_kernels"] = batchIsaName(kernels);
    if (p.sim.selfCollision)
        addCollisionFigures(r, p, solver->selfCounts(), crossingPairs(p, *solver), without, o);
    r["accuracy"] = accuracy(p, *solver, o);
    return r;
}

// ---- GPU ----------------------------------------------------------------------------------------

}  // namespace

std::shared_ptr<vk::Context> openGpu(const BenchOptions& o) {
    vk::ContextOptions c;
    if (o.device) c.deviceIndex = static_cast<std::uint32_t>(*o.device);
    return std::make_shared<vk::Context>(c);
}

namespace {

nlohmann::json gpuDevice(const vk::Context& ctx) {
    const vk::DeviceInfo& d = ctx.info();
    return {{"name", d.name},
            {"type", vk::deviceTypeName(d.type)},
            {"vendor", vk::vendorName(d.vendorId)},
            {"vendor_id", d.vendorId},
            {"driver", d.driverName},
            {"driver_info", d.driverInfo},
            {"driver_version", d.driverVersion},
            {"api_version", vk::versionString(d.apiVersion)}};
}

bool workgroupSizeAllowed(const vk::Context& ctx, int wg) {
    const auto& lim = ctx.limits();
    return wg > 0 && (wg & (wg - 1)) == 0 && std::uint32_t(wg) <= lim.maxComputeWorkGroupSize[0] &&
           std::uint32_t(wg) <= lim.maxComputeWorkGroupInvocations;
}

// Per-stage GPU times: a short run with timestamps on every frame and nothing fused, so that
// each dispatch belongs to one stage.
nlohmann::json profileStages(const PreparedCloth& p, vk::GpuSolverOptions options,
                             const BenchOptions& o) {
    options.timestampInterval = 1;
    options.fuseStages = false;
    options.colorBatching = vk::ColorBatching::PerType;
    options.colorRunItems = 0;  // a run solves both types in one dispatch
    vk::GpuSolver solver(p, options);
    solver.stepFrame();  // pipelines compile on first use
    std::vector<double> sum(kStageCount, 0.0);
    for (int f = 0; f < o.profileFrames; ++f) {
        solver.stepFrame();
        const auto times = solver.stageTimes();
        for (int i = 0; i < kStageCount; ++i) sum[i] += times[i].ms;
    }
    nlohmann::json stages = nlohmann::json::object();
    for (int i = 0; i < kStageCount; ++i) stages[kStageNames[i]] = sum[i] / o.profileFrames;
    return stages;
}

nlohmann::json runGpu(const PreparedCloth& p, int grid, int wg,
                      const std::shared_ptr<vk::Context>& ctx, const BenchOptions& o) {
    vk::GpuSolverOptions options;
    options.context = ctx;
    options.workgroupSize = static_cast<std::uint32_t>(wg);
    if (o.smallColorItems) options.smallColorItems = static_cast<std::uint32_t>(*o.smallColorItems);
    if (o.items) options.itemsPerInvocation = static_cast<std::uint32_t>(*o.items);
    if (o.colorRunItems) options.colorRunItems = static_cast<std::uint32_t>(*o.colorRunItems);
    if (o.colorRunWorkgroup)
        options.colorRunWorkgroupSize = static_cast<std::uint32_t>(*o.colorRunWorkgroup);
    nlohmann::json without;
    if (p.sim.selfCollision) {  // the same folded cloth without self-collision first
        PreparedCloth plain = p;
        plain.sim.selfCollision.reset();
        vk::GpuSolver solver(plain, options);
        without = record(plain, grid, solver, measure(solver, o), o);
    }
    nlohmann::json r;
    Solver::SelfCounts selfCounts;
    std::size_t crossings = 0;
    {
        vk::GpuSolver solver(p, options);
        r = record(p, grid, solver, measure(solver, o), o);
        selfCounts = solver.selfCounts();
        if (p.sim.selfCollision) crossings = crossingPairs(p, solver);
        const vk::FrameCounters c = solver.counters();
        r["workgroup_size"] = wg;
        r["dispatches_per_frame"] = c.dispatches;
        r["barriers_per_frame"] = c.barriers;
        r["items_per_invocation"] = solver.itemsPerInvocation();
        r["color_types_per_dispatch"] = solver.colorTypesTogether() ? 2 : 1;
        r["wide_memory_access"] = solver.wideMemoryAccess();
        r["color_run_items"] = solver.colorRunItems();
        r["color_run_workgroup_size"] = solver.colorRunWorkgroupSize();
        r["accuracy"] = accuracy(p, solver, o);
    }
    r["stages_ms"] = profileStages(p, options, o);
    if (p.sim.selfCollision) addCollisionFigures(r, p, selfCounts, crossings, without, o);
    return r;
}

void printRow(const nlohmann::json& r) {
    const bool gpu = r.contains("workgroup_size");
    std::printf("%-5s %5dx%-5d %8u %7d %6d %12.3f %12.3f %10.1f %8s %6s\n",
                r["backend"].get<std::string>().c_str(), r["grid"].get<int>(), r["grid"].get<int>(),
                r["vertices"].get<unsigned>(), r["threads"].get<int>(), r["colors"].get<int>(),
                r["ms_per_substep_min"].get<double>(), r["ms_per_substep"].get<double>(),
                r["solves_per_second"].get<double>() / 1e6,
                gpu ? std::to_string(r["workgroup_size"].get<int>()).c_str()
                    : r["cpu_kernels"].get<std::string>().c_str(),
                gpu ? std::to_string(r["dispatches_per_frame"].get<int>()).c_str() : "-");
    if (r.contains("accuracy")) {
        const nlohmann::json& a = r["accuracy"];
        std::printf("      after %d frames: edge stretch largest %.3g%%, mean %.3g%%; residual "
                    "largest %.3g; lowest vertex %.3g m below its rest height\n",
                    a["after_frames"].get<int>(), 100.0 * a["max_stretch"].get<double>(),
                    100.0 * a["mean_stretch"].get<double>(), a["residual_max"].get<double>(),
                    a["lowest_drop_m"].get<double>());
    }
    if (r.contains("self_collision")) {
        const nlohmann::json& c = r["self_collision"];
        const nlohmann::json& st = c["stage_ms_per_substep"];
        std::printf("      self-collision per substep: %.3f ms (codes %.3f, sort %.3f, hierarchy "
                    "%.3f, bounds %.3f, walk+narrow %.3f, lists %.3f, solve %.3f); build %.1f M "
                    "triangles/s; per vertex %.2f candidate pairs, %.2f contacts; %zu crossing triangle "
                    "pairs at the end; frame %.2f ms, %.2f ms without: self-collision %.2fx the "
                    "solver without it\n",
                    c["ms_per_substep"].get<double>(), st["self_codes"].get<double>(),
                    st["self_sort"].get<double>(), st["self_hierarchy"].get<double>(),
                    st["self_bounds"].get<double>(), st["self_walk"].get<double>(),
                    st["self_lists"].get<double>(), st["self_contacts"].get<double>(),
                    c["build_mtriangles_per_second"].get<double>(),
                    c["candidate_pairs_per_vertex"].get<double>(),
                    c["contacts_per_vertex"].get<double>(),
                    c["crossing_triangle_pairs"].get<std::size_t>(),
                    r["ms_per_frame"]["median"].get<double>(), c["frame_ms_without"].get<double>(),
                    c["self_over_solver_without"].get<double>());
    }
    std::fflush(stdout);
}

int benchMain(int argc, char** argv) {
    const BenchOptions o = parseBenchOptions(argc, argv);
    if (o.tunePhantoms) return tunePhantoms(o);
    if (o.convergence) return convergenceBench(o);
    const bool cpu = o.backend != "gpu", gpu = o.backend != "cpu";
    std::shared_ptr<vk::Context> ctx;
    std::vector<int> sizes;
    if (gpu) {
        ctx = openGpu(o);
        for (int wg : o.workgroupSizes)
            if (workgroupSizeAllowed(*ctx, wg)) sizes.push_back(wg);
        if (sizes.empty()) throw Error("--workgroup-sizes: none is allowed by " + ctx->info().name);
    }
    nlohmann::json runs = nlohmann::json::array();
    std::printf("device: %s\n", cpuModelName().c_str());
    if (ctx)
        std::printf("gpu: %s (%s, %s %s, Vulkan %s)\n", ctx->info().name.c_str(),
                    vk::deviceTypeName(ctx->info().type), ctx->info().driverName.c_str(),
                    ctx->info().driverInfo.c_str(),
                    vk::versionString(ctx->info().apiVersion).c_str());
    std::printf("%-5s %11s %8s %7s %6s %12s %12s %10s %8s %6s\n", "back", "grid", "verts",
                "threads", "colors", "ms/sub(min)", "ms/sub(med)", "Msolves/s", "wg/kern",
                "disp");
    for (int n : o.grids) {
        if (cpu) {  // prepared per backend: --phantoms auto may differ between them
            const PreparedCloth p = prepareGrid(n, o, "cpu", cpuModelName());
            for (BatchIsa k : o.cpuKernels) {
                for (int t : o.threads) {
                    runs.push_back(runCpu(p, n, t, k, o));
                    printRow(runs.back());
                }
            }
        }
        if (gpu) {
            const PreparedCloth p = prepareGrid(n, o, "gpu", ctx->info().name);
            for (int wg : sizes) {
                runs.push_back(runGpu(p, n, wg, ctx, o));
                printRow(runs.back());
            }
        }
    }
    if (!o.json.empty()) {
        nlohmann::json doc = {{"device", cpuModelName()},
                              {"substeps", o.substeps},
                              {"iterations", o.iterations},
                              {"runs", runs}};
        if (ctx) doc["gpu"] = gpuDevice(*ctx);
        writeJsonFile(o.json, doc);
    }
    return 0;
}

}  // namespace
}  // namespace cloth::bench

int main(int argc, char** argv) {
    try {
        return cloth::bench::benchMain(argc, argv);
    } catch (const cloth::Error& e) {
        std::cerr << "clothbench: error: " << e.what() << "\n";
        return 1;
    } catch (const std::bad_alloc&) {
        std::cerr << "clothbench: error: out of memory (a grid too large for this machine?)\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "clothbench: internal error: " << e.what() << "\n";
        return 1;
    }
}
