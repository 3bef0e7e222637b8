// How many members of the CPU reference's thread team run a frame (docs/backends.md, "The thread
// team"): one per kCpuWorkPerThread item updates per barrier of a substep (cpuTeamSize), and one
// thread for a while when other processes hold the cores. Any number gives the same bits.
#pragma once

#include <cstdint>

#include "cpu/thread_pool.h"
#include "prep/prepared.h"

namespace cloth {

// The work (constraint solves and vertex updates) per barrier of a substep that pays for one
// more member of the team; measured with clothbench --work-per-thread (docs/backends.md).
inline constexpr std::uint32_t kCpuWorkPerThread = 1200;

// The members a frame of `prepared` runs on, of a team of `threads`: one per workPerThread of
// work per barrier, at least 1, at most threads. workPerThread 0: all of them.
int cpuTeamSize(const PreparedCloth& prepared, int threads, std::uint32_t workPerThread);

// The team of each frame. Barrier waits that outwait the spin (ThreadPool::barrierSleeps) tell
// that other processes hold the cores: on 2 cores beside one busy process about every wait
// does, alone under a tenth. Lockstep stages then run slower than one thread, so when more than
// half of the waits of a frame's first substep sleep, member 0 finishes the frame alone, the
// next kMinSolo frames run on one thread, and the team tries again, pausing twice as long after
// each contended try (up to kMaxSolo frames).
class CpuTeam {
public:
    // adaptive false (workPerThread 0): every frame on the whole team.
    CpuTeam(int members, bool adaptive) : team_(members), frame_(members), adaptive_(adaptive) {}

    // The members of the next frame; remembers the barrier's counts.
    int beginFrame(const ThreadPool& pool);
    // Member 0 after the frame's first substep, before a barrier of the team: true when the
    // rest of the frame is to run on member 0 alone (read it after that barrier: leave()).
    void checkFirstSubstep(const ThreadPool& pool);
    bool leave() const { return leave_; }
    bool adaptive() const { return adaptive_; }
    // After the frame: whether the next frames run alone.
    void endFrame(const ThreadPool& pool);
    // The members of the last frame (1 when it was handed to member 0).
    int used() const { return frame_; }

    static constexpr int kMinSolo = 4, kMaxSolo = 128;

private:
    bool contended(const ThreadPool& pool) const {
        return 2 * (pool.barrierSleeps() - sleeps_) > pool.barrierWaits() - waits_;
    }

    int team_, frame_;
    bool adaptive_;
    int soloFrames_ = 0, backoff_ = kMinSolo;
    std::uint64_t waits_ = 0, sleeps_ = 0;  // the barrier's counts at the frame's start
    bool leave_ = false;
};

}  // namespace cloth
