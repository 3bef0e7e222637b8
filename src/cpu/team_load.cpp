#include "cpu/team_load.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#define CLOTH_HAVE_SYSCONF 1
#endif

namespace cloth {

const char* teamReasonName(TeamReason reason) {
    static constexpr std::array<const char*, kTeamReasonCount> names = {
        "all threads",
        "fixed",
        "small cloth",
        "one core",
        "more threads than cores",
        "other processes busy",
        "steal time",
        "load unknown (no /proc/stat)"};
    return names[static_cast<int>(reason)];
}

std::optional<MachineTimes> parseProcStat(std::string_view text) {
    // The first line: "cpu  user nice system idle iowait irq softirq steal guest guest_nice";
    // kernels before 2.6.11 stop after iowait or idle (no steal: 0).
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        if (line.rfind("cpu ", 0) != 0) continue;
        std::istringstream in{std::string(line.substr(4))};
        std::array<std::uint64_t, 8> f{};
        int read = 0;
        while (read < 8 && in >> f[read]) ++read;
        if (read < 4) return std::nullopt;
        // user nice system [idle] iowait irq softirq steal: idle and iowait are not busy.
        return MachineTimes{f[0] + f[1] + f[2] + f[5] + f[6], f[7]};
    }
    return std::nullopt;
}

namespace {

std::optional<MachineTimes> readProcStat() {
    std::ifstream in("/proc/stat");
    if (!in) return std::nullopt;
    std::string line;
    if (!std::getline(in, line)) return std::nullopt;
    return parseProcStat(line);
}

}  // namespace

LoadSample sampleLoad(double teamCpuSeconds) {
    LoadSample s;
    s.wallS =
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    s.selfS = teamCpuSeconds;
    s.machine = readProcStat();
    return s;
}

double clockTicksPerSecond() {
#ifdef CLOTH_HAVE_SYSCONF
    const long hz = sysconf(_SC_CLK_TCK);
    if (hz > 0) return double(hz);
#endif
    return 100.0;
}

int machineCores() {
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

namespace {

// The reason a team of `team` members (of `threads` asked for) runs on min(team, cores) when the
// load takes nothing from it.
TeamReason quietReason(int team, int threads, int cores, TeamReason otherwise) {
    if (cores == 1 && threads > 1) return TeamReason::OneCore;
    if (cores < team) return TeamReason::FewerCores;
    if (team < threads) return TeamReason::SmallCloth;
    return otherwise;
}

}  // namespace

TeamDecision quietTeam(int team, int threads, int cores) {
    team = std::max(team, 1);
    cores = std::max(cores, 1);
    return {std::min(team, cores), quietReason(team, threads, cores, TeamReason::AllThreads)};
}

TeamDecision decideTeam(const LoadSample& from, const LoadSample& to, double ticksPerSecond,
                        int team, int threads, int cores) {
    TeamDecision d = quietTeam(team, threads, cores);
    cores = std::max(cores, 1);
    const double wall = to.wallS - from.wallS;
    if (!from.machine || !to.machine || !(wall > 0.0) || !(ticksPerSecond > 0.0)) {
        d.reason = quietReason(team, threads, cores, TeamReason::NoLoadData);
        return d;
    }
    const auto coresOf = [&](std::uint64_t a, std::uint64_t b) {
        return b >= a ? double(b - a) / ticksPerSecond / wall : 0.0;
    };
    const double busy = coresOf(from.machine->busy, to.machine->busy);
    d.stealCores = coresOf(from.machine->steal, to.machine->steal);
    d.otherCores = std::max(0.0, busy - std::max(0.0, to.selfS - from.selfS) / wall);
    const double free = double(cores) - d.otherCores - d.stealCores;
    const int members = static_cast<int>(std::clamp(std::round(free), 1.0, double(d.members)));
    if (members < d.members) {
        d.members = members;
        d.reason = d.stealCores > d.otherCores ? TeamReason::Steal : TeamReason::OthersBusy;
    }
    return d;
}

}  // namespace cloth
