// clothbench --models: every cloth model on the same scenes and the same material, by cost and
// accuracy (docs/models.md "Comparison"). Per scene and grid: a reference run (XPBD Gauss-Seidel
// at 8x the substeps and iterations of its row, the nearest this project has to a converged
// solution of the material), then each model's row: ms per frame (median), the largest and mean
// edge strain, the sag (the lowest point's drop), and the position error against the reference
// (RMS over the vertices and the sampled frames, and the largest, as shares of the cloth's size).
// The material is one StVK membrane every model takes its stiffness from (docs/models.md says
// how): isotropic, E = 300 N/m (of the order of Trendafilov 2021's fabrics), Poisson 0, G =
// E / 2 = 150 N/m, 0.2 kg/m^2. XPBD's StVK and FEM represent it exactly, and so does PD (whose
// strain term has Poisson 0 and G = (k_u + k_v) / 4); the spring lattice has C12 = G (Cauchy),
// so its Poisson ratio is not 0. --model-preset puts every row on a measured fabric instead
// (cotton: 2 kN/m along weft and warp, 52 N/m in shear, which PD's G = (k_u + k_v) / 4 and the
// lattice's C12 = G cannot represent: the comparison then includes each model's approximation
// of the fabric, as a user would meet it). No tethers: XPBD's cure for stretch would hide what the
// models do. Bending: isometric, D = 1e-5 N m (each model its own terms from it: FEM and PD the
// hinges' quadratic term, docs/models.md).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/progress.h"
#include "bench.h"
#include "core/error.h"
#include "core/material_presets.h"
#include "core/output_file.h"
#include "cpu/backend.h"
#include "prep/prepare.h"
#include "prep/projective.h"

