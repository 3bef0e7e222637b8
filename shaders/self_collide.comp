// Self-collision on the GPU (src/vk/self_collision_gpu.h), one kernel whose push constant picks
// the job; every job does what the CPU reference (src/cpu/self_collision.cpp, src/cpu/lbvh.cpp)
// does in the same order, so both find the same tree and the same contacts.
//
// The hierarchy, each step: BOXES (per triangle its corners' box at the start and predicted,
// and that grown by its thickness and half the margin; per workgroup the union of the grown
// boxes), REDUCE (the scene's box and the Morton grid), CODES, four SORT_COUNT / SORT_SCAN /
// SORT_SCATTER passes of a stable radix sort on 8-bit digits, NODES (Karras' internal nodes,
// the leaves), FIT (bounds bottom-up, each leaf climbing while it is the second to arrive).
#version 450
#extension GL_GOOGLE_include_directive : require

#include "self/lbvh_buffers.glsl"

layout(local_size_x_id = 0) in;

const uint JOB_BOXES = 0u;
const uint JOB_REDUCE = 1u;
const uint JOB_CODES = 2u;
const uint JOB_SORT_COUNT = 3u;
const uint JOB_SORT_SCAN = 4u;
const uint JOB_SORT_SCATTER = 5u;
const uint JOB_NODES = 6u;
const uint JOB_FIT = 7u;

layout(push_constant) uniform Push {
    uint job;
    uint count;   // triangles
    uint shift;   // SORT_*: the digit's lowest bit
    uint blocks;  // SORT_*: blocks of SORT_BLOCK items; REDUCE: the partial boxes
    float margin;
    uint flip;    // SORT_*: 0 reads codes/order and writes codes2/order2, 1 the other way
    uint pad0;
    uint pad1;
} pc;

const uint SORT_BLOCK = 256u;
const uint SORT_BUCKETS = 256u;

// min and max as std::min / std::max (the first argument unless the second is strictly less or
// greater), so that both backends pick the same zero.
float lessOf(float a, float b) { return b < a ? b : a; }
float moreOf(float a, float b) { return a < b ? b : a; }
vec3 lessOf(vec3 a, vec3 b) { return vec3(lessOf(a.x, b.x), lessOf(a.y, b.y), lessOf(a.z, b.z)); }
vec3 moreOf(vec3 a, vec3 b) { return vec3(moreOf(a.x, b.x), moreOf(a.y, b.y), moreOf(a.z, b.z)); }

shared vec3 sharedLo[gl_WorkGroupSize.x];
shared vec3 sharedHi[gl_WorkGroupSize.x];
shared bool sharedAny[gl_WorkGroupSize.x];

// Per triangle: its boxes; per workgroup: the union of its triangles' grown boxes, folded in
// triangle order as each CPU member folds its range (any order gives the same min and max).
void jobBoxes() {
    uint i = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    bool here = i < pc.count;
    vec3 lo = vec3(0.0);
    vec3 hi = vec3(0.0);
    if (here) {
        uint a = triangles[3u * i];
        uint b = triangles[3u * i + 1u];
        uint c = triangles[3u * i + 2u];
        lo = vec3(start[a]);
        hi = lo;
        vec3 p[5] = vec3[5](vec3(start[b]), vec3(start[c]), vec3(predicted[a]), vec3(predicted[b]),
                            vec3(predicted[c]));
        for (int k = 0; k < 5; ++k) {
            lo = lessOf(lo, p[k]);
            hi = moreOf(hi, p[k]);
        }
        float grow = triThickness[i] + 0.5 * pc.margin;
        tight[2u * i] = vec4(lo, 0.0);
        tight[2u * i + 1u] = vec4(hi, 0.0);
        lo = lo - vec3(grow);
        hi = hi + vec3(grow);
        boxes[2u * i] = vec4(lo, 0.0);
        boxes[2u * i + 1u] = vec4(hi, 0.0);
    }
    sharedLo[l] = lo;
    sharedHi[l] = hi;
    sharedAny[l] = here;
    barrier();
    if (l == 0u) {
        bool any = false;
        for (uint k = 0u; k < gl_WorkGroupSize.x; ++k) {
            if (!sharedAny[k]) continue;
            lo = any ? lessOf(lo, sharedLo[k]) : sharedLo[k];
            hi = any ? moreOf(hi, sharedHi[k]) : sharedHi[k];
            any = true;
        }
        partials[2u * gl_WorkGroupID.x] = vec4(lo, any ? 1.0 : 0.0);
        partials[2u * gl_WorkGroupID.x + 1u] = vec4(hi, 0.0);
    }
}

// One invocation: the union of the partial boxes, the Morton grid (lbvhInverseExtent).
void jobReduce() {
    if (gl_GlobalInvocationID.x != 0u) return;
    bool any = false;
    vec3 lo = vec3(0.0);
    vec3 hi = vec3(0.0);
    for (uint k = 0u; k < pc.blocks; ++k) {
        if (partials[2u * k].w == 0.0) continue;
        lo = any ? lessOf(lo, vec3(partials[2u * k])) : vec3(partials[2u * k]);
        hi = any ? moreOf(hi, vec3(partials[2u * k + 1u])) : vec3(partials[2u * k + 1u]);
        any = true;
    }
    vec3 inv;
    for (int k = 0; k < 3; ++k) inv[k] = hi[k] > lo[k] ? 1.0 / (hi[k] - lo[k]) : 1.0;
    scene[0] = vec4(lo, 0.0);
    scene[1] = vec4(inv, 0.0);
}

