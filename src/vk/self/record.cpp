// GpuSelfCollision's recording: sim/self_phases.h's list walked, each phase its dispatches.
#include <algorithm>
#include <cstddef>

#include "core/error.h"
#include "sim/self_phases.h"
#include "vk/self/kernels.h"
#include "vk/self/self_collision_gpu.h"

namespace cloth::vk {

std::vector<ComputeKernel> makeSelfKernels(const Context& ctx, std::uint32_t workgroup) {
    const std::uint32_t push = sizeof(gpu::SelfPush);
    std::vector<ComputeKernel> k;
    k.emplace_back(ctx, "self_motion.comp", kSelfBindings, push, workgroup);
    k.emplace_back(ctx, "self_tree.comp", kSelfBindings, push, workgroup);
    // The climb in workgroups of one: llvmpipe runs the invocations of a workgroup as SIMD lanes
    // in step, and two lanes meeting at a node then both saw the other's arrival as not yet
    // there (measured: 8% of the nodes never bounded with workgroups of 64).
    k.emplace_back(ctx, "self_tree.comp", kSelfBindings, push, 1);
    k.emplace_back(ctx, "self_sort.comp", kSelfBindings, push, workgroup);
    k.emplace_back(ctx, "self_gather.comp", kSelfBindings, push, workgroup);
    k.emplace_back(ctx, "self_lists.comp", kSelfBindings, push, workgroup);
    k.emplace_back(ctx, "self_evaluate.comp", kSelfBindings, push, workgroup);
    k.emplace_back(ctx, "self_solve.comp", kSelfBindings, push, workgroup);
    k.emplace_back(ctx, "self_scan.comp", kSelfBindings, push, workgroup);
    k.emplace_back(ctx, "self_lists.comp", kSelfBindings, push,
                   std::min(gpu::SELF_LIST_LONG_WORKGROUP, ctx.limits().maxComputeWorkGroupSize[0]));
    return k;
}

namespace {

gpu::SelfPush pushOf(std::uint32_t job) {
    gpu::SelfPush p{};
    p.job = job;
    return p;
}

constexpr VkDeviceSize kCandidateGroups = offsetof(gpu::SelfState, candidateGroups);
constexpr VkDeviceSize kDetectCandidateGroups = offsetof(gpu::SelfState, detectCandidateGroups);
constexpr VkDeviceSize kOldCandidateGroups = offsetof(gpu::SelfState, oldCandidateGroups);
constexpr VkDeviceSize kLongListGroups = offsetof(gpu::SelfState, longListGroups);
constexpr VkDeviceSize kPlaceGroups = offsetof(gpu::SelfState, placeGroups);
constexpr VkDeviceSize kGates = offsetof(gpu::SelfState, gate);

}  // namespace

void GpuSelfCollision::dispatch(VkCommandBuffer cb, std::size_t kernel, const gpu::SelfPush& push,
                                std::uint32_t groupsX, std::uint32_t groupsY) {
    kernels_[kernel].dispatch(cb, &push, groupsX, groupsY);
    computeBarrier(cb);
    log_.push_back({push.job, groupsX, groupsY, false, 0});
    ++dispatches_;
    ++barriers_;
}

void GpuSelfCollision::dispatchIndirect(VkCommandBuffer cb, std::size_t kernel,
                                        const gpu::SelfPush& push, VkDeviceSize offset) {
    kernels_[kernel].dispatchIndirect(cb, &push, state_, offset);
    computeBarrier(cb);
    log_.push_back({push.job, 0, 0, true, offset});
    ++dispatches_;
    ++barriers_;
}

void GpuSelfCollision::dispatchGated(VkCommandBuffer cb, std::size_t kernel, gpu::SelfPush push,
                                     std::uint32_t gate) {
    push.gate = gate;
    dispatchIndirect(cb, kernel, push, kGates + 16ull * gate);
}

void GpuSelfCollision::scan(VkCommandBuffer cb, std::uint32_t array, std::uint64_t n,
                            std::uint32_t blocks, const std::uint32_t* gates) {
    const std::vector<std::uint32_t> levels = selfLevelBlocks(n);
    const auto top = static_cast<std::uint32_t>(levels.size());
    std::uint32_t g = 0;
    const auto one = [&](std::uint32_t job, std::uint32_t level, std::uint32_t groups) {
        gpu::SelfPush p = pushOf(job);
        p.array = array;
        p.level = level;
        p.blocks = blocks;
        if (gates)
            dispatchGated(cb, kSelfScan, p, gates[g++]);
        else
            dispatch(cb, kSelfScan, p, groups);
    };
    for (std::uint32_t k = 0; k < top; ++k) one(gpu::SELF_JOB_SCAN_BLOCKS, k, levels[k]);
    one(gpu::SELF_JOB_SCAN_TOP, top, 1);
    for (std::uint32_t k = top; k-- > 0;) one(gpu::SELF_JOB_SCAN_APPLY, k, levels[k]);
}

void GpuSelfCollision::recordStart(VkCommandBuffer cb) {
    const glm::uvec4 g = gpu::selfGroups2D(allVertices_, workgroup_);
    dispatch(cb, kSelfMotion, pushOf(gpu::SELF_JOB_START), g.x, g.y);
}

// The tree's order anew from the boxes at the substep's start: their union by levels, Morton
// codes, four stable passes of 8 bits (ping-pong: the sorted keys end in codes/order), the
// hierarchy. Its bounds come with the next detection's refit.
void GpuSelfCollision::recordRebuild(VkCommandBuffer cb) {
    gpu::SelfPush boxes = pushOf(gpu::SELF_JOB_BOXES);
    boxes.array = 1;
    dispatch(cb, kSelfTree, boxes, boxPartials_);
    const std::vector<std::uint32_t> levels = selfLevelBlocks(boxPartials_);
    const auto top = static_cast<std::uint32_t>(levels.size());
    for (std::uint32_t k = 0; k <= top; ++k) {
        gpu::SelfPush p = pushOf(gpu::SELF_JOB_BOX_REDUCE);
        p.level = k;
        p.array = k == top ? 1u : 0u;
        dispatch(cb, kSelfTree, p, k == top ? 1u : levels[k]);
    }
    dispatch(cb, kSelfTree, pushOf(gpu::SELF_JOB_CODES), groupsOf(triangles_));
    for (std::uint32_t pass = 0; pass < 4; ++pass) {
        gpu::SelfPush p = pushOf(gpu::SELF_JOB_SORT_COUNT);
        p.shift = 8 * pass;
        p.flip = pass % 2;
        p.blocks = sortBlocks_;
        dispatch(cb, kSelfSort, p, groupsOf(sortBlocks_));
        scan(cb, gpu::SELF_SCAN_SORT, std::uint64_t(gpu::SELF_SORT_BUCKETS) * sortBlocks_,
             sortBlocks_, nullptr);
        p.job = gpu::SELF_JOB_SORT_SCATTER;
        dispatch(cb, kSelfSort, p, groupsOf(sortBlocks_));
    }
    dispatch(cb, kSelfTree, pushOf(gpu::SELF_JOB_NODES), groupsOf(2ull * triangles_ - 1));
}

void GpuSelfCollision::recordCollide(VkCommandBuffer cb, bool frameStart,
                                     const std::function<void(int)>& stageDone) {
    const auto over = [&](std::uint32_t job, std::uint64_t items) {
        const glm::uvec4 g = gpu::selfGroups2D(static_cast<std::uint32_t>(items), workgroup_);
        dispatch(cb, job == gpu::SELF_JOB_COMPACT ? kSelfEvaluate : kSelfMotion, pushOf(job),
                 g.x, g.y);
    };
    forEachSelfPhase(
        SelfWhen::Substep,
        [&](const SelfPhaseEntry& e) {
            switch (e.phase) {
                case SelfPhase::Rebuild:
                    if (frameStart && rebuildNow_) recordRebuild(cb);
                    break;
                case SelfPhase::Motion: {
                    dispatch(cb, kSelfMotion, pushOf(gpu::SELF_JOB_MOTION_FOLD), partials_);
                    const std::vector<std::uint32_t> levels = selfLevelBlocks(partials_);
                    const auto top = static_cast<std::uint32_t>(levels.size());
                    for (std::uint32_t k = 0; k <= top; ++k) {
                        gpu::SelfPush p = pushOf(gpu::SELF_JOB_MOTION_REDUCE);
                        p.level = k;
                        p.array = k == top ? 1u : 0u;
                        dispatch(cb, kSelfMotion, p, k == top ? 1u : levels[k]);
                    }
                    over(gpu::SELF_JOB_MOTION_CHECK, vertices_);
                    break;
                }
                case SelfPhase::Refit:
                    dispatchGated(cb, kSelfTree, pushOf(gpu::SELF_JOB_BOXES), gates_.boxes);
                    dispatchGated(cb, kSelfFit, pushOf(gpu::SELF_JOB_FIT), gates_.fit);
                    break;
                case SelfPhase::Gather:
                    dispatchGated(cb, kSelfGather, pushOf(gpu::SELF_JOB_GATHER), gates_.gather);
                    dispatchIndirect(cb, kSelfGather, pushOf(gpu::SELF_JOB_MEMORY_INSERT),
                                     kOldCandidateGroups);
                    scan(cb, gpu::SELF_SCAN_GATHER, triangles_, 0, gates_.scanGather);
                    dispatchIndirect(cb, kSelfGather, pushOf(gpu::SELF_JOB_GATHER_PLACE),
                                     kPlaceGroups);
                    break;
                case SelfPhase::Lists:
                    dispatchIndirect(cb, kSelfLists, pushOf(gpu::SELF_JOB_LIST_COUNT),
                                     kDetectCandidateGroups);
                    scan(cb, gpu::SELF_SCAN_LISTS, vertices_, 0, gates_.scanLists);
                    dispatchIndirect(cb, kSelfLists, pushOf(gpu::SELF_JOB_LIST_FILL),
                                     kDetectCandidateGroups);
                    dispatchGated(cb, kSelfLists, pushOf(gpu::SELF_JOB_LIST_SORT),
                                  gates_.listSort);
                    dispatchIndirect(cb, kSelfListsLong, pushOf(gpu::SELF_JOB_LIST_SORT_LONG),
                                     kLongListGroups);
                    break;
                case SelfPhase::Evaluate:
                    dispatchIndirect(cb, kSelfEvaluate, pushOf(gpu::SELF_JOB_EVALUATE),
                                     kCandidateGroups);
                    if (restPairCount_ > 0) {
                        const glm::uvec4 g = gpu::selfGroups2D(restPairCount_, workgroup_);
                        dispatch(cb, kSelfEvaluate, pushOf(gpu::SELF_JOB_EVALUATE_REST), g.x,
                                 g.y);
                    }
                    break;
                case SelfPhase::Compact:
                    over(gpu::SELF_JOB_COMPACT, vertices_);
                    break;
                default:
                    CLOTH_ASSERT(false);
            }
            if (stageDone) stageDone(e.stage);
        },
        [] { return true; });  // the detection's dispatches every substep, sized by MOTION_CHECK
}

void GpuSelfCollision::recordSolve(VkCommandBuffer cb) {
    const glm::uvec4 g = gpu::selfGroups2D(vertices_, workgroup_);
    dispatch(cb, kSelfSolve, pushOf(gpu::SELF_JOB_KEEP), g.x, g.y);
    for (int pass = 0; pass < passes_; ++pass) {
        if (!vertexOrder_) {
            gpu::SelfPush p = pushOf(gpu::SELF_JOB_JACOBI);
            p.shift = static_cast<std::uint32_t>(pass);
            dispatch(cb, kSelfSolve, p, g.x, g.y);
            continue;
        }
        for (std::uint32_t c = 0; c + 1 < colourOffsets_.size(); ++c) {
            gpu::SelfPush p = pushOf(gpu::SELF_JOB_PASS);
            p.level = c;
            p.shift = static_cast<std::uint32_t>(pass);
            p.count = colourOffsets_[c + 1] - colourOffsets_[c];
            p.blocks = colourOffsets_[c];
            const glm::uvec4 cg = gpu::selfGroups2D(p.count, workgroup_);
            dispatch(cb, kSelfSolve, p, cg.x, cg.y);
        }
    }
}

void GpuSelfCollision::recordClamp(VkCommandBuffer cb) {
    const glm::uvec4 g = gpu::selfGroups2D(allVertices_, workgroup_);
    dispatch(cb, kSelfSolve, pushOf(gpu::SELF_JOB_CLAMP), g.x, g.y);
}

}  // namespace cloth::vk
