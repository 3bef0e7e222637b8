// OBJ input and output: round trip, triangulation, UVs, and the sample meshes.
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "core/mesh.h"
#include "test_util.h"

using namespace cloth;
using cloth::test::throwsError;

namespace {

std::string writeText(const std::string& name, const std::string& text) {
    std::string path = test::scratchDir() + "/" + name;
    std::ofstream(path) << text;
    return path;
}

using test::signedAreaZ;

}  // namespace

TEST(Obj, RoundTripIsExact) {
    GridDesc d;
    d.resX = 7, d.resY = 5, d.pattern = GridPattern::Random, d.seed = 3;
    Mesh m = makeGrid(d);
    for (glm::vec3& p : m.positions) p = p * 1.37f + glm::vec3(0.1f, -2.3f, 1e-3f * p.x);
    std::string path = test::scratchDir() + "/grid.obj";
    saveObj(path, m.positions, m.triangles);
    Mesh back = loadObj(path);
    EXPECT_EQ(back.positions, m.positions);  // bit-exact: shortest round-trip decimals
    EXPECT_EQ(back.triangles, m.triangles);
    EXPECT_TRUE(back.uvs.empty());
}

TEST(Obj, SaveWritesOneBasedFaces) {
    std::string path = test::scratchDir() + "/tri.obj";
    saveObj(path, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}});
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("v 1 0 0\n"), std::string::npos) << text;
    EXPECT_NE(text.find("f 1 2 3\n"), std::string::npos) << text;
}

TEST(Obj, SaveToMissingDirectoryIsAnError) {
    EXPECT_TRUE(throwsError(
        [] {
            saveObj("/nonexistent-dir/x.obj", {{0, 0, 0}}, {});
        },
        {"/nonexistent-dir/x.obj", "cannot write"}));
}

TEST(Obj, QuadsAreTriangulatedAndUvsTakenFirstSeen) {
    std::string path = writeText("quad.obj",
                                 "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
                                 "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvt 0.5 0.5\n"
                                 "f 1/1 2/2 3/3 4/4\n"
                                 "f 1/5 3/5 4/5\n");  // second face: conflicting UVs (ignored)
    Mesh m = loadObj(path);
    ASSERT_EQ(m.positions.size(), 4u);
    ASSERT_EQ(m.triangles.size(), 3u);
    for (const glm::uvec3& t : m.triangles) EXPECT_GT(signedAreaZ(m, t), 0.0);  // winding kept
    ASSERT_EQ(m.uvs.size(), 4u);
    // OBJ's v runs bottom-up; the mesh's top-down: v' = 1 - v.
    EXPECT_EQ(m.uvs[0], glm::vec2(0, 1));
    EXPECT_EQ(m.uvs[1], glm::vec2(1, 1));
    EXPECT_EQ(m.uvs[2], glm::vec2(1, 0));
    EXPECT_EQ(m.uvs[3], glm::vec2(0, 0));
}

TEST(Obj, NegativeIndicesAndCommentsAndCrlf) {
    std::string path =
        writeText("neg.obj", "# c\r\nv 0 0 0\r\nv 1 0 0 # x\r\nv 0 1 0\r\nf -3 -2 -1\r\n");
    Mesh m = loadObj(path);
    ASSERT_EQ(m.triangles.size(), 1u);
    EXPECT_EQ(m.triangles[0], glm::uvec3(0, 1, 2));
}

TEST(Obj, SampleMeshesAreValidIrregularAndFaceForward) {
    for (const char* name : {"flag.obj", "disc.obj", "quads.obj"}) {
        Mesh m = loadObj(test::assetPath(std::string("meshes/") + name));
        EXPECT_GT(m.positions.size(), 50u) << name;
        EXPECT_EQ(m.uvs.size(), m.positions.size()) << name;
        for (const glm::uvec3& t : m.triangles) ASSERT_GT(signedAreaZ(m, t), 0.0) << name;
        Topology topo = buildTopology(m, name);
        EXPECT_EQ(topo.edges.size(), m.positions.size() + m.triangles.size() - 1) << name;
    }
    // flag.obj and disc.obj are not grids: their vertex valences vary.
    for (const char* name : {"flag.obj", "disc.obj"}) {
        Mesh m = loadObj(test::assetPath(std::string("meshes/") + name));
        Topology topo = buildTopology(m, name);
        std::set<std::uint32_t> valences;
        for (std::size_t v = 0; v < m.positions.size(); ++v)
            valences.insert(topo.vertexTriangleOffsets[v + 1] - topo.vertexTriangleOffsets[v]);
        EXPECT_GE(valences.size(), 4u) << name;
        EXPECT_GT(m.positions.size(), 200u) << name;
    }
}

