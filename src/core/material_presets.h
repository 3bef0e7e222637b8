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

std::optional<MaterialPreset> findMaterialPreset(std::string_view name);
std::span<const std::string_view> materialPresetNames();
std::span<const MaterialPreset> materialPresets();

}  // namespace cloth
