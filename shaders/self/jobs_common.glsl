// What the self-collision kernels (self_collide.comp, self_sort.comp) share: the workgroup size,
// the push constant that picks the job, and where the arrays of the shared buffers start.
#ifndef CLOTH_SELF_JOBS_COMMON_GLSL
#define CLOTH_SELF_JOBS_COMMON_GLSL

layout(local_size_x_id = 0) in;

layout(push_constant) uniform Push {
    uint job;
    uint count;   // triangles
    uint shift;   // SORT_*: the digit's lowest bit
    uint blocks;  // SORT_*: blocks of SELF_SORT_BLOCK items; REDUCE: the partial boxes
    float margin;
    uint flip;    // SORT_*: 0 reads codes/order and writes codes2/order2, 1 the other way
    uint vertices;          // original vertices
    uint allVertices;       // phantoms included
    float muS;
    float muK;
    uint phantomGroupCount;
    uint oldSlots;          // MEMORY_REHASH: the old table's slots
    uint oldBits;
    uint partialCount;  // workgroups of BOXES (partial boxes)
    uint color;         // SOLVE_COLOR: the colour; COLOR_ROUND: the round
    uint scan;          // SCAN_*: the array (SELF_SCAN_SORT, _WALK, _PAIRS or _LISTS);
                        // COLOR_ROUND: 1 in the last round recorded
} pc;

// No invocation loops more than a few thousand times (llvmpipe's loop limit: shared/self_jobs.h):
// the prefix sums run by blocks (SELF_JOB_SCAN_*); loops whose length the data decides (a walk,
// a list's sort) set counters.truncated when they stop short, and the host refuses the frame.

// Where the shared buffers' arrays start.
uint partialBase() { return 2u * pc.count; }
uint sceneBase() { return 2u * pc.count + 2u * pc.partialCount; }
uint nodeCount() { return 2u * pc.count - 1u; }
#define lbvhParent(k) nodeInts[(k)]
#define lbvhRangeEnd(k) nodeInts[nodeCount() + (k)]
#define lbvhArrival(k) nodeInts[2u * nodeCount() + (k)]
#define lbvhCodes2(k) scratch[(k)]
#define lbvhOrder2(k) scratch[pc.count + (k)]
#define histogram(k) scratch[2u * pc.count + (k)]
#define vertexCounts(v) lists[(v)]
#define colorOrder(i) slots[(i)]
#define colorOf(i) slots[counters.capacity + (i)]
#define colorOffset(k) slots[4u * counters.capacity + (k)]
#define roundList(r, j) slots[(2u + (r) % 2u) * counters.capacity + (j)]
#define colorMask(v, w) lists[4u * (v) + (w)]
#define roundPriority(r, v) lists[(4u + (r) % 3u) * pc.vertices + (v)]
#define listOffsets(v) lists[pc.vertices + (v)]

// Radix-sort digits: buckets per pass (lib/radix_sort.glsl's RADIX_BUCKETS).
const uint SELF_SORT_BUCKETS = 256u;

#endif
