// The exports (docs/export.md), read back by independent readers: tinyobjloader for the OBJ
// sequence, tinygltf for the glTF file, the Khronos glTF validator for its validity. Expected
// values come from the input files, the scene's description and the solver's own positions, and
// normals are recomputed here in double precision.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <tiny_gltf.h>
#include <tiny_obj_loader.h>

#include "../common/run_program.h"
#include "app/export_gltf.h"
#include "app/options.h"
#include "app/simulation.h"

namespace cloth {
namespace {

namespace fs = std::filesystem;
using test::runProgramIn;
using test::scratchDir;
using test::sourceDir;

std::string scenePath() {
    return sourceDir() + "/tests/data/export/flag_and_colliders.json";
}

tinyobj::ObjReader readObj(const std::string& path) {
    tinyobj::ObjReaderConfig config;
    config.triangulate = false;
    tinyobj::ObjReader reader;
    EXPECT_TRUE(reader.ParseFromFile(path, config)) << path << ": " << reader.Error();
    return reader;
}

// Area-weighted unit normals in double precision from OBJ faces (global vertex indices).
std::vector<glm::dvec3> normalsOf(const std::vector<tinyobj::real_t>& v,
                                  const tinyobj::shape_t& shape) {
    std::vector<glm::dvec3> n(v.size() / 3, glm::dvec3(0.0));
    const auto at = [&](int i) { return glm::dvec3(v[3 * i], v[3 * i + 1], v[3 * i + 2]); };
    const auto& idx = shape.mesh.indices;
    for (std::size_t f = 0; f + 2 < idx.size(); f += 3) {
        const int a = idx[f].vertex_index, b = idx[f + 1].vertex_index, c = idx[f + 2].vertex_index;
        const glm::dvec3 s = glm::cross(at(b) - at(a), at(c) - at(a));
        n[a] += s, n[b] += s, n[c] += s;
    }
    return n;
}

constexpr std::uint32_t kFlagVertices = 270, kFlagTriangles = 478;  // assets/meshes/flag.obj
constexpr std::uint32_t kSheetVertices = 4 * 3, kSheetTriangles = 3 * 2 * 2;  // a 3 x 2 grid
const std::vector<std::string> kNames = {"flag", "sheet", "ground", "ball",
                                         "pill", "crate", "table"};

TEST(Export, ObjKeepsUvsNormalsAndOneObjectPerCloth) {
    const fs::path dir = scratchDir("export", "obj");
    const auto r = runProgramIn("clothsim",
                                "--headless --backend cpu --threads 1 --frames 2 --scene " +
                                    scenePath() + " --export-obj obj --export-colliders",
                                dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const tinyobj::ObjReader out = readObj((dir / "obj" / "frame_0002.obj").string());
    const tinyobj::ObjReader in = readObj(sourceDir() + "/assets/meshes/flag.obj");
    const tinyobj::attrib_t& a = out.GetAttrib();
    const std::vector<tinyobj::shape_t>& shapes = out.GetShapes();
    ASSERT_EQ(shapes.size(), kNames.size());
    for (std::size_t i = 0; i < kNames.size(); ++i) EXPECT_EQ(shapes[i].name, kNames[i]);
    EXPECT_EQ(shapes[0].mesh.num_face_vertices.size(), kFlagTriangles);
    EXPECT_EQ(shapes[1].mesh.num_face_vertices.size(), kSheetTriangles);
    for (const tinyobj::shape_t& s : shapes) {
        EXPECT_FALSE(s.mesh.num_face_vertices.empty()) << s.name;
        for (unsigned char n : s.mesh.num_face_vertices) ASSERT_EQ(n, 3) << s.name;
    }

    // UVs: the flag's 270 as in its file (its faces pair v i with vt i), then the grid's 12.
    ASSERT_EQ(a.texcoords.size(), 2 * std::size_t(kFlagVertices + kSheetVertices));
    ASSERT_EQ(in.GetAttrib().texcoords.size(), 2 * std::size_t(kFlagVertices));
    for (std::size_t k = 0; k < 2 * kFlagVertices; ++k)
        EXPECT_NEAR(a.texcoords[k], in.GetAttrib().texcoords[k], 1e-6) << k;
    for (const tinyobj::index_t& i : shapes[0].mesh.indices)
        EXPECT_EQ(i.texcoord_index, i.vertex_index);
    // The grid's top-left corner has OBJ texture coordinates (0, 1), its bottom-right (1, 0).
    const std::size_t sheet0 = 2 * kFlagVertices, sheetLast = sheet0 + 2 * (kSheetVertices - 1);
    EXPECT_EQ(a.texcoords[sheet0], 0.0f);
    EXPECT_EQ(a.texcoords[sheet0 + 1], 1.0f);
    EXPECT_EQ(a.texcoords[sheetLast], 1.0f);
    EXPECT_EQ(a.texcoords[sheetLast + 1], 0.0f);
    for (std::size_t s = 2; s < shapes.size(); ++s)
        for (const tinyobj::index_t& i : shapes[s].mesh.indices) EXPECT_EQ(i.texcoord_index, -1);

    // Normals: one per vertex, unit, the area-weighted normal of the frame's own faces.
    ASSERT_EQ(a.normals.size(), a.vertices.size());
    for (std::size_t k = 0; k < a.normals.size(); k += 3)
        EXPECT_NEAR(glm::length(glm::dvec3(a.normals[k], a.normals[k + 1], a.normals[k + 2])), 1.0,
                    1e-6);
    for (int s = 0; s < 2; ++s) {
        const std::vector<glm::dvec3> want = normalsOf(a.vertices, shapes[s]);
        for (const tinyobj::index_t& i : shapes[s].mesh.indices) {
            ASSERT_EQ(i.normal_index, i.vertex_index);
            const glm::dvec3 w = glm::normalize(want[i.vertex_index]);
            for (int k = 0; k < 3; ++k)
                EXPECT_NEAR(a.normals[3 * i.normal_index + k], w[k], 1e-5) << shapes[s].name;
        }
    }

    // The ball (radius 0.3) is where its motion had it at frame 2; the ground is the plane y = 0.
    const double t = 2.0 / 60.0;
    const glm::dvec3 centre(0.6 * t, 0.5, 0.5);
    for (const tinyobj::index_t& i : shapes[3].mesh.indices) {
        const glm::dvec3 p(a.vertices[3 * i.vertex_index], a.vertices[3 * i.vertex_index + 1],
                           a.vertices[3 * i.vertex_index + 2]);
        EXPECT_NEAR(glm::length(p - centre), 0.3, 1e-5);
    }
    for (const tinyobj::index_t& i : shapes[2].mesh.indices)
        EXPECT_EQ(a.vertices[3 * i.vertex_index + 1], 0.0f);
    fs::remove_all(dir);
}

// An accessor's values as floats (tightly packed float data, as the exporter writes).
std::vector<float> floats(const tinygltf::Model& m, int accessor) {
    const tinygltf::Accessor& a = m.accessors.at(accessor);
    EXPECT_EQ(a.componentType, TINYGLTF_COMPONENT_TYPE_FLOAT);
    const tinygltf::BufferView& v = m.bufferViews.at(a.bufferView);
    const std::size_t n = a.count * std::size_t(tinygltf::GetNumComponentsInType(a.type));
    std::vector<float> out(n);
    std::memcpy(out.data(), m.buffers.at(v.buffer).data.data() + v.byteOffset + a.byteOffset,
                n * sizeof(float));
    return out;
}

// A sparse accessor of floats (scalars) made dense: zeros, but for its values at its indices.
std::vector<float> sparseFloats(const tinygltf::Model& m, int accessor) {
    const tinygltf::Accessor& a = m.accessors.at(accessor);
    EXPECT_TRUE(a.sparse.isSparse);
    EXPECT_EQ(a.bufferView, -1);
    EXPECT_EQ(a.sparse.indices.componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT);
    std::vector<float> out(a.count, 0.0f);
    const auto view = [&](int index) {
        const tinygltf::BufferView& v = m.bufferViews.at(index);
        return m.buffers.at(v.buffer).data.data() + v.byteOffset;
    };
    for (int k = 0; k < a.sparse.count; ++k) {
        std::uint32_t i;
        float value;
        std::memcpy(&i, view(a.sparse.indices.bufferView) + a.sparse.indices.byteOffset + 4 * k, 4);
        std::memcpy(&value, view(a.sparse.values.bufferView) + a.sparse.values.byteOffset + 4 * k,
                    4);
        out.at(i) = value;
    }
    return out;
}

const tinygltf::AnimationSampler* samplerOf(const tinygltf::Model& m, int node,
                                            const std::string& path) {
    for (const tinygltf::AnimationChannel& c : m.animations.at(0).channels)
        if (c.target_node == node && c.target_path == path)
            return &m.animations[0].samplers[c.sampler];
    return nullptr;
}

// The last frame of the file (first frame + the last morph target) against the solver's own
// positions at that frame; names, counts, UVs, key times k/60 and the colliders' motion.
TEST(Export, GltfLastFrameEqualsTheSolversPositions) {
    const fs::path dir = scratchDir("export", "gltf");
    const std::string file = (dir / "run.glb").string();
    std::ostringstream notices;
    Simulation sim = loadSimulation(
        parseOptions({"--headless", "--backend", "cpu", "--threads", "1", "--scene", scenePath()}),
        notices);
    GltfExporter exporter(file, 2, *sim.prepared, true, 4);
    std::vector<glm::vec4> x;
    sim.solver->readPositions(x);
    exporter.write(0, x, sim.solver->simTime());
    for (int frame = 1; frame <= 4; ++frame) {
        sim.solver->stepFrame();
        sim.solver->readPositions(x);
        if (frame % 2 == 0) exporter.write(frame, x, sim.solver->simTime());
    }
    EXPECT_NE(exporter.finish().find("3 frames"), std::string::npos);

    tinygltf::TinyGLTF loader;
    tinygltf::Model m;
    std::string err, warn;
    ASSERT_TRUE(loader.LoadBinaryFromFile(&m, &err, &warn, file)) << err;
    EXPECT_TRUE(warn.empty()) << warn;
    ASSERT_EQ(m.meshes.size(), kNames.size());
    ASSERT_EQ(m.nodes.size(), kNames.size());
    for (std::size_t i = 0; i < kNames.size(); ++i) {
        EXPECT_EQ(m.meshes[i].name, kNames[i]);
        EXPECT_EQ(m.nodes[i].name, kNames[i]);
        EXPECT_EQ(m.nodes[i].mesh, int(i));
    }
    const std::uint32_t counts[2] = {kFlagVertices, kSheetVertices};
    const std::uint32_t faces[2] = {kFlagTriangles, kSheetTriangles};
    const std::uint32_t first[2] = {0, kFlagVertices};  // cloth after cloth, in mesh order
    for (int c = 0; c < 2; ++c) {
        const tinygltf::Primitive& p = m.meshes[c].primitives.at(0);
        EXPECT_EQ(m.accessors[p.indices].count, 3 * faces[c]);
        ASSERT_EQ(p.targets.size(), 2u);  // frames 2 and 4
        const std::vector<float> base = floats(m, p.attributes.at("POSITION"));
        const std::vector<float> delta = floats(m, p.targets[1].at("POSITION"));
        ASSERT_EQ(base.size(), 3 * std::size_t(counts[c]));
        for (std::uint32_t v = 0; v < counts[c]; ++v)
            for (int k = 0; k < 3; ++k)
                EXPECT_NEAR(base[3 * v + k] + delta[3 * v + k], x[first[c] + v][k], 2e-6)
                    << kNames[c] << " vertex " << v;
        const std::vector<float> n = floats(m, p.attributes.at("NORMAL"));
        for (std::uint32_t v = 0; v < counts[c]; ++v)
            EXPECT_NEAR(glm::length(glm::vec3(n[3 * v], n[3 * v + 1], n[3 * v + 2])), 1.0f, 1e-6f);
    }
    // UVs: glTF's v runs down, OBJ's up.
    const tinyobj::ObjReader in = readObj(sourceDir() + "/assets/meshes/flag.obj");
    const std::vector<float> uv = floats(m, m.meshes[0].primitives[0].attributes.at("TEXCOORD_0"));
    ASSERT_EQ(uv.size(), 2 * std::size_t(kFlagVertices));
    for (std::uint32_t v = 0; v < kFlagVertices; ++v) {
        EXPECT_NEAR(uv[2 * v], in.GetAttrib().texcoords[2 * v], 1e-6);
        EXPECT_NEAR(uv[2 * v + 1], 1.0f - in.GetAttrib().texcoords[2 * v + 1], 1e-6);
    }
    const std::vector<float> gridUv =
        floats(m, m.meshes[1].primitives[0].attributes.at("TEXCOORD_0"));
    EXPECT_EQ(gridUv.front(), 0.0f);
    EXPECT_EQ(gridUv.back(), 1.0f);

    // The animation: keys at frames 0, 2 and 4; target k alone at key k.
    ASSERT_EQ(m.animations.size(), 1u);
    const tinygltf::AnimationSampler* weights = samplerOf(m, 0, "weights");
    ASSERT_NE(weights, nullptr);
    EXPECT_EQ(weights->interpolation, "LINEAR");
    const std::vector<float> times = floats(m, weights->input);
    ASSERT_EQ(times.size(), 3u);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(times[k], 2.0 * k / 60.0, 1e-7);
    EXPECT_EQ(sparseFloats(m, weights->output), (std::vector<float>{0, 0, 1, 0, 0, 1}));
    // The ball moves at 0.6 m/s along x; the capsule turns about y at 90 degrees per second; the
    // ground, the box and the table stand still.
    const tinygltf::AnimationSampler* ball = samplerOf(m, 3, "translation");
    ASSERT_NE(ball, nullptr);
    const std::vector<float> at = floats(m, ball->output);
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(at[3 * k], 0.6 * times[k], 1e-6);
        EXPECT_NEAR(at[3 * k + 1], 0.5, 1e-6);
    }
    const tinygltf::AnimationSampler* pill = samplerOf(m, 4, "rotation");
    ASSERT_NE(pill, nullptr);
    const std::vector<float> q = floats(m, pill->output);
    const double half = 0.25 * std::numbers::pi * 4.0 / 60.0;  // half the angle at frame 4
    EXPECT_NEAR(q[8], 0.0, 1e-6);
    EXPECT_NEAR(q[9], std::sin(half), 1e-5);
    EXPECT_NEAR(q[10], 0.0, 1e-6);
    EXPECT_NEAR(q[11], std::cos(half), 1e-5);
    for (int node : {2, 5, 6})
        for (const char* path : {"translation", "rotation"})
            EXPECT_EQ(samplerOf(m, node, path), nullptr) << kNames[node];
    EXPECT_EQ(m.nodes[6].translation, (std::vector<double>{3, 0, 0}));
    fs::remove_all(dir);
}

// --fps and --start-frame (a scene's keys "fps" and "start_frame"): OBJ files numbered from the
// start frame, the glTF's keys at (start + n) / fps s, a cache that starts at 1001 at 24 fps.
TEST(Export, FrameRateAndStartFrameNumberTheFilesAndTheTimes) {
    const fs::path dir = scratchDir("export", "fps");
    const auto r = runProgramIn("clothsim",
                                "--headless --backend cpu --threads 1 --scene drop --frames 4 "
                                "--fps 24 --start-frame 1001 --export-every 2 --export-obj obj "
                                "--export-gltf run.glb --stats stats.json",
                                dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (int f : {1001, 1003, 1005}) {
        char name[32];
        std::snprintf(name, sizeof name, "frame_%04d.obj", f);
        EXPECT_TRUE(fs::exists(dir / "obj" / name)) << name;
    }
    EXPECT_EQ(std::distance(fs::directory_iterator(dir / "obj"), fs::directory_iterator{}), 3);
    tinygltf::TinyGLTF loader;
    tinygltf::Model m;
    std::string err, warn;
    ASSERT_TRUE(loader.LoadBinaryFromFile(&m, &err, &warn, (dir / "run.glb").string())) << err;
    const tinygltf::AnimationSampler* weights = samplerOf(m, 0, "weights");
    ASSERT_NE(weights, nullptr);
    const std::vector<float> times = floats(m, weights->input);
    ASSERT_EQ(times.size(), 3u);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(times[k], (1001.0 + 2.0 * k) / 24.0, 1e-5);
    EXPECT_EQ(m.accessors[weights->input].minValues.at(0), double(times[0]));
    const nlohmann::json stats = nlohmann::json::parse(test::readText(dir / "stats.json"));
    EXPECT_EQ(stats["fps"], 24.0);
    EXPECT_EQ(stats["start_frame"], 1001);
    EXPECT_EQ(stats["substeps"], 25);  // 10 per 1/60 s: 25 per frame of 1/24 s
    fs::remove_all(dir);
}

TEST(Export, GltfRefusals) {
    const fs::path dir = scratchDir("export", "refusals");
    const std::string run = "--headless --backend cpu --threads 1 --scene drop ";
    const auto refused = [&](const std::string& args, const std::string& fragment) {
        const auto r = runProgramIn("clothsim", run + args, dir);
        EXPECT_EQ(r.exitCode, 1) << args;
        EXPECT_NE(r.err.find(fragment), std::string::npos) << args << ": " << r.err;
    };
    refused("--frames 1 --export-gltf out.obj", "expected a file ending in .glb");
    refused("--frames 1 --export-colliders",
            "--export-colliders needs --export-obj or --export-gltf");
    refused("--frames 1 --export-gltf missing_dir/out.glb", "no directory missing_dir");
    // 30,001 frames of 33 x 33 vertices: 784 MB of morph targets.
    refused("--frames 30000 --export-gltf out.glb", "over the limit of 536.9 MB");
    EXPECT_FALSE(fs::exists(dir / "out.glb"));
    fs::remove_all(dir);
}

// clothsim --export-gltf, binary and JSON, passes the Khronos glTF validator with no error and
// no warning.
TEST(Export, GltfFilesPassTheKhronosValidator) {
    const fs::path dir = scratchDir("export", "validator");
    const std::string script = sourceDir() + "/tools/gltf_validate.js";
    ASSERT_TRUE(fs::exists(sourceDir() + "/tools/gltf_validator/node_modules/gltf-validator"))
        << "the glTF validator is not installed: run tools/setup.sh";
    for (const char* file : {"run.glb", "run.gltf"}) {
        const auto r =
            runProgramIn("clothsim",
                         "--headless --backend cpu --threads 1 --frames 4 --scene " + scenePath() +
                             " --export-every 2 --export-colliders "
                             "--export-gltf " +
                             file,
                         dir);
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_NE(r.out.find(std::string("glTF written to ") + file), std::string::npos) << r.out;
    }
    const std::string cmd = "node " + script + " --no-warnings " + (dir / "run.glb").string() +
                            " " + (dir / "run.gltf").string() + " 2>&1";
    FILE* pipe = popen(cmd.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string report;
    char buf[4096];
    while (std::size_t n = fread(buf, 1, sizeof buf, pipe)) report.append(buf, n);
    const int code = test::exitCodeOf(pclose(pipe));
    EXPECT_EQ(code, 0) << report;
    std::printf("%s", report.c_str());
    EXPECT_NE(report.find("run.glb: 0 errors, 0 warnings"), std::string::npos) << report;
    EXPECT_NE(report.find("run.gltf: 0 errors, 0 warnings"), std::string::npos) << report;
    fs::remove_all(dir);
}

}  // namespace
}  // namespace cloth
