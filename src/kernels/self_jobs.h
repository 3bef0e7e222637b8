// The jobs of self-collision's compute shaders (shaders/self_*.comp, one job per push constant's
// `job`), the state they share with their host (src/vk/self/) and the sizes both must agree on.
// Written once for C++ and GLSL.
#ifndef CLOTH_KERNELS_SELF_JOBS_H
#define CLOTH_KERNELS_SELF_JOBS_H

#include "kernels/common.h"

CLOTH_NAMESPACE_BEGIN

// ---- shaders/self_motion.comp (sim/self_phases.h's Motion) ----
const uint SELF_JOB_START = 0u;          // per vertex: its position at the substep's start
const uint SELF_JOB_MOTION_FOLD = 1u;    // per original vertex: displacement and step ranges,
                                         // folded per workgroup
const uint SELF_JOB_MOTION_REDUCE = 2u;  // the ranges' union by levels; the top: T and the rest
const uint SELF_JOB_MOTION_CHECK = 3u;   // per original vertex: its bounds, its moves; the
                                         // last workgroup to finish decides: a detection or
                                         // not, and its dispatches' sizes
// ---- shaders/self_tree.comp (Rebuild, Refit) ----
const uint SELF_JOB_BOXES = 4u;       // per triangle: its box at the start, grown
const uint SELF_JOB_BOX_REDUCE = 5u;  // the boxes' union by levels; the top: the Morton grid
const uint SELF_JOB_CODES = 6u;       // per triangle: its Morton code
const uint SELF_JOB_NODES = 7u;       // per node: Karras' hierarchy from the sorted codes
const uint SELF_JOB_FIT = 8u;         // per leaf (workgroups of one): bounds bottom-up
const uint SELF_JOB_SORT_COUNT = 9u;     // shaders/self_sort.comp: per block, digit counts
const uint SELF_JOB_SORT_SCATTER = 10u;  // per block, items to their places
// ---- shaders/self_gather.comp (Gather) ----
const uint SELF_JOB_GATHER = 11u;         // per sorted triangle: the walk (once), its candidates
                                          // counted and stored in chunks of the pool; and per
                                          // slot of the memory table (and per vertex its list
                                          // count) a fresh start
const uint SELF_JOB_MEMORY_INSERT = 12u;  // per old candidate that was a contact: its side
const uint SELF_JOB_GATHER_PLACE = 13u;   // per slot of the pool's chunks: its candidate moved to
                                          // its place in the walk's order
// ---- shaders/self_lists.comp (Lists) ----
const uint SELF_JOB_LIST_COUNT = 14u;      // per candidate: its vertices' counts
const uint SELF_JOB_LIST_FILL = 15u;       // per candidate: its slots into its vertices' lists
const uint SELF_JOB_LIST_SORT = 16u;       // per original vertex: its list in slot order (when
                                           // short), its bound
const uint SELF_JOB_LIST_SORT_LONG = 17u;  // per long list, a workgroup: its bitonic sort
// ---- shaders/self_evaluate.comp (Evaluate, Compact) ----
const uint SELF_JOB_EVALUATE = 18u;  // per candidate: a contact this substep or not
const uint SELF_JOB_COMPACT = 19u;   // per original vertex: its contacts' slots, its least
                                     // budgets
// ---- shaders/self_solve.comp (Pass, Clamp) ----
const uint SELF_JOB_KEEP = 20u;    // per original vertex: where the passes start
const uint SELF_JOB_PASS = 21u;    // per vertex of colour pc.colour: the vertex order
const uint SELF_JOB_JACOBI = 22u;  // per original vertex: the Jacobi order
const uint SELF_JOB_CLAMP = 23u;   // per vertex: into its bounds
// ---- shaders/self_scan.comp: prefix sums by levels (shaders/lib/block_scan.glsl) ----
const uint SELF_JOB_SCAN_BLOCKS = 24u;  // per block of level pc.level: its sum
const uint SELF_JOB_SCAN_TOP = 25u;     // one workgroup: the top level to offsets, the total
const uint SELF_JOB_SCAN_APPLY = 26u;   // per block of level pc.level: its items' offsets
const uint SELF_JOB_EVALUATE_REST = 27u;  // shaders/self_evaluate.comp: per rest pair its plane
const uint SELF_JOB_COUNT = 28u;

// A vertex's list longer than this is sorted by a workgroup of SELF_LIST_LONG_WORKGROUP
// (LIST_SORT_LONG: a bitonic network, each invocation a share of each step) rather than by one
// invocation's heap sort: llvmpipe ends an invocation's loops after 65535 iterations in all,
// which a heap sort of a few thousand slots passes (measured: 3,532 slots of one vertex of a
// folded 96^2 cloth stopped half sorted). Lists up to SELF_LIST_LONGEST slots then stay under
// the limit (153 steps of 256 comparators each); longer ones raise SelfState::truncated.
const uint SELF_LIST_LONG = 512u;
const uint SELF_LIST_LONG_WORKGROUP = 256u;
const uint SELF_LIST_LONGEST = 131072u;

// The arrays the scans run over (pc.array).
const uint SELF_SCAN_SORT = 0u;    // the radix sort's histograms
const uint SELF_SCAN_GATHER = 1u;  // per sorted triangle its candidates
const uint SELF_SCAN_LISTS = 2u;   // per original vertex its candidates' slots

