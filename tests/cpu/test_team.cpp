// The CPU team's decision (cpu/team.h, cpu/team_load.h): from /proc/stat and the team's CPU time,
// injected here, how many members the next frames run on and why; --team's values; and a real
// run beside busy threads. No test asserts on time.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "cpu/backend.h"
#include "cpu/team.h"
#include "cpu/team_load.h"
#include "fixtures/scenes.h"
#include "prep/prepare.h"

using namespace cloth;

namespace {

constexpr double kHz = 100.0;  // /proc/stat's ticks per second

// A window of `seconds` in which the machine was busy `busyCores` on average (the team's
// `teamCores` among them) and the hypervisor stole `stealCores`.
std::pair<LoadSample, LoadSample> window(double seconds, double busyCores, double teamCores,
                                         double stealCores = 0.0) {
    LoadSample a, b;
    a.wallS = 1000.0;
    a.selfS = 50.0;
    a.machine = MachineTimes{100000, 500};
    b.wallS = a.wallS + seconds;
    b.selfS = a.selfS + teamCores * seconds;
    b.machine = MachineTimes{a.machine->busy + std::uint64_t(busyCores * seconds * kHz + 0.5),
                             a.machine->steal + std::uint64_t(stealCores * seconds * kHz + 0.5)};
    return {a, b};
}

TeamDecision decide(const std::pair<LoadSample, LoadSample>& w, int team, int threads, int cores) {
    return decideTeam(w.first, w.second, kHz, team, threads, cores);
}

}  // namespace

TEST(TeamLoad, ReadsTheMachinesBusyAndStealTimeFromProcStat) {
    // user nice system idle iowait irq softirq steal guest guest_nice
    const auto t = parseProcStat(
        "cpu  4133 1739 323 953772 2832 7 730 14979 0 0\n"
        "cpu0 2066 817 162 530098 732 0 126 7517 0 0\n");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->busy, 4133u + 1739 + 323 + 7 + 730) << "idle and iowait are not busy";
    EXPECT_EQ(t->steal, 14979u);
    // Kernels before 2.6.11: four fields, no steal.
    const auto old = parseProcStat("cpu 10 20 30 40\n");
    ASSERT_TRUE(old);
    EXPECT_EQ(old->busy, 60u);
    EXPECT_EQ(old->steal, 0u);
    EXPECT_FALSE(parseProcStat(""));
    EXPECT_FALSE(parseProcStat("cpu0 1 2 3 4\n")) << "only the line of all CPUs";
    EXPECT_FALSE(parseProcStat("cpu  1 2 x\n"));
#if defined(__linux__)
    std::ifstream in("/proc/stat");
    if (in) {
        std::stringstream text;
        text << in.rdbuf();
        EXPECT_TRUE(parseProcStat(text.str())) << text.str().substr(0, 200);
        EXPECT_TRUE(sampleLoad(0.0).machine);
    }
#endif
}

TEST(TeamDecision, ABusyNeighbourTakesACoreFromATeamOfTwo) {
    // 2 cores: the team used 0.95 of a core, the machine 1.95: another process used one.
    const TeamDecision d = decide(window(0.2, 1.95, 0.95), 2, 2, 2);
    EXPECT_EQ(d.members, 1);
    EXPECT_EQ(d.reason, TeamReason::OthersBusy);
    EXPECT_STREQ(teamReasonName(d.reason), "other processes busy");
    EXPECT_NEAR(d.otherCores, 1.0, 0.051);
    EXPECT_NEAR(d.stealCores, 0.0, 1e-12);
    // Alone on the cores after falling back: the neighbour still takes its core.
    EXPECT_EQ(decide(window(0.2, 2.0, 1.0), 2, 2, 2).members, 1);
    // 4 cores, a team of 4, one busy neighbour: three members.
    const TeamDecision four = decide(window(0.5, 4.0, 3.0), 4, 4, 4);
    EXPECT_EQ(four.members, 3);
    EXPECT_EQ(four.reason, TeamReason::OthersBusy);
    // 8 cores, a team of 2, one busy neighbour: the team still has its cores.
    EXPECT_EQ(decide(window(0.5, 3.0, 2.0), 2, 2, 8).members, 2);
}

