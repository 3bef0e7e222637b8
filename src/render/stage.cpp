#include "render/stage.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

namespace cloth::render {

namespace {

constexpr glm::vec3 kSky{0.42f, 0.52f, 0.68f};
constexpr glm::vec3 kHorizon{0.78f, 0.80f, 0.82f};
constexpr glm::vec3 kGround{0.34f, 0.33f, 0.32f};
constexpr glm::vec3 kSun{1.0f, 0.96f, 0.9f};
// Rigid colliders: a pale, warm wood, lighter than the ground and far from the cloth's hues.
constexpr glm::vec3 kCollider{0.30f, 0.17f, 0.08f};

glm::vec3 corner(const Bounds& b, int k) {
    return {(k & 1) ? b.max.x : b.min.x, (k & 2) ? b.max.y : b.min.y, (k & 4) ? b.max.z : b.min.z};
}

// A "nice" checker size near `size`: 1, 2.5 or 5 times a power of ten.
float niceSize(float size) {
    const float p = std::pow(10.0f, std::floor(std::log10(size)));
    for (float m : {1.0f, 2.5f, 5.0f})
        if (m * p >= 0.75f * size) return m * p;
    return 10.0f * p;
}

}  // namespace

Bounds sceneBounds(const ClothDrawData& data) {
    Bounds b = data.bounds;
    if (const std::optional<Bounds>& c = data.colliders.bounds) {
        b.min = glm::min(b.min, c->min);
        b.max = glm::max(b.max, c->max);
    }
    return b;
}

float planeHeightAt(const gpu::Collider& plane, glm::vec2 xz) {
    const gpu::ColliderPose p = gpu::colliderPose(plane, 0.0f);
    const glm::vec3 n = p.ay;  // dot(x - origin, n) = 0 on the plane
    return p.origin.y - ((xz.x - p.origin.x) * n.x + (xz.y - p.origin.z) * n.z) / n.y;
}

Stage makeStage(const ClothDrawData& data) {
    const Bounds scene = sceneBounds(data);
    std::optional<float> floorY;
    if (data.colliders.floor) {
        const gpu::Collider& plane = data.colliders.colliders[*data.colliders.floor];
        floorY = planeHeightAt(plane, {scene.center().x, scene.center().z});
    }
    return makeStage(scene, data.meanEdgeLength, floorY, data.markers.empty());
}

Stage makeStage(const Bounds& cloth, float meanEdgeLength, std::optional<float> floorY,
                bool falls) {
    Stage s;
    s.cloth = cloth;
    const glm::vec3 extent = glm::max(cloth.max - cloth.min, glm::vec3(1e-3f));
    const float size = std::max({extent.x, extent.y, extent.z});
    s.groundY = floorY ? *floorY : std::min(0.0f, cloth.min.y - 0.5f * size);
    s.groundCentre = {cloth.center().x, cloth.center().z};
    s.lightDir = glm::normalize(glm::vec3(-0.35f, 1.0f, 0.45f));

    // The shadow frustum: the cloth's box, allowing it to sag by half its size, and that box's
    // shadow on the ground.
    Bounds reach = cloth;
    reach.min.y = std::max(s.groundY, cloth.min.y - 0.5f * size);
    reach.min -= glm::vec3(0.1f * size);
    reach.max += glm::vec3(0.1f * size);
    Bounds lit{glm::vec3(std::numeric_limits<float>::max()),
               glm::vec3(-std::numeric_limits<float>::max())};
    for (int k = 0; k < 8; ++k) {
        const glm::vec3 p = corner(reach, k);
        const glm::vec3 shadow = p - s.lightDir * ((p.y - s.groundY) / s.lightDir.y);
        for (const glm::vec3& q : {p, shadow}) {
            lit.min = glm::min(lit.min, q);
            lit.max = glm::max(lit.max, q);
        }
    }
    const glm::vec3 centre = lit.center();
    s.lightRadius = lit.radius();
    const glm::mat4 lightView =
        glm::lookAt(centre + 2.0f * s.lightRadius * s.lightDir, centre, glm::vec3(0, 0, 1));
    const float r = s.lightRadius;
    s.lightViewProj = glm::orthoRH_ZO(-r, r, -r, r, 0.5f * r, 3.5f * r) * lightView;

    s.groundHalfExtent = std::max(8.0f * s.lightRadius, 4.0f);
    s.checkerSize = niceSize(0.25f * size);
    s.markerHalfSize = std::clamp(0.45f * meanEdgeLength, 0.002f * size, 0.02f * size);
    s.ssaoRadius = 0.1f * size;

    // Frame the cloth with room below it over the run: a pinned cloth may swing down by its own
    // size, a cloth that nothing holds falls to the ground.
    s.view = cloth;
    s.view.min.y = falls ? std::min(s.groundY, cloth.min.y)
                         : std::max(s.groundY, cloth.min.y - 0.7f * size);
    return s;
}

gpu::FrameUniforms makeFrameUniforms(const UniformInputs& in) {
    const Stage& s = *in.stage;
    const ViewState& v = *in.view;
    const ShadingSettings& sh = *in.shading;
    gpu::FrameUniforms u{};
    const float aspect = float(in.width) / float(in.height);
    u.view = v.camera.view();
    u.proj = v.camera.projection(aspect);
    u.viewProj = u.proj * u.view;
    u.invViewProj = glm::inverse(u.viewProj);
    u.invProj = glm::inverse(u.proj);
    u.lightViewProj = s.lightViewProj;
    u.eye = glm::vec4(v.camera.eye(), 1.0f);
    u.lightDir = glm::vec4(s.lightDir, 2.8f);
    u.lightColor = glm::vec4(kSun, 1.0f);
    u.skyColor = glm::vec4(kSky, 0.6f);
    u.horizonColor = glm::vec4(kHorizon, 1.0f);
    // The cloths' colours are their own (render/cloth_look.h); the woven check is shared.
    u.clothPattern = {0.45f, 8.0f, 0.0f, 0.0f};  // contrast, repeats per UV unit
    u.ground = {s.groundY, s.groundHalfExtent, s.groundCentre.x, s.groundCentre.y};
    u.groundColor = glm::vec4(kGround, s.checkerSize);
    u.viewport = {float(in.width), float(in.height), 1.0f / float(in.width),
                  1.0f / float(in.height)};
    u.ssao = {s.ssaoRadius, 0.02f * s.ssaoRadius, 2.0f, float(sh.ssaoSamples)};
    const float texel = 2.0f * s.lightRadius / float(sh.shadowMapSize);
    u.shadow = {1.0f / float(sh.shadowMapSize), 1.5f * texel, 1.0f, 0.0f};
    u.markers = {s.markerHalfSize, 0.0f, 0.0f, 0.0f};
    u.grabTarget = glm::vec4(v.grabTarget, 1.0f);
    u.exposure = {0.85f, 0.0f, 0.0f, 0.0f};
    u.colliders = glm::vec4(kCollider, 0.12f);  // w: contrast of its checker
    u.time = {float(in.simTime), 0.0f, 0.0f, 0.0f};
    std::uint32_t options = 0;
    if (sh.pattern) options |= gpu::OPTION_PATTERN;
    if (sh.shadows) options |= gpu::OPTION_SHADOWS;
    if (sh.ssao) options |= gpu::OPTION_SSAO;
    if (in.manualSrgb) options |= gpu::OPTION_MANUAL_SRGB;
    u.options = {v.grabVertex.value_or(0u), v.grabVertex ? 1u : 0u, options, in.frame};
    return u;
}

}  // namespace cloth::render
