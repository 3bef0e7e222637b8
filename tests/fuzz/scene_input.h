// Shared by the scene fuzz targets: inputs whose grids have more than kMaxFuzzGridVertices in all
// are skipped (returned as -1, kept out of the corpus). They are legitimate scenes, only slow to
// build (a 2000 x 2000 grid takes seconds under the sanitizers), and the size limits that do
// apply to them are tested by the normal tests.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace cloth::fuzz {

constexpr double kMaxFuzzGridVertices = 65536.0;

inline bool hasLargeGrid(const std::string& text) {
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (!doc.is_object() || !doc.contains("cloths") || !doc["cloths"].is_array()) return false;
    double total = 0.0;  // over all cloths: many small grids are as slow as one large one
    for (const auto& cloth : doc["cloths"]) {
        double vertices = 17.0 * 17.0;  // the default 16 x 16 grid, or a mesh
        if (cloth.is_object() && cloth.contains("grid") && cloth["grid"].is_object()) {
            const auto& grid = cloth["grid"];
            if (grid.contains("resolution") && grid["resolution"].is_array()) {
                vertices = 1.0;
                for (const auto& r : grid["resolution"])
                    if (r.is_number()) vertices *= (r.get<double>() + 1.0);
            }
        }
        total += vertices;
    }
    return total > kMaxFuzzGridVertices;
}

// Where relative mesh paths resolve: the seed scenes' own folder (assets/scenes).
inline std::string baseDir() {
    return CLOTH_FUZZ_SCENE_DIR;
}

}  // namespace cloth::fuzz
