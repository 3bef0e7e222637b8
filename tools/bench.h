// clothbench's options and timing helpers, shared by its modes (clothbench.cpp: the throughput
// table; tune_phantoms.cpp: --tune-phantoms).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/frame_stats.h"
#include "core/scene.h"
#include "fixtures/folded_grid.h"
#include "cpu/batch_kernels.h"
#include "cpu/team.h"
#include "prep/phantoms.h"
#include "prep/prepared.h"
#include "sim/solver.h"
#include "vk/context.h"

namespace cloth::bench {

struct BenchOptions {
    bool help = false;  // --help: print benchHelp() and exit
    std::string backend = "cpu";
    std::vector<int> grids = {32, 64, 128, 256};
    std::vector<int> threads;          // default: 1 and all hardware threads
    long long workPerThread = -1;      // the CPU team's rule (-1: kCpuWorkPerThread; 0: all)
    TeamMode team = TeamMode::Adaptive;  // --team (fixed: workPerThread 0)
    int busyThreads = 0;               // threads that spin beside the measured runs
    std::vector<BatchIsa> cpuKernels;  // default: bestBatchIsa()
    int substeps = 10;  // per 1/60 s (core/frame_rate.h)
    std::optional<float> fps;  // --fps (default 60)
    int iterations = 1;
    SolverMode mode = SolverMode::Xpbd;  // --solver xpbd|pbd
    std::optional<ClothModel> model;      // --model
    std::optional<Integrator> integrator; // --integrator
    std::optional<float> springStiffness; // --spring-stiffness
    int warmup = 10;
    int frames = 10;  // frames per repeat
    int repeats = 5;
    std::string json;
    PhantomSetting phantoms;
    PhantomMethod phantomMethod = PhantomMethod::Repair;
    bool phantomsEachColor = false;
    std::optional<std::string> tuning;  // --tuning FILE (app/phantom_tuning.h)
    // --tune-phantoms: measure phantoms off and these targets, write the fastest to the tuning
    // file.
    bool tunePhantoms = false;
    std::vector<int> tuneTargets = {6, 8, 10, 12, 16};
    // A target is chosen over phantoms off only when its fastest repeat is this many percent
    // faster than off's: below that the order is within the noise of a shared machine, and off
    // is the simpler (and slightly more accurate) form.
    int tuneMarginPercent = 5;
    // GPU
    std::vector<int> workgroupSizes = {32, 64, 128, 256, 512};  // those the device allows
    std::optional<int> device;
    int profileFrames = 3;  // frames of the per-stage profile (timestamps, nothing fused)
    std::optional<int> smallColorItems;  // GpuSolverOptions::smallColorItems
    std::optional<int> items;            // GpuSolverOptions::itemsPerInvocation
    std::optional<int> colorRunItems;    // GpuSolverOptions::colorRunItems
    std::optional<int> colorRunWorkgroup;  // GpuSolverOptions::colorRunWorkgroupSize
    // --collider: none, sphere, or mesh:PATH (a closed OBJ, e.g. assets/meshes/bumpy_sphere.obj)
    std::string collider = "none";
    // --collisions: self-collision on a cloth folded on itself (see gridScene), timed per stage
    // with and without self-collision in the same run.
    bool collisions = false;
    // --collisions: when contacts are looked for, and bounded detection's least bound in edges.
    SelfCollisionSettings::Detection selfDetection = SelfCollisionSettings::Detection::Bounded;
    float selfBoundEdges = 0.0625f;
    int selfPasses = 4;
    SelfCollisionSettings::Order selfOrder = SelfCollisionSettings::Order::Jacobi;
    // Tethers (long-range attachments to the pins): on by default, the cure for stretch at few
    // iterations (README, "Iteration schemes": chosen by measurement); off for the tables
    // measured before (--tethers off).
    bool tethers = true;
    bool quiet = false;  // --quiet: no progress line (app/progress.h)
    // --iteration, --relaxation, --rho, --chebyshev-warmup: the throughput rows' scheme; the
    // relaxation and warm-up also apply to --convergence's Jacobi and Chebyshev schemes.
    IterationSettings iteration;
    std::optional<float> stretchCompliance, bendCompliance;  // the grid's material (m/N, 1/(N m))
    // --convergence (tools/convergence_bench.cpp)
    bool convergence = false;
    std::vector<std::string> convergenceSchemes = {"gs", "jacobi", "chebyshev:0.6",
                                                   "chebyshev:0.9", "phantoms:8"};
    int settleFrames = 60, settleSubsteps = 10, settleIterations = 20;
    int maxIterations = 1024;
    int timeIterations = 32;
    std::string experiment = "substep";  // substep | horizontal | kick
    std::vector<double> reachFractions = {1e-1, 1e-2, 1e-3};
    // --stable-step (tools/stable_step_bench.cpp): the mass-spring model's largest stable step
    // by bisection against theory, on --scene or the grids; --stable-seconds of simulated time.
    bool stableStep = false;
    std::string scene;
    double stableSeconds = 2.0;
    // --models (tools/models_bench.cpp): every model on --model-scenes at each grid, against a
    // reference run, for --model-frames frames.
    bool models = false;
    std::vector<std::string> modelScenes = {"hanging", "square5", "drape"};
    std::vector<std::string> modelRows;  // empty: every row (tools/models_bench.cpp kConfigs)
    int modelFrames = 60;
    std::string modelPreset;  // empty: the isotropic 300 N/m membrane; else a material preset
    // --textile (tools/textile_bench.cpp): the Cusick drape and cantilever tests of the presets.
    bool textile = false;
    std::vector<std::string> textilePresets;  // empty: every preset
    int textileFrames = 180, textileSubsteps = 20, textileIterations = 4;
    // --kernel-parts (tools/kernel_parts_bench.cpp): the block kernels' move and maths apart.
    bool kernelParts = false;
};

// clothbench's command line (bench_options.cpp, on app/cli.h), without the program's name.
// Throws cloth::Error for an unknown flag, a missing or malformed value, or an impossible one.
BenchOptions parseBenchOptions(const std::vector<std::string>& args);
// --help: generated from the flags' definitions (CLI11).
std::string benchHelp();

// A 1 m square cloth, n x n quads, pinned at its top corners, stretch and bending, tethers to the
// pins unless --tethers off.
// With a collider: the cloth lies horizontal, unpinned, just above a sphere of radius 0.35 m
// (analytic, or the mesh scaled to the same bounding radius), on which it drapes.
// With collisions: the cloth lies horizontal on the ground with self-collision on, its folds'
// columns creased (fixed angles at the angles fixtures::foldGrid folds them to, in place of
// bending); prepareGrid then folds it into four layers (fixtures/folded_grid.h).
Scene gridScene(int n, const BenchOptions& o);

// gridScene(n) prepared for `backend` ("cpu" | "gpu") on `device`: --phantoms auto reads the
// tuning file for them.
PreparedCloth prepareGrid(int n, const BenchOptions& o, const std::string& backend,
                          const std::string& device);

double median(std::vector<double> v);

// A solver timed as the throughput rows time it: --warmup frames, then --repeats repeats of
// --frames frames; the mean frame time of each repeat and the stage times of every frame.
struct Measured {
    std::vector<double> frameMs;   // per repeat: its mean frame time
    std::vector<double> singleMs;  // every timed frame's own time
    FrameStats stages;
    double detectionsPerFrame = 0.0;  // bounded self-collision detection, in the timed frames
};
// `what` (e.g. "cpu 64x64, 2 threads, avx2"): a progress line on a terminal (app/progress.h);
// empty: none.
Measured measure(Solver& solver, const BenchOptions& o, const std::string& what = "");

std::shared_ptr<vk::Context> openGpu(const BenchOptions& o);

// --tune-phantoms. Returns the exit code.
int tunePhantoms(const BenchOptions& o);

// --convergence. Returns the exit code.
int convergenceBench(const BenchOptions& o);
int stableStepBench(const BenchOptions& o);
int modelsBench(const BenchOptions& o);
int textileBench(const BenchOptions& o);
int kernelPartsBench(const BenchOptions& o);

}  // namespace cloth::bench