namespace cloth::bench {

namespace {

struct Config {
    std::string name;
    ClothModel model;
    IterationScheme scheme = IterationScheme::GaussSeidel;
    int substeps = 10, iterations = 4;
};

// The rows: XPBD's three iteration schemes at 10 substeps x 4 iterations, PD at 10 x 10
// (it converges slowlier per iteration) with its direct, Jacobi and Chebyshev global steps, FEM and
// the mass-spring model at 10 substeps (the latter splits them as stability needs). The "_more"
// rows spend more on the same model (XPBD Gauss-Seidel at 20 x 8, PD at 10 x 30, FEM at 20
// substeps), so that each model's accuracy per unit of time is a curve, not a point.
const Config kConfigs[] = {
    {"xpbd_gs", ClothModel::Xpbd, IterationScheme::GaussSeidel, 10, 4},
    {"xpbd_gs_more", ClothModel::Xpbd, IterationScheme::GaussSeidel, 20, 8},
    {"xpbd_jacobi", ClothModel::Xpbd, IterationScheme::Jacobi, 10, 4},
    {"xpbd_chebyshev", ClothModel::Xpbd, IterationScheme::Chebyshev, 10, 4},
    {"pd", ClothModel::Projective, IterationScheme::GaussSeidel, 10, 10},
    {"pd_more", ClothModel::Projective, IterationScheme::GaussSeidel, 10, 30},
    {"pd_jacobi", ClothModel::Projective, IterationScheme::Jacobi, 10, 10},
    {"pd_chebyshev", ClothModel::Projective, IterationScheme::Chebyshev, 10, 10},
    {"fem", ClothModel::Fem, IterationScheme::GaussSeidel, 10, 1},
    {"fem_more", ClothModel::Fem, IterationScheme::GaussSeidel, 20, 1},
    {"mass_spring", ClothModel::MassSpring, IterationScheme::GaussSeidel, 10, 1},
};

// "hanging": 1 m, pinned at its top corners; "square5": Trendafilov 2021's 5 m square, pinned
// at its top corners; "drape": 1 m, falling flat onto a sphere of radius 0.35 m.
Scene scene(const std::string& name, int n, const Config& c, const std::string& preset) {
    Scene s;
    s.name = name + std::to_string(n);
    s.sim.model = c.model;
    s.sim.iteration.scheme = c.scheme;
    // PD's Jacobi global step: the relaxation that converges on every cloth, and Chebyshev's
    // defaults otherwise (docs/models.md "Projective dynamics").
    if (c.model == ClothModel::Projective && c.scheme != IterationScheme::GaussSeidel)
        s.sim.iteration.relaxation = kPdMaxRelaxation;
    s.sim.substeps = c.substeps;
    s.sim.iterations = c.iterations;
    ClothDesc cloth;
    cloth.name = "cloth";
    GridDesc g;
    g.resX = g.resY = std::uint32_t(n);
    g.width = g.height = name == "square5" ? 5.0f : 1.0f;
    cloth.grid = g;
    cloth.tethers = false;
    cloth.material.stretchModel = StretchModel::Stvk;
    cloth.material.membrane = {300.0f, 300.0f, 0.0f, 0.0f, 150.0f};
    cloth.material.density = 0.2f;
    // Bending: isometric with a fabric's rigidity. The default dihedral compliance (1e-3 per
    // radian) is a stiff plate once converged (about 1e3 N m on a 32^2 metre), which the
    // reference showed: it rested on the sphere flat while the models at their few iterations
    // draped.
    cloth.material.bendModel = BendModel::Isometric;
    cloth.material.bendRigidity = 1e-5f;
    if (!preset.empty()) {
        // A measured fabric in place of the isotropic membrane: its density, membrane and
        // bending along weft and warp (isometric bending takes both; FEM and PD their hinges'
        // terms from them, the spring lattice its stiffnesses from the membrane).
        const std::optional<MaterialPreset> m = findMaterialPreset(preset);
        if (!m) throw Error("unknown material preset '" + preset + "'");
        applyMaterialPreset(*m, cloth.material);
    }
    cloth.material.linearDamping = 0.5f;
    if (name == "drape") {
        cloth.transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, 0.0f);
        cloth.transform.translate = glm::vec3(0.0f, 0.9f, 0.0f);
        ColliderDesc ball;
        ball.name = "ball";
        ball.shape = ColliderShape::Sphere;
        ball.radius = 0.35f;
        ball.transform.translate = glm::vec3(0.0f, 0.5f, 0.0f);
        ball.staticFriction = ball.kineticFriction = 0.3f;
        s.colliders.push_back(ball);
    } else {
        cloth.transform.translate = glm::vec3(0.0f, 1.5f + 0.5f * g.height, 0.0f);
        cloth.pins.regions = {"top_corners"};
    }
    s.cloths.push_back(cloth);
    return s;
}

// The largest and mean |l / L - 1| over the mesh's edges, each once (every model has them; the
// metrics' edgeStretch is the signed stretch, counts a StVK triangle's edges per triangle and
// reads a spring model's rest lengths: this one compares every model alike).
std::pair<double, double> meshStrain(const PreparedCloth& p, const std::vector<glm::vec4>& x) {
    double largest = 0.0, sum = 0.0;
    std::size_t count = 0;
    for (const glm::uvec3& t : p.triangles)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = t[k], b = t[(k + 1) % 3];
            if (a > b) continue;  // interior edges once (boundary edges: whichever way they run)
            const double rest = glm::length(glm::dvec3(glm::vec3(p.positions[a]) - glm::vec3(p.positions[b])));
            const double now = glm::length(glm::dvec3(glm::vec3(x[a]) - glm::vec3(x[b])));
            const double s = std::abs(now / rest - 1.0);
            largest = std::max(largest, s);
            sum += s;
            ++count;
        }
    return {largest, count ? sum / double(count) : 0.0};
}

struct Run {
    double msPerFrame = 0.0, maxStrain = 0.0, meanStrain = 0.0, sag = 0.0;
    std::vector<std::vector<glm::vec4>> samples;  // every 10th frame
    std::string error;                             // a model that refused the scene
};

Run run(const Scene& s, int frames, int threads, const std::string& what, bool quiet) {
    Run r;
    try {
        const PreparedCloth p = prepareScene(s);
        auto solver = makeCpuSolver(p, threads);
        std::vector<double> ms;
        std::vector<glm::vec4> x;
        Progress progress = Progress::on(std::cerr, "clothbench: " + what, frames, quiet);
        for (int f = 1; f <= frames; ++f) {
            const auto t0 = std::chrono::steady_clock::now();
            solver->stepFrame();
            ms.push_back(std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - t0).count());
            progress.update(f);
            if (f % 10 == 0 || f == frames) {
                solver->readPositions(x);
                x.resize(p.originalVertexCount);
                r.samples.push_back(x);
            }
        }
        progress.finish();
        r.msPerFrame = median(ms);
        const auto [largest, mean] = meshStrain(p, x);
        r.maxStrain = largest;
        r.meanStrain = mean;
        double lowest = 1e30, restLowest = 1e30;
        for (std::size_t i = 0; i < x.size(); ++i) {
            lowest = std::min(lowest, double(x[i].y));
            restLowest = std::min(restLowest, double(p.positions[i].y));
        }
        r.sag = restLowest - lowest;
    } catch (const Error& e) {
        r.error = e.what();
    }
    return r;
}

}  // namespace

