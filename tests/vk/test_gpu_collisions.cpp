// Rigid colliders on both backends, end to end on the shipped scenes: no vertex inside a
// collider by more than 10% of the thickness and no sharp mesh edge through the cloth in any
// frame of every collider scene (CPU reference and Vulkan solver), and resting contact that is
// quiet on the GPU too.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fixtures/blade_scene.h"
#include "kernels/collider.h"
#include "core/scene.h"
#include "cpu/backend.h"
#include "gpu_test.h"
#include "prep/prepare.h"
#include "vk/gpu_solver.h"

using namespace cloth;

namespace {

std::string sceneFile(const std::string& name) {
    const char* env = std::getenv("CLOTH_SOURCE_DIR");
    return std::string(env ? env : CLOTH_TEST_SOURCE_DIR) + "/assets/scenes/" + name + ".json";
}

// The deepest any vertex is below its thickness, as a fraction of it (0: none inside the
// thickness; 1: on the surface), over every collider at time t.
float worstIntrusion(const PreparedCloth& p, const std::vector<glm::vec4>& x, float t) {
    float worst = 0.0f;
    for (std::size_t k = 0; k < p.colliders.size(); ++k) {
        const gpu::ColliderPose pose = gpu::colliderPose(p.colliders[k], t);
        for (std::uint32_t v = 0; v < x.size(); ++v) {
            if (x[v].w <= 0.0f) continue;  // pinned and attached vertices go where they are told
            const float h = vertexThickness(p, v);
            glm::vec3 n;
            const float d = gpu::colliderDistance(p.meshNodes.data(), p.meshTriangles.data(),
                                                  p.colliders[k], pose, glm::vec3(x[v]), h, n);
            worst = std::max(worst, (h - d) / h);
        }
    }
    return worst;
}

}  // namespace

class GpuCollisionTest : public test::GpuTest {};

// One test per collider scene, so that ctest runs them side by side (drape at 80 substeps and
// friction at 100 take 25 and 32 s on lavapipe in Release, 35 and 45 s in the sanitizer build).
class GpuColliderScene : public test::GpuTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(GpuColliderScene, NoVertexInsideAColliderInAnyFrame) {
    const char* name = GetParam();
    const PreparedCloth p = prepareScene(loadSceneFile(sceneFile(name)));
    ASSERT_FALSE(p.colliders.empty());
    vk::GpuSolverOptions o;
    o.context = ctx_;
    vk::GpuSolver gpu(p, o);
    auto cpu = makeCpuSolver(p, 2);
    // From the start until 30 frames (half a second) after the first contact, at most 90.
    const int frames = 90, afterContact = 30;
    int firstContact = -1, f = 0;
    float worstCpu = 0.0f, worstGpu = 0.0f;
    int crossings = 0;  // sharp mesh edges through the cloth (brute force), both backends
    std::uint32_t touching = 0;
    std::vector<glm::vec4> x;
    for (; f < frames && (firstContact < 0 || f < firstContact + afterContact); ++f) {
        cpu->stepFrame();
        gpu.stepFrame();
        const float t = static_cast<float>(cpu->simTime());
        cpu->readPositions(x);
        worstCpu = std::max(worstCpu, worstIntrusion(p, x, t));
        crossings += fixtures::featureCrossings(p, x, t);
        gpu.readPositions(x);
        worstGpu = std::max(worstGpu, worstIntrusion(p, x, t));
        crossings += fixtures::featureCrossings(p, x, t);
        touching = std::max(touching, gpu.contactCount());
        if (firstContact < 0 && gpu.contactCount() > 0) firstContact = f;
    }
    std::printf("%s: %d frames, first contact in frame %d; deepest vertex %.2f%% (CPU) and "
                "%.2f%% (GPU) of the thickness into it, up to %u vertices in contact, %zu "
                "sharp features, %d crossings\n",
                name, f, firstContact + 1, 100.0f * worstCpu, 100.0f * worstGpu, touching,
                p.meshFeatures.size(), crossings);
    EXPECT_EQ(crossings, 0);
    EXPECT_LE(worstCpu, 0.1f);
    EXPECT_LE(worstGpu, 0.1f);
    EXPECT_GT(touching, 0u) << "the cloth never reached a collider";
}

INSTANTIATE_TEST_SUITE_P(ColliderScenes, GpuColliderScene,
                         ::testing::Values("sphere", "incline", "attach", "sdf_collision",
                                           "friction", "tablecloth", "drape"),
                         [](const auto& info) { return std::string(info.param); });

TEST_F(GpuCollisionTest, ClothSettledOnTheGroundIsQuietOnTheGpu) {
    Scene s;
    ClothDesc c;
    GridDesc g;
    g.width = g.height = 0.5f;
    g.resX = g.resY = 10;
    c.grid = g;
    c.tethers = false;
    c.transform.rotateDegrees = glm::vec3(-90.0f, 0.0f, 0.0f);
    c.transform.translate = glm::vec3(0.0f, 0.05f, 0.0f);
    s.cloths.push_back(c);
    ColliderDesc ground;
    ground.shape = ColliderShape::Plane;
    s.colliders.push_back(ground);
    const PreparedCloth p = prepareScene(s);
    vk::GpuSolverOptions o;
    o.context = ctx_;
    vk::GpuSolver gpu(p, o);
    for (int f = 0; f < 180; ++f) gpu.stepFrame();
    std::vector<glm::vec4> v;
    gpu.readVelocities(v);
    float fastest = 0.0f;
    for (const auto& u : v) fastest = std::max(fastest, glm::length(glm::vec3(u)));
    std::printf("settled on the ground after 3 s (GPU): fastest vertex %.3g mm/s\n", fastest * 1e3);
    EXPECT_LT(fastest, 1e-3f);
    EXPECT_EQ(gpu.contactCount(), p.vertexCount());
}
