// One colour of the constraint graph: the items of the constraint types in SPEC_VARIANT (a mask,
// bit I for type I of constraint_types.h), in table order. No two items of a colour share a
// vertex, so there are no races. With STRIDED an invocation takes items i, i + stride, ...
// (stride = all invocations of the dispatch), so the host may launch fewer invocations than
// items; otherwise one item each.
//
// With CLOTH_COLOR_RUN (colors_run.comp) a single workgroup solves the colours
// [colorBegin, colorEnd) one after another: each colour's items type by type (the types of
// SPEC_VARIANT: the host passes the types the cloth has, so the others are compiled out; on
// llvmpipe the code of absent types cost 40% at 32^2), strided over the
// workgroup, then a barrier before the next colour. The same order as one dispatch per colour,
// in one dispatch: for colours too small to fill a device, where the dispatches and the
// barriers between them cost more than the constraints.
#include "buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_VARIANT) const uint TYPES = (1u << CLOTH_CONSTRAINT_TYPE_COUNT) - 1u;
layout(constant_id = SPEC_LAMBDA) const uint LAMBDA = 0u;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { ColorPush pc; };
// A bug put in on purpose (clothcheck --inject; 0, nothing, in every ordinary run).
layout(constant_id = SPEC_FAULT) const uint FAULT = 0u;

// FAULT_GRADIENT_SIGN: the vertex of item 0 whose correction goes the wrong way (distance
// constraints' second vertex; none of the other types').
const uint NO_FAULT_VERTEX = 0xffffffffu;
uint faultVertex(DistanceConstraint c) { return c.v1; }
uint faultVertex(BendingConstraint c) { return NO_FAULT_VERTEX; }
uint faultVertex(StvkConstraint c) { return NO_FAULT_VERTEX; }
uint faultVertex(IsoBendingConstraint c) { return NO_FAULT_VERTEX; }
uint faultVertex(FixedAngleConstraint c) { return NO_FAULT_VERTEX; }

// solve<Name>At(k): item k of a type, with its multiplier loaded and stored as SPEC_LAMBDA says.
#define CLOTH_X(I, Name, name, Item, V, W, Lam)                                  \
    void solve##Name##At(uint k) {                                               \
        Item c = load##Name(k);                                                  \
        Lam lambda = (LAMBDA & LAMBDA_LOAD) != 0u ? name##Lambdas[k] : Lam(0.0); \
        uint fv = FAULT == FAULT_GRADIENT_SIGN && k == 0u ? faultVertex(c)       \
                                                          : NO_FAULT_VERTEX;     \
        vec4 before = fv != NO_FAULT_VERTEX ? loadStatePosition(fv) : vec4(0.0); \
        name##Solve(c, lambda, pc.solve);                                        \
        if (fv != NO_FAULT_VERTEX) {                                             \
            vec4 after = loadStatePosition(fv);                                  \
            storeStatePosition(fv, vec4(2.0 * before.xyz - after.xyz, after.w)); \
        }                                                                        \
        if ((LAMBDA & LAMBDA_STORE) != 0u) name##Lambdas[k] = lambda;            \
    }
CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X

#ifdef CLOTH_COLOR_RUN

void main() {
    const uint lanes = gl_WorkGroupSize.x;
    for (uint c = pc.colorBegin; c < pc.colorEnd; ++c) {
#define CLOTH_X(I, Name, name, Item, V, W, Lam)                                  \
        if ((TYPES & (1u << I)) != 0u) {                                         \
            uvec2 r = colorRanges[c * CLOTH_CONSTRAINT_TYPE_COUNT + I];          \
            for (uint i = gl_LocalInvocationID.x; i < r.y; i += lanes)           \
                solve##Name##At(r.x + i);                                        \
        }
        CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X
        // The injected bug: no barrier in this run (recorded for colours 0 and 1 alone). A barrier
        // left out between two colours of a longer run changed no bit on llvmpipe.
        if (FAULT == FAULT_MISSING_BARRIER) continue;
        memoryBarrierBuffer();
        barrier();
    }
}

#else

// Item i of the dispatch: one type alone, or the types of the mask one after another.
void solve(uint i) {
#define CLOTH_X(I, Name, name, Item, V, W, Lam)                                  \
    if (TYPES == (1u << I)) {                                                    \
        solve##Name##At(pc.begin[I] + i);                                        \
        return;                                                                  \
    }
    CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X
#define CLOTH_X(I, Name, name, Item, V, W, Lam)                                  \
    if ((TYPES & (1u << I)) != 0u) {                                             \
        if (i < pc.count[I]) {                                                   \
            solve##Name##At(pc.begin[I] + i);                                    \
            return;                                                              \
        }                                                                        \
        i -= pc.count[I];                                                        \
    }
    CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X
}

void main() {
    uint n = 0u;
#define CLOTH_X(I, Name, name, Item, V, W, Lam) \
    if ((TYPES & (1u << I)) != 0u) n += pc.count[I];
    CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X
    if (STRIDED) {
        uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
        for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) solve(i);
    } else if (gl_GlobalInvocationID.x < n) {
        solve(gl_GlobalInvocationID.x);
    }
}

#endif
