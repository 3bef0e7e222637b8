#include "app/memory_estimate.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace cloth {

namespace {

// Measured bytes per vertex (memory_estimate.h; docs/bench/memory_per_vertex.json): the slope of
// the peak RSS between grids of 201^2 and 401^2 vertices (the FEM and mass-spring models, whose
// steps are slow at that size: 101^2 to 201^2).
constexpr double kXpbdPerVertex = 2060.0;   // distance stretch, dihedral bending
constexpr double kStvkExtra = 110.0;        // the StVK membrane instead of distances
constexpr double kIsometricExtra = 140.0;   // isometric bending instead of dihedral
// Self-collision's rest neighbours, candidates and contacts grow with the pairs within reach of
// a vertex: per vertex this many bytes times (reach / cell)^2, reach = twice the thickness plus
// the margin plus 5 mm (what the first frame's motion bounds add: fitted, with the factor, to
// 1 m grids of 101^2, 151^2 and 201^2 vertices 5 mm thick and 201^2 and 401^2 1 mm thick, peaks
// of 107 MiB to 8.1 GiB, within -16% to +60% each; the growth between the test's sizes within 5%).
constexpr double kSelfCollisionPerReach = 2320.0;
constexpr double kSelfCollisionMotion = 0.005;  // m
// Model pd: its factorised system fills in a little more per vertex on a larger grid. The peak
// taken as V (a + b ln V) for a cloth of V vertices, whose slope a + b (ln V + 1) fits the
// measured 4,350, 4,600 and 5,080 bytes per vertex between 61^2 and 181^2, 101^2 and 201^2, and
// 201^2 and 401^2 vertices.
constexpr double kProjectiveLog = 427.0;    // b
constexpr double kProjectiveBase = -257.0;  // a
constexpr double kFemPerVertex = 3300.0;         // model fem (3,100 to 3,560 measured)
constexpr double kMassSpringPerVertex = 2160.0;  // model mass_spring

std::string grouped(std::uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace

double memoryBytesPerVertex(const Scene& scene, const ClothDesc& cloth) {
    double b = kXpbdPerVertex;
    switch (scene.sim.model) {
        case ClothModel::Xpbd:
            if (cloth.material.stretchModel == StretchModel::Stvk) b += kStvkExtra;
            if (cloth.material.bendModel == BendModel::Isometric) b += kIsometricExtra;
            break;
        case ClothModel::Projective: {  // a + b ln V per vertex
            const double v = cloth.grid ? (double(cloth.grid->resX) + 1.0) *
                                              (double(cloth.grid->resY) + 1.0)
                                        : 1.0;
            b = std::max(0.0, kProjectiveBase + kProjectiveLog * std::log(v));
            break;
        }
        case ClothModel::Fem: b = kFemPerVertex; break;
        case ClothModel::MassSpring: b = kMassSpringPerVertex; break;
    }
    if (scene.sim.selfCollision && cloth.grid) {
        const double cell = std::min(double(cloth.grid->width) / double(cloth.grid->resX),
                                     double(cloth.grid->height) / double(cloth.grid->resY));
        const double reach = 2.0 * double(cloth.material.thickness) +
                             double(scene.sim.selfCollision->margin) + kSelfCollisionMotion;
        if (cell > 0.0) b += kSelfCollisionPerReach * (reach / cell) * (reach / cell);
    }
    return b;
}

MemoryEstimate estimateMemory(const Scene& scene) {
    MemoryEstimate e;
    e.bytes = kMemoryBaseBytes;
    for (const ClothDesc& cloth : scene.cloths) {
        if (!cloth.grid) continue;
        const std::uint64_t v =
            (std::uint64_t(cloth.grid->resX) + 1) * (std::uint64_t(cloth.grid->resY) + 1);
        e.vertices += v;
        e.bytes += double(v) * memoryBytesPerVertex(scene, cloth);
    }
    return e;
}

std::optional<double> memoryLimitBytes(std::optional<double> limitGiB) {
    if (limitGiB) return *limitGiB * double(1ull << 30);
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line)) {
        unsigned long long kib = 0;
        if (std::sscanf(line.c_str(), "MemAvailable: %llu kB", &kib) == 1) return double(kib) * 1024.0;
    }
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0) return std::nullopt;
    return double(pages) * double(pageSize);
}

void checkSceneFitsMemory(const Scene& scene, std::optional<double> limitGiB) {
    const MemoryEstimate e = estimateMemory(scene);
    const std::optional<double> have = memoryLimitBytes(limitGiB);
    if (!have || e.bytes <= *have) return;
    const double gib = double(1ull << 30);
    char text[256];
    std::snprintf(text, sizeof text,
                  "needs about %.1f GiB at its peak (%s vertices at about %.1f KiB each), more "
                  "than the %.1f GiB %s",
                  e.bytes / gib, grouped(e.vertices).c_str(),
                  (e.bytes - kMemoryBaseBytes) / double(e.vertices) / 1024.0, *have / gib,
                  limitGiB ? "that --memory-limit allows"
                           : "this machine has available (--memory-limit sets another limit)");
    throw Error("scene '" + scene.name + "' is too large: " + text);
}

}  // namespace cloth
