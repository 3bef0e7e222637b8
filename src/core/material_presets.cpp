#include "core/material_presets.h"

#include <array>

namespace cloth {
namespace {

// Trendafilov 2021 Table 3.1 (taken there from its reference [11]): density, Ex, Ey, nu_xy, nu_yx, Es.
// The table labels the moduli Pa; they are membrane moduli in N/m (their magnitudes only make sense so). The Poisson
// pairing is nuXY * Ex = nuYX * Ey: 0.249 * 245 = 61.0 ~ 0.167 * 366 = 61.1 (viscose) and
// 0.261 * 866 = 226.0 ~ 0.162 * 1391 = 225.3 (wool).
constexpr std::array<MaterialPreset, 2> kPresets = {{
    {"viscose", 0.23f, {245.0f, 366.0f, 0.249f, 0.167f, 0.38f}, "Trendafilov 2021, Table 3.1"},
    {"wool", 0.26f, {866.0f, 1391.0f, 0.261f, 0.162f, 0.51f}, "Trendafilov 2021, Table 3.1"},
}};

constexpr std::array<std::string_view, 2> kNames = {kPresets[0].name, kPresets[1].name};

}  // namespace

std::optional<MaterialPreset> findMaterialPreset(std::string_view name) {
    for (const MaterialPreset& p : kPresets)
        if (p.name == name) return p;
    return std::nullopt;
}

std::span<const std::string_view> materialPresetNames() {
    return kNames;
}

}  // namespace cloth
