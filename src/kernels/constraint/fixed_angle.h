// Constraint type "fixedAngle" (Anon. 2023 §4.8): an interior edge held at a target dihedral angle,
// e.g. a crease or a pleat. The same angle and gradients as dihedral bending (bending.h), with a
// target chosen in the scene instead of the rest state's angle, and its own compliance.
// One file per constraint type (see constraint/distance.h and constraint_types.h).
#ifndef CLOTH_CONSTRAINT_FIXED_ANGLE_H
#define CLOTH_CONSTRAINT_FIXED_ANGLE_H

#include "kernels/constraint/bending.h"

CLOTH_NAMESPACE_BEGIN

// Shared edge (v0, v1), opposite vertices v2 of (v0, v1, v2) and v3 of (v1, v0, v3), as for
// BendingConstraint. C = wrap(bendingAngle - targetAngle).
struct FixedAngleConstraint {
    uint v0;
    uint v1;
    uint v2;
    uint v3;
    float targetAngle;  // radians, bendingAngle's sign convention
    float param;        // XPBD: compliance (1/(N m)). PBD: k'.
    uint pad0;
    uint pad1;
};
CLOTH_CHECK_SIZE(FixedAngleConstraint, 32)
CLOTH_CHECK_OFFSET(FixedAngleConstraint, v3, 12)

CLOTH_FN BendingConstraint fixedAngleAsBending(FixedAngleConstraint c) {
    BendingConstraint b;
    b.v0 = c.v0;
    b.v1 = c.v1;
    b.v2 = c.v2;
    b.v3 = c.v3;
    b.restAngle = c.targetAngle;
    b.param = c.param;
    b.pad0 = 0u;
    b.pad1 = 0u;
    return b;
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_CONSTRAINT_FIXED_ANGLE_H

#if defined(CLOTH_HAS_POSITIONS) && !defined(CLOTH_CONSTRAINT_FIXED_ANGLE_SOLVE)
#define CLOTH_CONSTRAINT_FIXED_ANGLE_SOLVE
CLOTH_NAMESPACE_BEGIN

// Bending's solve with the target in place of the rest angle.
CLOTH_SOLVE_FN void fixedAngleSolve(CLOTH_POSITIONS FixedAngleConstraint c,
                                    CLOTH_INOUT(float) lambda, SolveParams s) {
#ifdef __cplusplus
    bendingSolve(positions, fixedAngleAsBending(c), lambda, s);
#else
    bendingSolve(fixedAngleAsBending(c), lambda, s);
#endif
}

#ifdef CLOTH_WIDE_ACCESS
// Two 16-byte halves: v0..v3, then targetAngle and param (the padding is not read).
FixedAngleConstraint fixedAngleLoadWide(uint k) {
    uvec4 v = wordsOf(fixedAngleWords[2u * k]);
    uvec2 w = unpackUint2x32(fixedAngleWords[2u * k + 1u].x);
    FixedAngleConstraint c;
    c.v0 = v.x;
    c.v1 = v.y;
    c.v2 = v.z;
    c.v3 = v.w;
    c.targetAngle = uintBitsToFloat(w.x);
    c.param = uintBitsToFloat(w.y);
    c.pad0 = 0u;
    c.pad1 = 0u;
    return c;
}
#endif

CLOTH_NAMESPACE_END
#endif