int modelsBench(const BenchOptions& o) {
    const int threads = o.threads.empty() ? 2 : o.threads.front();
    const int frames = o.modelFrames;
    nlohmann::json rows = nlohmann::json::array();
    std::printf("%-8s %5s %-15s %10s %9s %9s %8s %11s %11s\n", "scene", "grid", "model", "ms/frame",
                "max str%", "mean str%", "sag m", "rms err %D", "max err %D");
    for (const std::string& name : o.modelScenes)
        for (int n : o.grids) {
            Config reference = kConfigs[0];
            reference.name = "reference";
            reference.substeps *= 8;
            reference.iterations *= 8;
            const Scene refScene = scene(name, n, reference, o.modelPreset);
            const Run ref = run(refScene, frames, threads, name + " " + std::to_string(n) + " reference",
                                o.quiet);
            if (!ref.error.empty()) throw Error("the reference run failed: " + ref.error);
            const double size = name == "square5" ? 5.0 : 1.0;
            auto row = [&](const Config& c, const Run& r) {
                nlohmann::json j = {{"scene", name}, {"grid", n}, {"model", c.name},
                                    {"substeps", c.substeps}, {"iterations", c.iterations},
                                    {"threads", threads}, {"frames", frames}};
                if (!r.error.empty()) {
                    j["error"] = r.error;
                    std::printf("%-8s %5d %-15s refused: %s\n", name.c_str(), n, c.name.c_str(),
                                r.error.c_str());
                    rows.push_back(j);
                    return;
                }
                double sum = 0.0, largest = 0.0;
                std::size_t count = 0;
                for (std::size_t k = 0; k < r.samples.size() && k < ref.samples.size(); ++k)
                    for (std::size_t i = 0; i < r.samples[k].size(); ++i) {
                        const double d = glm::length(glm::dvec3(glm::vec3(r.samples[k][i])) -
                                                     glm::dvec3(glm::vec3(ref.samples[k][i])));
                        sum += d * d;
                        largest = std::max(largest, d);
                        ++count;
                    }
                const double rms = count ? std::sqrt(sum / double(count)) : 0.0;
                j["ms_per_frame"] = r.msPerFrame;
                j["max_strain"] = r.maxStrain;
                j["mean_strain"] = r.meanStrain;
                j["sag_m"] = r.sag;
                j["rms_error_of_size"] = rms / size;
                j["max_error_of_size"] = largest / size;
                std::printf("%-8s %5d %-15s %10.3f %9.2f %9.3f %8.4f %11.3f %11.3f\n", name.c_str(),
                            n, c.name.c_str(), r.msPerFrame, 100.0 * r.maxStrain,
                            100.0 * r.meanStrain, r.sag, 100.0 * rms / size, 100.0 * largest / size);
                rows.push_back(j);
            };
            row(reference, ref);
            for (const Config& c : kConfigs) {
                const bool wanted = o.modelRows.empty() ||
                                    std::find(o.modelRows.begin(), o.modelRows.end(), c.name) !=
                                        o.modelRows.end();
                if (wanted)
                    row(c, run(scene(name, n, c, o.modelPreset), frames, threads,
                               name + " " + std::to_string(n) + " " + c.name, o.quiet));
            }
        }
    if (!o.json.empty()) {
        const std::string material =
            o.modelPreset.empty()
                ? "an isotropic StVK membrane, E 300 N/m, nu 0, G 150 N/m, 0.2 kg/m^2"
                : "the preset " + o.modelPreset;
        nlohmann::json out = {{"what", "clothbench --models: every model on the same scenes and "
                                       "material (" + material + "; no tethers)"},
                              {"material", o.modelPreset.empty() ? "isotropic_300" : o.modelPreset},
                              {"device", cpuModelName()},
                              {"rows", rows}};
        writeOutputFile(o.json, out.dump(2) + "\n");
    }
    return 0;
}

}  // namespace cloth::bench
