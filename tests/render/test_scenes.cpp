// Every built-in scene rendered offscreen on the Vulkan device, from the CPU solver (uploaded
// positions) and from the GPU solver (drawn straight from its buffers): the cloth is visible,
// the image is shaded, and both backends give the same picture.
#include <cstdlib>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "app/render_common.h"
#include "app/viewer_sim.h"
#include "image_checks.h"
#include "render/offscreen_renderer.h"
#include "render_test.h"

namespace cloth {
namespace {

using test::RenderGpuTest;

constexpr VkExtent2D kSceneImageSize{320, 240};
constexpr int kFrames = 20;

using test::keep;

// Simulates kFrames frames of `scene` on `backend` and renders the result with the default view.
render::ImageRgba8 renderScene(const std::shared_ptr<vk::Context>& ctx, const std::string& scene,
                               const std::string& backend) {
    Options options;
    options.scene = scene;
    options.backend = backend;
    options.threads = 2;
    std::ostringstream notices;
    ViewerSim sim(options, ctx, notices);
    const SceneLook look = makeLook(sim.prepared());
    render::ViewState view;
    view.camera = render::OrbitCamera::framing(look.stage.view);
    const render::ShadingSettings shading;
    render::OffscreenRenderer renderer(ctx, kSceneImageSize, shading);
    ClothFeed feed;
    feed.sync(sim, renderer.scene());
    EXPECT_EQ(renderer.scene().usesGpuVertices(), backend == "gpu");
    for (int i = 0; i < kFrames; ++i) sim.step();
    std::vector<glm::vec4> positions, normals;
    if (backend == "cpu") sim.read(positions, normals);
    render::UniformInputs in;
    in.stage = &look.stage;
    in.view = &view;
    in.shading = &shading;
    in.width = kSceneImageSize.width;
    in.height = kSceneImageSize.height;
    return renderer.render(makeFrameUniforms(in), positions, normals);
}

class SceneRender : public RenderGpuTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(SceneRender, ClothVisibleOnBothBackends) {
    const std::string scene = GetParam();
    const render::ImageRgba8 cpu = renderScene(ctx_, scene, "cpu");
    const render::ImageRgba8 gpu = renderScene(ctx_, scene, "gpu");
    keep(cpu, "scene_" + scene + "_cpu");
    keep(gpu, "scene_" + scene + "_gpu");
    for (const render::ImageRgba8* img : {&cpu, &gpu}) {
        ASSERT_EQ(img->width, int(kSceneImageSize.width));
        ASSERT_EQ(img->height, int(kSceneImageSize.height));
        const test::Coverage c = test::coverage(*img);
        const double cloth = c.front + c.back;
        EXPECT_GT(cloth, 0.03) << scene << ": front " << c.front << " back " << c.back;
        EXPECT_LT(cloth, 0.8) << scene;
        EXPECT_GT(c.distinctColours, 64) << scene << ": the image is nearly uniform";
        EXPECT_GT(c.lumaStdDev, 0.05) << scene << ": the image is nearly uniform";
    }
    // Same simulation (to ~1e-4 of the cloth's size), same picture: the GPU buffers were drawn.
    std::size_t differ = 0, cloth = 0;
    for (std::size_t i = 0; i < cpu.pixels.size(); i += 4) {
        const bool a = test::isClothFront(&cpu.pixels[i]) || test::isClothBack(&cpu.pixels[i]);
        const bool b = test::isClothFront(&gpu.pixels[i]) || test::isClothBack(&gpu.pixels[i]);
        cloth += a;
        differ += a != b;
    }
    EXPECT_LT(double(differ), 0.02 * double(cloth) + 4) << scene;
}

INSTANTIATE_TEST_SUITE_P(BuiltIn, SceneRender,
                         ::testing::Values("hanging", "curtain", "swirl", "drop"));

}  // namespace
}  // namespace cloth
