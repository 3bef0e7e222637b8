// Evidence that other processes use the cores, for the CPU reference's thread team (cpu/team.h;
// docs/backends.md, "The thread team"): over a window of frames, the machine's busy time
// (/proc/stat: user + nice + system + irq + softirq, every CPU) less the team's own CPU time (its
// threads' CPU clocks, ThreadPool::teamCpuSeconds; where there are none, the process's from
// getrusage), and the time a hypervisor took from the machine's CPUs (steal). Other threads of
// this process (a render thread, clothbench --busy-threads) count as others: they compete for
// the same cores. Barrier waits are no evidence: a virtual machine's scheduling noise lengthens
// them on idle cores too.
//
// decideTeam is a pure function of two samples, so that tests inject the readings.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace cloth {

// Why a frame ran on the members it did. Names (teamReasonName) go into --stats and clothbench's
// JSON.
enum class TeamReason : int {
    AllThreads,  // every thread asked for, on a machine with cores for them
    Fixed,       // --team fixed: every thread asked for, whatever the load
    SmallCloth,  // too little work per barrier for more (cpuTeamSize)
    OneCore,     // the machine has one core
    FewerCores,  // more threads asked for than the machine has cores
    OthersBusy,  // other processes use the cores the team would take
    Steal,       // a hypervisor takes the cores (steal time) more than other processes do
    NoLoadData,  // all threads: /proc/stat is not readable here, so the load is unknown
    Count
};
inline constexpr int kTeamReasonCount = static_cast<int>(TeamReason::Count);
const char* teamReasonName(TeamReason reason);

// The "cpu " line of /proc/stat, in clock ticks (sysconf(_SC_CLK_TCK)), summed over the CPUs.
struct MachineTimes {
    std::uint64_t busy = 0;   // user + nice + system + irq + softirq (guest time is in user)
    std::uint64_t steal = 0;  // taken by the hypervisor
};
// nullopt when `text` has no "cpu " line of at least the first four fields.
std::optional<MachineTimes> parseProcStat(std::string_view text);

struct LoadSample {
    double wallS = 0.0;                   // steady clock
    double selfS = 0.0;                   // the team's CPU time, user + system
    std::optional<MachineTimes> machine;  // nullopt: /proc/stat not readable
};
// The clock and /proc/stat now (a few tens of microseconds), with the team's CPU time so far.
LoadSample sampleLoad(double teamCpuSeconds);
double clockTicksPerSecond();
// Cores the team may use: the hardware threads (std::thread::hardware_concurrency, at least 1).
int machineCores();

struct TeamDecision {
    int members = 1;
    TeamReason reason = TeamReason::AllThreads;
    double otherCores = -1.0, stealCores = -1.0;  // over the window (-1: unknown)
};

// Before any window: the team up to the cores, and why it is smaller than `threads` if it is.
TeamDecision quietTeam(int team, int threads, int cores);

// The members of the next frames of a team of `team` (cpuTeamSize's choice, >= 1) that asked for
// `threads`, on `cores` cores, from the window [from, to]: the cores left when other processes'
// busy time and steal time are taken away, rounded to the nearest whole core (on 2 cores the team
// keeps both while the others use at most half a core: a busy neighbour takes one, the tick-
// sampled /proc/stat is off by a tick or two per window), at least 1, at most the team and the
// cores. Without /proc/stat: the team up to the cores (NoLoadData).
TeamDecision decideTeam(const LoadSample& from, const LoadSample& to, double ticksPerSecond,
                        int team, int threads, int cores);

}  // namespace cloth
