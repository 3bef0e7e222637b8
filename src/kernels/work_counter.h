// Work whose size the GPU decides (docs/design.md, 'Work the GPU sizes grows'): a shader appends items to a buffer
// with an atomic counter; a later dispatch covers exactly what was appended, through
// vkCmdDispatchIndirect with arguments computed on the device (shaders/work_args.comp). An
// append past the capacity is not stored but still counted, so the host sees after the
// submission that the buffer was too small, grows it to `count` and redoes the work
// (src/vk/work_queue.h). Nothing is dropped silently.
#ifndef CLOTH_KERNELS_WORK_COUNTER_H
#define CLOTH_KERNELS_WORK_COUNTER_H

#include "kernels/common.h"

CLOTH_NAMESPACE_BEGIN

// The counter buffer of one queue. groups* is a VkDispatchIndirectCommand (offset 16).
struct WorkCounter {
    uint count;     // items appended (may exceed capacity: then the work must be redone)
    uint capacity;  // items the item buffer holds
    uint pad0;
    uint pad1;
    uint groupsX;   // workgroups to cover min(count, capacity) items
    uint groupsY;
    uint groupsZ;
    uint pad2;
};
CLOTH_CHECK_SIZE(WorkCounter, 32)
CLOTH_CHECK_OFFSET(WorkCounter, groupsX, 16)

CLOTH_NAMESPACE_END

#ifndef __cplusplus
// In a shader with `buffer Counter { WorkCounter counter; }`: reserves one slot. The item may be
// written only when the slot is below the capacity.
#define CLOTH_WORK_APPEND(counter) atomicAdd(counter.count, 1u)
#endif

#endif  // CLOTH_KERNELS_WORK_COUNTER_H
