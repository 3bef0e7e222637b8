// OBJ in (tinyobjloader, after a strict pre-scan) and out.
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>

#include <tiny_obj_loader.h>

#include "core/error.h"
#include "core/input_file.h"
#include "core/mesh.h"
#include "core/obj_scan.h"
#include "core/output_file.h"

namespace cloth {

namespace {

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    return s;
}

// Vertex (or texcoord) index as tinyobjloader reports it, checked against `count`.
std::uint32_t checkedIndex(int idx, std::size_t count, const std::string& path) {
    if (idx < 0 || std::size_t(idx) >= count)
        throw Error(path + ": face index " + std::to_string(idx + 1) + " out of range (" +
                    std::to_string(count) + " defined)");
    return static_cast<std::uint32_t>(idx);
}

Mesh convert(const tinyobj::attrib_t& attrib, const std::vector<tinyobj::shape_t>& shapes,
             const std::string& path) {
    Mesh m;
    const std::size_t nv = attrib.vertices.size() / 3, nt = attrib.texcoords.size() / 2;
    m.positions.resize(nv);
    for (std::size_t i = 0; i < nv; ++i)
        m.positions[i] = {attrib.vertices[3 * i], attrib.vertices[3 * i + 1],
                          attrib.vertices[3 * i + 2]};
    std::vector<bool> hasUv(nv, false);
    bool everyCorner = true;
    for (const tinyobj::shape_t& shape : shapes) {
        const auto& idx = shape.mesh.indices;
        for (std::size_t f = 0; f + 2 < idx.size(); f += 3) {
            glm::uvec3 tri;
            for (int k = 0; k < 3; ++k) {
                tri[k] = checkedIndex(idx[f + k].vertex_index, nv, path);
                if (idx[f + k].texcoord_index < 0) {
                    everyCorner = false;
                    continue;
                }
                std::uint32_t t = checkedIndex(idx[f + k].texcoord_index, nt, path);
                // OBJ's v runs bottom-up, ours top-down.
                const glm::vec2 uv{attrib.texcoords[2 * t], 1.0f - attrib.texcoords[2 * t + 1]};
                if (m.uvs.empty()) m.uvs.resize(nv, glm::vec2(0.0f));
                if (!hasUv[tri[k]]) {  // first seen wins
                    m.uvs[tri[k]] = uv;
                    hasUv[tri[k]] = true;
                }
                if (everyCorner) m.cornerUvs.push_back(uv);
            }
            m.triangles.push_back(tri);
        }
    }
    if (!everyCorner) m.cornerUvs.clear();
    return m;
}

}  // namespace

Mesh parseObjText(std::string_view text, const std::string& source) {
    const std::string checked = detail::scanObjText(text, source);
    tinyobj::ObjReaderConfig config;
    config.triangulate = true;
    config.vertex_color = false;
    tinyobj::ObjReader reader;
    if (!reader.ParseFromString(checked, "", config))
        throw Error(source + ": malformed OBJ: " + trimmed(reader.Error()));
    for (const tinyobj::shape_t& shape : reader.GetShapes())
        for (unsigned char n : shape.mesh.num_face_vertices)
            if (n != 3) throw Error(source + ": malformed OBJ: a face could not be triangulated");
    Mesh mesh = convert(reader.GetAttrib(), reader.GetShapes(), source);
    validateMesh(mesh, source);
    return mesh;
}

Mesh loadObj(const std::string& path) {
    return parseObjText(readInputFile(path, kMaxObjFileBytes, "OBJ"), path);
}

namespace {

void appendFloat(std::string& out, float v) {
    char buf[32];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest exact round trip
    out.append(buf, ptr);
}

void appendUint(std::string& out, std::uint64_t v) {
    char buf[24];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, ptr);
}

void appendVec(std::string& out, const char* tag, const float* v, int n) {
    out += tag;
    for (int k = 0; k < n; ++k) {
        out += ' ';
        appendFloat(out, v[k]);
    }
    out += '\n';
}

// One corner of an `f` line: v, v//vn or v/vt/vn (1-based, running over the file).
void appendCorner(std::string& out, std::uint64_t v, bool uv, std::uint64_t t, bool normal,
                  std::uint64_t n) {
    out += ' ';
    appendUint(out, v);
    if (!uv && !normal) return;
    out += '/';
    if (uv) appendUint(out, t);
    if (!normal) return;
    out += '/';
    appendUint(out, n);
}

}  // namespace

void saveObjObjects(const std::string& path, std::span<const ObjObject> objects) {
    std::size_t size = 64;
    for (const ObjObject& o : objects)
        size += o.name.size() + o.positions.size() * 100 + o.triangles.size() * 40;
    std::string out;
    out.reserve(size);
    out += "# clothsim\n";
    std::uint64_t v0 = 1, t0 = 1, n0 = 1;  // the first index of this object's v, vt and vn
    for (const ObjObject& o : objects) {
        CLOTH_ASSERT(o.uvs.empty() || o.uvs.size() == o.positions.size());
        CLOTH_ASSERT(o.normals.empty() || o.normals.size() == o.positions.size());
        out += "o ";
        for (char c : o.name) out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '_' : c;
        out += '\n';
        for (const glm::vec3& p : o.positions) appendVec(out, "v", &p.x, 3);
        for (const glm::vec2& uv : o.uvs) {
            const glm::vec2 t(uv.x, 1.0f - uv.y);  // OBJ's v runs bottom-up
            appendVec(out, "vt", &t.x, 2);
        }
        for (const glm::vec3& n : o.normals) appendVec(out, "vn", &n.x, 3);
        const bool uv = !o.uvs.empty(), normal = !o.normals.empty();
        for (const glm::uvec3& t : o.triangles) {
            out += 'f';
            for (int k = 0; k < 3; ++k)
                appendCorner(out, v0 + t[k], uv, t0 + t[k], normal, n0 + t[k]);
            out += '\n';
        }
        v0 += o.positions.size();
        t0 += o.uvs.size();
        n0 += o.normals.size();
    }
    writeOutputFile(path, out);
}

void saveObj(const std::string& path, const std::vector<glm::vec3>& positions,
             const std::vector<glm::uvec3>& triangles) {
    std::string out;
    out.reserve(positions.size() * 40 + triangles.size() * 24 + 64);
    out += "# clothsim\n";
    for (const glm::vec3& p : positions) {
        out += "v ";
        appendFloat(out, p.x);
        out += ' ';
        appendFloat(out, p.y);
        out += ' ';
        appendFloat(out, p.z);
        out += '\n';
    }
    for (const glm::uvec3& t : triangles) {
        out += 'f';
        for (int k = 0; k < 3; ++k) {
            out += ' ';
            appendUint(out, std::uint64_t(t[k]) + 1);
        }
        out += '\n';
    }
    writeOutputFile(path, out);
}

}  // namespace cloth
