// Named cloth materials with values from the source documents (shared/seeds). The bending
// stiffness is in none of them: scenes give it.
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
    std::string_view source;  // document and table the values come from
};

std::optional<MaterialPreset> findMaterialPreset(std::string_view name);
std::span<const std::string_view> materialPresetNames();

}  // namespace cloth
