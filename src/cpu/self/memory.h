// The memory of contacts' sides on the CPU reference (self_contacts.h's selfRemember): the keys
// of a substep's contacts and their directions in an open-addressing table at most half full,
// so that a pair that is a contact again keeps the side it had.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "kernels/self_contacts.h"

namespace cloth {

struct SelfMemory {
    std::vector<glm::uvec4> keys;  // uvec4(kind + 1, key y, key z, 0); x 0: an empty slot
    std::vector<glm::vec4> normals;
    std::uint32_t bits = 0;  // 2^bits slots; 0: empty

    // Emptied, then room for `count` keys.
    void reset(std::size_t count) {
        bits = 6;
        while ((std::size_t(1) << bits) < 2 * count) ++bits;
        keys.assign(std::size_t(1) << bits, glm::uvec4(0u));
        normals.assign(std::size_t(1) << bits, glm::vec4(0.0f));
    }
    void insert(glm::uvec4 key, glm::vec3 normal) {
        const std::uint32_t mask = (1u << bits) - 1u;
        std::uint32_t slot = gpu::selfMemorySlot(key.x - 1u, key.y, key.z, bits);
        while (keys[slot].x != 0u) slot = (slot + 1u) & mask;
        keys[slot] = key;
        normals[slot] = glm::vec4(normal, 0.0f);
    }
    // The direction remembered for the key (kind, y, z), if any.
    bool find(std::uint32_t kind, std::uint32_t y, std::uint32_t z, glm::vec4& normal) const {
        if (bits == 0) return false;
        const std::uint32_t mask = (1u << bits) - 1u;
        std::uint32_t slot = gpu::selfMemorySlot(kind, y, z, bits);
        for (std::uint32_t probe = 0; probe <= mask; ++probe) {
            const glm::uvec4 k = keys[slot];
            if (k.x == 0u) return false;
            if (k.x == kind + 1u && k.y == y && k.z == z) {
                normal = normals[slot];
                return true;
            }
            slot = (slot + 1u) & mask;
        }
        return false;
    }
};

}  // namespace cloth
