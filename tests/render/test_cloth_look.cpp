// Each cloth its own colours (render/cloth_look.h): two cloths side by side, one with a material
// colour, one with the palette's entry for its place, each found in the image at its projected
// centre; the woven check on and off (clothsim --texture); the check's coordinates for a cloth
// without UVs.
#include <cmath>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "image_checks.h"
#include "prep/prepare.h"
#include "render/cloth_look.h"
#include "render/draw_data.h"
#include "render/offscreen_renderer.h"
#include "render_test.h"
#include "synthetic_cloth.h"

namespace cloth::render {
namespace {

using test::hueDistance;
using test::hueOf;
using test::RenderGpuTest;

constexpr VkExtent2D kLookSize{320, 160};

// Two vertical 1 m sheets facing the camera (+z), 0.4 m apart; the left one green by its
// material.
constexpr const char* kTwoCloths = R"({"name": "two", "cloths": [
    {"name": "left", "grid": {"width": 1, "height": 1, "resolution": [16, 16]},
     "transform": {"translate": [-0.7, 1, 0]}, "material": {"color": [0.05, 0.4, 0.05]}},
    {"name": "right", "grid": {"width": 1, "height": 1, "resolution": [16, 16]},
     "transform": {"translate": [0.7, 1, 0]}}]})";

struct TwoCloths {
    PreparedCloth prepared = prepareScene(parseSceneJson(kTwoCloths, "two.json", ""));
    ClothDrawData data = makeDrawData(prepared);
    Stage stage = makeStage(data);
    std::vector<glm::vec4> normals = test::vertexNormals(prepared);
    ViewState view;
    TwoCloths() { view.camera = OrbitCamera::framing(stage.view); }

    ImageRgba8 render(const std::shared_ptr<vk::Context>& ctx, bool pattern) const {
        ShadingSettings shading;
        shading.shadowMapSize = 512;
        shading.pattern = pattern;
        OffscreenRenderer r(ctx, kLookSize, shading);
        r.scene().setCloth(data, std::nullopt);
        UniformInputs in;
        in.stage = &stage;
        in.view = &view;
        in.shading = &shading;
        in.width = kLookSize.width;
        in.height = kLookSize.height;
        return r.render(makeFrameUniforms(in), prepared.positions, normals);
    }
    // Where the centre of cloth `i` (its middle vertex) appears.
    glm::ivec2 centre(std::size_t i) const {
        const ClothInfo& c = prepared.cloths[i];
        const glm::vec3 p(prepared.positions[(c.vertexBegin + c.vertexEnd) / 2]);
        const float w = float(kLookSize.width), h = float(kLookSize.height);
        const glm::vec3 px =
            projectToPixel(view.camera.projection(w / h) * view.camera.view(), p, w, h);
        return {int(px.x), int(px.y)};
    }
};

// The mean colour of the 9 x 9 pixels around `c`.
glm::vec3 meanAround(const ImageRgba8& img, glm::ivec2 c) {
    glm::vec3 sum(0.0f);
    for (int y = c.y - 4; y <= c.y + 4; ++y)
        for (int x = c.x - 4; x <= c.x + 4; ++x) {
            const std::uint8_t* p = &img.pixels[4 * (std::size_t(y) * img.width + x)];
            sum += glm::vec3(p[0], p[1], p[2]);
        }
    return sum / 81.0f;
}

test::Hsv hsvOf(glm::vec3 rgb) {
    const std::uint8_t p[3] = {std::uint8_t(rgb.r), std::uint8_t(rgb.g), std::uint8_t(rgb.b)};
    return test::toHsv(p);
}

