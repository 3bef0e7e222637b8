// `--phantoms auto`: the phantom colour target measured fastest on this device. `clothbench
// --tune-phantoms` measures frame times per backend, device and grid size and writes the best
// target into a tuning file; clothsim, clothcheck and clothbench read it back for the backend and
// device they run on and the measured size nearest to the scene's vertex count.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/scene.h"

namespace cloth {

// The target `auto` uses when no tuning file, or no entry for the device, exists: the goal
// of at most 8 colours, meant for GPUs, where every colour costs a dispatch and a barrier. Not
// measured on a real GPU; on the CPU and on lavapipe phantoms off was mostly as fast or faster
// (README, "Phantom vertices"), hence the notice asking to run clothbench --tune-phantoms.
constexpr std::uint32_t kDefaultAutoTarget = 8;

struct TuningCandidate {
    std::uint32_t target = 0;  // 0 = phantoms off
    std::uint32_t colors = 0;
    std::uint32_t phantomVertices = 0;
    double msMin = 0.0;     // fastest repeat's mean frame time
    double msMedian = 0.0;  // median over repeats
    // Accuracy (clothbench --tune-phantoms; absent in older files): the XPBD residual after one
    // substep from a common start (app/convergence.h) at the tuned iterations, the iterations
    // this candidate needs to reach phantoms-off's residual there (-1: not within 16 times the
    // tuned count), and the frame time that takes (msMin scaled by iterations, conservatively).
    std::optional<double> residual;
    std::optional<int> iterationsToMatch;
    std::optional<double> msToMatch;
    bool operator==(const TuningCandidate&) const = default;
};

struct TuningSize {
    std::uint32_t vertices = 0;               // original vertices of the measured cloth
    std::uint32_t grid = 0;                   // quads per side (0 when not a square grid)
    std::uint32_t best = 0;                   // the target to use; 0 = phantoms off
    std::vector<TuningCandidate> candidates;  // what was measured (information only)
    bool operator==(const TuningSize&) const = default;
};

struct TuningDevice {
    std::string backend;    // "cpu" | "gpu"
    std::string device;     // Solver::deviceName(): the CPU model or the Vulkan device name
    int threads = 0;        // CPU threads measured with (information only)
    int workgroupSize = 0;  // GPU (information only)
    int substeps = 0, iterations = 0;  // information only
    std::vector<TuningSize> sizes;     // ascending vertex counts, no two equal
    bool operator==(const TuningDevice&) const = default;
};

struct TuningFile {
    std::vector<TuningDevice> devices;
    bool operator==(const TuningFile&) const = default;
};

// Where the tuning file is: `flag` (--tuning) when given, else $CLOTHSIM_TUNING, else
// $XDG_CONFIG_HOME/clothsim/tuning.json, else $HOME/.config/clothsim/tuning.json. Empty variables
// count as unset. "" when none of them is set.
std::string tuningPath(const std::optional<std::string>& flag);

// Parses a tuning file's text; cloth::Error naming `source` and the problem when malformed.
TuningFile parseTuning(const std::string& text, const std::string& source);
nlohmann::ordered_json tuningJson(const TuningFile& file);
// std::nullopt when the file does not exist; cloth::Error naming it when it cannot be read or
// is malformed.
std::optional<TuningFile> readTuningFile(const std::string& path);
// Creates the parent folders; cloth::Error naming the file on failure.
void writeTuningFile(const std::string& path, const TuningFile& file);

// Adds `measured` to `file`: its sizes replace those of the same backend, device and vertex count;
// other sizes and devices are kept.
void mergeTuning(TuningFile& file, const TuningDevice& measured);

// The entry for `backend` and `device`, or null.
const TuningDevice* findDevice(const TuningFile& file, const std::string& backend,
                               const std::string& device);
// The measured size nearest to `vertices` on a log scale (ratio), the smaller on a tie. Null
// when `entry` has no sizes.
const TuningSize* nearestSize(const TuningDevice& entry, std::uint32_t vertices);

// What `--phantoms auto` runs as on this backend and device for a cloth of `vertices` original
// vertices: the tuned best (Off or Target). When the file or the entry is missing, a one-line
// notice on `notices` (prefixed "<program>: ") and Target kDefaultAutoTarget. A malformed file is
// a cloth::Error.
struct AutoPhantomContext {
    std::string program;  // for the notice
    std::string path;     // tuningPath(...)
    std::string backend;
    std::string device;
};
PhantomSetting resolveAutoPhantoms(const AutoPhantomContext& where, std::uint32_t vertices,
                                   std::ostream& notices);

// "off" or the target as text, as the tuning file writes `best`.
std::string phantomTargetName(std::uint32_t target);

}  // namespace cloth
