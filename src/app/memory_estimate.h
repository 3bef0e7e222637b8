// How much memory a run will take, from the scene description alone (before any mesh is built),
// so that a scene too large for the machine is refused at once with the figure, instead of
// allocating for minutes until the system kills it.
//
// The estimate is the peak resident memory of a CPU-reference run of the scene's grids, from
// bytes per vertex measured for each model and feature (Release build, `clothsim --frames 1
// --backend cpu`, peak RSS of grids of 101^2, 201^2 and 401^2 vertices: the slope between
// sizes; docs/bench/memory_per_vertex.json): preparing a cloth (its constraint graph, colouring,
// batches and the solver's copies) holds about 2 KiB per vertex at its peak, where the solver's
// arrays alone are a tenth of that. Self-collision adds a term that grows with the pairs within
// reach of a vertex, (reach / cell)^2: 44 KB per vertex on a 1 m grid of 201^2 vertices 5 mm
// thick. A mesh cloth is not counted: its file's size bounds it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/scene.h"

namespace cloth {

struct MemoryEstimate {
    double bytes = 0.0;           // peak resident bytes of the run
    std::uint64_t vertices = 0;   // the grids' vertices counted
};

// The run's fixed cost (the program, its libraries, the allocator): resident before any cloth.
inline constexpr double kMemoryBaseBytes = 30.0 * (1 << 20);

// Bytes per vertex of one grid cloth at its peak, for the scene's model and the cloth's
// material, and with self-collision on (scene-level).
double memoryBytesPerVertex(const Scene& scene, const ClothDesc& cloth);

MemoryEstimate estimateMemory(const Scene& scene);

// The memory a run may take: `limitGiB` (--memory-limit) if given, else what the machine has
// available now (/proc/meminfo's MemAvailable; its physical memory where that cannot be read);
// nullopt when neither is known.
std::optional<double> memoryLimitBytes(std::optional<double> limitGiB);

// cloth::Error when the estimate exceeds the limit: "scene 'NAME' is too large: needs about
// 18.5 GiB at its peak (9,006,001 vertices at about 2.1 KiB each), more than the 7.8 GiB
// available (--memory-limit raises the limit)".
void checkSceneFitsMemory(const Scene& scene, std::optional<double> limitGiB);

}  // namespace cloth
