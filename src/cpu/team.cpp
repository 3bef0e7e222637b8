#include "cpu/team.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "core/error.h"

namespace cloth {

int cpuTeamSize(const PreparedCloth& p, int threads, std::uint32_t workPerThread) {
    if (workPerThread == 0 || threads <= 1) return std::max(threads, 1);
    // A substep's work and its barriers: each iteration's colours, and the per-vertex stages
    // (predict, velocities, normals, ...) with a barrier each. Collisions add per-vertex work
    // (rigid contacts, twice) and self-collision (about a hundred items' worth per triangle: on
    // the folded 64^2 benchmark cloth a substep's self-collision costs 1.25 us per triangle and the
    // solver 12 ns per constraint; with ten, every self-collision scene ran on one thread, 1.2 to
    // 1.6 times slower than on two).
    const double vertices = static_cast<double>(p.positions.size());
    const double iterations = p.sim.iterations;
    double work = iterations * static_cast<double>(p.coloredItemCount() + p.attachments.size() +
                                                   p.tethers.size()) +
                  4.0 * vertices;
    double barriers = iterations * (p.colorCount + 2.0) + 4.0;
    if (!p.colliders.empty()) {
        work += 2.0 * iterations * vertices;
        barriers += 2.0 * iterations + 2.0;
    }
    if (p.sim.selfCollision) {
        work += 100.0 * static_cast<double>(p.triangles.size());
        barriers += 8.0 + iterations * p.sim.selfCollision->passes;
    }
    const double members = std::floor(work / barriers / workPerThread);
    return static_cast<int>(std::clamp(members, 1.0, static_cast<double>(threads)));
}

TeamMode parseTeamMode(const std::string& text) {
    if (text == "adaptive") return TeamMode::Adaptive;
    if (text == "fixed") return TeamMode::Fixed;
    throw Error("expected adaptive or fixed, got '" + text + "'");
}

const char* teamModeName(TeamMode mode) { return mode == TeamMode::Fixed ? "fixed" : "adaptive"; }

TeamLoadSource TeamLoadSource::system(const ThreadPool& pool) {
    TeamLoadSource s;
    s.now = [] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    };
    s.sample = [&pool] { return sampleLoad(pool.teamCpuSeconds()); };
    s.ticksPerSecond = clockTicksPerSecond();
    s.cores = machineCores();
    return s;
}

CpuTeam::CpuTeam(int team, int threads, bool adaptive, TeamLoadSource source)
    : team_(std::max(team, 1)), threads_(threads), adaptive_(adaptive), source_(std::move(source)) {
    if (adaptive_) {
        decision_ = quietTeam(team_, threads_, source_.cores);
    } else {
        decision_.members = team_;
        decision_.reason = TeamReason::Fixed;
    }
    last_ = decision_;
}

void CpuTeam::endFrame() {
    last_ = decision_;
    ++frames_[static_cast<int>(last_.reason)];
    // One member: nothing to decide (a small cloth, one core or one thread asked for).
    if (!adaptive_ || std::min(team_, source_.cores) <= 1) return;
    if (!windowStart_) {  // the first window starts after the first frame (allocations, caches)
        windowStart_ = source_.sample();
        return;
    }
    if (source_.now() - windowStart_->wallS < kWindowS) return;
    const LoadSample now = source_.sample();
    const TeamDecision d =
        decideTeam(*windowStart_, now, source_.ticksPerSecond, team_, threads_, source_.cores);
    windowStart_ = now;
    const int whole = std::min(team_, source_.cores);
    const bool onFewer = decision_.members < whole;  // this window's frames (not a try)
    decision_ = d;
    if (d.members >= whole) {
        backoff_ = kMinProbe;
    } else if (!onFewer) {  // contended on the whole team: fewer, and a later try
        probeIn_ = backoff_;
        backoff_ = std::min(2 * backoff_, kMaxProbe);
    } else if (--probeIn_ <= 0) {  // a try: the next window on the whole team
        decision_ = quietTeam(team_, threads_, source_.cores);
        decision_.otherCores = d.otherCores;
        decision_.stealCores = d.stealCores;
    }
}

Solver::TeamReport cpuTeamReport(const CpuTeam& team) {
    Solver::TeamReport r;
    r.mode = teamModeName(team.adaptive() ? TeamMode::Adaptive : TeamMode::Fixed);
    r.threadsUsed = team.used();
    r.reason = teamReasonName(team.reason());
    for (int i = 0; i < kTeamReasonCount; ++i)
        if (team.frames()[i] > 0)
            r.frames.emplace_back(teamReasonName(static_cast<TeamReason>(i)), team.frames()[i]);
    r.otherCores = team.lastDecision().otherCores;
    r.stealCores = team.lastDecision().stealCores;
    return r;
}

}  // namespace cloth
