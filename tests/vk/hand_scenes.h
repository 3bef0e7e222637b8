// PreparedCloth built by hand for the GPU tests: small grids with every kind of constraint,
// independent of prepareScene() (which lives in another workstream).
#pragma once

#include <cstdint>
#include <vector>

#include "prep/prepared.h"

namespace cloth::test {

struct HandGrid {
    std::uint32_t n = 6;                 // n x n quads
    float size = 1.0f;                   // metres
    glm::vec3 origin{0.0f, 0.0f, 0.0f};  // top-left corner; the grid spans +x and -y
    float vertexMass = 0.01f;            // kg
    float stretchParam = 1e-7f;          // XPBD compliance (or PBD k')
    float bendParam = 1e-3f;
    bool bending = true;
    bool pinTopCorners = true;
    bool attachTopCorners = false;  // circle motion on the top corners instead of pins
    bool tethers = false;
    float linearDamping = 0.0f;
    float rigidDamping = 0.0f;        // per substep
    std::uint32_t phantomCopies = 0;  // split the centre vertex into this many extra copies
};

struct HandScene {
    std::vector<HandGrid> cloths;
    SimSettings sim;
};

// Builds, colours (greedy over both constraint types) and packs the scene.
PreparedCloth buildHandScene(const HandScene& scene);

}  // namespace cloth::test
