// clothbench --kernel-parts: where a colour batch's time goes, per constraint type, on the CPU
// reference's block kernels (cpu/batch_kernels.h, BatchPart), one thread: the whole solve, the
// move alone (records loaded, positions gathered and scattered, no maths) and the maths alone
// (every block's lanes solved on positions already in the block). Each grid is prepared three
// times (kVariants: dihedral bending, isometric bending, the StVK membrane) and stepped for
// --warmup frames first so that the positions are a hanging cloth's, not a flat sheet's. Parts and types are interleaved round
// after round; the medians give nanoseconds per solve and the floors of the bend / distance
// ratio (issue 46's target: a dihedral bend at most 1.5 times a distance constraint).
#include <algorithm>
#include <array>
#include <iterator>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench.h"
#include "core/error.h"
#include "core/material_presets.h"
#include "app/frame_stats.h"
#include "cpu/backend.h"
#include "cpu/batch_kernels.h"
#include "cpu/float_env.h"
#include "prep/prepare.h"

namespace cloth::bench {

namespace {

using Clock = std::chrono::steady_clock;

constexpr BatchPart kParts[] = {BatchPart::All, BatchPart::Move, BatchPart::Maths};
const char* partName(BatchPart p) {
    return p == BatchPart::All ? "all" : p == BatchPart::Move ? "move" : "maths";
}

// One prepared grid and the state the parts run on.
struct Subject {
    std::string material;  // the variant's name (kVariants)
    PreparedCloth p;
    std::vector<glm::vec4> pos;
};

// Items of a type in whole blocks of `lanes` per colour: what every part solves.
template <class Item>
std::uint64_t wholeBlockItems(const PreparedCloth& p, std::uint32_t lanes) {
    const ColoredSet<Item>& set = p.set<Item>();
    std::uint64_t n = 0;
    for (std::uint32_t c = 0; c + 1 < set.colorOffsets.size(); ++c)
        n += set.colorSize(c) / lanes * lanes;
    return n;
}

// Seconds for `sweeps` sweeps of every colour of one type through one part.
template <class Item>
double timePart(const Subject& s, BatchPart part, BatchIsa isa, int sweeps) {
    const ColoredSet<Item>& set = s.p.set<Item>();
    std::vector<BatchLambda<Item>> lambda(set.items.size(), BatchLambda<Item>(0.0f));
    gpu::SolveParams sp{};
    sp.invDt2 = 1.0f / (1.0f / 600.0f) / (1.0f / 600.0f);
    sp.mode = gpu::MODE_XPBD;
    sp.firstIteration = 1u;
    std::vector<glm::vec4> pos = s.pos;  // every part starts from the same state
    const FlushSubnormals flush;          // as the solver's frames (cpu/float_env.h)
    const auto t0 = Clock::now();
    for (int k = 0; k < sweeps; ++k)
        for (std::uint32_t c = 0; c + 1 < set.colorOffsets.size(); ++c)
            solveBatchPart(part, isa, pos.data(), set.items.data(), lambda.data(),
                           set.colorOffsets[c], set.colorOffsets[c + 1], sp);
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The grids' materials: the membrane and bending models the parts are timed on.
struct Variant {
    const char* name;
    StretchModel stretch;
    BendModel bending;
};
constexpr Variant kVariants[] = {{"dihedral", StretchModel::Distance, BendModel::Dihedral},
                                 {"isometric", StretchModel::Distance, BendModel::Isometric},
                                 {"stvk", StretchModel::Stvk, BendModel::Dihedral}};

}  // namespace

int kernelPartsBench(const BenchOptions& o) {
    const BatchIsa isa = o.cpuKernels.empty() ? bestBatchIsa() : o.cpuKernels.front();
    if (isa != BatchIsa::Avx2 && isa != BatchIsa::Avx512)
        throw Error(std::string("--kernel-parts: the parts are timed on the avx2 and avx512 "
                                "kernels only, not ") + batchIsaName(isa));
    const std::uint32_t lanes = isa == BatchIsa::Avx512 ? 32 : 16;
    const int rounds = std::max(o.repeats, 1);
    const int sweeps = std::max(o.frames, 1);
    const MaterialPreset cotton = *findMaterialPreset("cotton");
    nlohmann::json rows = nlohmann::json::array(), ratios = nlohmann::json::array();
    std::printf("device: %s, kernels %s, one thread, %d rounds of %d sweeps\n",
                cpuModelName().c_str(), batchIsaName(isa), rounds, sweeps);
    std::printf("%5s %-10s %-11s %6s %8s %8s %8s\n", "grid", "material", "type", "items",
                "all ns", "move ns", "maths ns");
    for (int n : o.grids) {
        std::vector<Subject> subjects;
        for (const Variant& v : kVariants) {
            Scene scene = gridScene(n, o);
            Material& m = scene.cloths.front().material;
            m.bendModel = v.bending;
            m.stretchModel = v.stretch;
            if (v.stretch == StretchModel::Stvk) m.membrane = cotton.membrane;
            Subject s{v.name, prepareScene(scene, PrepareOptions{}), {}};
            auto solver = makeCpuSolver(s.p, 1, isa, 0);
            for (int f = 0; f < o.warmup; ++f) solver->stepFrame();
            solver->readPositions(s.pos);
            subjects.push_back(std::move(s));
        }
        // seconds[subject][type][part], one entry per round; types without items stay empty.
        constexpr std::size_t kTypes = gpu::kConstraintTypeCount;
        std::vector<std::array<std::array<std::vector<double>, std::size(kParts)>, kTypes>> seconds(
            subjects.size());
        for (int r = 0; r < rounds; ++r)
            for (std::size_t i = 0; i < subjects.size(); ++i)
                gpu::forEachConstraintType([&](auto t) {
                    using Item = typename decltype(t)::Item;
                    if (wholeBlockItems<Item>(subjects[i].p, lanes) == 0) return;
                    for (std::size_t part = 0; part < std::size(kParts); ++part)
                        seconds[i][decltype(t)::kIndex][part].push_back(
                            timePart<Item>(subjects[i], kParts[part], isa, sweeps));
                });
        for (std::size_t i = 0; i < subjects.size(); ++i) {
            const Subject& s = subjects[i];
            gpu::forEachConstraintType([&](auto t) {
                using T = decltype(t);
                const std::uint64_t items = wholeBlockItems<typename T::Item>(s.p, lanes);
                if (items == 0) return;
                nlohmann::json row = {{"grid", n}, {"material", s.material},
                                      {"type", T::kName}, {"items_timed", items}};
                double ns[std::size(kParts)];
                for (std::size_t part = 0; part < std::size(kParts); ++part) {
                    std::vector<double> each;
                    for (double x : seconds[i][T::kIndex][part])
                        each.push_back(x * 1e9 / double(items) / sweeps);
                    ns[part] = median(each);
                    row[std::string(partName(kParts[part])) + "_ns_per_solve"] = ns[part];
                    row[std::string(partName(kParts[part])) + "_ns_per_solve_rounds"] = each;
                }
                std::printf("%5d %-10s %-11s %6llu %8.3f %8.3f %8.3f\n", n, s.material.c_str(),
                            T::kName, static_cast<unsigned long long>(items), ns[0], ns[1], ns[2]);
                rows.push_back(row);
            });
        }
        // Each type's parts over the distance constraint's whole solve on the first grid.
        const nlohmann::json* distance = nullptr;
        for (const nlohmann::json& r : rows)
            if (r["grid"] == n && r["type"] == "distance" && !distance) distance = &r;
        if (!distance) continue;
        const double dAll = (*distance)["all_ns_per_solve"].get<double>();
        for (const nlohmann::json& r : rows) {
            if (r["grid"] != n || r["type"] == "distance") continue;
            const nlohmann::json q = {
                {"grid", n},
                {"material", r["material"]},
                {"type", r["type"]},
                {"all_over_distance_all", r["all_ns_per_solve"].get<double>() / dAll},
                {"move_over_distance_all", r["move_ns_per_solve"].get<double>() / dAll},
                {"maths_over_distance_all", r["maths_ns_per_solve"].get<double>() / dAll}};
            std::printf("grid %d %s %s: %.2f distance solves per solve; its move alone %.2f, "
                        "its maths alone %.2f\n",
                        n, r["material"].get<std::string>().c_str(),
                        r["type"].get<std::string>().c_str(),
                        q["all_over_distance_all"].get<double>(),
                        q["move_over_distance_all"].get<double>(),
                        q["maths_over_distance_all"].get<double>());
            ratios.push_back(q);
        }
    }
    if (!o.json.empty())
        writeJsonFile(o.json, {{"device", cpuModelName()},
                               {"kernels", batchIsaName(isa)},
                               {"threads", 1},
                               {"rounds", rounds},
                               {"sweeps_per_round", sweeps},
                               {"warmup_frames", o.warmup},
                               {"rows", rows},
                               {"ratios", ratios}});
    return 0;
}

}  // namespace cloth::bench
