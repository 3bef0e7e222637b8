#include "app/phantom_tuning.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <ostream>

#include "core/error.h"
#include "core/input_file.h"
#include "core/output_file.h"

namespace cloth {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kFormat = "clothsim phantom tuning";
constexpr int kVersion = 1;
constexpr std::uint32_t kMaxTarget = 10000;  // as scene files allow

// A JSON value and where it is, for messages: "FILE: devices[0].sizes[2].best: ...".
struct At {
    const json& value;
    std::string source;
    std::string path;

    [[noreturn]] void fail(const std::string& what) const {
        throw Error(source + ": " + (path.empty() ? "" : path + ": ") + what);
    }
    At field(const std::string& key) const {
        if (!value.is_object()) fail("expected an object");
        auto it = value.find(key);
        if (it == value.end()) fail("missing \"" + key + "\"");
        return {*it, source, path.empty() ? key : path + "." + key};
    }
    bool has(const std::string& key) const { return value.is_object() && value.contains(key); }
    At item(std::size_t i) const {
        return {value[i], source, path + "[" + std::to_string(i) + "]"};
    }
    std::size_t arraySize() const {
        if (!value.is_array()) fail("expected an array");
        return value.size();
    }
    std::string text() const {
        if (!value.is_string()) fail("expected a string");
        return value.get<std::string>();
    }
    std::int64_t integer(std::int64_t lo, std::int64_t hi) const {
        if (!value.is_number_integer())
            fail("expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
        const std::int64_t v = value.get<std::int64_t>();
        if (v < lo || v > hi)
            fail("expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) +
                 ", got " + value.dump());
        return v;
    }
    double nonNegative() const {
        if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0)
            fail("expected a number >= 0");
        return value.get<double>();
    }
    double milliseconds() const {
        if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0)
            fail("expected a time in ms (a number >= 0)");
        return value.get<double>();
    }
    // "off" -> 0, or a colour target from 1 to kMaxTarget.
    std::uint32_t target() const {
        if (value.is_string() && value.get<std::string>() == "off") return 0;
        if (!value.is_number_integer()) fail("expected \"off\" or a number of colours");
        return static_cast<std::uint32_t>(integer(1, kMaxTarget));
    }
};

constexpr std::int64_t kMaxCount = std::numeric_limits<std::int32_t>::max();

TuningCandidate parseCandidate(const At& c) {
    TuningCandidate out;
    out.target = c.field("phantoms").target();
    out.colors = static_cast<std::uint32_t>(c.field("colors").integer(1, kMaxCount));
    out.phantomVertices =
        static_cast<std::uint32_t>(c.field("phantom_vertices").integer(0, kMaxCount));
    const At ms = c.field("ms_per_frame");
    out.msMin = ms.field("min").milliseconds();
    out.msMedian = ms.field("median").milliseconds();
    if (c.has("accuracy")) {
        const At a = c.field("accuracy");
        out.residual = a.field("residual").nonNegative();
        out.iterationsToMatch = static_cast<int>(a.field("iterations_to_match").integer(-1, kMaxCount));
        if (a.has("ms_to_match")) out.msToMatch = a.field("ms_to_match").milliseconds();
    }
    return out;
}

TuningSize parseSize(const At& s) {
    TuningSize out;
    out.vertices = static_cast<std::uint32_t>(s.field("vertices").integer(1, kMaxCount));
    if (s.has("grid")) out.grid = static_cast<std::uint32_t>(s.field("grid").integer(0, kMaxCount));
    out.best = s.field("best").target();
    if (s.has("candidates")) {
        const At cs = s.field("candidates");
        for (std::size_t i = 0, n = cs.arraySize(); i < n; ++i)
            out.candidates.push_back(parseCandidate(cs.item(i)));
    }
    return out;
}

int optionalInt(const At& d, const std::string& key) {
    return d.has(key) ? static_cast<int>(d.field(key).integer(0, kMaxCount)) : 0;
}

