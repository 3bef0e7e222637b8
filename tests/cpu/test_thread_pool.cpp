// The CPU team (cpu/thread_pool.h): runs on fewer members than the team has, a barrier that
// orders stages whether its members spin or sleep, and the team size the CPU solver picks for a
// cloth (cpu/cpu_solver.h).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/backend.h"
#include "cpu/thread_pool.h"
#include "fixtures/scenes.h"
#include "prep/prepare.h"

using namespace cloth;

namespace {

// Every member writes the stage number into its slot, passes the barrier, and checks that every
// member's slot holds it: a barrier that let one member through early shows as a stale slot.
// Member (stage % members) sleeps `lag` first in every stage, so that the others outwait their
// spin and go to sleep on the barrier.
int staleSlotsSeen(ThreadPool& pool, int members, int stages, std::chrono::microseconds lag) {
    std::vector<std::atomic<int>> slot(members);
    std::atomic<int> stale{0};
    pool.run(
        [&](int member, int size) {
            EXPECT_EQ(size, members);
            for (int s = 0; s < stages; ++s) {
                if (lag.count() > 0 && member == s % size) std::this_thread::sleep_for(lag);
                slot[member].store(s, std::memory_order_relaxed);
                pool.barrier();
                for (int m = 0; m < size; ++m)
                    if (slot[m].load(std::memory_order_relaxed) != s) ++stale;
                pool.barrier();  // no slot moves on before every member has checked
            }
        },
        members);
    return stale.load();
}

}  // namespace

TEST(ThreadPool, ARunUsesOnlyTheMembersAskedFor) {
    ThreadPool pool(4);
    for (int members : {1, 2, 3, 4, 2, 1, 4}) {
        std::atomic<unsigned> ran{0};
        std::atomic<int> calls{0};
        pool.run(
            [&](int member, int size) {
                EXPECT_EQ(size, members);
                ran |= 1u << member;
                ++calls;
                pool.barrier();  // with one member, a barrier must not wait for the others
            },
            members);
        EXPECT_EQ(ran.load(), (1u << members) - 1) << members << " members";
        EXPECT_EQ(calls.load(), members);
    }
    std::atomic<int> calls{0};
    pool.run([&](int, int size) {
        EXPECT_EQ(size, 4);
        ++calls;
    });
    EXPECT_EQ(calls.load(), 4) << "the default is the whole team";
}

TEST(ThreadPool, TheBarrierOrdersStagesWhetherMembersSpinOrSleep) {
    // Two members (spinning, then sleeping when one lags 200 us, past the spin), and eight on a
    // machine with fewer hardware threads (they sleep at once), and a run of three of the eight.
    ThreadPool two(2), eight(8);
    EXPECT_EQ(staleSlotsSeen(two, 2, 500, std::chrono::microseconds(0)), 0);
    EXPECT_EQ(staleSlotsSeen(two, 2, 100, std::chrono::microseconds(200)), 0);
    EXPECT_EQ(staleSlotsSeen(eight, 8, 300, std::chrono::microseconds(0)), 0);
    EXPECT_EQ(staleSlotsSeen(eight, 8, 50, std::chrono::microseconds(200)), 0);
    EXPECT_EQ(staleSlotsSeen(eight, 3, 300, std::chrono::microseconds(50)), 0);
}

TEST(CpuTeam, SmallClothsRunOnOneThreadLargeOnesOnAll) {
    // The rule: one member per kCpuWorkPerThread item updates per barrier of a substep. An 8 x 8
    // cloth has 81 vertices and about 400 constraints over ~20 colours: a few dozen updates per
    // barrier, far below; a 256 x 256 one about 66,000 vertices and 200,000 constraints over
    // ~21 colours, about 10,000 per barrier.
    const PreparedCloth small = prepareScene(fixtures::hangingScene(8));
    const PreparedCloth large = prepareScene(fixtures::hangingScene(256));
    const auto perBarrier = [](const PreparedCloth& p) {
        return double(p.coloredItemCount() + p.tethers.size() + 4 * p.positions.size()) /
               (p.colorCount + 6.0);
    };
    ASSERT_LT(perBarrier(small), kCpuWorkPerThread);
    ASSERT_GT(perBarrier(large), 4.0 * kCpuWorkPerThread);
    EXPECT_EQ(cpuTeamSize(small, 2, kCpuWorkPerThread), 1);
    EXPECT_EQ(cpuTeamSize(small, 2, 0), 2) << "0: every frame on all the threads";
    EXPECT_EQ(cpuTeamSize(large, 2, kCpuWorkPerThread), 2);
    EXPECT_EQ(cpuTeamSize(large, 4, kCpuWorkPerThread), 4);
    EXPECT_EQ(cpuTeamSize(large, 1, kCpuWorkPerThread), 1);
    // Self-collision's work counts: the same 8 x 8 cloth with it stays on one thread, a 48 x 48
    // one (4,608 triangles) runs on two; without self-collision that one would be alone.
    Scene selfSmall = fixtures::hangingScene(8), selfMid = fixtures::hangingScene(48);
    selfSmall.sim.selfCollision = selfMid.sim.selfCollision = SelfCollisionSettings{};
    EXPECT_EQ(cpuTeamSize(prepareScene(selfSmall), 2, kCpuWorkPerThread), 1);
    EXPECT_EQ(cpuTeamSize(prepareScene(selfMid), 2, kCpuWorkPerThread), 2);
    EXPECT_EQ(cpuTeamSize(prepareScene(fixtures::hangingScene(48)), 2, kCpuWorkPerThread), 1);
    // At most one member per kCpuWorkPerThread: 1,000 threads asked for, far fewer used.
    EXPECT_LE(cpuTeamSize(large, 1000, kCpuWorkPerThread), perBarrier(large) / kCpuWorkPerThread);

    // The solver reports both: the threads asked for and those a frame runs on.
    auto solver = makeCpuSolver(small, 2);
    EXPECT_EQ(solver->threadCount(), 2);
    EXPECT_EQ(solver->threadsUsed(), 1);
    EXPECT_EQ(makeCpuSolver(small, 2, std::nullopt, 0)->threadsUsed(), 2);
}
