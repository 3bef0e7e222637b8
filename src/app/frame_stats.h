// Per-run timing statistics and the stats JSON written by --stats.
#pragma once

#include <array>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "prep/prepared.h"
#include "sim/solver.h"

namespace cloth {

class FrameStats {
public:
    void add(double frameMs, const std::vector<StageTime>& stages);
    int frames() const { return frames_; }
    double meanMs() const { return frames_ ? totalMs_ / frames_ : 0.0; }
    double minMs() const { return frames_ ? minMs_ : 0.0; }
    double maxMs() const { return maxMs_; }
    double stageMeanMs(int stage) const { return frames_ ? stageMs_[stage] / frames_ : 0.0; }

private:
    int frames_ = 0;
    double totalMs_ = 0.0, minMs_ = 1e300, maxMs_ = 0.0;
    std::array<double, kStageCount> stageMs_{};
};

// Counts by constraint type, as in the stats JSON.
nlohmann::json constraintCounts(const PreparedCloth& prepared);

// Seam pairs, how many merged, and the frames of the first and last merge (null before any).
nlohmann::json sewingJson(const PreparedCloth& prepared);

// The CPU team's report (Solver::teamReport): {"mode", "threads_used", "reason", "frames": {reason:
// count}, "other_cores", "steal_cores"} (the cores are null before the first window); null for a
// solver without a team.
nlohmann::json teamJson(const Solver& solver);
// One line for --stats' summary: "team adaptive, 1 of 2 threads (other processes busy: 40 frames,
// all threads: 20)"; empty for a solver without a team.
std::string teamSummary(const Solver& solver);

nlohmann::json statsJson(const std::string& sceneName, const PreparedCloth& prepared,
                         const Solver& solver, const FrameStats& stats);

void writeJsonFile(const std::string& path, const nlohmann::json& json);

// The iteration scheme and its parameters, as stats and benchmark records give them.
nlohmann::json iterationJson(const IterationSettings& it);

}  // namespace cloth
