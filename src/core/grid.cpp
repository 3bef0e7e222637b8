// Procedural rectangular cloth (see GridDesc in mesh.h for the layout).
#include <cmath>
#include <limits>
#include <string>

#include "core/error.h"
#include "core/mesh.h"

namespace cloth {

namespace {

// splitmix64: a fixed, platform-independent hash, so a seed gives the same mesh everywhere
// (std::uniform_*_distribution is implementation-defined).
std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// True: split the quad along the top-left -> bottom-right diagonal; false: top-right ->
// bottom-left.
bool mainDiagonal(const GridDesc& d, std::uint32_t row, std::uint32_t col) {
    switch (d.pattern) {
        case GridPattern::Regular:
            return true;
        case GridPattern::Alternating:
            return ((row + col) & 1u) == 0;
        case GridPattern::Random: {
            std::uint64_t quad = std::uint64_t(row) * d.resX + col;
            return (splitmix64((std::uint64_t(d.seed) << 32) ^ splitmix64(quad)) >> 63) != 0;
        }
    }
    return true;
}

}  // namespace

void checkGridDesc(const GridDesc& d) {
    if (!(d.width > 0.0f) || !(d.height > 0.0f) || !std::isfinite(d.width) ||
        !std::isfinite(d.height))
        throw Error("grid: width and height must be positive and finite");
    if (d.resX < 1 || d.resY < 1) throw Error("grid: resolution must be at least 1 x 1");
    std::uint64_t verts = std::uint64_t(d.resX + 1ull) * (d.resY + 1ull);
    std::uint64_t tris = 2ull * d.resX * d.resY;
    if (verts > std::numeric_limits<std::int32_t>::max() ||
        tris > std::numeric_limits<std::int32_t>::max())
        throw Error("grid: resolution " + std::to_string(d.resX) + " x " + std::to_string(d.resY) +
                    " is too large");
}

Mesh makeGrid(const GridDesc& d) {
    checkGridDesc(d);
    const std::uint32_t cols = d.resX + 1, rows = d.resY + 1;
    Mesh m;
    m.positions.resize(std::size_t(cols) * rows);
    m.uvs.resize(m.positions.size());
    for (std::uint32_t r = 0; r < rows; ++r) {
        for (std::uint32_t c = 0; c < cols; ++c) {
            float u = float(c) / float(d.resX), v = float(r) / float(d.resY);
            std::size_t i = std::size_t(r) * cols + c;
            m.positions[i] = {(u - 0.5f) * d.width, (0.5f - v) * d.height, 0.0f};
            m.uvs[i] = {u, v};
        }
    }
    // Counter-clockwise seen from +z (front faces towards +z).
    m.triangles.reserve(2ull * d.resX * d.resY);
    for (std::uint32_t r = 0; r < d.resY; ++r) {
        for (std::uint32_t c = 0; c < d.resX; ++c) {
            std::uint32_t tl = r * cols + c, tr = tl + 1, bl = tl + cols, br = bl + 1;
            if (mainDiagonal(d, r, c)) {
                m.triangles.push_back({tl, bl, br});
                m.triangles.push_back({tl, br, tr});
            } else {
                m.triangles.push_back({tl, bl, tr});
                m.triangles.push_back({tr, bl, br});
            }
        }
    }
    return m;
}

const char* gridPatternName(GridPattern p) {
    switch (p) {
        case GridPattern::Regular:
            return "regular";
        case GridPattern::Alternating:
            return "alternating";
        case GridPattern::Random:
            return "random";
    }
    return "?";
}

GridPattern parseGridPattern(const std::string& name) {
    for (GridPattern p : {GridPattern::Regular, GridPattern::Alternating, GridPattern::Random})
        if (name == gridPatternName(p)) return p;
    throw Error("unknown grid pattern '" + name + "' (expected regular, alternating or random)");
}

}  // namespace cloth
