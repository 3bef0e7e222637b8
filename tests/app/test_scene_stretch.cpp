// Every shipped scene's stretch against the limit it states (tests/common/scene_stretch.h,
// listed again in assets/scenes/README.md): the largest edge strain after its first quarter
// second, on the CPU reference at the scene's own settings, its seams merged as clothsim merges
// them. The self-collision scenes are checked where their collision tests already step them
// (tests/cpu/test_self_collision.cpp); the others here, for 2 s (120 frames), or for the first
// two thirds of a second of the two costliest.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "../common/scene_stretch.h"
#include "app/sewing_step.h"
#include "prep/edge_stretch.h"
#include "core/scene.h"
#include "cpu/backend.h"
#include "prep/prepare.h"

using namespace cloth;
namespace fs = std::filesystem;

namespace {

std::string scenesDir() { return std::string(CLOTH_TEST_SOURCE_DIR) + "/assets/scenes"; }

// Scenes checked by the tests that step them anyway (their frames, every 10th or every frame).
const std::set<std::string> kCheckedElsewhere = {"self_collision.json", "coil.json",
                                                 "twisted.json",        "sphere_fold.json",
                                                 "multiple_objects.json", "pile.json"};

}  // namespace

// Every scene file has an entry, every entry a file, and the scenes' README lists each with the
// same figures (its table's rows: | `name.json` | measured % | limit % | why |).
TEST(SceneStretch, EveryShippedSceneStatesItsLimit) {
    std::set<std::string> files;
    for (const auto& e : fs::directory_iterator(scenesDir()))
        if (e.path().extension() == ".json") files.insert(e.path().filename().string());
    std::set<std::string> listed;
    for (const test::SceneStretch& s : test::kSceneStretch) {
        listed.insert(s.scene);
        EXPECT_LE(s.measured, s.limit) << s.scene;
        EXPECT_EQ(s.limit <= test::kFabricStretch, std::string(s.why).empty())
            << s.scene << ": a scene past 5% says why, one within it does not";
    }
    EXPECT_EQ(files, listed);

    std::ifstream in(scenesDir() + "/README.md");
    std::stringstream text;
    text << in.rdbuf();
    const std::string readme = text.str();
    const std::regex row(R"(\| `([a-z0-9_]+\.json)` \| ([0-9.]+)% \| ([0-9.]+)% \|)");
    std::set<std::string> rows;
    for (std::sregex_iterator it(readme.begin(), readme.end(), row), end; it != end; ++it) {
        const std::string scene = (*it)[1];
        const test::SceneStretch* s = test::sceneStretch(scene);
        ASSERT_NE(s, nullptr) << "README lists " << scene;
        EXPECT_NEAR(std::stod((*it)[2]), 100.0 * s->measured, 0.005) << scene;
        EXPECT_NEAR(std::stod((*it)[3]), 100.0 * s->limit, 0.005) << scene;
        rows.insert(scene);
    }
    EXPECT_EQ(rows, listed) << "assets/scenes/README.md's stretch table";
}

struct StretchRun {
    const char* file;
    int frames;
};

void PrintTo(const StretchRun& run, std::ostream* os) {
    *os << run.file << ", " << run.frames << " frames";
}

class SceneStretchRun : public ::testing::TestWithParam<StretchRun> {};

// The largest edge strain of every frame after 0.25 s stays within the scene's limit. (The
// limit is a bound a little above what was measured, so a change that stretches a scene more is
// caught; one that stretches it less asks for the table to follow.)
TEST_P(SceneStretchRun, EdgesStayWithinTheScenesLimit) {
    const StretchRun run = GetParam();
    const test::SceneStretch* limit = test::sceneStretch(run.file);
    ASSERT_NE(limit, nullptr);
    const Scene scene = loadSceneFile(scenesDir() + "/" + run.file);
    PreparedCloth p = prepareScene(scene);
    auto solver = makeCpuSolver(p, 2);
    std::vector<glm::vec4> x;
    double largest = 0.0;
    int at = 0;
    for (int f = 1; f <= run.frames; ++f) {
        solver->stepFrame();
        // Seam pairs close enough merge between frames, as in clothsim (app/sewing_step.h).
        if (std::optional<PreparedCloth> sewn = sewCloseSeams(p, *solver)) {
            solver.reset();
            p = std::move(*sewn);
            solver = makeCpuSolver(p, 2);
        }
        if (solver->simTime() < 0.25 - 1e-6) continue;
        solver->readPositions(x);
        const double s = edgeStretch(p, x).largest;
        if (s > largest) largest = s, at = f;
    }
    std::printf("%s: largest edge strain %.2f%% (frame %d) after 0.25 s in %d frames; limit %.1f%%\n",
                run.file, 100.0 * largest, at, run.frames, 100.0 * limit->limit);
    EXPECT_LE(largest, limit->limit) << run.file << " frame " << at;
}

std::vector<StretchRun> cheapRuns() {
    std::vector<StretchRun> runs;
    for (const test::SceneStretch& s : test::kSceneStretch) {
        const std::string name = s.scene;
        if (kCheckedElsewhere.count(name) || name == "drape128.json" || name == "dress.json")
            continue;
        runs.push_back({s.scene, 120});
    }
    return runs;
}

std::string runName(const ::testing::TestParamInfo<StretchRun>& info) {
    const std::string name = info.param.file;
    return name.substr(0, name.find('.'));
}

INSTANTIATE_TEST_SUITE_P(Shipped, SceneStretchRun, ::testing::ValuesIn(cheapRuns()), runName);
// The two costliest (drape128 at 160 substeps, the dress with self-collision): their first half
// second, which holds the landing and the seams' closing, their largest strains.
INSTANTIATE_TEST_SUITE_P(Heavy, SceneStretchRun,
                         ::testing::Values(StretchRun{"drape128.json", 40},
                                           StretchRun{"dress.json", 40}),
                         runName);