// llvmpipe (lavapipe) ends every loop of a shader invocation once the invocation has run 65535
// loop iterations in all (gallivm's loop limiter), silently. So no invocation loops more than a
// few thousand times: prefix sums and unions run by workgroups over blocks of SELF_SCAN_BLOCK
// items, level by level; loops whose length the data decides set SelfState::truncated when they
// stop short, and the host refuses the frame.
const uint SELF_SCAN_BLOCK = 256u;
// MOTION_FOLD's ranges per item (vec4 each): the starts' intervals of translations (lo, hi),
// the predictions', and the largest coordinate.
const uint SELF_MOTION_RANGES = 5u;
const uint SELF_SORT_BLOCK = 256u;    // the radix sort's items per invocation
const uint SELF_SORT_BUCKETS = 256u;  // (lib/radix_sort.glsl's RADIX_BUCKETS)

// The walk's pool (shaders/self_gather.comp): each sorted triangle stores its candidates in
// chunks of SELF_POOL_CHUNK slots, taken one at a time from a shared cursor as its walk fills
// them, so that one walk both counts and stores (a slot: the pair and its gaps, 16 bytes);
// GATHER_PLACE then makes each candidate again from its pair at its place in the walk's order
// (the scan of the counts). The pool holds the capacity plus
// SELF_POOL_CHUNK - 1 slots per triangle (the most that partly filled chunks can waste), so it
// never runs out before the candidates' capacity does (then the frame is redone anyway).
const uint SELF_POOL_CHUNK = 8u;

// The detection's dispatches of a fixed size, run only when a detection happens
// (SelfState::gate: the host writes their sizes into gateSizes, the last MOTION_CHECK workgroup copies them or 0).
const uint SELF_GATES = 32u;

// The state the self-collision kernels share with the host (a host-visible buffer).
struct SelfState {
    // Set by the host.
    uint triangles, vertices, allVertices, phantomGroups;
    uint capacity;     // candidates the buffers hold
    uint memoryBits;   // the memory table: 2^memoryBits slots
    uint partials;     // MOTION_FOLD's workgroups
    uint boxPartials;  // BOXES' workgroups
    float margin, muS, muK, minBound;
    float reach;  // the least distance to keep plus the margin (the clamp's cap)
    uint everySubstep;  // SelfCollisionSettings::Detection::EverySubstep
    uint gates;         // entries of gateSizes used
    uint frameCandidates;  // the candidates at the frame's start (the host's snapshot)
    // Each substep (MOTION_*).
    vec4 startShift;  // xyz: Ts, the starts' translation; w: the slack
    vec4 predShift;   // xyz: Tq, the predictions'; w: selfShift(Ts, Tq)
    // MOTION_REDUCE: 1 when an interval of translations is empty; MOTION_CHECK adds the
    // vertices whose positions are not finite.
    uvec4 outside;
    uint detect;           // 1 when this substep detects
    uint detections;       // since the start
    uint clamped;          // CLAMP: vertices clamped in this substep
    uint clampedTotal;     // since the start
    uint candidates;       // kept by the last detection (stored: at most the capacity)
    uint gathered;         // found by the last detection (more than the capacity: overflow)
    uint mostGathered;     // the most any detection of the frame found
    uint contacts;         // EVALUATE: this substep's
    uint pairs, tested, walkNodes, evaluated;  // the last detection's walk; this substep's tests
    uint truncated;        // nonzero: a loop stopped before its end
    uint frameDetections;  // detections in this frame (the host zeroes it)
    uint conflicts;        // EVALUATE: pairs that leave the own references no room
    uint mostVertexContacts;  // COMPACT: the most contacts of one vertex in this substep
    uint checkDone;           // MOTION_CHECK: its workgroups done (the last one decides)
    float shift;              // the substep's selfShift (of the detection that holds)
    uint restPairs;           // the rest pairs (set by the host)
    uint poolChunks;          // GATHER: the pool's chunks taken (the cursor; 0 at a detection)
    uint poolCapacity;        // the pool's slots (set by the host; a multiple of the chunk)
    uint padding[11];
    // Indirect dispatches (x, y, z, unused), 2D where a count may pass the device's limit.
    uvec4 candidateGroups;        // over the candidates
    uvec4 detectCandidateGroups;  // the same at a detection, else 0
    uvec4 oldCandidateGroups;     // at a detection: over the last detection's candidates
    uvec4 longListGroups;         // LIST_SORT_LONG: a workgroup per long list
    uvec4 placeGroups;            // GATHER_PLACE: over the pool's chunks taken, else 0
    uvec4 gate[SELF_GATES];       // the gated dispatches: gateSizes[k] or 0
    uvec4 gateSizes[SELF_GATES];
};
CLOTH_CHECK_SIZE(SelfState, 320 + 16 * SELF_GATES * 2)

// The push constant of every self-collision kernel.
struct SelfPush {
    uint job;
    uint level;   // a scan's or a union's level; a colour (PASS)
    uint array;   // SCAN_*: the array (SELF_SCAN_*); 1 at a union's top
    uint shift;   // SORT_*: the digit's lowest bit; PASS, JACOBI: the pass
    uint flip;    // SORT_*: 0 reads codes/order and writes the second ones, 1 the other way
    uint count;   // the items of the dispatch (a colour's vertices; a scan's items)
    uint gate;    // the gate of a gated dispatch (its args in SelfState::gate)
    uint blocks;  // SORT_*: blocks of SELF_SORT_BLOCK
};
CLOTH_CHECK_SIZE(SelfPush, 32)

// A linear invocation index over a 2D grid of workgroups of `size` invocations (dispatches that
// may need more than 65535 workgroups along x).
CLOTH_FN uvec4 selfGroups2D(uint items, uint size) {
    uint groups = (items + size - 1u) / size;
    uint x = groups < 65535u ? groups : 65535u;
    uint y = x == 0u ? 0u : (groups + x - 1u) / x;
    return uvec4(x, y, x == 0u ? 0u : 1u, 0u);
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_SELF_JOBS_H
