// clothbench: solver throughput on square grids (stretch + bending), per backend and thread
// count. Warms up, repeats, reports min and median; prints a table and optionally writes JSON.
// Timing lives here, never in tests.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/backend.h"
#include "app/frame_stats.h"
#include "core/error.h"
#include "cpu/cpu_solver.h"
#include "prep/prepare.h"

namespace cloth {
namespace {

struct BenchOptions {
    std::string backend = "cpu";
    std::vector<int> grids = {32, 64, 128, 256};
    std::vector<int> threads;  // default: 1 and all hardware threads
    int substeps = 10;
    int iterations = 1;
    int warmup = 10;
    int frames = 10;   // frames per repeat
    int repeats = 5;
    std::string json;
    PhantomSetting phantoms;
    PhantomMethod phantomMethod = PhantomMethod::Repair;
    bool phantomsEachColor = false;
};

std::vector<int> parseList(const std::string& flag, const std::string& text, int min) {
    std::vector<int> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        try {
            size_t used = 0;
            const int v = std::stoi(item, &used);
            if (used != item.size() || v < min) throw Error("");
            out.push_back(v);
        } catch (const std::exception&) {
            throw Error(flag + ": expected a comma-separated list of integers >= " +
                        std::to_string(min) + ", got '" + text + "'");
        }
    }
    if (out.empty()) throw Error(flag + ": empty list");
    return out;
}

const char* kUsage = R"(clothbench: solver throughput on square grids with stretch and bending

usage: clothbench [options]
  --backend cpu|gpu|all    backends to measure (default: cpu)
  --grids LIST             grid resolutions in quads per side (default: 32,64,128,256)
  --threads LIST           CPU thread counts (default: 1 and all hardware threads)
  --substeps N             substeps per frame (default: 10)
  --iterations N           iterations per substep (default: 1)
  --warmup N               frames before timing (default: 10)
  --frames N               frames per timed repeat (default: 10)
  --repeats N              timed repeats; min and median are reported (default: 5)
  --phantoms off|auto|N    phantom vertices (default: off)
  --phantom-method M       repair (default) or cliques
  --phantom-averaging A    iteration (default) or color
  --json FILE              also write the results as JSON
)";

BenchOptions parseBenchOptions(int argc, char** argv) {
    BenchOptions o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::cout << kUsage;
            std::exit(0);
        }
        if (i + 1 >= argc) throw Error(a + ": missing value (or unknown option; see --help)");
        const std::string v = argv[++i];
        if (a == "--backend") {
            if (v != "cpu" && v != "gpu" && v != "all")
                throw Error("--backend: expected cpu, gpu or all, got '" + v + "'");
            o.backend = v;
        } else if (a == "--grids") o.grids = parseList(a, v, 1);
        else if (a == "--threads") o.threads = parseList(a, v, 1);
        else if (a == "--substeps") o.substeps = parseList(a, v, 1).at(0);
        else if (a == "--iterations") o.iterations = parseList(a, v, 1).at(0);
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
        else throw Error("unknown option '" + a + "' (see --help)");
    }
    if (o.threads.empty()) o.threads = {1, defaultThreadCount()};
    std::sort(o.threads.begin(), o.threads.end());
    o.threads.erase(std::unique(o.threads.begin(), o.threads.end()), o.threads.end());
    return o;
}

