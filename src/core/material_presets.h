// Named cloth materials from measured fabrics (docs/model.md#presets): areal density, the
// orthotropic membrane (StVK) and the bending rigidity along weft and warp, each with its source.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "core/orthotropic.h"

namespace cloth {

struct MaterialPreset {
    std::string_view name;
    float density = 0.0f;  // kg/m^2
    OrthotropicMaterial membrane;
    float bendWeft = 0.0f;  // N m, curvature along the weft
    float bendWarp = 0.0f;  // N m, curvature along the warp
    std::string_view fabric;  // what it is (use, fibres)
    std::string_view source;  // where the numbers come from
};

struct Material;

std::optional<MaterialPreset> findMaterialPreset(std::string_view name);
// Puts the preset into `m`: its name, density, StVK membrane and bending rigidity along weft and
// warp (the warp's only where it differs). The other fields of `m` stay as they are.
void applyMaterialPreset(const MaterialPreset& p, Material& m);
std::span<const std::string_view> materialPresetNames();
std::span<const MaterialPreset> materialPresets();

}  // namespace cloth
