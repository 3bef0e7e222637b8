// Mueller's rigid-motion-preserving damping in the models' Vulkan solvers (mass_spring.comp,
// pd_jacobi.comp): the CPU reference's order and bits (prep/model_damping.h,
// cpu/model_damping.cpp). Three jobs, each a dispatch: the sums of each run of a damped segment
// (one invocation per run, vertex by vertex), each damped segment's rigid motion (one per damped
// segment, adding its runs in order) and the damping (one per vertex slot of each run). The
// includer declares positions[] and velocities[] (vec4; w = inverse mass), and previous[] with
// MODEL_RIGID_PREVIOUS, and sets MODEL_RIGID_BINDING: the table there (prep/model_damping.h
// ModelRigidTable) and the slots at the next binding.
layout(std430, set = 0, binding = MODEL_RIGID_BINDING) readonly buffer RigidTable { uvec4 rigidTable[]; };
// Per run its sums; after them, per damped segment its rigid motion in a RigidSums's first three
// vectors (centre, linear, angular).
layout(std430, set = 0, binding = MODEL_RIGID_BINDING + 1) buffer RigidSlots { RigidSums rigidSlots[]; };

// Run r's sums (runs: the table's run count).
void modelRigidSums(uint r, uint runs) {
    uvec4 run = rigidTable[r];
    uvec4 seg = rigidTable[runs + run.z];
    vec3 ref = vec3(positions[seg.z]);
    RigidSums s = rigidSumsZero();
    for (uint i = run.x; i < run.x + run.y; ++i) {
        vec4 p = positions[i];
        if (p.w > 0.0) s = rigidSumsAdd(s, vec3(p) - ref, vec3(velocities[i]), 1.0 / p.w);
    }
    rigidSlots[r] = s;
}

// Damped segment d's rigid motion.
void modelRigidMotion(uint d, uint runs) {
    uvec4 seg = rigidTable[runs + d];
    RigidSums total = rigidSumsZero();
    for (uint r = seg.x; r < seg.x + seg.y; ++r) total = rigidSumsCombine(total, rigidSlots[r]);
    RigidMotion m = rigidMotionFromSums(total, vec3(positions[seg.z]), uintBitsToFloat(seg.w));
    RigidSums packed = rigidSumsZero();
    packed.massMoment = m.center;
    packed.momentum = m.linear;
    packed.angular = m.angular;
    rigidSlots[runs + d] = packed;
}

// Vertex slot i (run i / RIGID_SUM_CHUNK, its vertex i % RIGID_SUM_CHUNK): v + k (v_rigid - v);
// with movePrevious, previous -= h dv.
void modelRigidDamp(uint i, uint runs, bool movePrevious, float h) {
    uint r = i / RIGID_SUM_CHUNK;
    uint k = i % RIGID_SUM_CHUNK;
    if (r >= runs) return;
    uvec4 run = rigidTable[r];
    if (k >= run.y) return;
    uint v = run.x + k;
    vec4 x = positions[v];
    if (x.w <= 0.0) return;
    RigidSums packed = rigidSlots[runs + run.z];
    RigidMotion m;
    m.center = packed.massMoment;
    m.linear = packed.momentum;
    m.angular = packed.angular;
    vec3 before = vec3(velocities[v]);
    vec3 after = rigidDampedVelocity(vec3(x), before, m);
    velocities[v] = vec4(after, 0.0);
#ifdef MODEL_RIGID_PREVIOUS
    if (movePrevious) previous[v] -= vec4(h * (after - before), 0.0);
#endif
}
