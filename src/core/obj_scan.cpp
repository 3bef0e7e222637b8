// See obj_scan.h.
#include "core/obj_scan.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
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

// A number as the float the mesh will hold; refuses garbage, NaN and infinity. Returns the text
// to hand on: the token itself when it has no exponent (tinyobjloader parses it as before),
// else the float written out, since tinyobjloader's exponent parsing overflows on long ones.
std::string checkNumber(std::string_view tok, const char* what, const LineError& fail) {
    std::string s(tok);
    if (!s.empty() && s[0] == '+') s.erase(0, 1);
    double value = 0.0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ptr != s.data() + s.size() ||
        (ec != std::errc() && ec != std::errc::result_out_of_range))
        fail("malformed " + std::string(what) + " '" + std::string(tok) + "'");
    if (ec == std::errc::result_out_of_range) value = std::strtod(s.c_str(), nullptr);
    if (std::isnan(value)) fail(std::string(what) + " '" + std::string(tok) + "' is NaN");
    if (!(std::fabs(value) <= double(std::numeric_limits<float>::max())))
        fail(std::string(what) + " '" + std::string(tok) + "' is infinite");
    if (s.find_first_of("eE") == std::string::npos) return s;
    char buf[32];
    auto [end, ec2] = std::to_chars(buf, buf + sizeof buf, static_cast<float>(value));
    return std::string(buf, end);
}

// "v x y z", "v x y z 1" (homogeneous, w = 1) or "v x y z r g b" (tinyobjloader's colours).
std::string checkVertex(const std::vector<std::string_view>& tok, const LineError& fail) {
    const std::size_t n = tok.size() - 1;
    if (n < 3) fail("vertex with fewer than 3 coordinates");
    if (n != 3 && n != 4 && n != 6)
        fail("vertex with " + std::to_string(n) +
             " numbers (expected x y z, x y z w or x y z r g b)");
    std::string out = "v";
    for (std::size_t k = 1; k <= 3; ++k)
        out += " " + checkNumber(tok[k], "vertex coordinate", fail);
    for (std::size_t k = 4; k <= n; ++k)
        checkNumber(tok[k], n == 4 ? "vertex weight w" : "vertex colour", fail);
    if (n == 4 && std::strtod(std::string(tok[4]).c_str(), nullptr) != 1.0)
        fail("vertex weight w '" + std::string(tok[4]) +
             "' is not supported (rational vertices; only w = 1)");
    return out + "\n";
}

// "vt u", "vt u v" or "vt u v w"; w is unused.
std::string checkTexcoord(const std::vector<std::string_view>& tok, const LineError& fail) {
    if (tok.size() < 2) fail("texture coordinate without values");
    if (tok.size() > 4) fail("texture coordinate with more than 3 values");
    std::string out = "vt";
    for (std::size_t k = 1; k < tok.size(); ++k) {
        std::string num = checkNumber(tok[k], "texture coordinate", fail);
        if (k <= 2) out += " " + num;
    }
    return out + "\n";
}

// Normals are not used, but a corrupt one means a corrupt file.
void checkNormal(const std::vector<std::string_view>& tok, const LineError& fail) {
    if (tok.size() != 4) fail("normal without exactly 3 values");
    for (std::size_t k = 1; k < tok.size(); ++k) checkNumber(tok[k], "normal component", fail);
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

// Returns the face as "f v/vt ..." (normal indices dropped: normals are not used).
std::string checkFace(const std::vector<std::string_view>& tok, const Counts& n,
                      const LineError& fail) {
    if (tok.size() < 4) fail("face with fewer than 3 vertices");
    std::string out = "f";
    for (std::size_t k = 1; k < tok.size(); ++k) {
        std::string_view corner = tok[k];
        std::size_t slash = corner.find('/');
        std::string_view v = corner.substr(0, slash);
        checkIndex(v, "vertex", n.positions, n.totalPositions, fail);
        out += " " + std::string(v);
        if (slash == std::string_view::npos) continue;
        std::string_view rest = corner.substr(slash + 1);
        std::string_view vt = rest.substr(0, rest.find('/'));
        if (vt.empty()) continue;
        checkIndex(vt, "texture coordinate", n.texcoords, n.totalTexcoords, fail);
        out += "/" + std::string(vt);
    }
    return out + "\n";
}

// Calls f(lineNumber, tokens) for every line. Lines end as in tinyobjloader: at "\n", "\r\n" or
// a lone "\r". Text from '#' on is a comment.
template <class F>
void forEachLine(std::string_view text, F&& f) {
    std::size_t lineNo = 0, pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find_first_of("\r\n", pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        std::size_t hash = line.find('#');
        if (hash != std::string_view::npos) line = line.substr(0, hash);
        f(++lineNo, tokens(line));
        pos = end + 1;
        if (end < text.size() && text[end] == '\r' && pos < text.size() && text[pos] == '\n') ++pos;
    }
}

}  // namespace

std::string scanObjText(std::string_view text, const std::string& source) {
    Counts n;
    forEachLine(text, [&](std::size_t, const std::vector<std::string_view>& tok) {
        if (tok.empty()) return;
        n.totalPositions += tok[0] == "v";
        n.totalTexcoords += tok[0] == "vt";
    });
    std::string out;
    out.reserve(text.size());
    forEachLine(text, [&](std::size_t lineNo, const std::vector<std::string_view>& tok) {
        if (tok.empty()) return;
        LineError fail(source, lineNo);
        if (tok[0] == "v") {
            out += checkVertex(tok, fail);
            ++n.positions;
        } else if (tok[0] == "vt") {
            out += checkTexcoord(tok, fail);
            ++n.texcoords;
        } else if (tok[0] == "vn") {
            checkNormal(tok, fail);
        } else if (tok[0] == "f") {
            out += checkFace(tok, n, fail);
        }
    });
    return out;
}

}  // namespace cloth::detail
