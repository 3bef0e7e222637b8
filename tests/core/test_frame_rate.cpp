// The frame rate and the start frame (core/frame_rate.h): the scene keys, their round trip and
// refusals, and the substep rule, against numbers worked out by hand.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "core/frame_rate.h"
#include "core/scene.h"
#include "test_util.h"

using namespace cloth;
using cloth::test::throwsError;

namespace {

using test::parse;

SimSettings sim(int substeps, float fps) {
    SimSettings s;
    s.substeps = substeps;
    s.fps = fps;
    return s;
}

}  // namespace

TEST(FrameRate, KeysDefaultAndRoundTrip) {
    const Scene plain = parse(R"({"cloths": [{"grid": {}}]})");
    EXPECT_EQ(plain.sim.fps, 60.0f);
    EXPECT_EQ(plain.sim.startFrame, 0);
    // Defaults are not written: older files stay as they were.
    EXPECT_EQ(sceneToJson(plain, "").find("fps"), std::string::npos);
    EXPECT_EQ(sceneToJson(plain, "").find("start_frame"), std::string::npos);
    for (const char* text :
         {R"({"fps": 24, "start_frame": 1001, "cloths": [{"grid": {}}]})",
          R"({"fps": 23.976, "cloths": [{"grid": {}}]})",
          R"({"start_frame": 1, "cloths": [{"grid": {}}]})",
          R"({"fps": 1000, "start_frame": 10000000, "cloths": [{"grid": {}}]})"}) {
        const Scene s = parse(text);
        EXPECT_EQ(parse(sceneToJson(s, "")), s) << text;
    }
    const Scene film = parse(R"({"fps": 24, "start_frame": 1001, "cloths": [{"grid": {}}]})");
    EXPECT_EQ(film.sim.fps, 24.0f);
    EXPECT_EQ(film.sim.startFrame, 1001);
    EXPECT_EQ(parse(R"({"start_frame": 1001.0, "cloths": [{"grid": {}}]})").sim.startFrame, 1001);
}

TEST(FrameRate, BadValuesAreRefusedNamingTheKey) {
    const struct {
        const char* json;
        const char* fragment;
    } cases[] = {
        {R"({"fps": 0, "cloths": [{"grid": {}}]})",
         "inline.json: fps: must be between 1 and 1000 frames per second, got 0"},
        {R"({"fps": -24, "cloths": [{"grid": {}}]})", "fps: must be between 1 and 1000"},
        {R"({"fps": 0.5, "cloths": [{"grid": {}}]})", "fps: must be between 1 and 1000"},
        {R"({"fps": 1e6, "cloths": [{"grid": {}}]})", "got 1e+06"},
        {R"({"fps": 1e300, "cloths": [{"grid": {}}]})", "fps: not a finite number"},
        {R"({"fps": "24", "cloths": [{"grid": {}}]})", "fps: expected a number"},
        {R"({"start_frame": 1001.5, "cloths": [{"grid": {}}]})",
         "start_frame: expected an integer"},
        {R"({"start_frame": -1, "cloths": [{"grid": {}}]})",
         "start_frame: must be between 0 and 10000000, got -1"},
        {R"({"start_frame": 20000000, "cloths": [{"grid": {}}]})", "start_frame: must be between"},
    };
    for (const auto& c : cases)
        EXPECT_TRUE(throwsError([&] { parse(c.json); }, {c.fragment})) << c.json;
}

// ceil(substeps * 60 / fps): 10 substeps per 1/60 s are 25 per frame at 24 fps, 24 at 25, 20 at
// 30, 10 at 60 and 5 at 120 (each 1/600 s); 14 at 45 fps (1/630 s, shorter, never longer).
TEST(FrameRate, SubstepsFollowTheFrameRateAndKeepTheirLength) {
    const struct {
        int substeps;
        float fps;
        int perFrame;
    } cases[] = {{10, 24.0f, 25}, {10, 25.0f, 24}, {10, 30.0f, 20}, {10, 60.0f, 10},
                 {10, 120.0f, 5}, {10, 45.0f, 14}, {1, 1000.0f, 1}, {7, 60.0f, 7},
                 {3, 24.0f, 8},   {10, 1.0f, 600}};
    for (const auto& c : cases) {
        const SimSettings s = sim(c.substeps, c.fps);
        EXPECT_EQ(substepsPerFrame(s), c.perFrame) << c.substeps << " at " << c.fps;
        const FrameTiming f = frameTiming(s, "x");
        EXPECT_EQ(f.substeps, c.perFrame);
        EXPECT_EQ(f.frameDt, 1.0f / c.fps);
        // The substep is never longer than the scene's 1/(60 substeps) s.
        EXPECT_LE(1.0 / (double(c.fps) * c.perFrame), 1.0 / (60.0 * c.substeps) * (1 + 1e-12));
    }
    EXPECT_EQ(substepsPerSixtieth(sim(10, 24.0f)), 10.0);
    EXPECT_EQ(substepsPerSixtieth(sim(10, 25.0f)), 10.0);
    EXPECT_EQ(substepsPerSixtieth(sim(10, 30.0f)), 10.0);
    EXPECT_NEAR(substepsPerSixtieth(sim(10, 45.0f)), 14.0 * 45.0 / 60.0, 1e-12);  // 10.5
}

// The default is what every run did before fps existed, bit for bit.
TEST(FrameRate, SixtyFramesPerSecondIsTheOldFrame) {
    for (int substeps : {1, 3, 10, 17, 10000}) {
        const FrameTiming f = frameTiming(sim(substeps, 60.0f), "x");
        EXPECT_EQ(f.substeps, substeps);
        EXPECT_EQ(f.frameDt, 1.0f / 60.0f);
        EXPECT_EQ(substepsPerSixtieth(sim(substeps, 60.0f)), double(substeps));
    }
}

TEST(FrameRate, ScenesBuiltInCodeAreCheckedToo) {
    for (float fps : {0.0f, -1.0f, 1001.0f, std::numeric_limits<float>::quiet_NaN(),
                      std::numeric_limits<float>::infinity()})
        EXPECT_TRUE(throwsError([&] { frameTiming(sim(10, fps), "s"); },
                                {"scene 's': fps must be between 1 and 1000 frames per second"}))
            << fps;
    SimSettings s = sim(10, 60.0f);
    s.startFrame = -5;
    EXPECT_TRUE(throwsError([&] { frameTiming(s, "s"); }, {"start_frame must be between 0"}));
    EXPECT_TRUE(throwsError([&] { frameTiming(sim(10000, 24.0f), "s"); },
                            {"10000 substeps per 1/60 s at 24 fps make 25000 substeps per frame, "
                             "more than 10000"}));
}
