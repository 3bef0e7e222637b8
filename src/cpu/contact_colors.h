// The self-contacts' colouring for the colored Gauss-Seidel order (self_contacts.h's
// SELF_COLORS): greedy in decreasing priority, the colouring the GPU's Jones-Plassmann-Luby
// rounds compute (shaders/self_collide.comp, COLOR_ROUND).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "kernels/self_contacts.h"

namespace cloth {

struct ContactColoring {
    std::vector<std::uint32_t> colorOf;  // per contact: 0..SELF_COLOR_SLOTS - 1
    // The contacts by colour, in contact order within one, from offsets (SELF_COLOR_SLOTS + 1).
    std::vector<std::uint32_t> order, offsets;
    std::uint32_t rounds = 0;  // the rounds the parallel colouring takes
    bool failed = false;       // it needs more than SELF_COLOR_ROUNDS (the colours then share
                               // vertices: an error)
    // Scratch, per vertex: its colours taken (a bit each, two words), 1 + the last round of its
    // contacts.
    std::vector<std::uint64_t> masks;
    std::vector<std::uint32_t> roundAfter;
    // Scratch, per place (a priority's top bits): its contact's vertices and colour.
    std::vector<glm::uvec4> placed;
    std::vector<std::uint32_t> placedColor;
};

// Colours `contacts` (their vertices below vertexCount) into `out`.
void colorContacts(std::span<const gpu::SelfContact> contacts, std::uint32_t vertexCount,
                   ContactColoring& out);

}  // namespace cloth