TuningDevice parseDevice(const At& d) {
    TuningDevice out;
    out.backend = d.field("backend").text();
    if (out.backend != "cpu" && out.backend != "gpu")
        d.field("backend").fail("expected \"cpu\" or \"gpu\", got \"" + out.backend + "\"");
    out.device = d.field("device").text();
    out.threads = optionalInt(d, "threads");
    out.workgroupSize = optionalInt(d, "workgroup_size");
    out.substeps = optionalInt(d, "substeps");
    out.iterations = optionalInt(d, "iterations");
    const At sizes = d.field("sizes");
    if (sizes.arraySize() == 0) sizes.fail("expected at least one measured size");
    for (std::size_t i = 0, n = sizes.arraySize(); i < n; ++i)
        out.sizes.push_back(parseSize(sizes.item(i)));
    std::sort(out.sizes.begin(), out.sizes.end(),
              [](const TuningSize& a, const TuningSize& b) { return a.vertices < b.vertices; });
    for (std::size_t i = 1; i < out.sizes.size(); ++i)
        if (out.sizes[i].vertices == out.sizes[i - 1].vertices)
            sizes.fail("two entries for " + std::to_string(out.sizes[i].vertices) + " vertices");
    return out;
}

using ojson = nlohmann::ordered_json;

ojson candidateJson(const TuningCandidate& c) {
    ojson j = {{"phantoms", c.target ? ojson(c.target) : ojson("off")},
               {"colors", c.colors},
               {"phantom_vertices", c.phantomVertices},
               {"ms_per_frame", {{"min", c.msMin}, {"median", c.msMedian}}}};
    if (c.residual && c.iterationsToMatch) {
        ojson a = {{"residual", *c.residual}, {"iterations_to_match", *c.iterationsToMatch}};
        if (c.msToMatch) a["ms_to_match"] = *c.msToMatch;
        j["accuracy"] = a;
    }
    return j;
}

ojson sizeJson(const TuningSize& s) {
    ojson candidates = ojson::array();
    for (const TuningCandidate& c : s.candidates) candidates.push_back(candidateJson(c));
    return {{"vertices", s.vertices},
            {"grid", s.grid},
            {"best", s.best ? ojson(s.best) : ojson("off")},
            {"candidates", candidates}};
}

std::string envOrEmpty(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

}  // namespace

std::string phantomTargetName(std::uint32_t target) {
    return target ? std::to_string(target) : "off";
}

std::string tuningPath(const std::optional<std::string>& flag) {
    if (flag) return *flag;
    if (std::string p = envOrEmpty("CLOTHSIM_TUNING"); !p.empty()) return p;
    // A relative XDG_CONFIG_HOME is invalid (XDG Base Directory specification): ignored.
    if (std::string x = envOrEmpty("XDG_CONFIG_HOME"); !x.empty() && fs::path(x).is_absolute())
        return (fs::path(x) / "clothsim" / "tuning.json").string();
    if (std::string h = envOrEmpty("HOME"); !h.empty())
        return (fs::path(h) / ".config" / "clothsim" / "tuning.json").string();
    return "";
}

TuningFile parseTuning(const std::string& text, const std::string& source) {
    json root;
    try {
        root = json::parse(text);
    } catch (const json::exception& e) {
        throw Error(source + ": not valid JSON (" + e.what() + ")");
    }
    const At top{root, "tuning file " + source, ""};
    if (!root.is_object()) top.fail("expected a JSON object");
    if (!top.has("format") || !root["format"].is_string() || root["format"] != kFormat)
        top.fail(std::string("not a tuning file (\"format\" must be \"") + kFormat + "\")");
    top.field("version").integer(kVersion, kVersion);
    TuningFile out;
    const At devices = top.field("devices");
    for (std::size_t i = 0, n = devices.arraySize(); i < n; ++i) {
        TuningDevice d = parseDevice(devices.item(i));
        if (findDevice(out, d.backend, d.device))
            devices.fail("two entries for " + d.backend + " device '" + d.device + "'");
        out.devices.push_back(std::move(d));
    }
    return out;
}

nlohmann::ordered_json tuningJson(const TuningFile& file) {
    ojson devices = ojson::array();
    for (const TuningDevice& d : file.devices) {
        ojson sizes = ojson::array();
        for (const TuningSize& s : d.sizes) sizes.push_back(sizeJson(s));
        devices.push_back({{"backend", d.backend},
                           {"device", d.device},
                           {"threads", d.threads},
                           {"workgroup_size", d.workgroupSize},
                           {"substeps", d.substeps},
                           {"iterations", d.iterations},
                           {"sizes", sizes}});
    }
    return {{"format", kFormat}, {"version", kVersion}, {"devices", devices}};
}

