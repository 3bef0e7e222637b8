// Test kernel for tests/vk/test_work_queue.cpp: input i emits (i * 7 + seed) % 5 items
// (i, k) into a work queue.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/work_counter.h"

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Counter { WorkCounter counter; };
layout(std430, set = 0, binding = 1) writeonly buffer Items { uvec2 items[]; };
layout(push_constant) uniform Push {
    uint inputs;
    uint seed;
} pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.inputs) return;
    uint n = (i * 7u + pc.seed) % 5u;
    for (uint k = 0u; k < n; ++k) {
        uint slot = CLOTH_WORK_APPEND(counter);
        if (slot < counter.capacity) items[slot] = uvec2(i, k);
    }
}