TEST_F(RenderGpuTest, EachClothShowsItsOwnColour) {
    const TwoCloths s;
    ASSERT_EQ(s.data.cloths.size(), 2u);
    ASSERT_EQ(s.data.looks.size(), 2u);
    const ImageRgba8 img = s.render(ctx_, true);
    if (const char* dir = std::getenv("CLOTH_BUILD_DIR"))
        writePng(std::string(dir) + "/test_output/two_cloths.png", img);
    const float expected[2] = {hueOf({0.05f, 0.4f, 0.05f}),                   // the material's
                               hueOf(glm::vec3(paletteLook(1).front))};       // the palette's 2nd
    EXPECT_GT(hueDistance(expected[0], expected[1]), 60.0f);
    for (std::size_t i = 0; i < 2; ++i) {
        const glm::ivec2 c = s.centre(i);
        ASSERT_TRUE(c.x >= 4 && c.y >= 4 && c.x + 4 < int(kLookSize.width) &&
                    c.y + 4 < int(kLookSize.height))
            << "cloth " << i << " at " << c.x << "," << c.y;
        const test::Hsv got = hsvOf(meanAround(img, c));
        EXPECT_GT(got.s, 0.4f) << "cloth " << i;
        EXPECT_LT(hueDistance(got.h, expected[i]), 20.0f)
            << "cloth " << i << ": hue " << got.h << ", expected " << expected[i];
    }
}

// The check darkens every other band: switched off (--texture plain), the cloths' pixels change.
TEST_F(RenderGpuTest, CheckPatternSwitchesOff) {
    const TwoCloths s;
    const ImageRgba8 check = s.render(ctx_, true), plain = s.render(ctx_, false);
    std::size_t cloth = 0, differ = 0;
    for (std::size_t i = 0; i < 2; ++i) {
        const glm::ivec2 c = s.centre(i);
        for (int y = c.y - 12; y <= c.y + 12; ++y)
            for (int x = c.x - 12; x <= c.x + 12; ++x) {
                const std::size_t k = 4 * (std::size_t(y) * kLookSize.width + x);
                int d = 0;
                for (int ch = 0; ch < 3; ++ch)
                    d = std::max(d, std::abs(int(check.pixels[k + ch]) - int(plain.pixels[k + ch])));
                ++cloth;
                differ += d > 3;
            }
    }
    EXPECT_GT(double(differ), 0.25 * double(cloth)) << differ << " of " << cloth;
    // Away from the cloths (the sky above them) nothing changes.
    for (int x = 0; x < int(kLookSize.width); ++x) {
        const std::size_t k = 4 * std::size_t(x);
        EXPECT_EQ(check.pixels[k], plain.pixels[k]) << x;
    }
}

// A flat cloth without UVs gets coordinates that keep its shape: distances in UV times its size
// are distances on the sheet, whatever its tilt.
TEST(ClothLook, ProjectedUvsKeepAFlatSheetsShape) {
    PreparedCloth p = test::foldedSheet(4);
    const glm::mat3 tilt = glm::mat3(glm::vec3(0.8f, 0.0f, -0.6f), glm::vec3(0.36f, 0.8f, 0.48f),
                                     glm::cross(glm::vec3(0.8f, 0.0f, -0.6f),
                                                glm::vec3(0.36f, 0.8f, 0.48f)));
    std::vector<glm::vec4> flat;
    for (std::uint32_t r = 0; r <= 4; ++r)
        for (std::uint32_t c = 0; c <= 4; ++c)
            flat.emplace_back(tilt * glm::vec3(0.5f * c, 0.25f * r, 0.0f), 1.0f);
    const std::vector<glm::vec2> uv = projectedUvs(flat, p.triangles, 0);
    ASSERT_EQ(uv.size(), flat.size());
    glm::vec3 lo(flat[0]), hi(flat[0]);
    for (const glm::vec4& q : flat) {
        lo = glm::min(lo, glm::vec3(q));
        hi = glm::max(hi, glm::vec3(q));
    }
    const glm::vec3 e = hi - lo;
    const float size = std::max({e.x, e.y, e.z});
    for (std::size_t i = 0; i < flat.size(); ++i)
        for (std::size_t j = 0; j < flat.size(); ++j)
            EXPECT_NEAR(size * glm::distance(uv[i], uv[j]),
                        glm::distance(glm::vec3(flat[i]), glm::vec3(flat[j])), 1e-4f);
}

}  // namespace
}  // namespace cloth::render
