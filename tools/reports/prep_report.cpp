// prep_report: colour counts and load-time costs for grids of each pattern (32^2 .. 256^2) and
// irregular meshes (assets/meshes), stretch only and stretch plus bending, without and with phantom vertices.
// Not a test (no assertions on time); build it in Release and run
//   build/tests/prep_report [--target T] [--method repair|cliques|both] [--max-res N]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "prep/batches.h"
#include "prep/cliques.h"
#include "prep/prepare.h"
#include "fixtures/meshes.h"

using namespace cloth;

namespace {

struct Args {
    std::uint32_t target = 8;
    std::string method = "both";
    std::uint32_t maxRes = 256;
};

void header() {
    std::printf("%-12s %6s %-8s %7s %7s %6s %5s %8s %8s | %-7s %5s %8s %8s %8s %8s\n", "mesh",
                "grid", "constr", "dist", "bend", "degen", "cols", "graph_ms", "color_ms", "method",
                "cols", "phantoms", "cliques", "clq_ms", "phan_ms");
}

void report(const char* name, const std::string& size, const Mesh& mesh, bool bending,
            const Args& args) {
    PreparedCloth p = fixtures::constraintsOf(mesh, bending);
    colorAndPack(p);
    std::printf("%-12s %6s %-8s %7zu %7zu %6u %5u %8.1f %8.1f |", name, size.c_str(),
                bending ? "str+bend" : "stretch", p.items<gpu::DistanceConstraint>().size(), p.items<gpu::BendingConstraint>().size(),
                p.stats.degeneracy, p.colorCount, p.stats.graphMs, p.stats.colorMs);
    bool first = true;
    for (PhantomMethod m : {PhantomMethod::Repair, PhantomMethod::Cliques}) {
        if (args.method != "both" && args.method != phantomMethodName(m)) continue;
        PreparedCloth q = fixtures::constraintsOf(mesh, bending);
        colorAndPack(q, PhantomRequest{args.target, m});
        if (!first) std::printf("%*s|", 91, "");
        std::printf(" %-7s %5u %8u %8u %8.1f %8.1f\n", phantomMethodName(m), q.colorCount,
                    q.stats.phantomVertices, q.stats.cliquesFound, q.stats.cliqueMs,
                    q.stats.phantomMs);
        first = false;
    }
}

// One Bron-Kerbosch pass over the unsplit constraint graph (what the first round of the cliques
// method runs), best of three, on one thread and on all of them.
void cliqueSearch(const char* name, const Mesh& mesh, const Args& args) {
    PreparedCloth p = fixtures::constraintsOf(mesh, true);
    const ConstraintVertices cv = constraintVertices(p);
    const Graph g = buildConstraintGraph(cv, p.vertexCount());
    const DegeneracyOrder order = degeneracyOrder(g);
    for (std::uint32_t minSize : {1u, args.target})
        for (unsigned threads : {1u, 0u}) {
            double best = 1e30;
            std::uint32_t count = 0;
            for (int rep = 0; rep < 3; ++rep) {
                const auto t0 = std::chrono::steady_clock::now();
                count = maximalCliques(g, cv, order, minSize, threads).count();
                const auto t1 = std::chrono::steady_clock::now();
                best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
            }
            std::printf(
                "clique search %-11s str+bend: %u constraints, degeneracy %u, cliques >= %2u: "
                "%7u, %8.1f ms on %s\n",
                name, cv.count(), order.degeneracy, minSize, count, best,
                threads == 1 ? "1 thread" : "all threads");
        }
}

}  // namespace

int main(int argc, char** argv) {
    Args args;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--target")) args.target = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--method")) args.method = argv[i + 1];
        if (!std::strcmp(argv[i], "--max-res")) args.maxRes = std::atoi(argv[i + 1]);
    }
    std::printf("phantom target: %u colours\n", args.target);
    header();
    for (GridPattern pattern :
         {GridPattern::Regular, GridPattern::Alternating, GridPattern::Random})
        for (std::uint32_t res : {32u, 64u, 128u, 256u})
            for (bool bending : {false, true}) {
                if (res > args.maxRes) continue;
                GridDesc d;
                d.resX = d.resY = res;
                d.pattern = pattern;
                report(gridPatternName(pattern), std::to_string(res) + "^2", makeGrid(d), bending,
                       args);
            }
    const std::string assets = std::string(CLOTH_SOURCE_DIR) + "/assets/meshes/";
    for (const char* obj : {"flag.obj", "disc.obj", "quads.obj"})
        for (bool bending : {false, true}) report(obj, "obj", loadObj(assets + obj), bending, args);
    for (bool bending : {false, true})
        report("jittered", "128^2", fixtures::irregularMesh(128, 0.05, 1), bending, args);
    if (args.maxRes >= 256)
        for (GridPattern pattern :
             {GridPattern::Regular, GridPattern::Alternating, GridPattern::Random}) {
            GridDesc d;
            d.resX = d.resY = 256;
            d.pattern = pattern;
            cliqueSearch((std::string(gridPatternName(pattern)) + " 256^2").c_str(), makeGrid(d),
                         args);
        }
    // The whole of prepareScene for a curtain pinned along its top edge (tethers included).
    for (std::uint32_t res : {128u, 256u}) {
        if (res > args.maxRes) continue;
        Scene s;
        s.name = "curtain";
        ClothDesc c;
        c.name = "curtain";
        GridDesc g;
        g.resX = g.resY = res;
        c.grid = g;
        c.pins.regions = {"top_edge"};
        s.cloths.push_back(c);
        for (bool phantoms : {false, true}) {
            PrepareOptions o;
            if (phantoms) o.phantoms = PhantomSetting{PhantomMode::Target, args.target};
            const PreparedCloth p = prepareScene(s, o);
            std::printf(
                "prepareScene curtain %u^2 phantoms %-3s: %zu tethers, %u colours, "
                "%u phantoms, %.1f ms (graph %.1f, colour+pack %.1f, phantoms %.1f)\n",
                res, phantoms ? "on" : "off", p.tethers.size(), p.colorCount,
                p.stats.phantomVertices, p.stats.prepareMs, p.stats.graphMs, p.stats.colorMs,
                p.stats.phantomMs);
        }
    }
    return 0;
}
