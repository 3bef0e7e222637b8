// The arrays of self_contacts.h's pair functions (CLOTH_SELF_PARAMS), from a SelfCollision's
// members and `start` / `predicted` in scope: for cpu/self_collision.cpp and
// cpu/self_candidates.cpp alone.
#pragma once

#define SELF_ARGS                                                                              \
    reinterpret_cast<const std::uint32_t*>(p_.triangles.data()), p_.triangleFeatureInfo.data(), \
        triThickness_.data(), tight_.data(), start, predicted, rest_.vtOffsets.data(),           \
        rest_.vt.data(), rest_.eeOffsets.data(), rest_.ee.data(), rest_.inertOffsets.data(),     \
        rest_.inert.data(), memoryKeys_.data(), memoryNormals_.data(),
