// Self-collision on the GPU (docs/collisions.md): the phases of sim/self_phases.h as the CPU
// reference runs them (src/cpu/self/), with the same results bit for bit, recorded into the
// solver's command buffer with no host round trip inside a frame:
//  - Motion every substep (shaders/self_motion.comp): the ranges of the vertices'
//    displacements by levels, each vertex against its bounds, and one invocation that decides
//    whether this substep detects and writes the sizes of the detection's dispatches (zero when
//    it does not): every dispatch of a detection is recorded every substep and indirect;
//  - a detection (shaders/self_tree.comp, self_gather.comp, self_lists.comp, self_scan.comp):
//    the tree refitted, one walk's candidates counted and pooled, scanned and placed, per vertex
//    the lists
//    of its candidates' slots and its bound; the tree's rebuild (codes, radix sort, hierarchy)
//    at a frame's start when the host found it worn after the last frame;
//  - every substep each candidate tested and per vertex its contacts' slots
//    (shaders/self_evaluate.comp); each iteration the passes and the clamp
//    (shaders/self_solve.comp).
// The candidates go into buffers of fixed capacity: more are counted but not stored; after the
// frame the solver asks overflowed(), grows the buffers (grow()), restores the frame's start
// (recordRestore) and redoes the frame, so nothing is dropped.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "kernels/lbvh_tree.h"
#include "kernels/self_contacts.h"
#include "kernels/self_jobs.h"
#include "prep/prepared.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"
#include "vk/context.h"

namespace cloth::vk {

class GpuSelfCollision {
  public:
    // positions, predicted, triangles: the solver's buffers (every vertex; 3 uint per
    // triangle). p.sim.selfCollision must be set; p's triangles non-empty. capacity: candidates
    // stored at first (0: 16 per triangle). workgroup: the kernels' workgroup size (0: 64, and
    // 32 on CPU devices; tests take 1, so that workgroups count invocations).
    GpuSelfCollision(const Context& ctx, const PreparedCloth& p, const Buffer& positions,
                     const Buffer& predicted, const Buffer& triangles,
                     std::uint32_t capacity = 0, std::uint32_t workgroup = 0);

    const Buffer& start() const { return start_; }

    // Before a frame is submitted (nothing in flight): the state's frame counters restart, and
    // what a redo needs is kept (the state here, the candidates' arrays by recordFrameStart).
    void beginFrame();
    // What its recorded commands depend on beyond its sizes (after beginFrame): its buffers (a
    // growth binds new ones and copies more) and the rebuild. A frame with the key of the
    // recorded one submits the same commands.
    struct RecordingKey {
        std::uint64_t growths = 0;
        bool rebuild = false;
        bool operator==(const RecordingKey&) const = default;
    };
    RecordingKey recordingKey() const { return {growths_, rebuildNow_}; }
    // Before its commands are recorded: the counts and the log below start again.
    void beginRecording();
    // At the frame's start: the candidates' arrays copied for a redo (transfers; barriers
    // included).
    void recordFrameStart(VkCommandBuffer cb);
    // Step::Collisions: the positions at the substep's start (every vertex).
    void recordStart(VkCommandBuffer cb);
    // Step::SelfCollisions: SelfWhen::Substep's phases (the rebuild at the frame's first substep
    // when due); `stageDone(stage)` after each phase, e.g. for timestamps.
    void recordCollide(VkCommandBuffer cb, bool frameStart,
                       const std::function<void(int)>& stageDone = {});
    // Step::SelfContacts: the passes of one iteration.
    void recordSolve(VkCommandBuffer cb);
    // Step::SelfBounds: the clamp.
    void recordClamp(VkCommandBuffer cb);

    // After the frame: did a detection find more candidates than fit? Then grow() (the buffers
    // to the next power of two holding them, counted in growths()), recordRestore (run before
    // the frame is recorded again) and redo the frame.
    bool overflowed() const;
    void grow();
    void recordRestore(VkCommandBuffer cb);
    // Nonzero when a loop of the last frame stopped before its end (a driver's limit on loop
    // iterations per invocation): its results are incomplete.
    std::uint32_t truncated() const;
    // After a frame that did not overflow: the tree's rebuild rule (as the CPU's endFrame()).
    void endFrame();
    // Nothing in flight: starts over as a new GpuSelfCollision over the solver's buffers would
    // (no candidates, an empty memory, the tree due for a rebuild, the counters at 0); the
    // buffers keep their capacity. GpuSolver::restart.
    void restart();

    std::uint32_t capacity() const { return capacity_; }
    std::uint64_t growths() const { return growths_; }
    // Dispatches and barriers of the frame's recording.
    std::uint32_t dispatches() const { return dispatches_; }
    std::uint32_t barriers() const { return barriers_; }
    bool rebuildDue() const { return rebuildDue_; }
    std::uint64_t rebuilds() const { return rebuilds_; }

    // The state after the last frame (counts: SelfState's fields).
    gpu::SelfState state() const;

