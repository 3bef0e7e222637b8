// Self-collision on the GPU (issue 13): the same steps as the CPU reference
// (src/cpu/self_collision.h) in one kernel with a job per step (shaders/self_collide.comp),
// recorded into the solver's command buffer, with the same results bit for bit:
//  - per substep: the positions at its start; the linear BVH over the cloth's triangles from
//    them and the predicted positions (node for node the CPU's); per sorted triangle a walk that
//    counts its close pairs, their offsets, the walk again storing them (in the CPU's order);
//    per pair the narrow phase counting its contacts, their offsets, again storing them (so the
//    contacts come out in the CPU's order); the memory of their sides for the next substep;
//    Jacobi order: per vertex the list of its contacts' slots (counted, placed, sorted);
//    colored order: the contacts' colours (one invocation, greedy in contact order as the CPU
//    colours them), the contacts sorted by colour;
//  - per iteration, `passes` times: Jacobi: each contact's corrections, each vertex moved by
//    their weighted mean, phantom copies with their original; colored: a dispatch per colour
//    over its contacts (indirect: the colouring writes their sizes; the last colour's
//    contacts, those that found no colour free, one after another), then the phantom copies. (The sequential order is the CPU's alone: the solver refuses it.)
// The pairs and the contacts go into buffers of fixed capacity: more are counted but not
// stored; after the frame the solver asks overflowed(), grows the buffers (grow()) and redoes
// the frame from its snapshot, so nothing is dropped.
#pragma once

#include <algorithm>

#include <cstdint>
#include <functional>
#include <vector>

#include "kernels/lbvh_tree.h"
#include "prep/prepared.h"
#include "kernels/self_contacts.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"
#include "vk/context.h"

namespace cloth::vk {

class GpuSelfCollision {
  public:
    // positions, predicted, triangles: the solver's buffers (every vertex; 3 uint per
    // triangle). p.sim.selfCollision must be set; p's triangles non-empty. capacity: contacts
    // stored at first (0: four per triangle).
    GpuSelfCollision(const Context& ctx, const PreparedCloth& p, const Buffer& positions,
                     const Buffer& predicted, const Buffer& triangles, std::uint32_t capacity = 0,
                     std::uint32_t pairCapacity = 0);

    // The positions at the substep's start (every vertex).
    const Buffer& start() const { return start_; }

    // Before a frame is recorded (nothing in flight): the frame's overflow count restarts.
    void beginFrame();
    // At the frame's start: the memory table kept, for a redo (transfer; barriers included).
    void recordSnapshot(VkCommandBuffer cb) const;
    // Start of each substep: start() from the positions.
    void recordStart(VkCommandBuffer cb) const;
    // The hierarchy only (tests).
    void recordBuild(VkCommandBuffer cb) const;
    // After the prediction: the hierarchy, the contacts, the memory, the lists; `phaseDone(k)`
    // after each phase k as the CPU's stages number them (0 boxes and codes, 1 sort,
    // 2 hierarchy, 3 bounds, 4 walk and narrow phase, 5 memory and lists), e.g. for timestamps.
    void recordDetect(VkCommandBuffer cb, const std::function<void(int)>& phaseDone = {}) const;
    // One pass over the contacts in the scene's order (the solver records
    // SelfCollisionSettings::passes).
    void recordSolve(VkCommandBuffer cb) const;

    // After the frame: did a substep find more contacts than fit, use more colours than the
    // passes record, or leave contacts uncoloured after the colouring rounds recorded? Then
    // grow() (buffers to the next power of two holding them, counted in growths(); the colours
    // recorded likewise, up to SELF_COLOR_SLOTS; the rounds by half again, up to
    // SELF_COLOR_ROUNDS, past which grow() throws Error), restore the snapshot (recordRestore,
    // run before finishGrowth) and the solver's state, and redo the frame.
    bool overflowed() const;
    // Nonzero when a loop of the last frame stopped before its end (a driver's limit on loop
    // iterations per invocation, self_collide.comp): its results are incomplete.
    std::uint32_t truncated() const;
    void grow();
    void recordRestore(VkCommandBuffer cb) const;
    // After the restore has run: the snapshot's buffer at the new table's size.
    void finishGrowth();
    std::uint32_t capacity() const { return capacity_; }
    std::uint64_t growths() const { return growths_; }
    std::uint32_t colorsRecorded() const { return colorsRecorded_; }
    std::uint32_t roundsRecorded() const { return roundsRecorded_; }
    // Tests: the colouring rounds recorded from now on (then grown as frames need them).
    void recordRounds(std::uint32_t rounds) { roundsRecorded_ = std::clamp(rounds, 1u, gpu::SELF_COLOR_ROUNDS); }

