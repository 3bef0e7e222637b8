// Phantom vertices (seed thesis 5.2; Fratarcangeli & Pellacini 2015): a vertex shared by k
// constraints forces k colours. Giving some of those constraints their own copy of the vertex
// (a phantom, averaged back with the original after each sweep) removes graph edges, so fewer
// colours suffice. This file decides which constraint uses which copy; prepare.cpp builds the
// copies, their masses and the averaging groups.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "prep/coloring.h"
#include "prep/constraint_graph.h"

namespace cloth {

enum class PhantomMethod {
    // The method: find the maximal cliques with at least `target` constraints
    // (Bron-Kerbosch), split the vertex each of them shares most into copies holding at most
    // target - 1 of its constraints, recolour, and repeat while that helps; then, if colours
    // are still above the target, finish with Repair.
    Cliques,
    // Keep the smallest-last colours below the target; move every constraint coloured at or
    // above it to the colour below the target that needs the fewest new copies, reusing copies
    // that lack that colour. One pass, no clique search.
    Repair,
};
const char* phantomMethodName(PhantomMethod m);
// "cliques" | "repair"; else cloth::Error.
PhantomMethod parsePhantomMethod(const std::string& name);

struct PhantomSplit {
    ConstraintVertices constraints;       // the input's constraints, slots rewritten to copies
    std::vector<std::uint32_t> original;  // per vertex id: its original (identity for originals)
    std::vector<std::uint32_t> color;     // a proper colouring of the split constraint graph
    std::uint32_t colorCount = 0;
    std::uint32_t cliquesFound = 0;  // maximal cliques >= target in the unsplit graph
    std::uint32_t cliqueRounds = 0;  // split-and-recolour rounds run (Cliques)
    double cliqueMs = 0.0;           // time in Bron-Kerbosch, all rounds
};

// Splits vertices until the constraints can be coloured with at most `target` colours (always
// reached: in the worst case a constraint gets copies of all its vertices). `initial` is the
// smallest-last colouring of the unsplit graph. Copies get ids from vertexCount up, in creation
// order. Deterministic. A target of 0 is a cloth::Error; targets above 64 act as 64 (the colour
// sets are 64-bit masks; no mesh we know needs that many colours before phantoms).
PhantomSplit splitForColors(const ConstraintVertices& cv, std::uint32_t vertexCount,
                            const Coloring& initial, std::uint32_t target, PhantomMethod method);

}  // namespace cloth
