// The renderer on the Vulkan device (lavapipe here): images of a known sheet, checked by colour.
#include <cstdlib>
#include <filesystem>
#include <numbers>

#include <gtest/gtest.h>

#include "image_checks.h"
#include "render/draw_data.h"
#include "render/offscreen_renderer.h"
#include "render_test.h"
#include "synthetic_cloth.h"

namespace cloth::render {
namespace {

using test::RenderGpuTest;

using test::keep;

struct SheetScene {
    PreparedCloth prepared = test::foldedSheet(48);
    ClothDrawData data = makeDrawData(prepared);
    Stage stage = makeStage(data.bounds, data.meanEdgeLength);
    std::vector<glm::vec4> normals = test::vertexNormals(prepared);
};

gpu::FrameUniforms uniformsFor(const SheetScene& s, const ViewState& view,
                               const ShadingSettings& shading, VkExtent2D e) {
    UniformInputs in;
    in.stage = &s.stage;
    in.view = &view;
    in.shading = &shading;
    in.width = e.width;
    in.height = e.height;
    return makeFrameUniforms(in);
}

TEST_F(RenderGpuTest, FrontOfSheetCoversThePicture) {
    SheetScene s;
    ShadingSettings shading;
    shading.shadowMapSize = 1024;
    const VkExtent2D e{320, 240};
    OffscreenRenderer r(ctx_, e, shading);
    r.scene().setCloth(s.data, std::nullopt);
    ViewState view;
    view.camera = OrbitCamera::framing(s.stage.view);
    const ImageRgba8 img =
        r.render(uniformsFor(s, view, shading, e), s.prepared.positions, s.normals);
    keep(img, "sheet_front");
    ASSERT_EQ(img.width, 320);
    ASSERT_EQ(img.height, 240);
    const test::Coverage c = test::coverage(img);
    EXPECT_GT(c.front, 0.08) << "front " << c.front << " back " << c.back;
    EXPECT_LT(c.front, 0.9);
    EXPECT_GT(c.distinctColours, 64);  // shaded, not flat
    EXPECT_GT(c.lumaStdDev, 0.05);
    ASSERT_EQ(r.lastTimes().size(), kRenderPassNames.size());
    for (const PassTime& t : r.lastTimes()) EXPECT_GE(t.ms, 0.0) << t.name;
}

TEST_F(RenderGpuTest, BackOfSheetShowsTheBackColour) {
    SheetScene s;
    ShadingSettings shading;
    shading.shadowMapSize = 1024;
    const VkExtent2D e{320, 240};
    OffscreenRenderer r(ctx_, e, shading);
    r.scene().setCloth(s.data, std::nullopt);
    ViewState view;
    view.camera = OrbitCamera::framing(s.stage.view);
    view.camera.yaw += std::numbers::pi_v<float>;  // from behind
    const ImageRgba8 img =
        r.render(uniformsFor(s, view, shading, e), s.prepared.positions, s.normals);
    keep(img, "sheet_back");
    const test::Coverage c = test::coverage(img);
    EXPECT_GT(c.back, 0.08) << "front " << c.front << " back " << c.back;
    EXPECT_LT(c.front, 0.02);
}

}  // namespace
}  // namespace cloth::render
