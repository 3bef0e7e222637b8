// Material presets (Wang, O'Brien & Ramamoorthi 2011 through ARCSim's material files;
// Trendafilov 2021 Table 3.1) and the orthotropic validity checks.
#include <cmath>

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/material_presets.h"
#include "core/orthotropic.h"

using namespace cloth;

TEST(MaterialPresets, ViscoseAndWoolFromTable31) {
    auto viscose = findMaterialPreset("viscose");
    ASSERT_TRUE(viscose.has_value());
    EXPECT_FLOAT_EQ(viscose->density, 0.23f);
    EXPECT_FLOAT_EQ(viscose->membrane.ex, 245.0f);
    EXPECT_FLOAT_EQ(viscose->membrane.ey, 366.0f);
    EXPECT_FLOAT_EQ(viscose->membrane.g, 0.38f);
    auto wool = findMaterialPreset("wool");
    ASSERT_TRUE(wool.has_value());
    EXPECT_FLOAT_EQ(wool->density, 0.26f);
    EXPECT_FLOAT_EQ(wool->membrane.ey, 1391.0f);
    EXPECT_FALSE(findMaterialPreset("silk").has_value());
    EXPECT_FALSE(findMaterialPreset("").has_value());
    ASSERT_EQ(materialPresetNames().size(), materialPresets().size());
    ASSERT_GE(materialPresetNames().size(), 8u);
    for (std::string_view name : materialPresetNames()) {
        auto p = findMaterialPreset(name);
        ASSERT_TRUE(p.has_value()) << name;
        EXPECT_FALSE(orthotropicProblem(p->membrane).has_value()) << name;
        EXPECT_FALSE(p->source.empty());
        EXPECT_FALSE(p->fabric.empty());
        // A fabric's bending rigidity: 1e-7 to 1e-4 N m (KES-FB2: 0.01 to 1 gf cm^2/cm).
        EXPECT_GT(p->bendWeft, 1e-7f) << name;
        EXPECT_LT(p->bendWeft, 1e-4f) << name;
        EXPECT_GT(p->bendWarp, 1e-7f) << name;
        EXPECT_LT(p->bendWarp, 1e-4f) << name;
        EXPECT_GT(p->density, 0.05f) << name;
        EXPECT_LT(p->density, 0.5f) << name;
    }
}

// The Wang et al. presets from their ARCSim files' numbers, typed here as the files give them
// (materials/11oz-black-denim.json, royal-target.json): the membrane from the first stretching
// row (C11 = k0, C12 = k1, C22 = k2, G = k3 / 2, nu_xy = C12 / C11, nu_yx = C12 / C22,
// E = C (1 - nu_xy nu_yx)), the bending from the mean of each bending row over four
// (B = k_e / 4; B_warp from the row of hinges along u, B_weft from the row along v).
TEST(MaterialPresets, WangPresetsFromTheirArcsimFiles) {
    struct File {
        const char* name;
        double density, k0, k1, k2, k3;
        double alongU[5], alongV[5];
    };
    const File files[] = {
        {"denim", 0.324, 205.352005, 10.234077, 1013.88629, 53.387184,
         {64.196457, 60.286175, 60.943428, 62.433697, 19.824701},
         {96.951576, 107.848228, 113.060738, 120.569740, 79.781021}},
        {"cotton", 0.220, 2016.55456, 9.170511, 2034.97644, 104.759674,
         {125.409805, 167.284561, 215.412750, 215.090790, 223.861038},
         {125.409805, 167.284561, 215.412750, 215.090790, 227.861038}},
    };
    for (const File& f : files) {
        const auto p = findMaterialPreset(f.name);
        ASSERT_TRUE(p.has_value()) << f.name;
        const double nxy = f.k1 / f.k0, nyx = f.k1 / f.k2, d = 1.0 - nxy * nyx;
        EXPECT_NEAR(p->density, f.density, 1e-6);
        EXPECT_NEAR(p->membrane.ex, f.k0 * d, 1e-3 * f.k0);
        EXPECT_NEAR(p->membrane.ey, f.k2 * d, 1e-3 * f.k2);
        EXPECT_NEAR(p->membrane.nuXY, nxy, 1e-3 * nxy);
        EXPECT_NEAR(p->membrane.nuYX, nyx, 1e-2 * nyx);
        EXPECT_NEAR(p->membrane.g, f.k3 / 2.0, 1e-3 * f.k3);
        double u = 0.0, v = 0.0;
        for (int i = 0; i < 5; ++i) u += f.alongU[i] * 1e-6 / 5.0 / 4.0, v += f.alongV[i] * 1e-6 / 5.0 / 4.0;
        EXPECT_NEAR(p->bendWarp, u, 1e-3 * u) << f.name;
        EXPECT_NEAR(p->bendWeft, v, 1e-3 * v) << f.name;
    }
}

TEST(MaterialPresets, StiffnessUsesTheSymmetricPairing) {
    OrthotropicMaterial m = findMaterialPreset("viscose")->membrane;
    auto c = orthotropicStiffness(m);
    const double k = 1.0 / (1.0 - 0.249 * 0.167);
    EXPECT_NEAR(c[0], 245.0 * k, 1e-3);
    EXPECT_NEAR(c[1], 366.0 * k, 1e-3);
    EXPECT_NEAR(c[2], 0.5 * (0.249 * 245.0 + 0.167 * 366.0) * k, 1e-3);
    EXPECT_NEAR(c[3], 0.38, 1e-6);
    // Uniaxial stress along x: lateral strain -C12 / C22 eps_x = -nuYX eps_x (to the pairing).
    EXPECT_NEAR(c[2] / c[1], 0.167, 1e-3);
    EXPECT_NEAR(c[2] / c[0], 0.249, 1e-3);
}

TEST(MaterialPresets, InvalidMaterialsAreRefusedWithReasons) {
    const OrthotropicMaterial good{245.0f, 366.0f, 0.249f, 0.167f, 0.38f};
    auto expectProblem = [](OrthotropicMaterial m, const char* words) {
        auto p = orthotropicProblem(m);
        ASSERT_TRUE(p.has_value()) << words;
        EXPECT_NE(p->find(words), std::string::npos) << *p;
        EXPECT_THROW(validateOrthotropic(m, "cloth 'flag'"), Error);
    };
    OrthotropicMaterial m = good;
    m.ex = 0.0f;
    expectProblem(m, "positive");
    m = good;
    m.g = -1.0f;
    expectProblem(m, "positive");
    m = good;
    m.nuYX = 0.25f;
    expectProblem(m, "not symmetric");
    m = good;
    m.ey = NAN;
    expectProblem(m, "finite");
    // Symmetric but nuXY nuYX >= 1: not positive definite.
    m = {100.0f, 100.0f, 1.2f, 1.2f, 1.0f};
    expectProblem(m, "below 1");
    EXPECT_NO_THROW(validateOrthotropic(good, "cloth 'flag'"));
    try {
        m = good;
        m.ex = -3.0f;
        validateOrthotropic(m, "cloth 'flag'");
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("cloth 'flag'"), std::string::npos);
    }
}
