// The set around the cloth: ground plane, sun and its shadow frustum, marker size, the default
// view, all derived from the bounds of the cloth and the colliders at load; and the per-frame
// uniform block.
#pragma once

#include <cstdint>
#include <optional>

#include <glm/glm.hpp>

#include "render/camera.h"
#include "render/draw_data.h"
#include "kernels/render_types.h"

namespace cloth::render {

struct Stage {
    Bounds cloth;                  // the cloth and the solid colliders as loaded
    float groundY = 0.0f;          // y = 0, or below the cloth when it starts lower, or the
                                   // floor plane's height under the scene's centre
    glm::vec2 groundCentre{0.0f};  // xz
    float groundHalfExtent = 10.0f;
    float checkerSize = 0.25f;
    glm::vec3 lightDir{0.0f, 1.0f, 0.0f};  // unit, towards the sun
    glm::mat4 lightViewProj{1.0f};  // orthographic, covers the cloth and its shadow on the ground
    float lightRadius = 1.0f;       // half width of the shadow frustum (m)
    float markerHalfSize = 0.01f;   // m
    float ssaoRadius = 0.05f;       // m
    Bounds view;  // what the default camera frames: the scene, and where the cloth may go below it
};

// `meanEdgeLength` sets the marker size. `floorY`: the ground's height when a plane collider is
// the floor (else y = 0, lowered below the scene when it reaches lower). `falls`: nothing holds
// the cloth (no pinned or kinematic vertex), so the view reaches down to the ground.
Stage makeStage(const Bounds& scene, float meanEdgeLength, std::optional<float> floorY = {},
                bool falls = false);
// The stage of a cloth and its colliders: the bounds of both at t = 0 (planes excluded), the
// floor plane (if any) as the ground; the cloth falls when it has no marker.
Stage makeStage(const ClothDrawData& data);

// The union of the cloth's bounds and the solid colliders' at t = 0.
Bounds sceneBounds(const ClothDrawData& data);
// Height of the plane collider `plane` at t = 0 above (x, z) = `xz`.
float planeHeightAt(const gpu::Collider& plane, glm::vec2 xz);

struct ShadingSettings {
    bool pattern = true;  // the woven check on every cloth (clothsim --texture check)
    bool shadows = true;
    bool ssao = true;
    std::uint32_t ssaoSamples = 16;
    std::uint32_t shadowMapSize = 2048;
};

// What the viewer shows this frame besides the cloth itself.
struct ViewState {
    OrbitCamera camera;
    std::optional<std::uint32_t> grabVertex;
    glm::vec3 grabTarget{0.0f};
};

struct UniformInputs {
    const Stage* stage = nullptr;
    const ViewState* view = nullptr;
    const ShadingSettings* shading = nullptr;
    std::uint32_t width = 1, height = 1;
    bool manualSrgb = false;  // the output format is UNORM
    std::uint32_t frame = 0;
    double simTime = 0.0;  // s: the solver's simTime(); the colliders are drawn where they are then
};

gpu::FrameUniforms makeFrameUniforms(const UniformInputs& in);

}  // namespace cloth::render
