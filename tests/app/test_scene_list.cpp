// --list-scenes (app/scene_list.h) on folders made here: the built-in scenes, then the scene files
// with their names; the built-in scenes alone without the folder.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../common/run_program.h"
#include "app/scene_list.h"
#include "core/scene.h"

namespace cloth {
namespace {

namespace fs = std::filesystem;

std::size_t lines(const std::string& s) {
    return std::size_t(std::count(s.begin(), s.end(), '\n'));
}

// The scene files of a folder, sorted, each with its "name" (or its stem); other files left
// out; a file that is not JSON says so; without the folder, the built-in scenes alone.
TEST(SceneList, ListsTheFolderAfterTheBuiltInScenes) {
    const fs::path dir = test::scratchDir("list", "scenes");
    std::ofstream(dir / "b.json") << R"({"name": "bee", "cloths": []})";
    std::ofstream(dir / "a.json") << R"({"cloths": []})";
    std::ofstream(dir / "c.json") << "not json";
    std::ofstream(dir / "d.txt") << R"({"name": "dee"})";
    std::ostringstream out;
    listScenes(out, dir);
    const std::string s = out.str();
    const std::size_t builtins = builtinSceneNames().size();
    ASSERT_EQ(builtins, 5u);
    for (const std::string& name : builtinSceneNames())
        EXPECT_NE(s.find(name + "\t" + builtinSceneDescription(name) + "\n"), std::string::npos);
    const std::size_t a = s.find((dir / "a.json").string() + "\ta\n");
    const std::size_t b = s.find((dir / "b.json").string() + "\tbee\n");
    const std::size_t c = s.find((dir / "c.json").string() + "\t(not valid JSON)\n");
    ASSERT_NE(a, std::string::npos) << s;
    ASSERT_NE(b, std::string::npos) << s;
    ASSERT_NE(c, std::string::npos) << s;
    EXPECT_LT(a, b);
    EXPECT_LT(b, c);
    EXPECT_EQ(s.find("d.txt"), std::string::npos);
    EXPECT_EQ(lines(s), builtins + 2 + 3);  // a blank line and a heading before the files

    for (const std::optional<fs::path>& none :
         {std::optional<fs::path>(dir / "absent"), std::optional<fs::path>()}) {
        std::ostringstream only;
        listScenes(only, none);
        EXPECT_EQ(lines(only.str()), builtins);
        EXPECT_EQ(only.str(), s.substr(0, only.str().size()));
    }
    fs::remove_all(dir);
}

// The source tree's folder is the last candidate, so a build finds the shipped scenes.
TEST(SceneList, FindsTheShippedScenes) {
    const std::vector<fs::path> candidates = sceneFolderCandidates();
    ASSERT_GE(candidates.size(), 1u);
    EXPECT_TRUE(fs::exists(candidates.back() / "flag.json")) << candidates.back();
    const std::optional<fs::path> found = findSceneFolder();
    ASSERT_TRUE(found.has_value());
    EXPECT_TRUE(fs::exists(*found / "flag.json")) << *found;
}

}  // namespace
}  // namespace cloth