std::optional<TuningFile> readTuningFile(const std::string& path) {
    std::error_code ec;
    if (path.empty() || !fs::exists(path, ec)) return std::nullopt;
    std::string text;
    try {  // only a regular file, at most kMaxTuningFileBytes: never /dev/zero or a FIFO
        text = readInputFile(path, kMaxTuningFileBytes, "tuning");
    } catch (const Error& e) {
        throw Error(std::string("tuning file ") + e.what());
    }
    return parseTuning(text, path);
}

void writeTuningFile(const std::string& path, const TuningFile& file) {
    if (path.empty())
        throw Error(
            "no place for the tuning file: set --tuning FILE, CLOTHSIM_TUNING, "
            "XDG_CONFIG_HOME or HOME");
    const fs::path parent = fs::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty()) fs::create_directories(parent, ec);
    try {
        writeOutputFile(path, tuningJson(file).dump(2) + "\n");
    } catch (const Error& e) {
        throw Error(std::string("tuning file ") + e.what());
    }
}

void mergeTuning(TuningFile& file, const TuningDevice& measured) {
    auto it = std::find_if(file.devices.begin(), file.devices.end(), [&](const TuningDevice& d) {
        return d.backend == measured.backend && d.device == measured.device;
    });
    if (it == file.devices.end()) {
        file.devices.push_back(measured);
        return;
    }
    std::vector<TuningSize> sizes = measured.sizes;
    for (const TuningSize& old : it->sizes) {
        const bool replaced = std::any_of(sizes.begin(), sizes.end(), [&](const TuningSize& s) {
            return s.vertices == old.vertices;
        });
        if (!replaced) sizes.push_back(old);
    }
    std::sort(sizes.begin(), sizes.end(),
              [](const TuningSize& a, const TuningSize& b) { return a.vertices < b.vertices; });
    *it = measured;
    it->sizes = std::move(sizes);
}

const TuningDevice* findDevice(const TuningFile& file, const std::string& backend,
                               const std::string& device) {
    for (const TuningDevice& d : file.devices)
        if (d.backend == backend && d.device == device) return &d;
    return nullptr;
}

const TuningSize* nearestSize(const TuningDevice& entry, std::uint32_t vertices) {
    // Distance on a log scale is the ratio max/min; compared exactly as hi1 * lo2 < hi2 * lo1
    // (products of two 32-bit numbers fit in 64 bits).
    const std::uint64_t v = std::max<std::uint32_t>(vertices, 1);
    const TuningSize* best = nullptr;
    std::uint64_t bestHi = 0, bestLo = 1;
    for (const TuningSize& s : entry.sizes) {  // ascending, so ties keep the smaller
        const std::uint64_t hi = std::max<std::uint64_t>(s.vertices, v);
        const std::uint64_t lo = std::min<std::uint64_t>(s.vertices, v);
        if (!best || hi * bestLo < bestHi * lo) {
            best = &s;
            bestHi = hi;
            bestLo = lo;
        }
    }
    return best;
}

PhantomSetting resolveAutoPhantoms(const AutoPhantomContext& where, std::uint32_t vertices,
                                   std::ostream& notices) {
    const std::optional<TuningFile> file = readTuningFile(where.path);
    const TuningDevice* entry = file ? findDevice(*file, where.backend, where.device) : nullptr;
    const TuningSize* size = entry ? nearestSize(*entry, vertices) : nullptr;
    if (size)
        return size->best ? PhantomSetting{PhantomMode::Target, size->best}
                          : PhantomSetting{PhantomMode::Off, 0};
    std::string why = "no entry for " + where.backend + " '" + where.device + "' in " + where.path;
    if (where.path.empty())
        why = "no tuning file (HOME is not set)";
    else if (!file)
        why = "no tuning file " + where.path;
    notices << where.program << ": --phantoms auto: " << why
            << " (run clothbench --tune-phantoms); using the default target of "
            << kDefaultAutoTarget << " colours\n";
    return {PhantomMode::Target, kDefaultAutoTarget};
}

}  // namespace cloth
