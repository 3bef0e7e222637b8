#include "app/scene_list.h"

#include <algorithm>
#include <ostream>
#include <string>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/input_file.h"
#include "core/scene.h"

namespace cloth {

namespace fs = std::filesystem;

namespace {

// The scene's "name", or the file's stem (the default of scene files); why not, for a file that
// cannot be read or is not JSON.
std::string sceneName(const fs::path& file) {
    try {
        const nlohmann::json j =
            nlohmann::json::parse(readInputFile(file.string(), kMaxSceneFileBytes, "scene"));
        if (j.is_object() && j.contains("name") && j["name"].is_string())
            return j["name"].get<std::string>();
        return file.stem().string();
    } catch (const Error& e) {
        return std::string("(cannot read: ") + e.what() + ")";
    } catch (const nlohmann::json::exception&) {
        return "(not valid JSON)";
    }
}

}  // namespace

std::vector<fs::path> sceneFolderCandidates() {
    std::vector<fs::path> out;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        out.push_back(exe.parent_path() / "assets" / "scenes");
        out.push_back((exe.parent_path().parent_path() / "assets" / "scenes"));
    }
#ifdef CLOTH_SOURCE_DIR
    out.push_back(fs::path(CLOTH_SOURCE_DIR) / "assets" / "scenes");
#endif
    return out;
}

std::optional<fs::path> findSceneFolder() {
    for (const fs::path& p : sceneFolderCandidates()) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) return p.lexically_normal();
    }
    return std::nullopt;
}

void listScenes(std::ostream& out, const std::optional<fs::path>& folder) {
    for (const std::string& name : builtinSceneNames())
        out << name << "\t" << builtinSceneDescription(name) << "\n";
    std::error_code ec;
    if (!folder || !fs::is_directory(*folder, ec)) return;
    std::vector<fs::path> files;
    for (const fs::directory_entry& e : fs::directory_iterator(*folder, ec))
        if (e.path().extension() == ".json" && e.is_regular_file(ec)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    out << "\nscene files in " << folder->string() << " (--scene PATH):\n";
    for (const fs::path& f : files) out << f.string() << "\t" << sceneName(f) << "\n";
}

}  // namespace cloth