TEST(TeamDecision, AnIdleMachineKeepsEveryThread) {
    // The team busy on both cores, the rest of the machine a few ticks (daemons, the tick
    // sampling's error): up to half a core.
    for (double others : {0.0, 0.05, 0.2, 0.45}) {
        const TeamDecision d = decide(window(0.1, 2.0 + others, 2.0), 2, 2, 2);
        EXPECT_EQ(d.members, 2) << others;
        EXPECT_EQ(d.reason, TeamReason::AllThreads) << others;
        EXPECT_STREQ(teamReasonName(d.reason), "all threads");
    }
    // The team waits at barriers (1.2 cores' worth of work): waits are no evidence.
    EXPECT_EQ(decide(window(0.1, 1.25, 1.2), 2, 2, 2).members, 2);
    // The team's CPU time slightly above the machine's (different clocks): no negative others.
    EXPECT_EQ(decide(window(0.1, 1.9, 2.0), 2, 2, 2).otherCores, 0.0);
}

TEST(TeamDecision, StealTimeOnAVirtualMachineCounts) {
    const TeamDecision d = decide(window(0.2, 1.0, 1.0, 0.8), 2, 2, 2);
    EXPECT_EQ(d.members, 1);
    EXPECT_EQ(d.reason, TeamReason::Steal);
    EXPECT_STREQ(teamReasonName(d.reason), "steal time");
    EXPECT_NEAR(d.stealCores, 0.8, 0.051);
    // A little steal (0.3 of a core) leaves the team its two members.
    EXPECT_EQ(decide(window(0.2, 2.0, 2.0, 0.3), 2, 2, 2).members, 2);
    // Steal and a neighbour: the larger names the reason.
    EXPECT_EQ(decide(window(0.2, 2.0, 1.0, 0.4), 2, 2, 2).reason, TeamReason::OthersBusy);
}

TEST(TeamDecision, WithoutProcStatTheTeamKeepsItsThreadsAndSaysWhy) {
    auto w = window(0.2, 2.0, 1.0);
    w.second.machine.reset();
    const TeamDecision d = decide(w, 2, 2, 2);
    EXPECT_EQ(d.members, 2);
    EXPECT_EQ(d.reason, TeamReason::NoLoadData);
    EXPECT_NE(std::string(teamReasonName(d.reason)).find("/proc/stat"), std::string::npos);
    EXPECT_LT(d.otherCores, 0.0) << "unknown";
    w.first.machine.reset();
    EXPECT_EQ(decide(w, 2, 2, 2).reason, TeamReason::NoLoadData);
}

TEST(TeamDecision, FewerThreadsThanAskedForForTheCoresOrTheCloth) {
    const auto idle = window(0.2, 1.0, 1.0);
    EXPECT_EQ(decide(idle, 2, 2, 1).members, 1);
    EXPECT_EQ(decide(idle, 2, 2, 1).reason, TeamReason::OneCore);
    EXPECT_EQ(quietTeam(2, 2, 1).reason, TeamReason::OneCore);
    EXPECT_EQ(quietTeam(8, 8, 2).members, 2);
    EXPECT_EQ(quietTeam(8, 8, 2).reason, TeamReason::FewerCores);
    EXPECT_EQ(quietTeam(1, 2, 2).reason, TeamReason::SmallCloth);
    EXPECT_EQ(decide(idle, 1, 2, 2).reason, TeamReason::SmallCloth);
    EXPECT_EQ(quietTeam(1, 1, 2).reason, TeamReason::AllThreads) << "one thread asked for";
}

