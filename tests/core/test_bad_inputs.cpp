// Every fixture in tests/data/bad/ gives the error its README row promises.
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "core/scene.h"
#include "test_util.h"

using namespace cloth;
using cloth::test::throwsError;

namespace {

struct Row {
    std::string file, fragment;
};

// Table rows "| `file` | problem | `fragment` |": the first and the last backticked text.
std::vector<Row> readmeRows() {
    std::ifstream in(test::badPath("README.md"));
    std::vector<Row> rows;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.starts_with("| `")) continue;
        std::size_t a = 3, b = line.find('`', a);
        std::size_t d = line.rfind('`'), c = line.rfind('`', d - 1);
        if (b == std::string::npos || c <= b) continue;
        rows.push_back({line.substr(a, b - a), line.substr(c + 1, d - c - 1)});
    }
    return rows;
}

void load(const std::string& path) {
    if (path.ends_with(".obj"))
        loadObj(path);
    else
        loadSceneFile(path);
}

}  // namespace

TEST(BadInputs, EveryReadmeRowGivesItsError) {
    std::vector<Row> rows = readmeRows();
    ASSERT_GE(rows.size(), 13u);
    for (const Row& r : rows) {
        std::string path = test::badPath(r.file);
        EXPECT_TRUE(throwsError([&] { load(path); }, {path, r.fragment})) << r.file;
    }
}

TEST(BadInputs, EveryFixtureIsListed) {
    std::set<std::string> listed;
    for (const Row& r : readmeRows()) listed.insert(r.file);
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(test::badPath(""))) {
        std::string name = e.path().filename().string();
        if (name == "README.md") continue;
        ++files;
        EXPECT_TRUE(listed.count(name)) << name << " is not in tests/data/bad/README.md";
    }
    EXPECT_GE(files, 13u);
    EXPECT_FALSE(std::filesystem::exists(test::badPath("does_not_exist.obj")));
}

TEST(BadInputs, MissingObjNamesBothFiles) {
    std::string path = test::badPath("missing_obj.json");
    EXPECT_TRUE(throwsError([&] { loadSceneFile(path); },
                            {"missing_obj.json", "no_such_mesh.obj", "cannot open file"}));
}

TEST(BadInputs, MissingSceneFile) {
    EXPECT_TRUE(throwsError([] { loadSceneFile("/nonexistent/scene.json"); },
                            {"/nonexistent/scene.json", "cannot open file"}));
    EXPECT_TRUE(throwsError([] { resolveScene("nonexistent.json"); }, {"nonexistent.json"}));
}