TEST(Obj, DirectoryIsAnError) {
    std::string dir = test::scratchDir();
    EXPECT_TRUE(throwsError([&] { loadObj(dir); }, {dir, "directory"}));
}

TEST(Obj, MoreProblemsFoundByThePreScan) {
    struct Case {
        const char* text;
        const char* fragment;
    } cases[] = {
        {"v 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "line 1: vertex with fewer than 3 coordinates"},
        {"v 0 x 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "line 1: malformed vertex coordinate 'x'"},
        {"v 1e300 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "is infinite"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", "line 4: face with fewer than 3 vertices"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n", "index 0"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n", "index -4 out of range"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/2 3/1\n", "texture coordinate index 2"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt nan 0\nf 1/1 2/1 3/1\n", "texture coordinate 'nan'"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 5 5 5\nf 1 2 3\n", "vertex 3 is not used"},
    };
    for (const Case& c : cases) {
        std::string path = writeText("bad.obj", c.text);
        EXPECT_TRUE(throwsError([&] { loadObj(path); }, {"bad.obj", c.fragment})) << c.text;
    }
}

// Lines end where tinyobjloader ends them, at a lone CR too: a comment followed by CR and a
// vertex line cannot hide the vertex from the pre-scan, and relative indices count it.
TEST(Obj, LoneCarriageReturnEndsALineAsInTinyobjloader) {
    const Mesh m =
        parseObjText("v 0 0 0\nv 1 0 0\nv 0 1 0\n# c\rv 1 1 0\nf -4 -3 -2\nf -3 -1 -2\n", "cr.obj");
    ASSERT_EQ(m.positions.size(), 4u);
    EXPECT_EQ(m.positions[3], glm::vec3(1, 1, 0));
    ASSERT_EQ(m.triangles.size(), 2u);
    EXPECT_EQ(m.triangles[0], glm::uvec3(0, 1, 2));
    EXPECT_EQ(m.triangles[1], glm::uvec3(1, 3, 2));
    EXPECT_TRUE(throwsError([] { parseObjText("v 0 0 0\rv 1 e 0\rv 0 1 0\rf 1 2 3\r", "r.obj"); },
                            {"r.obj: line 2: malformed vertex coordinate 'e'"}));
}

// Lines clothsim does not use (normals aside, which are checked) are dropped before
// tinyobjloader sees them: its `vw` extension with a joint id of 9e9 (a float-to-int overflow
// there), `l`, `p`, groups, materials and smoothing groups.
TEST(Obj, UnusedStatementsAreIgnored) {
    const Mesh m = parseObjText(
        "mtllib none.mtl\no thing\ng part\ns 1\nusemtl cloth\nv 0 0 0\nv 1 0 0\nv 0 1 0\n"
        "vn 0 0 1\nvw 0 9e9 1\nvw 1 1e2147483648 2\nl 1 2\np 3\nt foo 1/2/3 99999999999\n"
        "f 1//1 2//1 3//1\n",
        "unused.obj");
    EXPECT_EQ(m.positions.size(), 3u);
    EXPECT_EQ(m.triangles.size(), 1u);
}

// Vertex forms tinyobjloader accepts: w = 1 and RGB colours (ignored); numbers with long or
// large exponents are read as the float they denote.
TEST(Obj, VertexWeightOneColoursAndExponents) {
    const Mesh m = parseObjText(
        "v 0 0 0 1\nv 1e0 0 0 0.5 0.5 0.5\nv 0 100000000000000000000e-20 0.0e-2147483648\n"
        "f 1 2 3\n",
        "forms.obj");
    ASSERT_EQ(m.positions.size(), 3u);
    EXPECT_EQ(m.positions[1], glm::vec3(1, 0, 0));
    EXPECT_EQ(m.positions[2], glm::vec3(0, 1, 0));
    EXPECT_TRUE(
        throwsError([] { parseObjText("v 0 0 0 1 1\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "5.obj"); },
                    {"5.obj: line 1: vertex with 5 numbers"}));
    EXPECT_TRUE(
        throwsError([] { parseObjText("v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0\nf 1 2 3\n", "n.obj"); },
                    {"n.obj: line 4: normal without exactly 3 values"}));
}