void jobCodes() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    vec3 centre = 0.5 * (vec3(boxes[2u * i]) + vec3(boxes[2u * i + 1u]));
    lbvhCodes[i] = lbvhMortonCode(centre, vec3(scene[0]), vec3(scene[1]));
    lbvhOrder[i] = i;
}

uint sortKey(uint k) { return pc.flip == 0u ? lbvhCodes[k] : lbvhCodes2[k]; }

// Per block: how many of its items have each digit (bucket-major: bucket * blocks + block).
void sortCount() {
    uint block = gl_GlobalInvocationID.x;
    if (block >= pc.blocks) return;
    uint counts[SORT_BUCKETS];
    for (uint d = 0u; d < SORT_BUCKETS; ++d) counts[d] = 0u;
    uint end = min(pc.count, (block + 1u) * SORT_BLOCK);
    for (uint k = block * SORT_BLOCK; k < end; ++k) counts[(sortKey(k) >> pc.shift) & 255u] += 1u;
    for (uint d = 0u; d < SORT_BUCKETS; ++d) histograms[d * pc.blocks + block] = counts[d];
}

// One invocation: the exclusive prefix sums of the histograms, bucket-major, so each
// (bucket, block) learns where its items start.
void sortScan() {
    if (gl_GlobalInvocationID.x != 0u) return;
    uint sum = 0u;
    uint n = SORT_BUCKETS * pc.blocks;
    for (uint k = 0u; k < n; ++k) {
        uint c = histograms[k];
        histograms[k] = sum;
        sum += c;
    }
}

// Per block, its items in order to their places: stable.
void sortScatter() {
    uint block = gl_GlobalInvocationID.x;
    if (block >= pc.blocks) return;
    uint next[SORT_BUCKETS];
    for (uint d = 0u; d < SORT_BUCKETS; ++d) next[d] = histograms[d * pc.blocks + block];
    uint end = min(pc.count, (block + 1u) * SORT_BLOCK);
    for (uint k = block * SORT_BLOCK; k < end; ++k) {
        uint code = sortKey(k);
        uint d = (code >> pc.shift) & 255u;
        uint slot = next[d];
        next[d] = slot + 1u;
        if (pc.flip == 0u) {
            lbvhCodes2[slot] = code;
            lbvhOrder2[slot] = lbvhOrder[k];
        } else {
            lbvhCodes[slot] = code;
            lbvhOrder[slot] = lbvhOrder2[k];
        }
    }
}

// Node i of 2n - 1: internal nodes first (children, their parent, the range's end), then the
// leaves (the box of their triangle).
void jobNodes() {
    uint n = pc.count;
    uint i = gl_GlobalInvocationID.x;
    if (i >= 2u * n - 1u) return;
    if (i == 0u) lbvhParent[0] = LBVH_LEAF;
    if (i + 1u < n) {
        lbvhArrival[i] = 0u;  // for FIT
        uint left, right;
        int last;
        lbvhChildren(int(i), int(n), left, right, last);
        lbvhNodes[i].left = left;
        lbvhNodes[i].right = right;
        lbvhParent[left] = i;
        lbvhParent[right] = i;
        lbvhRangeEnd[i] = uint(max(int(i), last));
        return;
    }
    uint j = i - (n - 1u);
    uint t = lbvhOrder[j];
    vec4 lo = boxes[2u * t];
    vec4 hi = boxes[2u * t + 1u];
    LbvhNode leaf;
    leaf.minX = lo.x;
    leaf.minY = lo.y;
    leaf.minZ = lo.z;
    leaf.left = t;
    leaf.maxX = hi.x;
    leaf.maxY = hi.y;
    leaf.maxZ = hi.z;
    leaf.right = LBVH_LEAF;
    lbvhNodes[i] = leaf;
    lbvhRangeEnd[i] = j;
}

// Leaf j climbs while it is the second child to arrive at a node (the first stops), so each
// node's bounds are computed once, after both children's (NODES zeroed the arrival counters).
void jobFit() {
    uint n = pc.count;
    uint j = gl_GlobalInvocationID.x;
    if (j >= n || n < 2u) return;
    uint node = lbvhParent[n - 1u + j];
    while (node != LBVH_LEAF) {
        memoryBarrierBuffer();
        if (atomicAdd(lbvhArrival[node], 1u) == 0u) return;
        memoryBarrierBuffer();
        LbvhNode a = lbvhNodes[lbvhNodes[node].left];
        LbvhNode b = lbvhNodes[lbvhNodes[node].right];
        lbvhNodes[node].minX = lessOf(a.minX, b.minX);
        lbvhNodes[node].minY = lessOf(a.minY, b.minY);
        lbvhNodes[node].minZ = lessOf(a.minZ, b.minZ);
        lbvhNodes[node].maxX = moreOf(a.maxX, b.maxX);
        lbvhNodes[node].maxY = moreOf(a.maxY, b.maxY);
        lbvhNodes[node].maxZ = moreOf(a.maxZ, b.maxZ);
        node = lbvhParent[node];
    }
}

void main() {
    switch (pc.job) {
        case JOB_BOXES: jobBoxes(); break;
        case JOB_REDUCE: jobReduce(); break;
        case JOB_CODES: jobCodes(); break;
        case JOB_SORT_COUNT: sortCount(); break;
        case JOB_SORT_SCAN: sortScan(); break;
        case JOB_SORT_SCATTER: sortScatter(); break;
        case JOB_NODES: jobNodes(); break;
        case JOB_FIT: jobFit(); break;
        default: break;
    }
}
