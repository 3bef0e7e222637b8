// The wind of a substep: the scene's mean wind scaled by its seeded gusts, a function of the
// time alone, evaluated once per substep by forEachStep (sim/schedule.h) for every backend, so
// the CPU reference, the Vulkan solver and the test reference push on the cloth with the same
// float vector.
//
// g(t) = sum_k a_k sin(2 pi (t / T_k + phi_k)) / sum_k a_k, three components with amplitudes
// 1, 1/2, 1/4 and periods T_k = period * r_k, r_0 = 1, r_1 in [0.45, 0.65), r_2 in [0.2, 0.3),
// phases phi_k in [0, 1) turns; r_k and phi_k from a hash of the seed. |g| <= 1, and the wind is
// velocity * (1 + amplitude * g(t)). With a direction swing D, that vector is then turned about
// the vertical (y) by the angle D h(t), h another such shape from the hash's next six slots (its
// own periods and phases): the speed's gusts are unchanged, the heading wanders within +-D.
#pragma once

#include <cmath>
#include <cstdint>

#include <glm/glm.hpp>

#include "kernels/constraints.h"  // clothSinCos: the same sine everywhere, whatever the libm
#include "core/scene.h"

namespace cloth {

// A well-mixed 32-bit hash (Chris Wellons' lowbias32).
inline std::uint32_t gustHash(std::uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// A number in [0, 1) from the seed and a slot.
inline double gustUnit(std::uint32_t seed, std::uint32_t slot) {
    return gustHash(gustHash(seed) ^ gustHash(0x9e3779b9u * (slot + 1u))) * (1.0 / 4294967296.0);
}

// g(t) in [-1, 1] (see above); `slot` 6 gives h(t).
inline float gustShape(const GustSettings& g, double time, std::uint32_t slot = 0) {
    constexpr double kWeight[3] = {1.0, 0.5, 0.25};
    constexpr double kRatioLow[3] = {1.0, 0.45, 0.2};
    constexpr double kRatioSpan[3] = {0.0, 0.2, 0.1};
    double sum = 0.0;
    for (std::uint32_t k = 0; k < 3; ++k) {
        const double period =
            g.period * (kRatioLow[k] + kRatioSpan[k] * gustUnit(g.seed, slot + 2 * k));
        const double turns = time / period + gustUnit(g.seed, slot + 2 * k + 1);
        // Reduced to [-pi, pi) in double first: clothSinCos is exact enough only for small angles.
        const float angle = static_cast<float>(2.0 * gpu::CLOTH_PI * (turns - std::floor(turns)) -
                                               gpu::CLOTH_PI);
        sum -= kWeight[k] * gpu::clothSinCos(angle).x;  // sin(a - pi) = -sin(a)
    }
    return static_cast<float>(sum / 1.75);
}

// The wind velocity at `time` (seconds).
inline glm::vec3 windVelocityAt(const WindSettings& w, double time) {
    glm::vec3 v = w.velocity;
    if (w.gusts.amplitude != 0.0f) v *= 1.0f + w.gusts.amplitude * gustShape(w.gusts, time);
    if (w.gusts.direction == 0.0f) return v;
    // |angle| <= 180 degrees: within clothSinCos's range.
    const float angle = glm::radians(w.gusts.direction) * gustShape(w.gusts, time, 6);
    const glm::vec2 sc = gpu::clothSinCos(angle);  // (sin, cos)
    return {v.x * sc.y + v.z * sc.x, v.y, v.z * sc.y - v.x * sc.x};
}

}  // namespace cloth
