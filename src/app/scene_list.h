// --list-scenes: the built-in scenes, then the scene files shipped in assets/scenes/ with the
// scene name each holds.
//
// There is no install step, so the assets are looked for next to the program
// (<dir>/assets/scenes, or <dir>/../assets/scenes as in tools/gpu_check.sh's pack, where the
// programs are in bin/), then in the source tree the program was built from (its path compiled
// in as CLOTH_SOURCE_DIR). Without any of them only the built-in scenes are listed.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <vector>

namespace cloth {

// The folders looked in, in order.
std::vector<std::filesystem::path> sceneFolderCandidates();
// The first of them that is a folder.
std::optional<std::filesystem::path> findSceneFolder();

// Writes "name<TAB>description" per built-in scene, then, when `folder` is a folder, a heading
// and "path<TAB>name" per *.json file in it (sorted by path; the name is the file's "name" key,
// or its stem as scene files default to; a file that is not JSON says so in place of a name).
void listScenes(std::ostream& out, const std::optional<std::filesystem::path>& folder);

}  // namespace cloth