    // The last substep's counts (after the frame).
    std::uint32_t contactCount() const;
    std::uint32_t candidatePairs() const;
    std::uint32_t primitivePairs() const;

    // Tests: the tree after a build (as prep/lbvh.h's Lbvh), the contacts of the last substep.
    struct Tree {
        std::vector<std::uint32_t> codes, order, parent, rangeEnd;
        std::vector<gpu::LbvhNode> nodes;
    };
    Tree readTree(OneShot& once) const;
    std::vector<gpu::SelfContact> readContacts(OneShot& once) const;
    // Colored order: as SelfCollision::colors(), colorOrder(), colorOffsets() (tests).
    struct Colors {
        std::vector<std::uint32_t> colorOf, order, offsets;
    };
    Colors readColors(OneShot& once) const;

  private:
    void allocateContacts(std::uint32_t capacity);
    void allocatePairs(std::uint32_t capacity);
    void recordBuildPhases(VkCommandBuffer cb, const std::function<void(int)>& phaseDone) const;
    void bindAll();
    void dispatch(VkCommandBuffer cb, std::uint32_t job, std::uint32_t groups,
                  std::uint32_t shift = 0, std::uint32_t flip = 0, std::uint32_t color = 0,
                  std::uint32_t scanArray = 0) const;
    // Exclusive prefix sums of self_collide.comp's array `array` (at most `most` items) by
    // blocks: three dispatches.
    void scan(VkCommandBuffer cb, std::uint32_t array, std::uint64_t most, std::uint32_t shift = 0,
              std::uint32_t flip = 0) const;
    VkDeviceSize scratchBytes(std::uint32_t pairCapacity) const;
    void dispatchOverContacts(VkCommandBuffer cb, std::uint32_t job, bool overPairs = false,
                              std::uint32_t color = 0, std::uint32_t scanArray = 0) const;
    struct Counters {  // self/lbvh_buffers.glsl
        std::uint32_t total, capacity, mostTotal, candidatePairs, primitivePairs, memoryBits;
        std::uint32_t totalPairs, pairCapacity;
        std::uint32_t groups[4], pairGroups[4];
        std::uint32_t mostPairs, mostColors, truncated, uncolored;
        std::uint32_t colorGroups[4 * gpu::SELF_COLOR_SLOTS];
        std::uint32_t roundGroups[4 * (gpu::SELF_COLOR_ROUNDS + 1)];
    };
    Counters counters() const;

    const Context* ctx_;
    std::uint32_t triangles_ = 0, vertices_ = 0, allVertices_ = 0, phantomGroups_ = 0;
    std::uint32_t groups_ = 0;      // workgroups over the triangles (partial boxes)
    std::uint32_t sortBlocks_ = 0;  // radix sort blocks
    float margin_ = 0.0f, muS_ = 0.0f, muK_ = 0.0f;
    bool colored_ = false;  // SelfCollisionSettings::Order::Colored, else Jacobi
    // Colored: the colours whose dispatches a pass records and the colouring's rounds, as many
    // as a frame has needed (a frame that needs more redoes itself with more, as after an
    // overflow); empty dispatches cost even with nothing to do.
    std::uint32_t colorsRecorded_ = 8;
    std::uint32_t roundsRecorded_ = 64;
    std::uint32_t capacity_ = 0, pairCapacity_ = 0, memoryBits_ = 0, oldBits_ = 0;
    std::uint64_t growths_ = 0;
    const Buffer *positions_, *predicted_, *triangles_buffer_;
    // Arrays sharing a buffer (self/lbvh_buffers.glsl): work_ the boxes, partial boxes and the
    // scene's; scratch_ the sort's second keys and histograms; nodeInts_ the parents, range ends
    // and arrivals; lists_ the per-vertex counts and offsets; phantoms_ the groups and members;
    // old_ the snapshot's keys and normals.
    Buffer start_, triInfo_, triThickness_, tight_, work_;
    Buffer codes_, order_, scratch_;
    Buffer nodes_, nodeInts_;
    Buffer restVtOffsets_, restVt_, restEeOffsets_, restEe_, inertOffsets_, inert_;
    Buffer memoryKeys_, memoryNormals_, old_;
    Buffer walkCounts_, contacts_, counters_;
    Buffer lists_, slots_, corrections_, moved_;
    Buffer phantoms_;
    Buffer pairs_, pairCounts_;  // the close triangle pairs (not inert), per pair its count
    std::uint32_t groupsOf(std::uint64_t n) const;  // workgroups for n items

    std::uint32_t workgroup_;  // selfWorkgroupSize (self_collision_gpu.cpp)
    ComputeKernel kernel_;
    ComputeKernel fitKernel_;  // workgroups of one invocation (FIT)
    ComputeKernel sortKernel_;  // the radix sort's passes (shaders/self_sort.comp)
};

}  // namespace cloth::vk
