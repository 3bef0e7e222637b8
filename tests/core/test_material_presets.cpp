// Material presets (Trendafilov 2021 Table 3.1) and the orthotropic validity checks.
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
    ASSERT_EQ(materialPresetNames().size(), 2u);
    for (std::string_view name : materialPresetNames()) {
        auto p = findMaterialPreset(name);
        ASSERT_TRUE(p.has_value()) << name;
        EXPECT_FALSE(orthotropicProblem(p->membrane).has_value()) << name;
        EXPECT_FALSE(p->source.empty());
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
