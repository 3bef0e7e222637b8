// work_args.comp: the indirect dispatch arguments of a work queue (src/kernels/work_counter.h):
// enough workgroups of WORKGROUP invocations for the items that were appended and stored.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/work_counter.h"

layout(local_size_x = 1) in;
layout(constant_id = 0) const uint WORKGROUP = 64u;
layout(std430, set = 0, binding = 0) buffer Counter { WorkCounter counter; };

void main() {
    uint n = min(counter.count, counter.capacity);
    counter.groupsX = (n + WORKGROUP - 1u) / WORKGROUP;
    counter.groupsY = 1u;
    counter.groupsZ = 1u;
}
