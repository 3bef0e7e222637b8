// How many members of the CPU reference's thread team run a frame (docs/backends.md, "The thread
// team"): one per kCpuWorkPerThread item updates per barrier of a substep (cpuTeamSize), up to the
// cores, and fewer while other processes use the cores (cpu/team_load.h). Any number gives the
// same bits.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cpu/team_load.h"
#include "cpu/thread_pool.h"
#include "prep/prepared.h"
#include "sim/solver.h"

namespace cloth {

// The work (constraint solves and vertex updates) per barrier of a substep that pays for one
// more member of the team; measured with clothbench --work-per-thread (docs/backends.md).
inline constexpr std::uint32_t kCpuWorkPerThread = 1200;

// The members a frame of `prepared` runs on, of a team of `threads`: one per workPerThread of
// work per barrier, at least 1, at most threads. workPerThread 0: all of them.
int cpuTeamSize(const PreparedCloth& prepared, int threads, std::uint32_t workPerThread);

// The other models' team (mass-spring, projective dynamics, the FEM): one member per
// verticesPerThread of the original vertices, at least 1, at most threads; 0: all of them.
inline int modelTeamSize(const PreparedCloth& prepared, int threads,
                         std::uint32_t verticesPerThread) {
    if (verticesPerThread == 0) return threads;
    return int(std::clamp<std::uint32_t>(prepared.originalVertexCount / verticesPerThread, 1u,
                                         std::uint32_t(threads)));
}

// --team of clothsim and clothbench: adaptive (the default) sizes each frame's team to the cloth
// and the machine's load; fixed runs every frame on all of --threads.
enum class TeamMode { Adaptive, Fixed };
// "adaptive" | "fixed"; cloth::Error "expected adaptive or fixed, got 'x'" for anything else.
TeamMode parseTeamMode(const std::string& text);
const char* teamModeName(TeamMode mode);

// Where a team reads the clock and the machine's load (cpu/team_load.h); tests inject their own.
struct TeamLoadSource {
    std::function<double()> now;          // seconds, steady
    std::function<LoadSample()> sample;   // the clock, the team's and the machine's times
    double ticksPerSecond = 100.0;        // /proc/stat's unit
    int cores = 1;
    // The system's, with the CPU time of `pool`'s threads (which must outlive the source).
    static TeamLoadSource system(const ThreadPool& pool);
};

// The team of each frame. Adaptive: the team (cpuTeamSize's members, up to the cores) until
// evidence shows that other processes use the cores: after each window of at least kWindowS
// seconds of frames, decideTeam over the window picks the members of the next frames (a
// lockstep team whose members wait for a core runs slower than one thread). Barrier waits play
// no part. On fewer members the team cannot tell a neighbour that competes for the cores from
// one that only takes the idle ones (a build at nice 15 fills the core the team left, and gives
// it back when asked): after kMinProbe windows it runs one window on the whole team again and
// keeps it if the evidence then allows, else it waits twice as many windows before the next
// try (up to kMaxProbe). Fixed: every frame on the whole team. Any number of members gives the
// same bits.
class CpuTeam {
public:
    // team: the members a frame may run on (cpuTeamSize); threads: those asked for.
    CpuTeam(int team, int threads, bool adaptive, TeamLoadSource source);

    // The members of the next frame.
    int beginFrame() const { return decision_.members; }
    // After the frame: counts it under its reason; at a window's end decides the next frames.
    void endFrame();
    // The members of the last frame, and why.
    int used() const { return last_.members; }
    TeamReason reason() const { return last_.reason; }
    bool adaptive() const { return adaptive_; }
    // Frames so far per reason (TeamReason order).
    const std::array<std::uint64_t, kTeamReasonCount>& frames() const { return frames_; }
    // The last window's evidence (-1 before the first).
    const TeamDecision& lastDecision() const { return decision_; }

    static constexpr double kWindowS = 0.1;  // 10 ticks of /proc/stat at 100 Hz
    static constexpr int kMinProbe = 2, kMaxProbe = 32;  // windows on fewer members before a try

private:
    int team_, threads_;
    bool adaptive_;
    TeamLoadSource source_;
    TeamDecision decision_, last_;
    std::optional<LoadSample> windowStart_;
    int probeIn_ = 0, backoff_ = kMinProbe;  // windows to the next try of the whole team
    std::array<std::uint64_t, kTeamReasonCount> frames_{};
};

// What Solver::teamReport() gives for `team`.
Solver::TeamReport cpuTeamReport(const CpuTeam& team);

}  // namespace cloth