// A 1 m square cloth, n x n quads, pinned at its top corners, stretch and bending, no tethers.
Scene gridScene(int n, const BenchOptions& o) {
    Scene s;
    s.name = "grid" + std::to_string(n);
    s.sim.substeps = o.substeps;
    s.sim.iterations = o.iterations;
    s.phantoms = o.phantoms;
    s.sim.averagePhantomsEachColor = o.phantomsEachColor;
    ClothDesc c;
    c.name = s.name;
    GridDesc g;
    g.resX = g.resY = static_cast<std::uint32_t>(n);
    c.grid = g;
    c.transform.translate = glm::vec3(0.0f, 1.5f, 0.0f);
    c.pins.regions = {"top_corners"};
    c.tethers = false;
    s.cloths.push_back(c);
    return s;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Measured {
    std::vector<double> frameMs;  // mean frame time of each repeat
    FrameStats stages;
};

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

nlohmann::json runOne(const PreparedCloth& p, int grid, const BackendRequest& req,
                      const BenchOptions& o) {
    auto solver = createSolver(req, p, std::cerr);
    const Measured m = measure(*solver, o);
    const double minMs = *std::min_element(m.frameMs.begin(), m.frameMs.end());
    const double medMs = median(m.frameMs);
    const double solvesPerFrame =
        double(p.distance.size() + p.bending.size()) * o.iterations * o.substeps;
    nlohmann::json stages = nlohmann::json::object();
    for (int i = 0; i < kStageCount; ++i) stages[kStageNames[i]] = m.stages.stageMeanMs(i);
    return {{"backend", solver->backendName()},
            {"device", solver->deviceName()},
            {"grid", grid},
            {"vertices", p.originalVertexCount},
            {"constraints", constraintCounts(p)},
            {"threads", solver->threadCount()},
            {"colors", p.colorCount},
            {"colors_before_phantoms", p.stats.colorsBeforePhantoms},
            {"phantom_vertices", p.stats.phantomVertices},
            {"phantom_averaging", p.sim.averagePhantomsEachColor ? "color" : "iteration"},
            {"substeps", o.substeps},
            {"iterations", o.iterations},
            {"ms_per_frame", {{"min", minMs}, {"median", medMs}}},
            {"ms_per_substep", medMs / o.substeps},
            {"ms_per_substep_min", minMs / o.substeps},
            {"solves_per_second", solvesPerFrame / (medMs / 1000.0)},
            {"solves_per_second_max", solvesPerFrame / (minMs / 1000.0)},
            {"stages_ms", stages},
            {"prepare_ms", p.stats.prepareMs}};
}

void printRow(const nlohmann::json& r) {
    std::printf("%-5s %5dx%-5d %8u %7d %6d %12.3f %12.3f %10.1f\n",
                r["backend"].get<std::string>().c_str(), r["grid"].get<int>(), r["grid"].get<int>(),
                r["vertices"].get<unsigned>(), r["threads"].get<int>(), r["colors"].get<int>(),
                r["ms_per_substep_min"].get<double>(), r["ms_per_substep"].get<double>(),
                r["solves_per_second"].get<double>() / 1e6);
    std::fflush(stdout);
}

int benchMain(int argc, char** argv) {
    const BenchOptions o = parseBenchOptions(argc, argv);
    if (o.backend != "cpu") throw Error("--backend " + o.backend + ": the Vulkan backend is not built yet");
    nlohmann::json runs = nlohmann::json::array();
    std::printf("device: %s\n", cpuModelName().c_str());
    std::printf("%-5s %11s %8s %7s %6s %12s %12s %10s\n", "back", "grid", "verts", "threads",
                "colors", "ms/sub(min)", "ms/sub(med)", "Msolves/s");
    for (int n : o.grids) {
        PrepareOptions popt;
        popt.phantoms = o.phantoms;
        popt.phantomMethod = o.phantomMethod;
        const PreparedCloth p = prepareScene(gridScene(n, o), popt);
        for (int t : o.threads) {
            BackendRequest req;
            req.backend = "cpu";
            req.threads = t;
            runs.push_back(runOne(p, n, req, o));
            printRow(runs.back());
        }
    }
    if (!o.json.empty())
        writeJsonFile(o.json, {{"device", cpuModelName()}, {"substeps", o.substeps},
                               {"iterations", o.iterations}, {"runs", runs}});
    return 0;
}

}  // namespace
}  // namespace cloth

int main(int argc, char** argv) {
    try {
        return cloth::benchMain(argc, argv);
    } catch (const cloth::Error& e) {
        std::cerr << "clothbench: error: " << e.what() << "\n";
        return 1;
    }
}
