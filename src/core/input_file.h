// Reading a file the user names (mesh, scene, tuning file): only regular files, up to a size
// cap, and never blocking (a FIFO or a device is refused at once, not read until memory runs
// out or forever). Every error names the file and the problem.
#pragma once

#include <cstdint>
#include <string>

namespace cloth {

constexpr std::uint64_t kMiB = std::uint64_t(1) << 20;
constexpr std::uint64_t kMaxObjFileBytes = 512 * kMiB;  // a 1024^2 grid as OBJ is about 60 MiB
constexpr std::uint64_t kMaxSceneFileBytes = 64 * kMiB;
constexpr std::uint64_t kMaxTuningFileBytes = 16 * kMiB;

// The whole file. `kind` names the limit in messages ("OBJ", "scene", "tuning").
// Throws cloth::Error "<path>: cannot open file: ...", "<path>: not a regular file (a FIFO)",
// "<path>: file too large (N bytes; the limit for OBJ files is 512 MiB)".
std::string readInputFile(const std::string& path, std::uint64_t maxBytes, const char* kind);

}  // namespace cloth
