// Jacobi and Chebyshev-accelerated Jacobi iterations (src/kernels/jacobi.h): one kernel, two
// passes chosen by SPEC_VARIANT.
//  - Items (the mask of one constraint type, bit I): each item [0, count) of the type solves its
//    own projection from the positions q^k on local copies of its vertices (inverse masses
//    scaled by their constraint counts), writes the move it wants for each vertex into its delta
//    slots, and updates its multiplier (relaxed and accelerated like the positions).
//  - JACOBI_APPLY: each vertex [0, count) adds its slots in order and moves to q^(k+1).
// The CPU reference (src/cpu/cpu_solver.cpp, solveJacobi) does the same operations in the same
// order.
#define CLOTH_JACOBI_LOCAL 1
#include "buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_VARIANT) const uint VARIANT = JACOBI_APPLY;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { JacobiPush pc; };

layout(std430, set = SET_CONSTRAINTS, binding = BINDING_JACOBI_DELTAS) buffer JacobiDeltas { vec4 jacobiDeltas[]; };
layout(std430, set = SET_CONSTRAINTS, binding = BINDING_JACOBI_VERTICES) readonly buffer JacobiVertices { JacobiVertex jacobiVertices[]; };
layout(std430, set = SET_CONSTRAINTS, binding = BINDING_JACOBI_SOURCES) readonly buffer JacobiSources { uint jacobiSources[]; };
layout(std430, set = SET_CONSTRAINTS, binding = BINDING_JACOBI_PREV_POSITIONS) buffer JacobiPrevPositions { vec4 jacobiPrevPositions[]; };
layout(std430, set = SET_CONSTRAINTS, binding = BINDING_JACOBI_PREV_LAMBDAS) buffer JacobiPrevLambdas { vec4 jacobiPrevLambdas[]; };

// An item's vertex indices (its first V words, v0.. by the rule of constraint_types.h).
#define CLOTH_JACOBI_INDICES_2(c) uvec4(c.v0, c.v1, 0xffffffffu, 0xffffffffu)
#define CLOTH_JACOBI_INDICES_3(c) uvec4(c.v0, c.v1, c.v2, 0xffffffffu)
#define CLOTH_JACOBI_INDICES_4(c) uvec4(c.v0, c.v1, c.v2, c.v3)
#define CLOTH_JACOBI_INDICES(V, c) CLOTH_JACOBI_INDICES_##V(c)

// Lambda-typed views of a previous-multiplier slot (one vec4 per item).
float jacobiLambdaOf(vec4 v, float unused) { return v.x; }
vec4 jacobiLambdaOf(vec4 v, vec4 unused) { return v; }

#define CLOTH_X(I, Name, name, Item, V, W, Lam)                                          \
    void jacobiItem##Name(uint k) {                                                      \
        Item c = load##Name(k);                                                          \
        uvec4 idx = CLOTH_JACOBI_INDICES(V, c);                                          \
        vec4 before[V];                                                                  \
        for (int j = 0; j < V; ++j) {                                                    \
            jacobiIndex[j] = idx[j];                                                     \
            vec4 p = loadStatePosition(idx[j]);                                          \
            p.w *= jacobiVertices[idx[j]].scale;                                         \
            jacobiLocal[j] = p;                                                          \
            before[j] = p;                                                               \
        }                                                                                \
        for (int j = V; j < 4; ++j) jacobiIndex[j] = 0xffffffffu;                        \
        Lam stored = name##Lambdas[k];                                                   \
        Lam current = pc.solve.firstIteration != 0u ? Lam(0.0) : stored;                 \
        Lam lambda = stored;                                                             \
        name##Solve(c, lambda, pc.solve);                                                \
        for (int j = 0; j < V; ++j)                                                      \
            jacobiDeltas[pc.deltaBase + k * V + j] = jacobiDelta(jacobiLocal[j], before[j]); \
        Lam previous = jacobiLambdaOf(jacobiPrevLambdas[pc.lambdaBase + k], Lam(0.0));   \
        name##Lambdas[k] = jacobiCombine(lambda, current, previous, pc.omega, pc.gamma); \
        jacobiPrevLambdas[pc.lambdaBase + k] = vec4(current);                            \
    }
CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X

void jacobiVertex(uint v) {
    JacobiVertex jv = jacobiVertices[v];
    vec3 sum = vec3(0.0);
    for (uint s = jv.begin; s < jv.end; ++s) sum += vec3(jacobiDeltas[jacobiSources[s]]);
    vec4 current = loadStatePosition(v);
    vec4 next = jacobiVertexPosition(current, jacobiPrevPositions[v], sum, jv, pc.omega, pc.gamma);
    jacobiPrevPositions[v] = current;
    storeStatePosition(v, next);
}

void run(uint i) {
    if (VARIANT == JACOBI_APPLY) {
        jacobiVertex(i);
        return;
    }
#define CLOTH_X(I, Name, name, Item, V, W, Lam) \
    if (VARIANT == (1u << I)) jacobiItem##Name(i);
    CLOTH_CONSTRAINT_TYPES(CLOTH_X)
#undef CLOTH_X
}

void main() {
    if (STRIDED) {
        uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
        for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) run(i);
    } else if (gl_GlobalInvocationID.x < pc.count) {
        run(gl_GlobalInvocationID.x);
    }
}
