// --export-gltf FILE.glb|FILE.gltf: the run as one glTF 2.0 file (binary .glb, or JSON .gltf with
// its buffer embedded), written through tinygltf when the run ends.
//
// One mesh and one node per cloth, named after the scene's cloth: POSITION, NORMAL (area-
// weighted, app/export_scene.h), TEXCOORD_0 when its mesh has UVs, and the scene's triangles as
// loaded, at the first exported frame. Every later exported frame (K, 2K, ... with --export-every
// K) is a morph target of that mesh (the POSITION and NORMAL differences from the first frame),
// and one animation drives the targets' weights with LINEAR interpolation at the frames' times
// (frame n at (start_frame + n) / fps s, core/frame_rate.h): at frame k's time target k has weight 1 and the others 0, so
// a player shows each frame exactly and blends neighbouring frames in between.
// With --export-colliders, one mesh and node per collider as well, in its own frame; a collider
// that moves gets translation and rotation channels in the same animation, sampled at the same
// times from the pose the physics used.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "app/export_scene.h"
#include "prep/prepared.h"

namespace cloth {

// Whether `path` names a binary glTF (.glb), a JSON one (.gltf), or neither (any case).
enum class GltfFormat { Binary, Json };
std::optional<GltfFormat> gltfFormatOf(const std::string& path);

class GltfExporter {
  public:
    // The file's buffer (every accessor's data) may hold at most this many bytes: morph targets
    // take 24 bytes per vertex and exported frame (positions and normals).
    static constexpr std::uint64_t kMaxBufferBytes = std::uint64_t(512) << 20;

    // An empty `path` exports nothing. `frames`: the run's length when known (it is checked
    // against kMaxBufferBytes before the run: cloth::Error naming the sizes when too long).
    GltfExporter(std::string path, int every, const PreparedCloth& prepared, bool colliders,
                 std::optional<int> frames);
    bool wants(int frame) const { return !path_.empty() && frame % every_ == 0; }
    // As ObjExporter::write. Frame 0 (or the first frame given) starts the file again: the window
    // restarts at frame 0 after R or another scene, and the file holds the last run.
    void write(int frame, const std::vector<glm::vec4>& positions, double time);
    // Writes the file when a frame was given (cloth::Error naming it on failure) and returns a
    // line that says what it holds; returns "" when nothing was exported.
    std::string finish();

    // The buffer's size for `frames` exported frames of `scene` (with `colliders` of them moving).
    static std::uint64_t bufferBytes(const ExportScene& scene, std::uint64_t frames);

  private:
    struct Block {  // one accessor over its own buffer view
        std::size_t offset = 0, bytes = 0;
        std::uint32_t count = 0;
        int type = 0, componentType = 0, target = 0;
        std::vector<double> min, max;
    };
    template <class T>
    int addBlock(const std::vector<T>& items, int type, int componentType, int target, bool bounds);
    void begin();
    void checkRoom(int frame, std::uint64_t frames) const;

    std::string path_;
    int every_;
    bool colliders_;
    const PreparedCloth& prepared_;
    ExportScene scene_;
    ExportScene::Frame frame_;

    std::vector<unsigned char> data_;
    std::vector<Block> blocks_;
    std::vector<float> times_;
    struct ClothBlocks {
        int position = -1, normal = -1, uv = -1, indices = -1;
        std::vector<std::array<int, 2>> targets;  // per frame after the first: POSITION, NORMAL
    };
    std::vector<ClothBlocks> cloths_;
    struct ColliderBlocks {
        int position = -1, normal = -1, indices = -1;
        std::vector<ExportPose> poses;  // per exported frame
    };
    std::vector<ColliderBlocks> colliderBlocks_;
};

}  // namespace cloth
