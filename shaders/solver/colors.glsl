// One colour of the constraint graph: its distance and/or bending constraints (SPEC_VARIANT).
// No two constraints of a colour share a vertex, so there are no races. With STRIDED an
// invocation takes items i, i + stride, ... (stride = all invocations of the dispatch), so the
// host may launch fewer invocations than items; otherwise one item each.
//
// With CLOTH_COLOR_RUN (colors_run.comp) a single workgroup solves the colours
// [colorBegin, colorEnd) one after another: each colour's distance constraints, then its bending
// constraints, strided over the workgroup, then a barrier before the next colour. The same order
// as one dispatch per colour, in one dispatch: for colours too small to fill a device, where
// the dispatches and the barriers between them cost more than the constraints.
#include "buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_VARIANT) const uint TYPES = COLOR_DISTANCE | COLOR_BENDING;
layout(constant_id = SPEC_LAMBDA) const uint LAMBDA = 0u;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { ColorPush pc; };

void solveDistance(uint k) {
    DistanceConstraint c = loadDistance(k);
    vec4 p0 = loadPosition(c.v0);
    vec4 p1 = loadPosition(c.v1);
    float lambda = (LAMBDA & LAMBDA_LOAD) != 0u ? lambdaDistance[k] : 0.0;
    projectDistance(p0, p1, c, lambda, pc.solve);
    storePosition(c.v0, p0);
    storePosition(c.v1, p1);
    if ((LAMBDA & LAMBDA_STORE) != 0u) lambdaDistance[k] = lambda;
}

void solveBending(uint k) {
    BendingConstraint c = loadBending(k);
    vec4 p0 = loadPosition(c.v0);
    vec4 p1 = loadPosition(c.v1);
    vec4 p2 = loadPosition(c.v2);
    vec4 p3 = loadPosition(c.v3);
    float lambda = (LAMBDA & LAMBDA_LOAD) != 0u ? lambdaBending[k] : 0.0;
    projectBending(p0, p1, p2, p3, c, lambda, pc.solve);
    storePosition(c.v0, p0);
    storePosition(c.v1, p1);
    storePosition(c.v2, p2);
    storePosition(c.v3, p3);
    if ((LAMBDA & LAMBDA_STORE) != 0u) lambdaBending[k] = lambda;
}

void solve(uint i) {
    if (TYPES == COLOR_DISTANCE) {
        solveDistance(pc.distanceBegin + i);
    } else if (TYPES == COLOR_BENDING) {
        solveBending(pc.bendingBegin + i);
    } else if (i < pc.distanceCount) {
        solveDistance(pc.distanceBegin + i);
    } else {
        solveBending(pc.bendingBegin + (i - pc.distanceCount));
    }
}

#ifdef CLOTH_COLOR_RUN

void main() {
    const uint lanes = gl_WorkGroupSize.x;
    for (uint c = pc.colorBegin; c < pc.colorEnd; ++c) {
        uvec4 r = colorRanges[c];  // distanceBegin, distanceCount, bendingBegin, bendingCount
        for (uint i = gl_LocalInvocationID.x; i < r.y; i += lanes) solveDistance(r.x + i);
        for (uint i = gl_LocalInvocationID.x; i < r.w; i += lanes) solveBending(r.z + i);
        memoryBarrierBuffer();
        barrier();
    }
}

#else

void main() {
    uint n = ((TYPES & COLOR_DISTANCE) != 0u ? pc.distanceCount : 0u) +
             ((TYPES & COLOR_BENDING) != 0u ? pc.bendingCount : 0u);
    if (STRIDED) {
        uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
        for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) solve(i);
    } else if (gl_GlobalInvocationID.x < n) {
        solve(gl_GlobalInvocationID.x);
    }
}

#endif
