// Test kernel for tests/vk/test_work_queue.cpp, dispatched indirectly over a work queue: item
// (i, k) adds 1 to hits[i] and k to sums[i].
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/work_counter.h"

layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer Counter { WorkCounter counter; };
layout(std430, set = 0, binding = 1) readonly buffer Items { uvec2 items[]; };
layout(std430, set = 0, binding = 2) buffer Hits { uvec2 hits[]; };

void main() {
    uint slot = gl_GlobalInvocationID.x;
    if (slot >= min(counter.count, counter.capacity)) return;
    uvec2 item = items[slot];
    atomicAdd(hits[item.x].x, 1u);
    atomicAdd(hits[item.x].y, item.y);
}
