#include "core/material_presets.h"

#include <array>

#include "core/scene.h"

namespace cloth {
namespace {

// Wang, O'Brien & Ramamoorthi 2011 measured ten fabrics; their fits ship as ARCSim's material
// files (materials/<name>.json). Our reading of a file (docs/model.md#presets):
// - density: its "density", kg/m^2;
// - membrane: its first "stretching" row (the stiffness at zero strain; the other five are at
//   1/6 strain in five directions), k = (k0, k1, k2, k3) of ARCSim's energy
//   A/2 (k0 E_uu^2 + 2 k1 E_uu E_vv + k2 E_vv^2) + A k3 E_uv^2 in N/m (E Green's strain):
//   C11 = k0, C12 = k1, C22 = k2 (a negative coupling, which three knits have, is taken as 0),
//   G = k3 / 2 (E_uv = gamma / 2); nu_xy = C12 / C11, nu_yx = C12 / C22,
//   E_x = C11 (1 - nu_xy nu_yx), E_y = C22 (1 - nu_xy nu_yx); u is our weft (x), v the warp;
// - bending: its "bending" rows hold ARCSim's k_e at five curvatures for a hinge whose edge runs
//   along u (row 0), at 45 degrees (row 1) and along v (row 2). ARCSim's hinge force
//   -(k_e |e|^2 / (2 (A1 + A2))) (theta - theta0) grad(theta) / 2 is the energy
//   k_e |e|^2 theta^2 / (8 (A1 + A2)); ours on the same (equilateral) mesh is
//   (B/2) |e|^2 theta^2 / (A1 + A2) (prep/hinge_bending.h), so B = k_e / 4. An edge along u folds
//   under curvature along v: B_warp from row 0, B_weft from row 2, each the mean of its five
//   curvature samples (our bending is linear).
// Trendafilov 2021 Table 3.1 (taken there from its reference [11]): density, Ex, Ey, nu_xy,
// nu_yx, Es, in N/m (the table says Pa; only N/m makes sense of the magnitudes); the Poisson
// pairing nu_xy Ex = nu_yx Ey: 0.249 * 245 = 61.0 ~ 0.167 * 366 = 61.1 (viscose),
// 0.261 * 866 = 226.0 ~ 0.162 * 1391 = 225.3 (wool). It gives no bending: those two take the
// default (cotton's).
constexpr std::array<MaterialPreset, 9> kPresets = {{
    {"cotton", 0.220f, {2016.5f, 2034.9f, 0.00455f, 0.00451f, 52.38f}, 4.755e-5f, 4.735e-5f,
     "trousers, 65% cotton 35% polyester (royal-target)",
     "Wang, O'Brien & Ramamoorthi 2011 (ARCSim materials/royal-target.json)"},
    {"denim", 0.324f, {205.2f, 1013.4f, 0.0498f, 0.0101f, 26.69f}, 2.591e-5f, 1.338e-5f,
     "jeans, 11 oz, 99% cotton 1% spandex (11oz-black-denim)",
     "Wang, O'Brien & Ramamoorthi 2011 (ARCSim materials/11oz-black-denim.json)"},
    {"polyester", 0.128f, {2002.1f, 2027.5f, 0.000173f, 0.000170f, 9.595f}, 6.395e-6f, 1.113e-5f,
     "tablecloth, 100% polyester (white-dots-on-blk)",
     "Wang, O'Brien & Ramamoorthi 2011 (ARCSim materials/white-dots-on-blk.json)"},
    {"jersey", 0.187f, {16.59f, 34.48f, 0.0f, 0.0f, 18.43f}, 3.994e-6f, 7.646e-6f,
     "t-shirt interlock knit, 60% cotton 40% polyester (gray-interlock)",
     "Wang, O'Brien & Ramamoorthi 2011 (ARCSim materials/gray-interlock.json)"},
    {"rib_knit", 0.276f, {42.87f, 65.17f, 0.0f, 0.0f, 41.59f}, 8.933e-6f, 1.854e-5f,
     "underwear rib knit, 95% cotton 5% spandex (ivory-rib-knit)",
     "Wang, O'Brien & Ramamoorthi 2011 (ARCSim materials/ivory-rib-knit.json)"},
    {"ponte", 0.284f, {31.15f, 44.03f, 0.0f, 0.0f, 15.95f}, 7.481e-6f, 9.991e-6f,
     "jacket ponte roma double knit, 60% polyester 40% rayon (camel-ponte-roma)",
     "Wang, O'Brien & Ramamoorthi 2011 (ARCSim materials/camel-ponte-roma.json)"},
    {"swimwear", 0.204f, {47.52f, 103.6f, 0.142f, 0.0653f, 30.39f}, 1.134e-5f, 1.382e-5f,
     "swimsuit knit, 87% nylon 13% spandex (white-swim-solid)",
     "Wang, O'Brien & Ramamoorthi 2011 (ARCSim materials/white-swim-solid.json)"},
    {"viscose", 0.23f, {245.0f, 366.0f, 0.249f, 0.167f, 0.38f}, kDefaultBendRigidity,
     kDefaultBendRigidity, "viscose", "Trendafilov 2021, Table 3.1; bending: the default's"},
    {"wool", 0.26f, {866.0f, 1391.0f, 0.261f, 0.162f, 0.51f}, kDefaultBendRigidity,
     kDefaultBendRigidity, "wool", "Trendafilov 2021, Table 3.1; bending: the default's"},
}};

constexpr std::array<std::string_view, kPresets.size()> kNames = [] {
    std::array<std::string_view, kPresets.size()> n{};
    for (std::size_t i = 0; i < kPresets.size(); ++i) n[i] = kPresets[i].name;
    return n;
}();

}  // namespace

std::optional<MaterialPreset> findMaterialPreset(std::string_view name) {
    for (const MaterialPreset& p : kPresets)
        if (p.name == name) return p;
    return std::nullopt;
}

std::span<const std::string_view> materialPresetNames() {
    return kNames;
}

std::span<const MaterialPreset> materialPresets() {
    return kPresets;
}

void applyMaterialPreset(const MaterialPreset& p, Material& m) {
    m.preset = std::string(p.name);
    m.density = p.density;
    m.stretchModel = StretchModel::Stvk;
    m.membrane = p.membrane;
    m.bendRigidity = p.bendWeft;
    if (p.bendWarp != p.bendWeft) m.bendRigidityWarp = p.bendWarp;
}

}  // namespace cloth
