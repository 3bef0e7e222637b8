// See obj_scan.h.
#include "core/obj_scan.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.h"

namespace cloth::detail {

namespace {

struct Counts {
    long positions = 0;  // v lines so far (for negative indices)
    long texcoords = 0;
    long totalPositions = 0;  // in the whole file (OBJ allows forward references)
    long totalTexcoords = 0;
};

std::vector<std::string_view> tokens(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        std::size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
        if (j > i) out.push_back(line.substr(i, j - i));
        i = j;
    }
    return out;
}

class LineError {
  public:
    LineError(const std::string& source, std::size_t line) : source_(source), line_(line) {}
    [[noreturn]] void operator()(const std::string& problem) const {
        throw Error(source_ + ": line " + std::to_string(line_) + ": " + problem);
    }

  private:
    const std::string& source_;
    std::size_t line_;
};

// A coordinate as the float the mesh will hold; refuses garbage, NaN and infinity.
void checkNumber(std::string_view tok, const char* what, const LineError& fail) {
    std::string s(tok);
    if (!s.empty() && s[0] == '+') s.erase(0, 1);
    double value = 0.0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ptr != s.data() + s.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
        fail("malformed " + std::string(what) + " '" + std::string(tok) + "'");
    if (ec == std::errc::result_out_of_range) value = std::strtod(s.c_str(), nullptr);
    if (std::isnan(value)) fail(std::string(what) + " '" + std::string(tok) + "' is NaN");
    if (!std::isfinite(static_cast<float>(value)))
        fail(std::string(what) + " '" + std::string(tok) + "' is infinite");
}

void checkVertex(const std::vector<std::string_view>& tok, const LineError& fail) {
    if (tok.size() < 4) fail("vertex with fewer than 3 coordinates");
    for (int k = 1; k <= 3; ++k) checkNumber(tok[k], "vertex coordinate", fail);
}

void checkTexcoord(const std::vector<std::string_view>& tok, const LineError& fail) {
    if (tok.size() < 2) fail("texture coordinate without values");
    for (std::size_t k = 1; k < tok.size() && k <= 3; ++k)
        checkNumber(tok[k], "texture coordinate", fail);
}

// One index of a face corner ("v", "v/vt", "v//vn", "v/vt/vn"); empty `part` means absent.
void checkIndex(std::string_view part, const char* what, long sofar, long total,
                const LineError& fail) {
    long idx = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), idx);
    if (ec != std::errc() || ptr != part.data() + part.size())
        fail("malformed face: " + std::string(what) + " index '" + std::string(part) + "'");
    if (idx == 0) fail(std::string("face ") + what + " index 0 (OBJ indices start at 1)");
    bool ok = idx > 0 ? idx <= total : -idx <= sofar;
    if (!ok)
        fail(std::string("face ") + what + " index " + std::to_string(idx) + " out of range (" +
             std::to_string(idx < 0 ? sofar : total) + " defined" +
             (idx < 0 ? " before this line)" : ")"));
}

void checkFace(const std::vector<std::string_view>& tok, const Counts& n, const LineError& fail) {
    if (tok.size() < 4) fail("face with fewer than 3 vertices");
    for (std::size_t k = 1; k < tok.size(); ++k) {
        std::string_view corner = tok[k];
        std::size_t slash = corner.find('/');
        checkIndex(corner.substr(0, slash), "vertex", n.positions, n.totalPositions, fail);
        if (slash == std::string_view::npos) continue;
        std::string_view rest = corner.substr(slash + 1);
        std::string_view vt = rest.substr(0, rest.find('/'));
        if (!vt.empty()) checkIndex(vt, "texture coordinate", n.texcoords, n.totalTexcoords, fail);
    }
}

template <class F>
void forEachLine(std::string_view text, F&& f) {
    std::size_t lineNo = 0, pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        std::size_t hash = line.find('#');
        if (hash != std::string_view::npos) line = line.substr(0, hash);
        f(++lineNo, tokens(line));
        pos = end + 1;
    }
}

}  // namespace

void scanObjText(std::string_view text, const std::string& source) {
    Counts n;
    forEachLine(text, [&](std::size_t, const std::vector<std::string_view>& tok) {
        if (tok.empty()) return;
        n.totalPositions += tok[0] == "v";
        n.totalTexcoords += tok[0] == "vt";
    });
    forEachLine(text, [&](std::size_t lineNo, const std::vector<std::string_view>& tok) {
        if (tok.empty()) return;
        LineError fail(source, lineNo);
        if (tok[0] == "v") {
            checkVertex(tok, fail);
            ++n.positions;
        } else if (tok[0] == "vt") {
            checkTexcoord(tok, fail);
            ++n.texcoords;
        } else if (tok[0] == "f") {
            checkFace(tok, n, fail);
        }
    });
}

}  // namespace cloth::detail
