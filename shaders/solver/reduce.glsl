// Workgroup sums of RigidSums through shared memory, one vec4 member at a time so that large
// workgroups fit the 16 KiB shared memory every device has. The workgroup size is a power of two.
#ifndef CLOTH_SOLVER_REDUCE_GLSL
#define CLOTH_SOLVER_REDUCE_GLSL

shared vec4 reduceScratch[gl_WorkGroupSize.x];

// Sum of v over the workgroup, valid in invocation 0. Called in uniform control flow.
vec4 workgroupSum(vec4 v) {
    uint i = gl_LocalInvocationID.x;
    reduceScratch[i] = v;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
        if (i < s) reduceScratch[i] += reduceScratch[i + s];
        barrier();
    }
    vec4 total = reduceScratch[0];
    barrier();  // the scratch is reused by the next call
    return total;
}

RigidSums workgroupSum(RigidSums s) {
    RigidSums t;
    t.massMoment = workgroupSum(s.massMoment);
    t.momentum = workgroupSum(s.momentum);
    t.angular = workgroupSum(s.angular);
    t.rrDiag = workgroupSum(s.rrDiag);
    t.rrOff = workgroupSum(s.rrOff);
    return t;
}

#endif
