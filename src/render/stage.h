// The set around the cloth: ground plane, sun and its shadow frustum, marker size, the default
// view, all derived from the cloth's bounds at load; and the per-frame uniform block.
#pragma once

#include <cstdint>
#include <optional>

#include <glm/glm.hpp>

#include "render/camera.h"
#include "render_types.h"  // shaders/shared

namespace cloth::render {

struct Stage {
    Bounds cloth;                  // the cloth as loaded
    float groundY = 0.0f;          // y = 0, or below the cloth when it starts lower
    glm::vec2 groundCentre{0.0f};  // xz
    float groundHalfExtent = 10.0f;
    float checkerSize = 0.25f;
    glm::vec3 lightDir{0.0f, 1.0f, 0.0f};  // unit, towards the sun
    glm::mat4 lightViewProj{1.0f};  // orthographic, covers the cloth and its shadow on the ground
    float lightRadius = 1.0f;       // half width of the shadow frustum (m)
    float markerHalfSize = 0.01f;   // m
    float ssaoRadius = 0.05f;       // m
    Bounds view;                    // what the default camera frames
};

// `meanEdgeLength` sets the marker size.
Stage makeStage(const Bounds& cloth, float meanEdgeLength);

struct ShadingSettings {
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
    bool hasUvs = false;
    bool manualSrgb = false;  // the output format is UNORM
    std::uint32_t frame = 0;
};

gpu::FrameUniforms makeFrameUniforms(const UniformInputs& in);

}  // namespace cloth::render
