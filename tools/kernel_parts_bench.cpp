// clothbench --kernel-parts: where a colour batch's time goes, per constraint type, on the CPU
// reference's block kernels (cpu/batch_kernels.h, BatchPart), one thread: the whole solve, the
// move alone (records loaded, positions gathered and scattered, no maths) and the maths alone
// (every block's lanes solved on positions already in the block). Each grid is prepared twice,
// with dihedral and with isometric bending, and stepped for --warmup frames first so that the
// positions are a hanging cloth's, not a flat sheet's. Parts and types are interleaved round
// after round; the medians give nanoseconds per solve and the floors of the bend / distance
// ratio (issue 46's target: a dihedral bend at most 1.5 times a distance constraint).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench.h"
#include "core/error.h"
#include "app/frame_stats.h"
#include "cpu/backend.h"
#include "cpu/batch_kernels.h"
#include "cpu/float_env.h"
#include "prep/prepare.h"

namespace cloth::bench {

namespace {

using Clock = std::chrono::steady_clock;

constexpr BatchPart kParts[] = {BatchPart::All, BatchPart::Move, BatchPart::Maths,
                                BatchPart::Pipelined};
const char* partName(BatchPart p) {
    return p == BatchPart::All     ? "all"
           : p == BatchPart::Move  ? "move"
           : p == BatchPart::Maths ? "maths"
                                   : "pipelined";
}

// One prepared grid and the state the parts run on.
struct Subject {
    std::string bending;  // "dihedral" | "isometric"
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
double timePart(Subject& s, BatchPart part, BatchIsa isa, int sweeps,
                std::vector<BatchLambda<Item>>& lambda) {
    const ColoredSet<Item>& set = s.p.set<Item>();
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

}  // namespace

int kernelPartsBench(const BenchOptions& o) {
    const BatchIsa isa = o.cpuKernels.empty() ? bestBatchIsa() : o.cpuKernels.front();
    if (isa != BatchIsa::Avx2 && isa != BatchIsa::Avx512)
        throw Error(std::string("--kernel-parts: the parts are timed on the avx2 and avx512 "
                                "kernels only, not ") + batchIsaName(isa));
    const std::uint32_t lanes = isa == BatchIsa::Avx512 ? 32 : 16;
    const int rounds = std::max(o.repeats, 1);
    const int sweeps = std::max(o.frames, 1);
    nlohmann::json rows = nlohmann::json::array();
    std::printf("device: %s, kernels %s, one thread, %d rounds of %d sweeps\n",
                cpuModelName().c_str(), batchIsaName(isa), rounds, sweeps);
    std::printf("%5s %-10s %-11s %6s %8s %8s %8s %8s\n", "grid", "bending", "type", "items",
                "all ns", "move ns", "maths ns", "pipe ns");
    for (int n : o.grids) {
        std::vector<Subject> subjects;
        for (BendModel bm : {BendModel::Dihedral, BendModel::Isometric}) {
            Scene scene = gridScene(n, o);
            scene.cloths.front().material.bendModel = bm;
            Subject s{bm == BendModel::Dihedral ? "dihedral" : "isometric",
                      prepareScene(scene, PrepareOptions{}), {}};
            auto solver = makeCpuSolver(s.p, 1, isa, 0);
            for (int f = 0; f < o.warmup; ++f) solver->stepFrame();
            solver->readPositions(s.pos);
            subjects.push_back(std::move(s));
        }
        // times[subject][type][part]: seconds per round. Types: distance, bending (the
        // subject's own: dihedral or isometric).
        std::vector<std::vector<std::vector<std::vector<double>>>> times(
            subjects.size(), std::vector<std::vector<std::vector<double>>>(
                                 2, std::vector<std::vector<double>>(4)));
        std::vector<std::vector<float>> distLambda(subjects.size()), bendLambda(subjects.size());
        std::vector<std::vector<BatchLambda<gpu::IsoBendingConstraint>>> isoLambda(
            subjects.size());
        for (std::size_t i = 0; i < subjects.size(); ++i) {
            distLambda[i].assign(subjects[i].p.set<gpu::DistanceConstraint>().items.size(), 0.0f);
            bendLambda[i].assign(subjects[i].p.set<gpu::BendingConstraint>().items.size(), 0.0f);
            isoLambda[i].assign(subjects[i].p.set<gpu::IsoBendingConstraint>().items.size(), {});
        }
        for (int r = 0; r < rounds; ++r)
            for (std::size_t i = 0; i < subjects.size(); ++i)
                for (int part = 0; part < 4; ++part) {
                    const BatchPart bp = kParts[part];
                    times[i][0][part].push_back(timePart<gpu::DistanceConstraint>(
                        subjects[i], bp, isa, sweeps, distLambda[i]));
                    times[i][1][part].push_back(
                        subjects[i].bending == "dihedral"
                            ? timePart<gpu::BendingConstraint>(subjects[i], bp, isa, sweeps,
                                                               bendLambda[i])
                            : timePart<gpu::IsoBendingConstraint>(subjects[i], bp, isa, sweeps,
                                                                  isoLambda[i]));
                }
        for (std::size_t i = 0; i < subjects.size(); ++i) {
            const Subject& s = subjects[i];
            const std::uint64_t items[2] = {
                wholeBlockItems<gpu::DistanceConstraint>(s.p, lanes),
                s.bending == "dihedral" ? wholeBlockItems<gpu::BendingConstraint>(s.p, lanes)
                                        : wholeBlockItems<gpu::IsoBendingConstraint>(s.p, lanes)};
            const char* names[2] = {"distance",
                                    s.bending == "dihedral" ? "bending" : "iso_bending"};
            for (int t = 0; t < 2; ++t) {
                if (items[t] == 0) throw Error("--kernel-parts: grid " + std::to_string(n) +
                                               " has no whole block of " + names[t]);
                nlohmann::json row = {{"grid", n}, {"bending_model", s.bending},
                                      {"type", names[t]}, {"items_timed", items[t]}};
                double ns[4];
                for (int part = 0; part < 4; ++part) {
                    ns[part] = median(times[i][t][part]) * 1e9 / double(items[t]) / sweeps;
                    row[std::string(partName(kParts[part])) + "_ns_per_solve"] = ns[part];
                    std::vector<double> all;
                    for (double x : times[i][t][part])
                        all.push_back(x * 1e9 / double(items[t]) / sweeps);
                    row[std::string(partName(kParts[part])) + "_ns_per_solve_rounds"] = all;
                }
                std::printf("%5d %-10s %-11s %6llu %8.3f %8.3f %8.3f %8.3f\n", n,
                            s.bending.c_str(), names[t], static_cast<unsigned long long>(items[t]),
                            ns[0], ns[1], ns[2], ns[3]);
                rows.push_back(row);
            }
        }
    }
    // The ratios per grid: each bending type's parts over the distance constraint's whole solve
    // (of the same prepared grid).
    nlohmann::json ratios = nlohmann::json::array();
    for (std::size_t i = 0; i + 1 < rows.size(); i += 2) {
        const nlohmann::json& d = rows[i];
        const nlohmann::json& b = rows[i + 1];
        const double dAll = d["all_ns_per_solve"].get<double>();
        nlohmann::json q = {{"grid", d["grid"]}, {"bending_model", b["bending_model"]},
                            {"bend_all_over_distance_all", b["all_ns_per_solve"].get<double>() / dAll},
                            {"bend_move_over_distance_all", b["move_ns_per_solve"].get<double>() / dAll},
                            {"bend_maths_over_distance_all",
                             b["maths_ns_per_solve"].get<double>() / dAll},
                            {"bend_move_over_distance_move",
                             b["move_ns_per_solve"].get<double>() /
                                 d["move_ns_per_solve"].get<double>()},
                            {"bend_maths_over_distance_maths",
                             b["maths_ns_per_solve"].get<double>() /
                                 d["maths_ns_per_solve"].get<double>()}};
        std::printf("grid %d %s: bend/distance per solve %.2f; the bend's move alone %.2f, its "
                    "maths alone %.2f of a whole distance solve\n",
                    d["grid"].get<int>(), b["bending_model"].get<std::string>().c_str(),
                    q["bend_all_over_distance_all"].get<double>(),
                    q["bend_move_over_distance_all"].get<double>(),
                    q["bend_maths_over_distance_all"].get<double>());
        ratios.push_back(q);
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
