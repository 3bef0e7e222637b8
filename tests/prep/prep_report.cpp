// prep_report: colour counts and load-time costs of the constraint graph and colouring for grids
// of each pattern (32^2 .. 256^2) and an irregular mesh, stretch only and stretch plus bending.
// Not a test (no assertions on time); build it in Release and run build/tests/prep_report.
#include <chrono>
#include <cstdio>

#include "prep/batches.h"
#include "prep/prepare.h"
#include "prep_test_util.h"

using namespace cloth;

namespace {

void report(const char* name, std::uint32_t res, const Mesh& mesh, bool bending) {
    PreparedCloth p = test::constraintsOf(mesh, bending);
    colorAndPack(p);
    std::printf("%-12s %4u^2 %-15s %8zu %9zu %11llu %6u %5u %9.1f %9.1f\n", name, res,
                bending ? "stretch+bending" : "stretch", p.distance.size(), p.bending.size(),
                static_cast<unsigned long long>(p.stats.graphEdges), p.stats.degeneracy,
                p.colorCount, p.stats.graphMs, p.stats.colorMs);
}

}  // namespace

int main() {
    std::printf("%-12s %6s %-15s %8s %9s %11s %6s %5s %9s %9s\n", "mesh", "grid", "constraints",
                "distance", "bending", "graph_edges", "degen", "cols", "graph_ms", "color_ms");
    for (GridPattern pattern :
         {GridPattern::Regular, GridPattern::Alternating, GridPattern::Random})
        for (std::uint32_t res : {32u, 64u, 128u, 256u})
            for (bool bending : {false, true}) {
                GridDesc d;
                d.resX = d.resY = res;
                d.pattern = pattern;
                report(gridPatternName(pattern), res, makeGrid(d), bending);
            }
    for (bool bending : {false, true})
        report("irregular", 128, test::irregularMesh(128, 0.05, 1), bending);
    for (bool bending : {false, true}) report("disc", 48, test::discMesh(48, 48), bending);
    // The whole of prepareScene for a curtain pinned along its top edge (tethers included).
    for (std::uint32_t res : {128u, 256u}) {
        Scene s;
        s.name = "curtain";
        ClothDesc c;
        c.name = "curtain";
        GridDesc g;
        g.resX = g.resY = res;
        c.grid = g;
        c.pins.regions = {"top_edge"};
        s.cloths.push_back(c);
        const PreparedCloth p = prepareScene(s);
        std::printf(
            "prepareScene curtain %u^2: %zu tethers, %u colours, %.1f ms (graph %.1f, "
            "colour+pack %.1f)\n",
            res, p.tethers.size(), p.colorCount, p.stats.prepareMs, p.stats.graphMs,
            p.stats.colorMs);
    }
    return 0;
}
