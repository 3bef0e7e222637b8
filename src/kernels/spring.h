// Provot's springs (mass-spring model, docs/models.md): the spring between vertices a and b of
// rest length L and stiffness k stores E = k (l - L)^2 / 2 at length l = |x_a - x_b|, so the force
// on a is -dE/dx_a = -k (l - L) (x_a - x_b) / l and the force on b its opposite: a stretched
// spring pulls its ends together. (003 §2.1 prints the direction the other way round; the sign
// here follows from the energy and is checked against finite differences in the tests.)
// Shared by C++ and GLSL.
#ifndef CLOTH_KERNELS_SPRING_H
#define CLOTH_KERNELS_SPRING_H

#include "kernels/common.h"

CLOTH_NAMESPACE_BEGIN

struct Spring {
    uint a, b;
    float rest;       // m
    float stiffness;  // N/m
};
CLOTH_CHECK_SIZE(Spring, 16)

// The force on the end at xa of a spring to xb (0 for coincident ends: no direction).
CLOTH_FN vec3 springForce(vec3 xa, vec3 xb, float rest, float stiffness) {
    vec3 d = xa - xb;
    float l = length(d);
    if (!(l > 0.0f)) return vec3(0.0f);
    return d * (-stiffness * (l - rest) / l);
}

CLOTH_NAMESPACE_END

#endif
