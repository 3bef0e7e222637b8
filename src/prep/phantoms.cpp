#include "prep/phantoms.h"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "core/error.h"
#include "core/stopwatch.h"
#include "prep/cliques.h"

namespace cloth {

namespace {

struct State {
    ConstraintVertices cv;
    std::vector<std::uint32_t> original;
    std::uint32_t vertexCount() const { return static_cast<std::uint32_t>(original.size()); }
    std::uint32_t newCopy(std::uint32_t of) {
        original.push_back(original[of]);
        return vertexCount() - 1;
    }
};

// The vertex that the most constraints of the clique share (lowest id on ties), with its count,
// skipping vertices already split in this round.
std::pair<std::uint32_t, std::uint32_t> mostSharedVertex(const State& s,
                                                         std::span<const std::uint32_t> clique,
                                                         const std::vector<bool>& splitNow,
                                                         std::vector<std::uint32_t>& scratch) {
    scratch.clear();
    for (std::uint32_t c : clique)
        for (std::uint32_t u : s.cv.of(c))
            if (!splitNow[u]) scratch.push_back(u);
    std::sort(scratch.begin(), scratch.end());
    std::uint32_t best = UINT32_MAX, bestCount = 0;
    for (std::size_t i = 0; i < scratch.size();) {
        std::size_t j = i;
        while (j < scratch.size() && scratch[j] == scratch[i]) ++j;
        if (j - i > bestCount) bestCount = static_cast<std::uint32_t>(j - i), best = scratch[i];
        i = j;
    }
    return {best, bestCount};
}

// One round of the clique method: for each clique, the constraints sharing its most shared
// vertex u are dealt, in colour order, round-robin onto ceil(m / (target - 1)) copies of u.
// Returns the number of vertices split.
std::uint32_t splitCliques(State& s, const Cliques& cliques, const Coloring& col,
                           std::uint32_t target) {
    std::vector<bool> splitNow(s.vertexCount(), false);
    std::vector<std::uint32_t> scratch, members;
    std::uint32_t splits = 0;
    const std::uint32_t groupSize = std::max<std::uint32_t>(1, target - 1);
    for (std::uint32_t k = 0; k < cliques.count(); ++k) {
        const auto [u, m] = mostSharedVertex(s, cliques.of(k), splitNow, scratch);
        const std::uint32_t groups = (m + groupSize - 1) / groupSize;
        if (m < 2 || groups < 2) continue;
        members.clear();
        for (std::uint32_t c : cliques.of(k))
            for (std::uint32_t x : s.cv.of(c))
                if (x == u) members.push_back(c);
        std::sort(members.begin(), members.end(), [&](std::uint32_t a, std::uint32_t b) {
            return col.color[a] != col.color[b] ? col.color[a] < col.color[b] : a < b;
        });
        std::vector<std::uint32_t> copies{u};
        for (std::uint32_t g = 1; g < groups; ++g) copies.push_back(s.newCopy(u));
        splitNow.resize(s.vertexCount(), true);
        splitNow[u] = true;
        for (std::size_t i = 0; i < members.size(); ++i) {
            const std::uint32_t copy = copies[i % groups];
            for (std::uint32_t j = s.cv.offsets[members[i]]; j < s.cv.offsets[members[i] + 1]; ++j)
                if (s.cv.vertices[j] == u) s.cv.vertices[j] = copy;
        }
        ++splits;
    }
    return splits;
}

// Moves every constraint coloured >= target to a colour below it. At each of its vertices the
// constraint uses a copy (of the same original) that no constraint of the new colour uses,
// creating one where every copy is taken. The colour is the one needing the fewest new copies.
std::vector<std::uint32_t> repairColors(State& s, const std::vector<std::uint32_t>& color,
                                        std::uint32_t target) {
    using Mask = std::uint64_t;
    std::uint32_t originals = 0;
    for (std::uint32_t o : s.original) originals = std::max(originals, o + 1);
    std::vector<std::vector<std::uint32_t>> copies(originals);
    for (std::uint32_t v = 0; v < s.vertexCount(); ++v) copies[s.original[v]].push_back(v);
    std::vector<Mask> used(s.vertexCount(), 0);  // colours present at each copy
    std::vector<std::uint32_t> late, out(color);
    for (std::uint32_t c = 0; c < s.cv.count(); ++c) {
        if (color[c] >= target) {
            late.push_back(c);
            continue;
        }
        for (std::uint32_t u : s.cv.of(c)) used[u] |= Mask(1) << color[c];
    }
    std::stable_sort(late.begin(), late.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return color[a] < color[b]; });
    auto freeCopy = [&](std::uint32_t u, std::uint32_t k) -> std::uint32_t {
        if (!(used[u] >> k & 1)) return u;
        for (std::uint32_t x : copies[s.original[u]])
            if (!(used[x] >> k & 1)) return x;
        return UINT32_MAX;
    };
    for (std::uint32_t c : late) {
        std::uint32_t best = 0, bestCost = UINT32_MAX;
        for (std::uint32_t k = 0; k < target && bestCost > 0; ++k) {
            std::uint32_t cost = 0;
            for (std::uint32_t u : s.cv.of(c)) cost += freeCopy(u, k) == UINT32_MAX;
            if (cost < bestCost) bestCost = cost, best = k;
        }
        for (std::uint32_t j = s.cv.offsets[c]; j < s.cv.offsets[c + 1]; ++j) {
            const std::uint32_t u = s.cv.vertices[j];
            std::uint32_t x = freeCopy(u, best);
            if (x == UINT32_MAX) {
                x = s.newCopy(u);
                copies[s.original[u]].push_back(x);
                used.push_back(0);
            }
            s.cv.vertices[j] = x;
            used[x] |= Mask(1) << best;
        }
        out[c] = best;
    }
    return out;
}

}  // namespace

