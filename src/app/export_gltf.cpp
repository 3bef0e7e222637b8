#include "app/export_gltf.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <sstream>

#include <tiny_gltf.h>

#include "core/error.h"
#include "core/output_file.h"

namespace cloth {

namespace {

constexpr int kFloat = TINYGLTF_COMPONENT_TYPE_FLOAT;
constexpr int kUint = TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
constexpr int kVertices = TINYGLTF_TARGET_ARRAY_BUFFER;
constexpr int kIndices = TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER;

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::string megabytes(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", double(bytes) / 1e6);
    return text;
}

int components(int type) {
    switch (type) {
        case TINYGLTF_TYPE_VEC2:
            return 2;
        case TINYGLTF_TYPE_VEC3:
            return 3;
        case TINYGLTF_TYPE_VEC4:
            return 4;
        default:
            return 1;
    }
}

}  // namespace

std::optional<GltfFormat> gltfFormatOf(const std::string& path) {
    const std::string ext = lower(std::filesystem::path(path).extension().string());
    if (ext == ".glb") return GltfFormat::Binary;
    if (ext == ".gltf") return GltfFormat::Json;
    return std::nullopt;
}

GltfExporter::GltfExporter(std::string path, int every, const PreparedCloth& prepared,
                           bool colliders, std::optional<int> frames)
    : path_(std::move(path)),
      every_(every),
      colliders_(colliders),
      prepared_(prepared) {
    if (path_.empty()) return;
    if (!gltfFormatOf(path_))
        throw Error("--export-gltf " + path_ +
                    ": expected a file ending in .glb (binary glTF) "
                    "or .gltf (JSON glTF)");
    scene_ = makeExportScene(prepared_, colliders_);
    if (frames) checkRoom(*frames, std::uint64_t(*frames / every_) + 1);
}

std::uint64_t GltfExporter::bufferBytes(const ExportScene& scene, std::uint64_t frames) {
    std::uint64_t base = 0, perFrame = 0;
    for (const ExportCloth& c : scene.cloths) {
        base += std::uint64_t(c.vertexCount) * (24 + (c.uvs.empty() ? 0 : 8)) +
                12 * std::uint64_t(c.triangles.size());
        perFrame += 24 * std::uint64_t(c.vertexCount);  // a morph target: positions and normals
    }
    for (const ExportCollider& c : scene.colliders) {
        base += 24 * std::uint64_t(c.positions.size()) + 12 * std::uint64_t(c.triangles.size());
        perFrame += 28;  // translation and rotation, when it moves
    }
    // Per key its time and (a sparse accessor's index and value) the weight that is not 0.
    return base + frames * (perFrame + 12);
}

void GltfExporter::checkRoom(int frame, std::uint64_t frames) const {
    const std::uint64_t need = bufferBytes(scene_, frames);
    if (need <= kMaxBufferBytes) return;
    throw Error("--export-gltf " + path_ + ": " + std::to_string(frames) +
                " exported frames (the last at frame " + std::to_string(frame) + ") of " +
                std::to_string(prepared_.originalVertexCount) + " vertices would need " +
                megabytes(need) + " of morph targets, over the limit of " +
                megabytes(kMaxBufferBytes) +
                "; export fewer frames (a larger --export-every K, fewer --frames) or a smaller "
                "cloth");
}

template <class T>
int GltfExporter::addBlock(const std::vector<T>& items, int type, int componentType, int target,
                           bool bounds) {
    Block b;
    b.offset = data_.size();
    b.bytes = items.size() * sizeof(T);
    b.type = type;
    b.componentType = componentType;
    b.target = target;
    const int n = components(type);
    const std::size_t scalars = b.bytes / 4;
    b.count = static_cast<std::uint32_t>(scalars / std::size_t(n));
    data_.resize(data_.size() + b.bytes);
    if (b.bytes > 0) std::memcpy(data_.data() + b.offset, items.data(), b.bytes);
    if (bounds) {
        static_assert(sizeof(float) == 4);
        const auto* f = reinterpret_cast<const float*>(data_.data() + b.offset);
        b.min.assign(std::size_t(n), 0.0);
        b.max.assign(std::size_t(n), 0.0);
        for (std::size_t i = 0; i < scalars; ++i) {
            const std::size_t k = i % std::size_t(n);
            if (i < std::size_t(n) || f[i] < b.min[k]) b.min[k] = f[i];
            if (i < std::size_t(n) || f[i] > b.max[k]) b.max[k] = f[i];
        }
    }
    blocks_.push_back(std::move(b));
    return static_cast<int>(blocks_.size()) - 1;
}

void GltfExporter::begin() {
    scene_ = makeExportScene(prepared_, colliders_);
    data_.clear();
    blocks_.clear();
    times_.clear();
    cloths_.assign(scene_.cloths.size(), {});
    colliderBlocks_.assign(scene_.colliders.size(), {});
    for (std::size_t i = 0; i < scene_.colliders.size(); ++i) {
        const ExportCollider& c = scene_.colliders[i];
        ColliderBlocks& b = colliderBlocks_[i];
        b.position = addBlock(c.positions, TINYGLTF_TYPE_VEC3, kFloat, kVertices, true);
        b.normal = addBlock(c.normals, TINYGLTF_TYPE_VEC3, kFloat, kVertices, false);
        b.indices = addBlock(c.triangles, TINYGLTF_TYPE_SCALAR, kUint, kIndices, false);
    }
}

void GltfExporter::write(int frame, const std::vector<glm::vec4>& positions, double time) {
    if (frame == 0 || times_.empty()) begin();
    checkRoom(frame, times_.size() + 1);
    scene_.frame(prepared_, positions, frame_);
    const bool first = times_.empty();
    for (std::size_t i = 0; i < scene_.cloths.size(); ++i) {
        const ExportCloth& c = scene_.cloths[i];
        ClothBlocks& b = cloths_[i];
        const std::vector<glm::vec3>&x = frame_.positions[i], &n = frame_.normals[i];
        if (first) {
            b.position = addBlock(x, TINYGLTF_TYPE_VEC3, kFloat, kVertices, true);
            b.normal = addBlock(n, TINYGLTF_TYPE_VEC3, kFloat, kVertices, false);
            if (!c.uvs.empty())
                b.uv = addBlock(c.uvs, TINYGLTF_TYPE_VEC2, kFloat, kVertices, false);
            b.indices = addBlock(c.triangles, TINYGLTF_TYPE_SCALAR, kUint, kIndices, false);
            continue;
        }
        // A target holds the differences from the first frame (glTF 2.0, 3.7.2.2).
        const auto* x0 =
            reinterpret_cast<const glm::vec3*>(data_.data() + blocks_[b.position].offset);
        const auto* n0 =
            reinterpret_cast<const glm::vec3*>(data_.data() + blocks_[b.normal].offset);
        std::vector<glm::vec3> dx(x.size()), dn(n.size());
        for (std::size_t v = 0; v < x.size(); ++v) {
            dx[v] = x[v] - x0[v];
            dn[v] = n[v] - n0[v];
        }
        const int p = addBlock(dx, TINYGLTF_TYPE_VEC3, kFloat, kVertices, true);
        b.targets.push_back({p, addBlock(dn, TINYGLTF_TYPE_VEC3, kFloat, kVertices, false)});
    }
    for (std::size_t i = 0; i < scene_.colliders.size(); ++i)
        colliderBlocks_[i].poses.push_back(exportPose(scene_.colliders[i].collider, time));
    // Frame n is at (start_frame + n) / fps s (core/frame_rate.h), read at each frame: the window
    // may load another scene in place.
    const SimSettings& sim = prepared_.sim;
    times_.push_back(float(double(std::int64_t(sim.startFrame) + frame) / double(sim.fps)));
}

namespace {

tinygltf::Material material(const char* name, std::vector<double> colour, bool doubleSided) {
    tinygltf::Material m;
    m.name = name;
    m.pbrMetallicRoughness.baseColorFactor = std::move(colour);
    m.pbrMetallicRoughness.metallicFactor = 0.0;
    m.pbrMetallicRoughness.roughnessFactor = 0.8;
    m.doubleSided = doubleSided;  // a cloth is seen from both sides
    return m;
}

tinygltf::Primitive triangles(int position, int normal, int indices, int materialIndex) {
    tinygltf::Primitive p;
    p.attributes["POSITION"] = position;
    p.attributes["NORMAL"] = normal;
    p.indices = indices;
    p.material = materialIndex;
    p.mode = TINYGLTF_MODE_TRIANGLES;
    return p;
}

void addChannel(tinygltf::Animation& a, int node, const char* path, int input, int output) {
    tinygltf::AnimationSampler s;
    s.input = input;
    s.output = output;
    s.interpolation = "LINEAR";
    a.samplers.push_back(s);
    tinygltf::AnimationChannel c;
    c.sampler = static_cast<int>(a.samplers.size()) - 1;
    c.target_node = node;
    c.target_path = path;
    a.channels.push_back(c);
}

glm::vec4 quatXyzw(const ExportPose& pose) {
    const glm::quat q = pose.rotation();
    return {q.x, q.y, q.z, q.w};
}

}  // namespace

std::string GltfExporter::finish() {
    if (path_.empty() || times_.empty()) return "";
    tinygltf::Model m;
    m.asset.version = "2.0";
    m.asset.generator = "clothsim";
    const std::size_t keys = times_.size(), targets = keys - 1;
    tinygltf::Animation animation;
    animation.name = "simulation";
    int input = -1;
    if (keys > 1) input = addBlock(times_, TINYGLTF_TYPE_SCALAR, kFloat, 0, true);
    // The moving colliders' keys: translation and rotation accessors, per collider (-1: static).
    std::vector<std::array<int, 2>> motion(scene_.colliders.size(), {-1, -1});
    for (std::size_t i = 0; i < scene_.colliders.size() && keys > 1; ++i) {
        const std::vector<ExportPose>& poses = colliderBlocks_[i].poses;
        const bool moves = std::any_of(poses.begin(), poses.end(), [&](const ExportPose& p) {
            return p.origin != poses.front().origin || p.axes != poses.front().axes;
        });
        if (!moves) continue;
        std::vector<glm::vec3> origins;
        std::vector<glm::vec4> rotations;
        for (const ExportPose& p : poses) {
            origins.push_back(p.origin);
            glm::vec4 r = quatXyzw(p);
            // q and -q are one rotation: keep each key on the side of the previous one, so that
            // LINEAR (spherical) interpolation turns the short way between keys.
            if (!rotations.empty() && glm::dot(r, rotations.back()) < 0.0f) r = -r;
            rotations.push_back(r);
        }
        motion[i] = {addBlock(origins, TINYGLTF_TYPE_VEC3, kFloat, 0, false),
                     addBlock(rotations, TINYGLTF_TYPE_VEC4, kFloat, 0, false)};
    }
    // The weights, target after target at each key: at key k target k - 1 alone is 1. A sparse
    // accessor (zeros but for those ones), so that they take 8 bytes per key, not 4 per key and
    // target. Its index and value views come last: they are views without accessors of their own.
    const std::size_t accessorBlocks = blocks_.size();
    const int weights = keys > 1 ? static_cast<int>(accessorBlocks) : -1;
    int sparseIndices = -1, sparseValues = -1;
    if (keys > 1) {
        std::vector<std::uint32_t> where;
        for (std::size_t k = 1; k < keys; ++k)
            where.push_back(static_cast<std::uint32_t>(k * targets + (k - 1)));
        sparseIndices = addBlock(where, TINYGLTF_TYPE_SCALAR, kUint, 0, false);
        sparseValues =
            addBlock(std::vector<float>(targets, 1.0f), TINYGLTF_TYPE_SCALAR, kFloat, 0, false);
    }
    m.materials.push_back(material("cloth", {0.8, 0.75, 0.7, 1.0}, true));
    if (!scene_.colliders.empty())
        m.materials.push_back(material("collider", {0.5, 0.5, 0.5, 1.0}, false));
    tinygltf::Scene scene;
    scene.name =
        prepared_.sim.model == ClothModel::MassSpring ? "clothsim (mass_spring)" : "clothsim";
    for (std::size_t i = 0; i < scene_.cloths.size(); ++i) {
        const ClothBlocks& b = cloths_[i];
        tinygltf::Mesh mesh;
        mesh.name = scene_.cloths[i].name;
        tinygltf::Primitive p = triangles(b.position, b.normal, b.indices, 0);
        if (b.uv >= 0) p.attributes["TEXCOORD_0"] = b.uv;
        for (const std::array<int, 2>& t : b.targets)
            p.targets.push_back({{"POSITION", t[0]}, {"NORMAL", t[1]}});
        mesh.primitives.push_back(std::move(p));
        mesh.weights.assign(b.targets.size(), 0.0);
        m.meshes.push_back(std::move(mesh));
        tinygltf::Node node;
        node.name = scene_.cloths[i].name;
        node.mesh = static_cast<int>(m.meshes.size()) - 1;
        m.nodes.push_back(std::move(node));
        scene.nodes.push_back(static_cast<int>(m.nodes.size()) - 1);
        if (keys > 1) addChannel(animation, scene.nodes.back(), "weights", input, weights);
    }
    for (std::size_t i = 0; i < scene_.colliders.size(); ++i) {
        const ColliderBlocks& b = colliderBlocks_[i];
        tinygltf::Mesh mesh;
        mesh.name = scene_.colliders[i].name;
        mesh.primitives.push_back(triangles(b.position, b.normal, b.indices, 1));
        m.meshes.push_back(std::move(mesh));
        tinygltf::Node node;
        node.name = scene_.colliders[i].name;
        node.mesh = static_cast<int>(m.meshes.size()) - 1;
        const ExportPose& first = b.poses.front();
        const glm::vec4 q = quatXyzw(first);
        node.translation = {first.origin.x, first.origin.y, first.origin.z};
        node.rotation = {q.x, q.y, q.z, q.w};
        m.nodes.push_back(std::move(node));
        scene.nodes.push_back(static_cast<int>(m.nodes.size()) - 1);
        if (motion[i][0] < 0) continue;
        addChannel(animation, scene.nodes.back(), "translation", input, motion[i][0]);
        addChannel(animation, scene.nodes.back(), "rotation", input, motion[i][1]);
    }
    for (const Block& b : blocks_) {
        CLOTH_ASSERT(b.bytes > 0 && b.offset % 4 == 0);
        tinygltf::BufferView view;
        view.buffer = 0;
        view.byteOffset = b.offset;
        view.byteLength = b.bytes;
        view.target = b.target;
        m.bufferViews.push_back(view);
        if (m.accessors.size() == accessorBlocks) continue;  // a sparse accessor's view
        tinygltf::Accessor a;
        a.bufferView = static_cast<int>(m.bufferViews.size()) - 1;
        a.componentType = b.componentType;
        a.count = b.count;
        a.type = b.type;
        a.minValues = b.min;
        a.maxValues = b.max;
        m.accessors.push_back(std::move(a));
    }
    if (keys > 1) {
        tinygltf::Accessor a;
        a.bufferView = -1;  // all zeros, but for the sparse values
        a.componentType = kFloat;
        a.type = TINYGLTF_TYPE_SCALAR;
        a.count = keys * targets;
        a.sparse.isSparse = true;
        a.sparse.count = static_cast<int>(targets);
        a.sparse.indices.bufferView = sparseIndices;
        a.sparse.indices.byteOffset = 0;
        a.sparse.indices.componentType = kUint;
        a.sparse.values.bufferView = sparseValues;
        a.sparse.values.byteOffset = 0;
        m.accessors.push_back(std::move(a));
        CLOTH_ASSERT(int(m.accessors.size()) - 1 == weights);
    }
    if (!animation.channels.empty()) m.animations.push_back(std::move(animation));
    m.scenes.push_back(std::move(scene));
    m.defaultScene = 0;
    const std::uint64_t bytes = data_.size();
    m.buffers.emplace_back();
    m.buffers[0].data = std::move(data_);
    const bool binary = gltfFormatOf(path_) == GltfFormat::Binary;
    std::ostringstream out;
    tinygltf::TinyGLTF writer;
    if (!writer.WriteGltfSceneToStream(&m, out, !binary, binary))
        throw Error(path_ + ": cannot write file: tinygltf could not serialise the scene");
    m = tinygltf::Model();  // its buffer goes before the text is copied out
    writeOutputFile(path_, out.view());
    data_ = {};
    blocks_.clear();
    char summary[256];
    std::snprintf(summary, sizeof summary,
                  "glTF written to %s: %zu frames (%.4g s) of %zu cloth(s) and %zu collider(s), "
                  "%s of data",
                  path_.c_str(), keys, double(times_.back() - times_.front()), scene_.cloths.size(),
                  scene_.colliders.size(), megabytes(bytes).c_str());
    times_.clear();
    return summary;
}

}  // namespace cloth
