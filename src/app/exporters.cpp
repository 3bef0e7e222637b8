#include "app/exporters.h"

#include <filesystem>
#include <ostream>

#include "core/error.h"

namespace cloth {

namespace {

// The glTF file is written when the run ends: a folder that is missing is refused before it.
const std::string& checkedGltfPath(const std::string& path) {
    if (path.empty()) return path;
    namespace fs = std::filesystem;
    const fs::path parent = fs::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty() && !fs::is_directory(parent, ec))
        throw Error("--export-gltf " + path + ": no directory " + parent.string());
    if (fs::is_directory(path, ec)) throw Error("--export-gltf " + path + ": is a directory");
    return path;
}

}  // namespace

Exporters::Exporters(const Options& o, const PreparedCloth& prepared, std::optional<int> frames)
    : obj_(o.exportObjDir, o.exportEvery, prepared, o.exportColliders),
      gltf_(checkedGltfPath(o.exportGltf), o.exportEvery, prepared, o.exportColliders, frames) {}

void Exporters::write(int frame, const std::vector<glm::vec4>& positions, double time) {
    if (obj_.wants(frame)) obj_.write(frame, positions, time);
    if (gltf_.wants(frame)) gltf_.write(frame, positions, time);
}

void Exporters::finish(std::ostream& out) {
    const std::string written = gltf_.finish();
    if (!written.empty()) out << written << "\n";
}

}  // namespace cloth
