// The pieces of clothsim's and clothbench's run reports that need no program run: the progress
// line (app/progress.h) with its clock given and the stretch warning (app/stretch_check.h).
#include <algorithm>
#include <chrono>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "app/progress.h"
#include "app/stretch_check.h"

namespace cloth {
namespace {

using std::chrono::milliseconds;

TEST(Progress, PrintsNothingWhenOff) {
    std::ostringstream out;
    const auto t0 = Progress::Clock::now();
    {
        Progress p(ProgressMode::Off, out, "clothsim", 10, t0);
        for (int f = 1; f <= 10; ++f) p.update(f, t0 + milliseconds(4000 * f));
        p.finish();
    }
    EXPECT_EQ(out.str(), "");
}

// The preparation's stages: a large scene's from the first, a small one's only once 2 s have
// passed, none when off; each a line of its own with the time so far.
TEST(PreparationProgress, LargeScenesReportEveryStageSmallOnesOnlyWhenSlow) {
    const auto t0 = PreparationProgress::Clock::now();
    for (ProgressMode mode : {ProgressMode::Log, ProgressMode::Terminal}) {
        std::ostringstream large, small, off;
        PreparationProgress a(mode, large, "clothsim", 9006001, t0);
        PreparationProgress b(mode, small, "clothsim", 1089, t0);
        PreparationProgress c(ProgressMode::Off, off, "clothsim", 9006001, t0);
        for (PreparationProgress* p : {&a, &b, &c}) {
            p->stage("building the cloths' meshes and constraints", t0);
            p->stage("colouring and packing the constraints", t0 + milliseconds(1500));
            p->stage("the solver's own data", t0 + milliseconds(65000));
        }
        EXPECT_EQ(large.str(),
                  "clothsim: preparing the scene: building the cloths' meshes and constraints "
                  "(0 s so far)\n"
                  "clothsim: preparing the scene: colouring and packing the constraints (2 s so "
                  "far)\n"
                  "clothsim: preparing the scene: the solver's own data (1 min 05 s so far)\n");
        EXPECT_EQ(small.str(),
                  "clothsim: preparing the scene: the solver's own data (1 min 05 s so far)\n");
        EXPECT_EQ(off.str(), "");
        EXPECT_TRUE(a.printed());
        EXPECT_FALSE(c.printed());
    }
}

// --quiet, and any stream but std::cout and std::cerr, print nothing; the standard streams
// print in place on a terminal and a line at a time in a log (a pipe, a file).
TEST(Progress, ModeFromTheStreamAndQuiet) {
    EXPECT_EQ(progressMode(true, true, false), ProgressMode::Terminal);
    EXPECT_EQ(progressMode(true, false, false), ProgressMode::Log);
    EXPECT_EQ(progressMode(true, true, true), ProgressMode::Off);
    EXPECT_EQ(progressMode(true, false, true), ProgressMode::Off);
    EXPECT_EQ(progressMode(false, false, false), ProgressMode::Off);
    std::ostringstream out;
    EXPECT_EQ(progressMode(out, false), ProgressMode::Off);
}

// In a log: nothing for the first 5 s (a short run prints nothing), then a whole line at most
// every 5 s, never a carriage return or an escape; finish() adds nothing.
TEST(Progress, InALogALineEveryFiveSeconds) {
    std::ostringstream out;
    const auto t0 = Progress::Clock::now();
    Progress p(ProgressMode::Log, out, "clothsim", 100, t0);
    p.update(1, t0 + milliseconds(100));
    p.update(40, t0 + milliseconds(4999));
    EXPECT_EQ(out.str(), "");
    p.update(41, t0 + milliseconds(5125));  // 125 ms per frame, 59 to go: 7.4 s
    const std::string first = "clothsim: frame 41 of 100, 125 ms/frame, 7 s left\n";
    EXPECT_EQ(out.str(), first);
    p.update(60, t0 + milliseconds(10000));  // 4875 ms after the last line: too soon
    EXPECT_EQ(out.str(), first);
    p.update(80, t0 + milliseconds(10125));  // 126.6 ms per frame, 20 to go: 2.5 s
    const std::string second = "clothsim: frame 80 of 100, 127 ms/frame, 3 s left\n";
    EXPECT_EQ(out.str(), first + second);
    p.finish();
    EXPECT_EQ(out.str(), first + second);
}

// A line at the first update, then at most one per 250 ms, each rewriting the last in place; ms
// per frame is the time since the start over the frames done, the time left that times the
// frames to come; finish() erases the line once.
TEST(Progress, RewritesOneLineInPlaceAtMostFourTimesASecond) {
    std::ostringstream out;
    const auto t0 = Progress::Clock::now();
    Progress p(ProgressMode::Terminal, out, "clothsim", 10, t0);
    p.update(0, t0 + milliseconds(50));  // nothing done yet: no rate to tell
    EXPECT_EQ(out.str(), "");
    p.update(1, t0 + milliseconds(100));  // 100 ms per frame, 9 frames to go: 0.9 s
    const std::string first = "\rclothsim: frame 1 of 10, 100 ms/frame, 1 s left\x1b[K";
    EXPECT_EQ(out.str(), first);
    p.update(2, t0 + milliseconds(200));  // 100 ms after the last line: too soon
    p.update(3, t0 + milliseconds(340));  // 240 ms: too soon
    EXPECT_EQ(out.str(), first);
    p.update(5, t0 + milliseconds(1000));  // 200 ms per frame, 5 to go
    const std::string second = "\rclothsim: frame 5 of 10, 200 ms/frame, 1 s left\x1b[K";
    EXPECT_EQ(out.str(), first + second);
    p.update(8, t0 + milliseconds(1250));  // 250 ms after the last line
    const std::string third = "\rclothsim: frame 8 of 10, 156 ms/frame, 0 s left\x1b[K";
    EXPECT_EQ(out.str(), first + second + third);
    p.finish();
    EXPECT_EQ(out.str(), first + second + third + "\r\x1b[K");
    p.finish();  // nothing more to erase
    EXPECT_EQ(out.str(), first + second + third + "\r\x1b[K");
}

TEST(Progress, LineAndDurations) {
    // 100 ms per frame with 990 frames to go: 99 s.
    EXPECT_EQ(Progress::line("clothbench: cpu 64x64", 10, 1000, 100.0),
              "clothbench: cpu 64x64: frame 10 of 1000, 100 ms/frame, 1 min 39 s left");
    EXPECT_EQ(Progress::line("clothsim", 300, 300, 2.5),
              "clothsim: frame 300 of 300, 2.5 ms/frame, 0 s left");
    EXPECT_EQ(Progress::duration(0.4), "0 s");
    EXPECT_EQ(Progress::duration(59.4), "59 s");
    EXPECT_EQ(Progress::duration(65.0), "1 min 05 s");
    EXPECT_EQ(Progress::duration(2 * 3600 + 3 * 60 + 10), "2 h 03 min");
}

// A stream that is neither std::cout nor std::cerr is never a terminal.
TEST(Progress, OnlyTheStandardStreamsCanBeTerminals) {
    std::ostringstream out;
    EXPECT_FALSE(isTerminal(out));
    Progress p = Progress::on(out, "x", 2);
    p.update(1, Progress::Clock::now() + milliseconds(1000));
    EXPECT_EQ(out.str(), "");
}

TEST(StretchCheck, KeepsTheLargestAndWarnsPastTwentyPercent) {
    StretchCheck c;
    EXPECT_FALSE(c.checked());
    EXPECT_EQ(stretchWarning(c), "");
    c.add(10, 0.05);
    c.add(20, 0.2);  // the limit itself is not past it
    EXPECT_FALSE(c.exceeded());
    EXPECT_EQ(stretchWarning(c), "");
    c.add(30, 0.345);
    c.add(40, 0.1);
    EXPECT_TRUE(c.exceeded());
    EXPECT_DOUBLE_EQ(c.largest(), 0.345);
    EXPECT_EQ(c.largestFrame(), 30);
    EXPECT_DOUBLE_EQ(c.latest(), 0.1);
    const std::string w = stretchWarning(c);
    EXPECT_EQ(w.rfind("clothsim: warning: edges stretched by up to 34.5% of their rest length "
                      "(frame 30), past 20%: ",
                      0),
              0u)
        << w;
    for (const char* knob : {"--iterations", "--substeps", "give the cloth tethers"})
        EXPECT_NE(w.find(knob), std::string::npos) << knob;
    EXPECT_EQ(w.back(), '\n');
    EXPECT_EQ(std::count(w.begin(), w.end(), '\n'), 1);
    // A cloth that has tethers is not advised to get them; the mass-spring model names its springs.
    for (bool massSpring : {false, true}) {
        const std::string t = stretchWarning(c, massSpring, true);
        EXPECT_EQ(t.find("give the cloth tethers"), std::string::npos) << t;
        EXPECT_NE(t.find("tethers already tie it to the pins"), std::string::npos) << t;
        EXPECT_NE(t.find(massSpring ? "stiffen the springs" : "--iterations"), std::string::npos)
            << t;
        EXPECT_NE(stretchWarning(c, massSpring, false).find("give the cloth tethers"),
                  std::string::npos);
    }
}

TEST(StretchCheck, DueEveryTenthAndTheLastFrame) {
    EXPECT_TRUE(StretchCheck::due(10, 35));
    EXPECT_TRUE(StretchCheck::due(35, 35));
    EXPECT_FALSE(StretchCheck::due(11, 35));
    EXPECT_FALSE(StretchCheck::due(7, -1));
    EXPECT_TRUE(StretchCheck::due(20, -1));
}

}  // namespace
}  // namespace cloth
