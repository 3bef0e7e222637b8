// An open-addressing hash table with linear probing, filled by many invocations at once: a slot
// is claimed by an atomic compare-and-swap of its first word from 0 (empty), so every key finds a
// slot of its own while the table has room.
//
// The includer defines, before including this file:
//   uint hashClaim(uint slot, uint first)   atomicCompSwap(<the slot's first word>, 0u, first)
#ifndef CLOTH_LIB_HASH_TABLE_GLSL
#define CLOTH_LIB_HASH_TABLE_GLSL

// The slot `first` claimed, probing from `home` in a table of 2^bits slots; ~0u when full.
uint hashInsert(uint home, uint first, uint bits) {
    uint mask = (1u << bits) - 1u;
    uint slot = home & mask;
    for (uint probe = 0u; probe <= mask; ++probe) {
        if (hashClaim(slot, first) == 0u) return slot;
        slot = (slot + 1u) & mask;
    }
    return ~0u;
}

#endif
