// Scenes built in code for solver tests (independent of the built-in scenes, whose tuning may
// change).
#pragma once

#include "core/scene.h"

namespace cloth::test {

// A vertical square cloth of n x n quads and `size` metres, top edge at y = 2, pinned at the
// two top corners.
inline Scene hangingScene(std::uint32_t n, float size = 1.0f) {
    Scene s;
    s.name = "test-hanging";
    ClothDesc c;
    c.name = "cloth";
    GridDesc g;
    g.width = g.height = size;
    g.resX = g.resY = n;
    c.grid = g;
    c.transform.translate = glm::vec3(0.0f, 2.0f - 0.5f * size, 0.0f);
    c.pins.regions = {"top_corners"};
    s.cloths.push_back(c);
    return s;
}

}  // namespace cloth::test