namespace {

// A machine of 2 cores, a frame every 20 ms of fake time, and a neighbour: none, a busy process
// at the same priority (beside a team of two it gets a third of the cores, alone it takes one),
// or a busy process at nice 15 (it takes only what the team leaves: a core when the team runs on
// one, a few per cent of one beside a team of two).
enum class Neighbour { None, Busy, Niced };

struct FakeMachine {
    Neighbour neighbour = Neighbour::None;
    double t = 0.0, team = 0.0, busyTicks = 0.0;
    TeamLoadSource source() {
        TeamLoadSource s;
        s.now = [this] { return t; };
        s.sample = [this] {
            LoadSample l;
            l.wallS = t;
            l.selfS = team;
            l.machine = MachineTimes{std::uint64_t(busyTicks), 0};
            return l;
        };
        s.ticksPerSecond = kHz;
        s.cores = 2;
        return s;
    }
    void frame(int members) {
        double mine = members, others = 0.02;
        if (neighbour == Neighbour::Busy) {
            mine = members == 2 ? 4.0 / 3.0 : 1.0;
            others = members == 2 ? 2.0 / 3.0 : 1.0;
        } else if (neighbour == Neighbour::Niced) {
            mine = members == 2 ? 1.97 : 1.0;
            others = members == 2 ? 0.03 : 1.0;
        }
        const double dt = 0.02;
        t += dt;
        team += mine * dt;
        busyTicks += (mine + others) * dt * kHz;
    }
    // Runs `frames` frames of `t`, appending the members of each.
    void run(CpuTeam& cpu, int frames, std::vector<int>& used) {
        for (int f = 0; f < frames; ++f) {
            frame(cpu.beginFrame());
            cpu.endFrame();
            used.push_back(cpu.used());
        }
    }
};

int framesOn(const std::vector<int>& used, std::size_t from, int members) {
    return int(std::count(used.begin() + from, used.end(), members));
}

}  // namespace

TEST(CpuTeam, OnAnIdleMachineEveryFrameRunsOnTheWholeTeam) {
    FakeMachine machine;
    CpuTeam team(2, 2, true, machine.source());
    std::vector<int> used;
    machine.run(team, 300, used);
    EXPECT_EQ(framesOn(used, 0, 2), 300);
    EXPECT_EQ(team.frames()[int(TeamReason::AllThreads)], 300u);
    EXPECT_GE(team.lastDecision().otherCores, 0.0) << "windows were decided";
}

TEST(CpuTeam, ABusyNeighbourMakesItFallBackAndItsLeavingRestoresTheTeam) {
    FakeMachine machine;
    CpuTeam team(2, 2, true, machine.source());
    std::vector<int> used;
    machine.run(team, 20, used);
    machine.neighbour = Neighbour::Busy;
    machine.run(team, 200, used);  // 4 s
    EXPECT_EQ(team.reason(), TeamReason::OthersBusy);
    EXPECT_GT(team.frames()[int(TeamReason::OthersBusy)], 150u);
    // The first window on two, then tries of one window after 2, 4, 8 and 16 on one: at most a
    // fifth of the frames on two.
    EXPECT_LE(framesOn(used, 20, 2), 40) << "frames on two beside the neighbour";
    EXPECT_EQ(used.back(), 1);
    machine.neighbour = Neighbour::None;
    const std::size_t left = used.size();
    machine.run(team, 30, used);
    // Back on two within two windows (the first may have held the neighbour still), whatever the
    // pause before a try.
    EXPECT_LE(framesOn(used, left, 1), 12);
    EXPECT_EQ(framesOn(used, left + 12, 2), 18);
    EXPECT_EQ(team.reason(), TeamReason::AllThreads);
}

