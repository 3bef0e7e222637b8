// The jobs of shaders/self_collide.comp (its push constant's `job`, one kernel for every step
// of self-collision) and the sizes its host (src/vk/self_collision_gpu.cpp) must agree on.
// Written once for C++ and GLSL.
#ifndef CLOTH_KERNELS_SELF_JOBS_H
#define CLOTH_KERNELS_SELF_JOBS_H

#include "kernels/common.h"

CLOTH_NAMESPACE_BEGIN

// The hierarchy: BOXES, REDUCE, CODES, SORT_COUNT / SORT_SCATTER (per radix digit), NODES, FIT.
const uint SELF_JOB_BOXES = 0u;
const uint SELF_JOB_REDUCE = 1u;
const uint SELF_JOB_CODES = 2u;
const uint SELF_JOB_SORT_COUNT = 3u;
const uint SELF_JOB_SORT_SCATTER = 4u;
const uint SELF_JOB_NODES = 5u;
const uint SELF_JOB_FIT = 6u;
// per vertex: its position at the substep's start
const uint SELF_JOB_START = 7u;
// per sorted position: its close pairs, counted
const uint SELF_JOB_WALK_COUNT = 8u;
// per sorted position: its close pairs, stored
const uint SELF_JOB_WALK_WRITE = 9u;
// per slot of the memory table
const uint SELF_JOB_MEMORY_CLEAR = 10u;
// per contact: its key and direction, for the next substep
const uint SELF_JOB_MEMORY_INSERT = 11u;
// per original vertex: no slots
const uint SELF_JOB_LIST_CLEAR = 12u;
// per contact: its vertices' counts
const uint SELF_JOB_LIST_COUNT = 13u;
// per contact: its slots into its vertices' lists
const uint SELF_JOB_LIST_FILL = 14u;
// per original vertex: its list in contact order
const uint SELF_JOB_LIST_SORT = 15u;
// per contact: its corrections
const uint SELF_JOB_SOLVE = 16u;
// per original vertex: moved by their weighted mean
const uint SELF_JOB_GATHER = 17u;
// per phantom group: its copies moved as the original
const uint SELF_JOB_COPIES = 18u;
// per slot of the old table (after a growth): reinserted
const uint SELF_JOB_MEMORY_REHASH = 19u;
// per stored pair: its contacts, counted
const uint SELF_JOB_NARROW_COUNT = 20u;
// per stored pair: its contacts, stored
const uint SELF_JOB_NARROW_WRITE = 21u;
// per original vertex: no colours taken, no priority (and the colours' counts cleared)
const uint SELF_JOB_COLOR_CLEAR = 22u;
// per contact, round pc.color: a Jones-Plassmann-Luby round (self_contacts.h's SELF_COLORS)
const uint SELF_JOB_COLOR_ROUND = 23u;
// per original vertex: where it is before the pass
const uint SELF_JOB_COLOR_KEEP = 24u;
// per contact of colour pc.color: its projection
const uint SELF_JOB_SOLVE_COLOR = 25u;
// per phantom group: copies moved as the original was
const uint SELF_JOB_COLOR_COPIES = 26u;
// one invocation over the SELF_COLOR_SLOTS colours (a fixed count): their starts (cursors)
const uint SELF_JOB_COLOR_OFFSETS = 27u;
// per contact: its place in its colour (any order within a colour: they share no vertex)
const uint SELF_JOB_COLOR_PLACE = 28u;
// one invocation over the colours: the offsets back, the colours' dispatches
const uint SELF_JOB_COLOR_END = 29u;
// A prefix sum by levels (shaders/lib/block_scan.glsl), one workgroup per block of
// SELF_SCAN_BLOCK items of the level it scans: per block of level k its sum (into level k + 1)
const uint SELF_JOB_SCAN_BLOCKS = 30u;
// one workgroup: the top level (at most SELF_SCAN_BLOCK items) to offsets, the total and its use
const uint SELF_JOB_SCAN_TOP = 31u;
// per block of level k: its items replaced by their offsets
const uint SELF_JOB_SCAN_APPLY = 32u;

// llvmpipe (lavapipe) ends every loop of a shader invocation once the invocation has run 65535
// loop iterations in all (gallivm's loop limiter), silently. So no invocation loops more than a
// few thousand times: the prefix sums run by workgroups over blocks of SELF_SCAN_BLOCK items,
// level by level (SELF_JOB_SCAN_*).
const uint SELF_SCAN_BLOCK = 256u;
const uint SELF_SCAN_SORT = 0u;   // the radix sort's histograms (block sums in walkCounts)
const uint SELF_SCAN_WALK = 1u;   // per sorted position its close pairs (block sums in scratch)
const uint SELF_SCAN_PAIRS = 2u;  // per stored pair its contacts (block sums in scratch)
const uint SELF_SCAN_LISTS = 3u;  // per original vertex its contacts' slots (block sums in scratch)
const uint SELF_SORT_BLOCK = 256u;  // the radix sort's items per workgroup

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_SELF_JOBS_H
