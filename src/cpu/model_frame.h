// One frame of a CPU model other than XPBD (mass_spring, pd, fem) through the one driver
// (sim/schedule.h forEachStep over the model's schedule): every member of the pool walks the
// schedule; a step the model runs ends at a barrier, and member 0's time for it goes to the
// entry's stage. Subnormals are flushed, as in XPBD's frames (cpu/float_env.h).
#pragma once

#include <algorithm>
#include <vector>

#include "core/stopwatch.h"
#include "cpu/float_env.h"
#include "cpu/thread_pool.h"
#include "sim/schedule.h"

namespace cloth {

// run(member, size, entry, context) carries out one step for one member and returns whether it
// ran (false: the scene lacks what the step needs, nothing done, no barrier). `iterations`: the
// count of the schedule's Iteration loop. `times`: per stage, set to this frame's milliseconds.
template <class Run>
void runModelFrame(ThreadPool& pool, int members, Schedule schedule, const SimSettings& sim,
                   const FrameTiming& timing, double time, int iterations,
                   std::vector<double>& times, Run&& run) {
    std::fill(times.begin(), times.end(), 0.0);
    pool.run(
        [&](int member, int size) {
            const FlushSubnormals flush;
            forEachStep(schedule, sim, timing, time, iterations,
                        [&](const ScheduleEntry& e, const StepContext& c) {
                            const auto t = Clock::now();
                            if (!run(member, size, e, c)) return;
                            pool.barrier();
                            if (member == 0) times[static_cast<std::size_t>(e.stage)] += msSince(t);
                        });
        },
        members);
}

}  // namespace cloth
