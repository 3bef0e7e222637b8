// clothbench --textile: the textile lab's tests of every material preset (fixtures/textile.h):
// the Cusick drape coefficient and folds on a grid disc and an irregular disc at three
// resolutions each, and the cantilever bending length along weft and warp, on the CPU reference.
// Writes one JSON row per run (--json).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "bench.h"
#include "core/error.h"
#include "core/material_presets.h"
#include "core/output_file.h"
#include "cpu/backend.h"
#include "fixtures/textile.h"
#include "prep/prepare.h"

namespace cloth::bench {

namespace {

using Clock = std::chrono::steady_clock;

Material presetMaterial(const MaterialPreset& p, BendModel bending) {
    Material m;
    applyMaterialPreset(p, m);
    m.bendModel = bending;
    return m;
}

// Runs `frames` frames; returns the final positions and the wall time.
std::vector<glm::vec4> run(const Scene& scene, int frames, int threads, double& seconds) {
    const PreparedCloth p = prepareScene(scene);
    auto solver = makeCpuSolver(p, threads);
    const auto t0 = Clock::now();
    for (int f = 0; f < frames; ++f) solver->stepFrame();
    seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    std::vector<glm::vec4> x;
    solver->readPositions(x);
    x.resize(p.originalVertexCount);
    return x;
}

std::vector<glm::uvec3> trianglesOf(const Scene& scene) {
    const PreparedCloth p = prepareScene(scene);
    return p.triangles;
}

}  // namespace

int textileBench(const BenchOptions& o) {
    const int threads = o.threads.empty() ? 2 : o.threads.front();
    const std::string dir =
        (std::filesystem::temp_directory_path() / "clothbench_textile").string();
    nlohmann::json rows = nlohmann::json::array();
    for (const MaterialPreset& preset : materialPresets()) {
        if (!o.textilePresets.empty() &&
            std::find(o.textilePresets.begin(), o.textilePresets.end(), preset.name) ==
                o.textilePresets.end())
            continue;
        // Cusick drape: grid and irregular discs, three resolutions each; isometric bending at
        // the middle ones.
        for (textile::DrapeMesh mesh : {textile::DrapeMesh::Grid, textile::DrapeMesh::Irregular}) {
            const std::vector<int> resolutions = mesh == textile::DrapeMesh::Grid
                                                     ? std::vector<int>{12, 18, 27}
                                                     : std::vector<int>{10, 15, 25};
            for (std::size_t r = 0; r < resolutions.size(); ++r)
                for (BendModel bending : {BendModel::Dihedral, BendModel::Isometric}) {
                    if (bending == BendModel::Isometric && r != 1) continue;
                    textile::DrapeSetup d;
                    d.mesh = mesh;
                    d.resolution = resolutions[r];
                    d.material = presetMaterial(preset, bending);
                    d.substeps = o.textileSubsteps;
                    d.iterations = o.textileIterations;
                    d.objDirectory = dir;
                    const Scene s = textile::cusickScene(d);
                    double seconds = 0.0;
                    const std::vector<glm::vec4> x = run(s, o.textileFrames, threads, seconds);
                    const textile::DrapeResult res = textile::measureDrape(x, trianglesOf(s));
                    std::printf("%-10s cusick %-9s %2d %-9s vertices %5zu: DC %.3f, %d folds (%.1f s)\n",
                                std::string(preset.name).c_str(), textile::drapeMeshName(mesh),
                                d.resolution, bendModelName(bending), x.size(), res.dc, res.folds,
                                seconds);
                    std::fflush(stdout);
                    rows.push_back({{"test", "cusick"}, {"preset", preset.name},
                                    {"mesh", textile::drapeMeshName(mesh)},
                                    {"resolution", d.resolution}, {"vertices", x.size()},
                                    {"bending", bendModelName(bending)}, {"dc", res.dc},
                                    {"folds", res.folds}, {"seconds", seconds}});
                }
        }
        // Cantilever along the weft and the warp (the warp turned onto the strip by a weft angle
        // of 90 degrees), both meshes, three cell sizes; the overhang is the standard's 2 c.
        for (bool warp : {false, true}) {
            const double B = warp ? preset.bendWarp : preset.bendWeft;
            const double c = textile::bendingLength(B, preset.density);
            for (textile::StripMesh mesh : {textile::StripMesh::Grid, textile::StripMesh::Irregular})
                for (int cells : {6, 9, 14})
                    for (BendModel bending : {BendModel::Dihedral, BendModel::Isometric}) {
                        textile::CantileverSetup d;
                        d.mesh = mesh;
                        d.overhang = float(2.0 * c);
                        d.cell = d.overhang / float(cells);
                        d.material = presetMaterial(preset, bending);
                        if (warp) d.material.weftAngleDegrees = 90.0f;
                        d.substeps = o.textileSubsteps;
                        d.iterations = o.textileIterations;
                        d.objDirectory = dir;
                        std::vector<std::uint32_t> tip;
                        const Scene s = textile::cantileverScene(d, tip);
                        double seconds = 0.0;
                        const std::vector<glm::vec4> x = run(s, o.textileFrames, threads, seconds);
                        const double angle = textile::chordAngle(x, tip);
                        const double measured = textile::bendingLengthFromAngle(d.overhang, angle);
                        const bool grid = mesh == textile::StripMesh::Grid;
                        std::printf("%-10s cantilever %-4s %-9s %2d cells %-9s: angle %.2f deg, "
                                    "c %.2f mm against %.2f mm (%.3f) (%.1f s)\n",
                                    std::string(preset.name).c_str(), warp ? "warp" : "weft",
                                    grid ? "grid" : "irregular", cells, bendModelName(bending),
                                    angle * 180.0 / M_PI, measured * 1e3, c * 1e3, measured / c,
                                    seconds);
                        std::fflush(stdout);
                        rows.push_back({{"test", "cantilever"}, {"preset", preset.name},
                                        {"direction", warp ? "warp" : "weft"},
                                        {"mesh", grid ? "grid" : "irregular"},
                                        {"cells_along_overhang", cells},
                                        {"bending", bendModelName(bending)},
                                        {"chord_angle_deg", angle * 180.0 / M_PI},
                                        {"bending_length_m", measured},
                                        {"expected_m", c}, {"ratio", measured / c},
                                        {"seconds", seconds}});
                    }
        }
    }
    if (!o.json.empty()) {
        nlohmann::json out = {
            {"what", "clothbench --textile: the Cusick drape test (30 cm disc on an 18 cm "
                     "support) and the cantilever bending length of every preset "
                     "(fixtures/textile.h)"},
            {"device", cpuModelName()},
            {"threads", threads},
            {"frames", o.textileFrames},
            {"substeps", o.textileSubsteps},
            {"iterations", o.textileIterations},
            {"rows", rows}};
        writeOutputFile(o.json, out.dump(2) + "\n");
    }
    return 0;
}

}  // namespace cloth::bench