const char* phantomMethodName(PhantomMethod m) {
    return m == PhantomMethod::Cliques ? "cliques" : "repair";
}

PhantomMethod parsePhantomMethod(const std::string& name) {
    if (name == "cliques") return PhantomMethod::Cliques;
    if (name == "repair") return PhantomMethod::Repair;
    throw Error("phantom method: expected cliques or repair, got '" + name + "'");
}

PhantomSplit splitForColors(const ConstraintVertices& cv, std::uint32_t vertexCount,
                            const Coloring& initial, std::uint32_t target, PhantomMethod method) {
    if (target < 1) throw Error("a phantom target of 0 colours is out of range (at least 1)");
    target = std::min<std::uint32_t>(target, 64);  // colour sets are 64-bit masks
    CLOTH_ASSERT(initial.color.size() == cv.count());
    PhantomSplit out;
    State s{cv, std::vector<std::uint32_t>(vertexCount)};
    std::iota(s.original.begin(), s.original.end(), 0u);
    Coloring col = initial;
    constexpr std::uint32_t kMaxRounds = 8;
    if (method == PhantomMethod::Cliques && col.colorCount > target) {
        Graph g = buildConstraintGraph(s.cv, s.vertexCount());
        DegeneracyOrder order = degeneracyOrder(g);
        while (col.colorCount > target && out.cliqueRounds < kMaxRounds) {
            const auto t0 = Clock::now();
            const Cliques cliques = maximalCliques(g, s.cv, order, target);
            out.cliqueMs += msSince(t0);
            if (out.cliqueRounds++ == 0) out.cliquesFound = cliques.count();
            if (splitCliques(s, cliques, col, target) == 0) break;  // no split helps
            g = buildConstraintGraph(s.cv, s.vertexCount());
            order = degeneracyOrder(g);
            col = colorSmallestLast(g, order);
        }
    }
    if (col.colorCount > target) {
        col.color = repairColors(s, col.color, target);
        col.colorCount = target;
    }
    out.colorCount = 0;
    for (std::uint32_t c : col.color) out.colorCount = std::max(out.colorCount, c + 1);
    out.constraints = std::move(s.cv);
    out.original = std::move(s.original);
    out.color = std::move(col.color);
    return out;
}

}  // namespace cloth