TEST(CpuTeam, ANeighbourThatOnlyTakesIdleCoresGivesThemBack) {
    // A burst of a busy neighbour drops the team to one member; a niced build then fills the core
    // the team left, which the evidence on one member cannot tell from a busy neighbour: the
    // team's next try of two finds the core given back and keeps both.
    FakeMachine machine;
    CpuTeam team(2, 2, true, machine.source());
    std::vector<int> used;
    machine.neighbour = Neighbour::Busy;
    machine.run(team, 15, used);
    ASSERT_EQ(team.used(), 1);
    machine.neighbour = Neighbour::Niced;
    const std::size_t niced = used.size();
    machine.run(team, 100, used);
    EXPECT_LE(framesOn(used, niced, 1), 30) << "back on two within a few windows";
    EXPECT_EQ(framesOn(used, niced + 30, 2), 70) << "and on two from then on";
}

TEST(CpuTeam, FixedRunsEveryFrameOnTheWholeTeamWhateverTheLoad) {
    FakeMachine busy;
    busy.neighbour = Neighbour::Busy;
    CpuTeam fixed(2, 2, false, busy.source());
    std::vector<int> used;
    busy.run(fixed, 30, used);
    EXPECT_EQ(framesOn(used, 0, 2), 30);
    EXPECT_EQ(fixed.frames()[int(TeamReason::Fixed)], 30u);
    EXPECT_STREQ(teamReasonName(fixed.reason()), "fixed");
}

TEST(CpuTeam, TheTeamFlagTakesAdaptiveOrFixed) {
    EXPECT_EQ(parseTeamMode("adaptive"), TeamMode::Adaptive);
    EXPECT_EQ(parseTeamMode("fixed"), TeamMode::Fixed);
    for (const char* bad : {"", "Fixed", "auto", "fixed ", "2"}) {
        try {
            parseTeamMode(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const Error& e) {
            EXPECT_EQ(std::string(e.what()),
                      "expected adaptive or fixed, got '" + std::string(bad) + "'");
        }
    }
    EXPECT_STREQ(teamModeName(TeamMode::Fixed), "fixed");
    EXPECT_STREQ(teamModeName(TeamMode::Adaptive), "adaptive");
}

TEST(CpuTeam, BesideBusyThreadsARealTeamFallsBackWithTheSameBits) {
    // Twice as many spinning threads as cores beside a team of two: whatever else the machine
    // runs, the others hold more than half of it. The team must drop to one member within a few
    // windows, and the positions stay those of one thread, bit for bit.
    const int cores = machineCores();
    if (cores < 2) GTEST_SKIP() << "one core: the team never has two members";
#if !defined(__linux__)
    GTEST_SKIP() << "no /proc/stat: the team cannot see other processes";
#endif
    Scene scene = fixtures::hangingScene(16);
    scene.sim.substeps = 4;
    const PreparedCloth p = prepareScene(scene);
    auto team = makeCpuSolver(p, 2, std::nullopt, 1);  // one member per item: a team of 2
    auto one = makeCpuSolver(p, 1);
    ASSERT_EQ(team->threadsUsed(), 2);
    std::atomic<bool> stop{false};
    std::vector<std::thread> spinners;
    for (int i = 0; i < 2 * std::min(cores, 64); ++i)
        spinners.emplace_back([&] {
            volatile unsigned x = 0;
            while (!stop.load(std::memory_order_relaxed)) x = x + 1;
        });
    bool fellBack = false;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int frames = 0;
    while (!fellBack && std::chrono::steady_clock::now() < until) {
        team->stepFrame();
        one->stepFrame();
        ++frames;
        fellBack = team->threadsUsed() == 1;
    }
    stop = true;
    for (auto& s : spinners) s.join();
    ASSERT_TRUE(fellBack) << frames << " frames";
    const auto report = team->teamReport();
    ASSERT_TRUE(report);
    EXPECT_EQ(report->mode, "adaptive");
    EXPECT_EQ(report->reason, "other processes busy");
    EXPECT_GT(report->otherCores, 0.5);
    std::vector<glm::vec4> x, y;
    team->readPositions(x);
    one->readPositions(y);
    ASSERT_EQ(x.size(), y.size());
    EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size() * sizeof(glm::vec4)), 0);
}