    // Every dispatch of the frame's recording: its job and workgroups, or (indirect) the
    // offset of its arguments in the state (SelfState::gate, candidateGroups, ...).
    struct Dispatch {
        std::uint32_t job = 0, groupsX = 0, groupsY = 0;
        bool indirect = false;
        VkDeviceSize offset = 0;
    };
    const std::vector<Dispatch>& dispatchLog() const { return log_; }

    // Tests: the tree (as prep/lbvh.h's Lbvh), the candidates, the last substep's contacts in
    // the candidates' order, per original vertex where the detection saw it and its bound.
    struct Tree {
        std::vector<std::uint32_t> codes, order, parent, rangeEnd;
        std::vector<gpu::LbvhNode> nodes;
    };
    Tree readTree(OneShot& once) const;
    std::vector<gpu::SelfCandidate> readCandidates(OneShot& once) const;
    std::vector<gpu::SelfContact> readContacts(OneShot& once) const;
    std::vector<glm::vec4> readDetected(OneShot& once) const;
    // Per original vertex its candidates' slots (4 c + k), from offsets (vertices + 1).
    void readLists(OneShot& once, std::vector<std::uint32_t>& offsets,
                   std::vector<std::uint32_t>& slots) const;

  private:
    void allocateCandidates(std::uint32_t capacity);
    void startAnew(OneShot& once);
    void writeStaticState();
    void bindAll();
    std::uint32_t groupsOf(std::uint64_t n) const;
    // One dispatch of kernel `kernel` (an index into kernels_), direct or from indirect args at
    // `offset` in the state buffer; a barrier after it.
    void dispatch(VkCommandBuffer cb, std::size_t kernel, const gpu::SelfPush& push,
                  std::uint32_t groupsX, std::uint32_t groupsY = 1);
    void dispatchIndirect(VkCommandBuffer cb, std::size_t kernel, const gpu::SelfPush& push,
                          VkDeviceSize offset);
    void dispatchGated(VkCommandBuffer cb, std::size_t kernel, gpu::SelfPush push,
                       std::uint32_t gate);
    // A prefix sum of `array` (SELF_SCAN_*) over n items by levels; gated when `gates` is given
    // (one gate per dispatch, from *gates on).
    void scan(VkCommandBuffer cb, std::uint32_t array, std::uint64_t n, std::uint32_t blocks,
              const std::uint32_t* gates);
    void recordRebuild(VkCommandBuffer cb);
    void recordDetection(VkCommandBuffer cb, const std::function<void(int)>& stageDone);
    void addGate(glm::uvec4 size);
    void planGates();
    void snapshotCopies(VkCommandBuffer cb, bool restore);

    const Context* ctx_;
    SelfCollisionSettings settings_;
    float leastThickness_ = 0.0f;
    std::uint32_t triangles_ = 0, vertices_ = 0, allVertices_ = 0, phantomGroups_ = 0;
    std::uint32_t phantomMembers_ = 0;
    std::uint32_t workgroup_ = 64;
    std::uint32_t boxPartials_ = 0, partials_ = 0, sortBlocks_ = 0;
    std::uint32_t capacity_ = 0, memoryBits_ = 0;
    int passes_ = 0;
    bool vertexOrder_ = true;
    std::vector<std::uint32_t> colourOffsets_;
    std::uint64_t growths_ = 0;
    // Frame bookkeeping.
    gpu::SelfState frameState_{};  // the state at the frame's start (a redo's)
    std::uint32_t frameCandidates_ = 0;
    std::uint32_t dispatches_ = 0, barriers_ = 0;
    bool rebuildDue_ = true;
    bool rebuildNow_ = false;  // this frame's (beginFrame: a redo rebuilds as the frame did)
    std::uint64_t rebuilds_ = 0;
    std::uint64_t refNodes_ = 0, refPairs_ = 0;
    // Gated dispatches: their gate indices.
    std::vector<glm::uvec4> gateSizes_;
    struct Gates {
        std::uint32_t boxes, fit, gather, listSort;
        std::uint32_t scanGather[16], scanLists[16];
    } gates_{};
    const Buffer *positions_, *predicted_, *triangles_buffer_;
    Buffer start_, triInfo_, triThickness_;
    Buffer restVtOffsets_, restVt_, restEeOffsets_, restEe_, inertOffsets_, inert_;
    Buffer restPairs_, restPairLists_;
    Buffer work_, codes_, order_, scratch_, nodes_, nodeInts_;
    Buffer memoryKeys_, memoryNormals_, state_;
    Buffer candidates_, candData_, slotContacts_, vertexData_, ints_, slots_;
    Buffer planes_, restPlanes_;  // per candidate, and per rest pair: its separating plane
    Buffer pool_;                 // the walk's chunks (SELF_POOL_CHUNK)
    std::uint32_t poolCapacity_ = 0;
    std::uint32_t restPairCount_ = 0;
    // A redo's: the candidates, their data and lists, the lists' offsets and the detected
    // positions at the frame's start.
    Buffer snapCandidates_, snapCandData_, snapSlots_, snapInts_, snapVertexData_;
    std::vector<ComputeKernel> kernels_;
    std::vector<Dispatch> log_;
};

}  // namespace cloth::vk
