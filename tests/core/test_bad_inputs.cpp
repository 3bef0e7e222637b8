// Every fixture in tests/data/bad/ gives the error its README row promises.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include <sys/stat.h>

#include <gtest/gtest.h>

#include "core/input_file.h"
#include "core/mesh.h"
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

// Only regular files are read: /dev/zero (read until memory ran out) and a FIFO (blocked
// forever) are refused at once, with the file and the reason.
TEST(BadInputs, NonRegularFilesAreRefusedAtOnce) {
    EXPECT_TRUE(throwsError([] { loadObj("/dev/zero"); },
                            {"/dev/zero", "a character device, not a regular file"}));
    EXPECT_TRUE(throwsError([] { loadSceneFile("/dev/zero"); },
                            {"/dev/zero", "a character device, not a regular file"}));
    const std::string fifo = test::scratchDir() + "/fifo.obj";
    std::filesystem::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_TRUE(throwsError([&] { loadObj(fifo); }, {fifo, "a FIFO, not a regular file"}));
    EXPECT_TRUE(throwsError([&] { loadSceneFile(fifo); }, {fifo, "a FIFO"}));
    std::filesystem::remove(fifo);
    const std::string dir = test::scratchDir();
    EXPECT_TRUE(throwsError([&] { loadSceneFile(dir); }, {dir, "a directory"}));
}

// A file over its size cap is refused before it is read, with the cap named (a sparse file:
// no disk space used).
TEST(BadInputs, FilesOverTheSizeCapAreRefused) {
    const std::string obj = test::scratchDir() + "/huge.obj";
    const std::string scene = test::scratchDir() + "/huge.json";
    std::ofstream(obj).put('#');
    std::ofstream(scene).put(' ');
    std::filesystem::resize_file(obj, kMaxObjFileBytes + 1);
    std::filesystem::resize_file(scene, kMaxSceneFileBytes + 1);
    EXPECT_TRUE(throwsError([&] { loadObj(obj); },
                            {obj, "file too large", "the limit for OBJ files is 512 MiB"}));
    EXPECT_TRUE(throwsError([&] { loadSceneFile(scene); },
                            {scene, "file too large", "the limit for scene files is 64 MiB"}));
    std::filesystem::remove(obj);
    std::filesystem::remove(scene);
}

// Every input in tests/data/fuzz/ (fuzzer findings and the cases of issue 15 that are
// legitimate) is refused with a cloth::Error or accepted, never crashes or trips a sanitizer;
// an accepted scene reads back equal after writing it out. See tests/data/fuzz/README.md.
TEST(FuzzRegressions, EveryInputIsRefusedOrAcceptedCleanly) {
    namespace fs = std::filesystem;
    const fs::path root = fs::path(test::sourceDir()) / "tests" / "data" / "fuzz";
    const std::string sceneDir = test::assetPath("scenes");
    std::size_t inputs = 0;
    for (const char* kind : {"obj", "scene"}) {
        for (const auto& e : fs::directory_iterator(root / kind)) {
            std::ifstream in(e.path(), std::ios::binary);
            const std::string text((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
            const std::string name = e.path().filename().string();
            SCOPED_TRACE(name);
            ++inputs;
            try {
                if (std::string(kind) == "obj") {
                    validateMesh(parseObjText(text, name), name);
                } else {
                    const Scene s = parseSceneJson(text, name, sceneDir);
                    EXPECT_EQ(parseSceneJson(sceneToJson(s, sceneDir), name, sceneDir), s);
                }
            } catch (const Error&) {
                // a refusal with a message is a correct outcome
            }
        }
    }
    EXPECT_GE(inputs, 2u);
}
