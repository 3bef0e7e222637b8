// The arrays of self_contacts.h's pair functions (CLOTH_SELF_PARAMS), from a member `p_` (the
// PreparedCloth), `triThickness_`, `rest_` (RestNeighbours), `memory_` (SelfMemory) and `start` /
// `predicted` in scope: for src/cpu/self/ alone.
#pragma once

#define SELF_ARGS                                                                              \
    reinterpret_cast<const std::uint32_t*>(p_.triangles.data()), p_.triangleFeatureInfo.data(), \
        triThickness_.data(), start, predicted, rest_.vtOffsets.data(), rest_.vt.data(),        \
        rest_.eeOffsets.data(), rest_.ee.data(), rest_.inertOffsets.data(),                     \
        rest_.inert.data(), memory_.keys.data(), memory_.normals.data(),
