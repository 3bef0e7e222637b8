// The table of colour-batched constraint types. Everything that lists constraint types is
// derived from it: the prepared arrays (one coloured set per type), the GPU bindings, buffers,
// per-colour ranges and kernels, the device-limits check, phantom rewriting, the CPU kernels
// (scalar and SIMD), the stage list and its timings, stats, HUD and clothbench counts.
//
// Adding a type: write src/kernels/constraint/<name>.h (its item struct with the vertex
// indices as its first words, its maths, <name>Solve and, for 64-bit shader access,
// <name>LoadWide; see constraint/distance.h), add one line to CLOTH_CONSTRAINT_TYPES and its
// #include below, and build its items at load time (src/prep/cloth_builder.cpp).
//
// X(index, Name, name, Item, vertices, vec4s per item, multiplier type):
//   index       0, 1, ...: its bit in colour masks and its slot in push constants
//   vertices    how many vertex indices open the item (they are what colouring looks at)
//   vec4s       sizeof(Item) / 16
//   multiplier  float (one XPBD multiplier) or vec4 (up to four, one per component)
#ifndef CLOTH_KERNELS_CONSTRAINT_TYPES_H
#define CLOTH_KERNELS_CONSTRAINT_TYPES_H

#define CLOTH_CONSTRAINT_TYPES(X)                                    \
    X(0, Distance, distance, DistanceConstraint, 2, 1, float)       \
    X(1, Bending, bending, BendingConstraint, 4, 2, float)          \
    X(2, Stvk, stvk, StvkConstraint, 3, 4, vec4)                    \
    X(3, IsoBending, isoBending, IsoBendingConstraint, 4, 3, vec4)  \
    X(4, FixedAngle, fixedAngle, FixedAngleConstraint, 4, 2, float)
#define CLOTH_CONSTRAINT_TYPE_COUNT 5

// Room per type in push constants: the count rounded up to a multiple of four.
#define CLOTH_TYPE_SLOTS (((CLOTH_CONSTRAINT_TYPE_COUNT + 3) / 4) * 4)

#endif  // CLOTH_KERNELS_CONSTRAINT_TYPES_H

// Shaders include this file twice (before and after defining their position access), so the
// type files below are included each time; their own guards sort out what is new.
#include "kernels/constraint/distance.h"
#include "kernels/constraint/bending.h"
#include "kernels/constraint/stvk.h"
#include "kernels/constraint/iso_bending.h"
#include "kernels/constraint/fixed_angle.h"

#if defined(__cplusplus) && !defined(CLOTH_KERNELS_CONSTRAINT_TYPES_CPP)
#define CLOTH_KERNELS_CONSTRAINT_TYPES_CPP
#include <cstring>
#include <tuple>
#include <utility>

namespace cloth::gpu {

inline constexpr std::size_t kConstraintTypeCount = CLOTH_CONSTRAINT_TYPE_COUNT;

// ConstraintType<I>: the table's row I for C++ code.
template <std::size_t I>
struct ConstraintType;

#define CLOTH_X(I, Name, name, ItemT, V, W, Lam)                                            \
    template <>                                                                             \
    struct ConstraintType<I> {                                                              \
        using Item = ItemT;                                                                 \
        using Lambda = Lam;                                                                 \
        static constexpr std::size_t kIndex = I;                                            \
        static constexpr const char* kName = #name;                                         \
        static constexpr int kVertices = V;                                                 \
        static constexpr int kLambdaFloats = sizeof(Lam) / sizeof(float);                   \
        static_assert(sizeof(ItemT) == 16 * (W), #ItemT " size must match its vec4 count"); \
        template <class P>                                                                  \
        static void solve(P& positions, const Item& c, Lambda& lambda, const SolveParams& s) { \
            name##Solve(positions, c, lambda, s);                                           \
        }                                                                                   \
    };
CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X

// The table index of an item type: constraintTypeIndex<DistanceConstraint> == 0.
template <class Item>
struct ConstraintTypeIndex;
#define CLOTH_X(I, Name, name, ItemT, V, W, Lam) \
    template <>                                  \
    struct ConstraintTypeIndex<ItemT> {          \
        static constexpr std::size_t value = I;  \
    };
CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X
template <class Item>
inline constexpr std::size_t constraintTypeIndex = ConstraintTypeIndex<Item>::value;

// Vertex k of an item (its k-th word), and setting it (phantom rewriting).
template <class Item>
inline std::uint32_t itemVertex(const Item& c, int k) {
    std::uint32_t v;
    std::memcpy(&v, reinterpret_cast<const unsigned char*>(&c) + 4 * k, 4);
    return v;
}
template <class Item>
inline void setItemVertex(Item& c, int k, std::uint32_t v) {
    std::memcpy(reinterpret_cast<unsigned char*>(&c) + 4 * k, &v, 4);
}

// Calls f(ConstraintType<I>{}) for every type, in table order.
template <class F>
inline void forEachConstraintType(F&& f) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        (f(ConstraintType<I>{}), ...);
    }(std::make_index_sequence<kConstraintTypeCount>{});
}

// std::tuple<S<Item of type 0>, S<Item of type 1>, ...>.
template <template <class> class S, class Seq>
struct PerConstraintTypeImpl;
template <template <class> class S, std::size_t... I>
struct PerConstraintTypeImpl<S, std::index_sequence<I...>> {
    using type = std::tuple<S<typename ConstraintType<I>::Item>...>;
};
template <template <class> class S>
using PerConstraintType =
    typename PerConstraintTypeImpl<S, std::make_index_sequence<kConstraintTypeCount>>::type;

}  // namespace cloth::gpu

#endif
